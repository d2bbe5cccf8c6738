"""A pack's synonyms: a part or heading the pack names by a phrase, found under the name a
student gives it ("Pre-training (LM) model:" for "Language modeling task")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from grader.pack import PackError, load_pack
from grader.written import QuestionSpec, extract_answers

ROOT = Path(__file__).resolve().parents[3]
SYNONYMS = {"Language modeling task": ("Pre-training (LM) model", "LM model"),
            "Classification task": ("Fine-tuned classifier",)}
REPORT = """# Question 3
I count no biases, only weight matrices.
**Pre-training (LM) model:** 10,000,200 + 960,000 + 10,000,200 = **20,960,400** parameters.
**Fine-tuned classifier:** 10,000,200 + 960,000 + 400 = **10,960,600** parameters.
# Question 4
The pre-trained model stays ahead.
"""


def specs(synonyms):
    return [QuestionSpec("lm", ("Question 3",), part="Language modeling task", synonyms=synonyms),
            QuestionSpec("cls", ("Question 3",), part="Classification task", synonyms=synonyms)]


def test_a_part_is_found_under_the_name_the_pack_gives_as_its_synonym():
    got = extract_answers(REPORT, specs(SYNONYMS))
    assert got["lm"].answer == "20,960,400" and got["lm"].line == 3
    assert got["cls"].answer == "10,960,600" and got["cls"].line == 4


OWN_WORDS = REPORT.replace("Pre-training (LM) model", "Pre-trained network").replace(
    "Fine-tuned classifier", "Fine-tuned network")
"""The parts in words that share neither a stem nor the initials with the pack's names."""


def test_without_the_synonyms_parts_in_unrelated_words_are_not_found():
    got = extract_answers(OWN_WORDS, specs({}))
    assert not got["lm"].found and "no part 'Language modeling task'" in got["lm"].reason
    named = {"Language modeling task": ("Pre-trained network",),
             "Classification task": ("Fine-tuned network",)}
    got = extract_answers(OWN_WORDS, specs(named))
    assert got["lm"].answer == "20,960,400" and got["cls"].answer == "10,960,600"


def test_without_the_synonyms_parts_named_by_initials_or_stem_are_found():
    """'(LM)' has the initials of 'Language modeling', 'classifier' the stem of
    'Classification' (``phrases._named_like``): read, as a TA would, without a synonym."""
    got = extract_answers(REPORT, specs({}))
    assert got["lm"].answer == "20,960,400" and got["cls"].answer == "10,960,600"


def test_a_phrase_heading_is_found_under_its_synonym():
    text = "## Pre-training (LM) model\nIt has **21,018,401** parameters.\n## Other\n5\n"
    spec = QuestionSpec("lm", ("Language modeling task",), synonyms=SYNONYMS)
    assert extract_answers(text, [spec])["lm"].answer == "21,018,401"


def _pack_with(tmp_path: Path, table: str) -> Path:
    """Lab A's pack with ``table`` as its synonyms (the pack's own [synonyms] taken out:
    the pack names them since the held-out-4 fix, and TOML allows one table a name)."""
    root = tmp_path / "pack"
    shutil.copytree(ROOT / "reference" / "transfer-lab-a", root)
    kept: list[str] = []
    inside = False
    for line in (root / "pack.toml").read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            inside = line.strip() == "[synonyms]"
        if not inside:
            kept.append(line)
    (root / "pack.toml").write_text("\n".join(kept) + "\n" + table, encoding="utf-8")
    return root


def test_the_pack_reads_its_synonyms_typed(tmp_path):
    root = _pack_with(tmp_path, '\n[synonyms]\n"Language modeling task" = '
                                '["Pre-training (LM) model", "LM model"]\n')
    assert load_pack(root).synonyms == {
        "Language modeling task": ("Pre-training (LM) model", "LM model")}


def test_a_synonym_that_is_no_list_of_names_is_refused(tmp_path):
    root = _pack_with(tmp_path, '\n[synonyms]\n"Language modeling task" = "LM model"\n')
    with pytest.raises(PackError, match="synonyms"):
        load_pack(root)


def test_the_answer_kind_reads_a_part_under_the_name_the_pack_gives_it(tmp_path):
    """Through the `answer` kind as grading calls it: lab A's Q3 parts, named "Pre-training
    (LM) model:" and "Fine-tuned classifier:" by the student, are found under the names the
    pack gives them: a table that gives them the wrong way round reads them so."""
    from grader.checks.kind import Context
    from grader.checks.registry import kind
    from grader.written import Reports

    report = ROOT / "tests" / "fixtures" / "report-corpus" / "reports" / "h4-labA-docx-pydocx.docx"
    table = ('\n[synonyms]\n"Language modeling task" = ["Pre-training (LM) model"]\n'
             '"Classification task" = ["Fine-tuned classifier"]\n')

    def read(pack_root: Path) -> list[object]:
        p = load_pack(pack_root)
        ctx = Context(pack=p, mode="grade", seed=0, notebook=None,
                      reports=Reports.read([report]))
        question = p.question("q3")
        return [(kind("answer").score(c, question, ctx).evidence or {}).get("answer")
                for c in question.checks if c.kind == "answer"]

    swapped = ('\n[synonyms]\n"Language modeling task" = ["Fine-tuned classifier"]\n'
               '"Classification task" = ["Pre-training (LM) model"]\n')
    assert read(_pack_with(tmp_path / "swapped", swapped)) == ["10,960,600", "20,960,400"]
    assert read(_pack_with(tmp_path, table)) == ["20,960,400", "10,960,600"]
    assert read(ROOT / "reference" / "transfer-lab-a") == ["20,960,400", "10,960,600"]
