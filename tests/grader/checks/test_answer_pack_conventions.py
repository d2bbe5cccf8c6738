"""STAT8021 Q3's recognised conventions, named in the message with the pack's credit.

One the pack gives no credit for (log base 2, another index, fp32 scores: the report
corpus's verdicts, written first, give them nothing) is a `wrong` answer whose message
names what the student did, instead of "does not match the expected ...".

Each student answer below is computed from `calculators` with the convention's
arguments (log base 2, another index of the vocabulary, 4-byte scores) and written as
a student would round it; the pack's credit is read from the pack, not retyped.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from calculators import attention_scores_memory, cross_entropy
from grader.checks.answer import answer_key
from grader.pack import PackError, load_pack
from tests.conftest import ROOT

PACK_DIR = ROOT / "reference" / "stat8021-a3"
PACK = load_pack(PACK_DIR)
LOGITS = [0.5, 0.1, 3.0, 0.2, 1.0]
WORDS = ["cat", "dog", "mat", "ran", "sat"]


def key(qid: str, label: str | None = None):
    question = PACK.question(qid)
    check = next(c for c in question.checks if c.kind == "answer"
                 and (label is None or c.settings.label == label))
    return check, answer_key(check, qid, PACK.reference)


def credit_of(check, name: str) -> float:
    return next(c.credit for c in check.settings.conventions if c.name == name)


def test_cross_entropy_in_log_base_2_is_named():
    check, k = key("q3a2", "Loss")
    bits = f"{float(cross_entropy(LOGITS, 2, base=2).exact):.3f}"
    assert bits == "0.415"
    got = k.check(bits)
    assert credit_of(check, "log2") == 0
    assert (got.verdict, got.credit, got.convention) == ("wrong", 0, None)
    assert "log base 2" in got.message and "natural log" in got.message
    ten = k.check(f"{float(cross_entropy(LOGITS, 2, base=10).exact):.4f}")
    assert ten.convention == "log10" and float(ten.credit) == credit_of(check, "log10")


@pytest.mark.parametrize("index", [0, 1, 3, 4])
def test_the_probability_and_loss_of_another_index_are_named(index):
    result = cross_entropy(LOGITS, index)
    check, k = key("q3a2", "p(mat)")
    got = k.check(f"{float(result.probability):.4f}")
    assert credit_of(check, "wrong_index") == 0
    assert (got.verdict, got.credit) == ("wrong", 0), got.message
    assert f'index {index} ("{WORDS[index]}")' in got.message and "index 2" in got.message
    check, k = key("q3a2", "Loss")
    got = k.check(f"{float(result.exact):.4f}")
    assert got.verdict == "wrong" and f"index {index}" in got.message


def test_messages_of_conventions_at_no_credit_name_only_what_the_student_did():
    """Their messages hold no expected value, and the course server (grader/service/work.py)
    says "not right" of them, never "it earns part of the credit"."""
    for qid in ("q3a2", "q3c"):
        for check in PACK.question(qid).checks:
            for conv in getattr(check.settings, "conventions", []):
                if conv.name in ("log2", "wrong_index", "fp32"):
                    assert "{expected}" not in conv.message and conv.credit == 0
    from grader.service.work import check_keyed

    _, k = key("q3c")
    reply = check_keyed("51.54 GB", k.expected, k.tolerance, k.alternatives, k.symbols)
    assert (reply["verdict"], reply["credit"]) == ("wrong", "0")
    assert "part of the credit" not in reply["message"]


def test_four_byte_attention_scores_are_named():
    check, k = key("q3c")
    fp32 = attention_scores_memory(seq_len=16384, n_heads=48, bytes_per_element=4)
    written = f"{fp32.bytes / 1e9:.2f} GB"
    assert written == "51.54 GB"
    got = k.check(written)
    assert credit_of(check, "fp32") == 0
    assert (got.verdict, got.credit, got.convention) == ("wrong", 0, None)
    assert "4 bytes (fp32)" in got.message and "2 bytes each" in got.message


def test_a_factor_instead_of_a_percentage_is_named():
    check, k = key("q3e3")
    got = k.check("about 1536 times smaller")
    assert (got.verdict, got.convention) == ("convention", "factor")
    assert float(got.credit) == credit_of(check, "factor") and "factor" in got.message


def test_q3e3_asks_for_a_rough_figure():
    _, k = key("q3e3")
    assert k.tolerance.rough
    assert k.check("≈ 0.07 %").verdict == "correct"
    assert k.check("0.066 %").verdict == "close"  # right to one figure, two written


@pytest.mark.parametrize(("old", "new", "field", "meant"), [
    ("  rough = true", "  rouhg = true", "rouhg", "rough"),
    ('    name = "log2"\n    credit = 0\n', '    name = "log2"\n    credit = 0\n    crdit = 0\n',
     "crdit", "credit"),
])
def test_a_misspelled_convention_setting_is_refused(tmp_path: Path, old, new, field, meant):
    dest = tmp_path / "pack"
    shutil.copytree(PACK_DIR, dest)
    rubric = dest / "pack.toml"
    text = rubric.read_text(encoding="utf-8")
    assert old in text
    rubric.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(PackError) as err:
        load_pack(dest)
    assert err.value.field.endswith(field) and f"did you mean {meant!r}" in str(err.value)
