"""Conventions a report states, and the answer check holding an answer to them (real packs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from calculators.answers.stated import conventions_in, describe
from grader.checks.answer import Context, check_written, report_specs
from grader.pack import load_pack
from grader.written import Reports
from tests.calculators.answers._shared import repo_root


@pytest.mark.parametrize(("text", "stated"), [
    ("We omit the biases and the normalization layers.", ("no_bias", "no_layernorm")),
    ("Ignoring LayerNorm, each layer has", ("no_layernorm",)),
    ("The biases are not counted here.", ("no_bias",)),
    ("Scores are kept in fp32 (4 bytes each).", ("fp32",)),
    ("For one head the score matrix takes", ("one_head",)),
    ("We count a single layer only.", ("per_layer",)),
    ("without the positional embeddings", ("no_position_embeddings",)),
    ("We count every weight and bias, with biases.", ()),
    ("Each layer has 8H^2 parameters; for one layer, times 48 layers", ()),
])
def test_stated_conventions(text, stated):
    assert conventions_in(text) == stated


def test_describe_joins_in_words():
    assert describe(("no_bias", "no_layernorm")) == "without biases and without LayerNorm"


@pytest.fixture(scope="module")
def packs():
    root = repo_root() / "reference"
    return {name: load_pack(root / name / "pack.toml") for name in ("stat8021-a3", "transfer-lab-a")}


def grade(packs, tmp_path: Path, pack: str, qid: str, text: str, index: int = 0):
    p = packs[pack]
    question = next(q for q in p.questions if q.id == qid)
    report = tmp_path / "report.md"
    report.write_text(text, encoding="utf-8")
    ctx = Context(None, Reports.read([report]), "grade", p.reference, report_specs(p))
    return check_written(question.checks[index], qid, ctx, (), f"{qid}#{index}")


def test_right_under_two_stated_conventions_is_a_convention_not_close(packs, tmp_path):
    text = ("## Question 3\n### Language modeling task\nWe omit the biases and the normalization "
            "layers: the model has **20,960,400** parameters.\n### Classification task\n402\n")
    got = grade(packs, tmp_path, "transfer-lab-a", "q3", text)
    assert got.evidence["verdict"] == "convention"
    assert got.evidence["convention"] == "no_biases+no_layernorm"
    assert got.fraction == pytest.approx(0.5 * 0.75)
    assert "close" not in got.message and "without biases and without LayerNorm" in got.message


def test_two_pack_conventions_combine_unstated(packs, tmp_path):
    text = "## Question 3\n### Language modeling task\nTotal: **20,960,400**\n"
    got = grade(packs, tmp_path, "transfer-lab-a", "q3", text)
    assert (got.evidence["verdict"], got.fraction) == ("convention", pytest.approx(0.375))


def test_wrong_under_the_stated_convention_names_what_is_left_out(packs, tmp_path):
    # no biases, no LayerNorm, and the token embedding forgotten as well
    text = ("## Question 3\n### Language modeling task\nWithout biases and LayerNorm the model "
            "has **10,960,200** parameters.\n")
    got = grade(packs, tmp_path, "transfer-lab-a", "q3", text)
    assert got.fraction == 0
    assert "Even without biases and without LayerNorm, as you state" in got.message
    assert got.message.endswith("your count leaves out the embedding tables.")


def test_a_component_of_the_breakdown_is_named(packs, tmp_path):
    text = "Q3 (d) We ignore the biases: 48 × 6144 × 24576 = **7,247,757,312**\n"
    got = grade(packs, tmp_path, "stat8021-a3", "q3d", text)
    assert got.fraction == 0
    assert got.message.endswith("your count leaves out one of the two feed-forward weight "
                                "matrices.")


def test_a_stated_convention_the_question_does_not_accept_keeps_its_verdict(packs, tmp_path):
    ref = packs["transfer-lab-a"].reference()
    value = ref.count(head="causal-lm", convention="no_embeddings")
    text = ("## Question 3\n### Language modeling task\nWithout the embeddings the model has "
            f"**{value:,}** parameters.\n### Classification task\n402\n")
    got = grade(packs, tmp_path, "transfer-lab-a", "q3", text)
    assert (got.evidence["verdict"], got.fraction) == ("wrong", 0)
    assert "right without the embeddings, as you state" in got.message
    assert "gives no credit for an answer without the embeddings" in got.message


def test_a_stated_convention_the_pack_names_at_no_credit_gets_the_packs_message(packs, tmp_path):
    """STAT8021 Q3(c) lists fp32 scores at no credit (the question says 2 bytes): the
    answer is wrong, and the pack's message names what it did."""
    text = "Q3 (c) Scores in fp32: 48 × 16384² × 4 bytes = **51.54 GB**\n"
    got = grade(packs, tmp_path, "stat8021-a3", "q3c", text)
    assert (got.evidence["verdict"], got.evidence["convention"], got.fraction) == (
        "wrong", None, 0)
    assert got.evidence["stated_conventions"] == ["fp32"]
    assert "stores each score in 4 bytes (fp32)" in got.message


def test_a_shotgun_earns_nothing_and_is_named(packs, tmp_path):
    got = grade(packs, tmp_path, "stat8021-a3", "q3c", "Q3 (c) Answer: 25.77 GB or 24 GB\n")
    assert (got.evidence["verdict"], got.fraction) == ("shotgun", 0)
    assert got.evidence["shotgun"] == ["24 GB", "25.77 GB"]
    assert "several different answers" in got.message


def test_q3_a_ii_has_two_answers_from_one_report_part(packs, tmp_path):
    text = ("## Q3 (a)\n(I) next-token prediction.\n(II) p(mat) = e^3/26.7791 = 0.7500; the loss "
            "is -ln 0.7500 = 0.2876.\n## Q3 (b)\nNo numbers here.\n")
    p, loss = (grade(packs, tmp_path, "stat8021-a3", "q3a2", text, i) for i in (0, 1))
    assert (p.evidence["answer"], p.fraction) == ("0.7500", 1)
    assert (loss.evidence["answer"], loss.fraction) == ("0.2876", 1)


def test_weight_matrices_only_is_the_packs_no_biases_and_no_layernorm(packs, tmp_path):
    """The issue's sentence: three stated conventions, of which the pack lists two; counting
    only the weight matrices leaves out exactly the biases and the LayerNorms, so the
    answer earns the pack's combined convention, not "close" (nor nothing for a convention
    the pack does not list)."""
    sentence = "no biases and no normalization layers, counting only weight matrices"
    assert conventions_in(sentence) == ("no_bias", "no_layernorm", "weights_only")
    for said in (f"We count {sentence}", "Counting the weight matrices only"):
        text = ("## Question 3\n### Language modeling task\n" + said + ": the model has "
                "**20,960,400** parameters.\n### Classification task\n402\n")
        got = grade(packs, tmp_path, "transfer-lab-a", "q3", text)
        assert got.evidence["verdict"] == "convention", got.message
        assert got.evidence["convention"] == "no_biases+no_layernorm"
        assert got.fraction == pytest.approx(0.5 * 0.75)
        assert "close" not in got.message and "gives no credit" not in got.message
        assert "counting the weight matrices only, as you state" in got.message


def test_a_combination_the_pack_lists_itself_keeps_the_packs_credit(packs, tmp_path):
    """Weight matrices only, without the out-projection, is lab A's own
    `five_nhid_squared_per_layer` (1/4), not the product of its parts' credits."""
    ref = packs["transfer-lab-a"].reference()
    value = ref.count(head="causal-lm", convention="no_out_proj+weights_only")
    text = ("## Question 3\n### Language modeling task\nCounting only the weight matrices, "
            f"without the output projection: **{value:,}** parameters.\n"
            "### Classification task\n402\n")
    got = grade(packs, tmp_path, "transfer-lab-a", "q3", text)
    assert got.evidence["convention"] == "five_nhid_squared_per_layer", got.message
    assert got.fraction == pytest.approx(0.25) and "gives no credit" not in got.message
    assert got.message.startswith("Your count")  # the pack's own message for it
