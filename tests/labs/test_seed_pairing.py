"""Which seed a figure belongs to: certain pairings are held against the logs, others
go to a TA (lab B, T3/T4; grader/checks/seedpairing.py `pair`, grader/checks/logs.py).

The expected claims were written from the sentences by hand before the reader was run:
(family, seed, best validation, step, test). The runs are those of the report corpus's
lab B log (tests/fixtures/report-corpus/logs/lab-b-runs.csv), written here as a CSV of
their own so that the test does not depend on the corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.checks.claims import Source
from grader.checks.logs import check_logs
from grader.checks.seedclaims import Families, parse_claims
from grader.pack import load_pack
from tests.conftest import ROOT

LAB_B = load_pack(ROOT / "reference" / "transfer-lab-b")
CHECK = LAB_B.checks("logs")[0][1]
FAMILIES = Families({k: [w.lower() for w in v] for k, v in CHECK.settings.families.items()},
                    {k: [w.lower() for w in v] for k, v in CHECK.settings.fallback.items()})

BEST = {  # (model, seed): (best validation, its step, test at that step)
    ("pretrained", 1): (0.853, 1200, 0.841), ("pretrained", 2): (0.851, 1400, 0.840),
    ("pretrained", 3): (0.861, 1600, 0.850), ("scratch", 1): (0.712, 1800, 0.698),
    ("scratch", 2): (0.705, 2000, 0.699), ("scratch", 3): (0.720, 1600, 0.707),
}


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """Every run's log: lower accuracies at other steps, the best at its step."""
    rows = ["model,seed,step,val_acc,test_acc"]
    for (model, seed), (val, step, test) in BEST.items():
        for at in range(200, 2001, 200):
            v, t = (val, test) if at == step else (round(val - 0.02 - at / 1e5, 3),
                                                   round(test - 0.02, 3))
            rows.append(f"{model},{seed},{at},{v},{t}")
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def claims(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


@pytest.mark.parametrize(("text", "expected"), [
    # the sentence: the seed named after its figures
    ("The model trained from scratch peaks at 0.705 (step 2000, test 0.699) for seed 2.",
     [("scratch", 2, 0.705, 2000, 0.699)]),
    # several runs in one sentence, each seed after its figures
    ("The pre-trained model reaches 0.853 at step 1200 (test 0.841) with seed 1, 0.851 at "
     "step 1400 (test 0.840) with seed 2 and 0.861 at step 1600 (test 0.850) with seed 3.",
     [("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.84),
      ("pretrained", 3, 0.861, 1600, 0.85)]),
    # each seed before its figures; the later runs name no split, as the first did
    ("Fine-tuned, seed 1 gives 0.853 validation (step 1200) and 0.841 test; seed 2 gives "
     "0.851 (step 1400) and 0.840; seed 3 gives 0.861 (step 1600) and 0.850.",
     [("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.84),
      ("pretrained", 3, 0.861, 1600, 0.85)]),
    # a seed named inside its run's figures, then a run with the seed after
    ("From scratch the best validation accuracy is 0.712 for seed 1 at step 1800 with 0.698 "
     "on the test set, and 0.720 at step 1600 (test 0.707) for seed 3.",
     [("scratch", 1, 0.712, 1800, 0.698), ("scratch", 3, 0.72, 1600, 0.707)]),
    # the figures first, the seed and the model after them
    ("0.712 (step 1800, test 0.698) was the best validation accuracy of seed 1 for the "
     "scratch model.", [("scratch", 1, 0.712, 1800, 0.698)]),
])
def test_the_seed_of_each_run_whichever_side_it_is_named(text, expected):
    assert claims(text) == expected
    assert all("certain" not in c for c in parse_claims(text, FAMILIES))


@pytest.mark.parametrize(("text", "candidates"), [
    # two seeds before one run: which one is it?
    ("Compared with seed 1, seed 2 of the pre-trained model peaks at 0.851 (step 1400, test "
     "0.840).", [1, 2]),
    # three seeds and two runs
    ("For seeds 1 and 3 (seed 1, seed 3) the scratch model reaches 0.712 at step 1800 and "
     "0.720 at step 1600, with seed 2 in between.", [1, 3, 2]),
])
def test_an_uncertain_pairing_is_marked_with_the_seeds_it_may_be(text, candidates):
    found = parse_claims(text, FAMILIES)
    assert found and all(c.get("certain") is False for c in found)
    assert all(c["candidates"] == candidates and "not certain" in c["why"] for c in found)
    assert found[0]["why"].startswith("the sentence names seeds 1")


HONEST = """## Task 3

We fine-tuned the pre-trained RoBERTa and the same model from a random initialisation
with three seeds each.

The pre-trained model reaches 0.853 at step 1200 (test 0.841) with seed 1, 0.851 at step
1400 (test 0.840) with seed 2 and 0.861 at step 1600 (test 0.850) with seed 3.

The model trained from scratch peaks at 0.712 (step 1800, test 0.698) for seed 1. For seed
2 it peaks at 0.705 (step 2000, test 0.699), and 0.720 (step 1600, test 0.707) is the best
of seed 3.

Pre-training helps by about 14 points on both splits.
"""


def test_an_honest_report_agrees_with_its_logs(log):
    result = check_logs(CHECK, [log], [Source(HONEST, "report.md", 1)])
    assert result.status == "passed", result.message
    assert result.message == "All 18 figures you report agree with the logs."


def test_a_figure_that_disagrees_is_named_where_the_pairing_is_certain(log):
    wrong = HONEST.replace("0.851 at step\n1400", "0.851 at step\n1300")
    result = check_logs(CHECK, [log], [Source(wrong, "report.md", 1)])
    assert result.status == "partial"
    assert result.message.startswith("1 of 18 figures disagree")
    assert "report.md line 6: step 1300 for seed 2 (pretrained), the log says 1400" \
        in result.message


def test_uncertain_figures_that_are_one_runs_are_confirmed_else_a_ta_pairs_them(log):
    text = ("## Task 3\n\nCompared with seed 1, seed 2 of the pre-trained model peaks at 0.851 "
            "(step 1400, test 0.840).\n")
    result = check_logs(CHECK, [log], [Source(text, "report.md", 1)])
    assert result.status == "passed", result.message
    (claim,) = result.evidence["claims"]
    assert claim["seed"] == 2 and claim["paired_by"] == "the logs"
    off = text.replace("0.840", "0.830")  # seed 1's run is not it either: no contradiction
    result = check_logs(CHECK, [log], [Source(off, "report.md", 1)])
    assert result.status == "manual" and "disagree" not in result.message
    assert "not certain" in result.message and "seed 1 or 2" in result.message
    assert result.evidence["answer_text"].startswith("## Task 3")


def test_a_column_per_seed_table_that_lost_its_empty_top_left_cell(log):
    """PDF table text drops the empty cell above the row labels: the header's first cell
    is a seed, so it heads the first column of figures (not a shift of every column)."""
    table = ("| **Seed 1** | **Seed 2** | **Seed 3** |\n"
             + "".join(f"| {fam} — {field} | " + " | ".join(
                 str(BEST[(key, s)][i]) for s in (1, 2, 3)) + " |\n"
                 for fam, key in (("Pre-trained", "pretrained"), ("From scratch", "scratch"))
                 for i, field in enumerate(("best val. acc.", "step", "test acc."))))
    assert sorted(claims(table)) == sorted(
        (fam, seed, val, step, test) for (fam, seed), (val, step, test) in BEST.items())
    result = check_logs(CHECK, [log], [Source("## Task 3\n\n" + table, "report.pdf", 1, False)])
    assert result.status == "passed", result.message
    # a row that is one cell short: which seed's column each figure is in is not certain
    short = table.replace("| 1800 | 2000 | 1600 |", "| 1800 | 2000 |")
    uncertain = [c for c in parse_claims(short, FAMILIES) if c.get("certain") is False]
    assert [c["step"] for c in uncertain] == [1800, 2000]
    assert "not certain" in uncertain[0]["why"]


def test_a_tables_caption_names_its_model():
    table = ("|  | Seed 1 | Seed 2 |\n|--|--|--|\n| Best validation accuracy | 0.712 | 0.705 |\n"
             "| Step | 1800 | 2000 |\n| Test accuracy | 0.698 | 0.699 |\n")
    before = "Table 2: randomly initialised model (trained from scratch)\n\n" + table
    assert claims(before) == [("scratch", 1, 0.712, 1800, 0.698),
                              ("scratch", 2, 0.705, 2000, 0.699)]
    after = table + "\nTable 1. The model fine-tuned from scratch, per seed.\n"
    assert {c[0] for c in claims(after)} == {"scratch"}
    assert {c[0] for c in claims(table)} == {None}  # no caption: the model is not named


@pytest.mark.parametrize(("text", "expected"), [
    ("For the pre-trained model, the best validation accuracies were 0.853, 0.851 and 0.861 "
     "for seeds 1, 2 and 3, reached at steps 1200, 1400 and 1600, with test accuracies of "
     "0.841, 0.840 and 0.850 respectively.",
     [("pretrained", s, *BEST[("pretrained", s)]) for s in (1, 2, 3)]),
    ("Seeds 1/2/3 of the scratch model peak at 71.2%, 70.5% and 72.0% validation accuracy "
     "(steps 1.8k, 2k, 1.6k; test 69.8%, 69.9%, 70.7%).",
     [("scratch", s, *BEST[("scratch", s)]) for s in (1, 2, 3)]),
    # a list of seeds without lists of figures: the sentence is read as any other
    ("We ran seeds 1, 2 and 3; for seed 2 the pre-trained model's best validation accuracy "
     "is 0.851 at step 1400 (test 0.840).", [("pretrained", 2, 0.851, 1400, 0.84)]),
    # a list of the wrong length is not read
    ("The best validation accuracies were 0.853 and 0.851 for seeds 1, 2 and 3.", []),
])
def test_figures_listed_in_the_order_of_a_list_of_seeds(text, expected):
    assert claims(text) == expected


def test_a_table_whose_header_row_is_the_seeds():
    table = ("Pre-trained model:\n\n| Seed | 1 | 2 | 3 |\n|---|---|---|---|\n"
             "| Best val. acc. | 0.853 | 0.851 | 0.861 |\n| Step | 1200 | 1400 | 1600 |\n"
             "| Test acc. | 0.841 | 0.840 | 0.850 |\n")
    assert claims(table) == [("pretrained", s, *BEST[("pretrained", s)]) for s in (1, 2, 3)]


def test_a_figure_of_no_named_model_is_not_called_wrong_when_the_logs_hold_both(log):
    """Seed 2 runs for both models: figures that name no model and are neither run's are
    not held against the run they resemble most; a TA reads them."""
    text = "## Task 3\n\nFor seed 2 the best validation accuracy is 0.851 at step 1300.\n"
    result = check_logs(CHECK, [log], [Source(text, "report.md", 1)])
    assert result.status == "manual" and "disagree" not in result.message
    assert "no model is named" in result.message
    right = text.replace("1300", "1400")  # the pre-trained run's own figures: confirmed
    assert check_logs(CHECK, [log], [Source(right, "report.md", 1)]).status == "passed"


def test_the_evidence_rows_say_which_pairings_were_not_certain(log):
    from grader.checks.logs import KIND

    text = ("## Task 3\n\nCompared with seed 1, seed 2 of the pre-trained model peaks at 0.851 "
            "(step 1400, test 0.840).\n")
    result = check_logs(CHECK, [log], [Source(text, "report.md", 1)])
    rows = KIND.explain({"evidence": result.evidence})["rows"]
    assert rows[0] == ("seed 2 (pretrained) (seed not certain) (paired by the logs)",
                       "best validation 0.851, step 1400, test 0.84")
