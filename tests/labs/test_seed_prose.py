"""Per-seed figures as students write them (lab B, T3/T4): sentences, lists and tables.

Each expected claim below was written from the text by hand before the reader was run:
(family, seed, best validation, step, test), None where the text does not give it.
"""

from __future__ import annotations

import pytest

from grader.checks.claims import Source
from grader.checks.logs import check_logs, read_claims
from grader.checks.seedclaims import Families, parse_claims
from grader.pack import load_pack
from tests.conftest import ROOT

LAB_B = load_pack(ROOT / "reference" / "transfer-lab-b")
SETTINGS = LAB_B.checks("logs")[0][1].settings
FAMILIES = Families({k: [w.lower() for w in v] for k, v in SETTINGS.families.items()},
                    {k: [w.lower() for w in v] for k, v in SETTINGS.fallback.items()})


def claims(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


@pytest.mark.parametrize(("text", "expected"), [
    # the sentence: the seed index is not the accuracy, the test figure comes
    # before the word "test"
    ("For seed 2 the best validation accuracy is 0.853 at step 1200, which gives 0.841 on "
     "the test set.", [(None, 2, 0.853, 1200, 0.841)]),
    ("The best validation accuracy for seed 3 is 85.3% (step 1,200); the test accuracy at "
     "that step is 84.1%.", [(None, 3, 0.853, 1200, 0.841)]),
    ("With the fine tuned model and seed 1, validation peaks at 0.86 after 800 steps, with "
     "0.85 test accuracy.", [("pretrained", 1, 0.86, 800, 0.85)]),
    ("Seed 1, model fine-tuned from scratch: best validation 0.64 at step 400, test 0.63.",
     [("scratch", 1, 0.64, 400, 0.63)]),
    ("For seed 1, the pre-trained model reaches its best validation accuracy of 0.853 at "
     "step 1200 (test 0.841), while the model trained from scratch peaks at 0.640 at step "
     "400 (test 0.630).",
     [("pretrained", 1, 0.853, 1200, 0.841), ("scratch", 1, 0.64, 400, 0.63)]),
    ("0.85 validation accuracy and 0.84 test accuracy were reached with seed 4 at the "
     "300th step.", [(None, 4, 0.85, 300, 0.84)]),
    ("Validation and test accuracy for seed 3: 0.86 and 0.85 (step 900).",
     [(None, 3, 0.86, 900, 0.85)]),
    ("seed=5: val_acc 0.81 step 200 test_acc 0.80", [(None, 5, 0.81, 200, 0.8)]),
    ("Seed 1 was the best run of the randomly initialised model. Its best validation\n"
     "accuracy was 0.64, reached at step 400.\nThe corresponding test accuracy was 0.63.",
     [("scratch", 1, 0.64, 400, 0.63)]),
    ("With seed 1 the model peaks at 0.853 validation accuracy (step 1200), reaching 0.841 "
     "test accuracy there.", [(None, 1, 0.853, 1200, 0.841)]),
    # lists
    ("- Seed 2 — best val acc = 85.3% @ step 1.2k; test = 84.1%",
     [(None, 2, 0.853, 1200, 0.841)]),
    ("### Fine-tuned model\n\n**Seed 1**\n- best validation accuracy: 0.853\n- step: 1200\n"
     "- test accuracy: 0.841\n\n**Seed 2**\n- best validation accuracy: 0.86\n- step: 1400\n"
     "- test accuracy: 0.85\n\nThe model is good: it reaches 0.99 test accuracy.",
     [("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.86, 1400, 0.85)]),
    # tables: a row per run (columns by header), a column per seed
    ("| Seed | Model | Test acc at best val step | Step | Best val acc |\n|--|--|--|--|--|\n"
     "| 2 | scratch | 61% | 300 | 0.64 |", [("scratch", 2, 0.64, 300, 0.61)]),
    ("Pre-trained model:\n\n| | Seed 1 | Seed 2 |\n|---|---|---|\n| Best val acc | 0.85 | 0.86 |"
     "\n| Step | 1200 | 1,400 |\n| Test acc | 84.1% | 85% |",
     [("pretrained", 1, 0.85, 1200, 0.841), ("pretrained", 2, 0.86, 1400, 0.85)]),
    # a table as PDF text gives it: cells separated by spaces, read in the header's order
    ("Model Seed Best val. acc. Step Test acc.\npre-trained 1 0.853 1,200 0.841\n"
     "scratch 2 0.705 2000 69.9%\nThe pre-trained model is better.",
     [("pretrained", 1, 0.853, 1200, 0.841), ("scratch", 2, 0.705, 2000, 0.699)]),
    # not per-seed claims: averages, seeds without figures, figures without a split
    ("On average over the three seeds the pre-trained model reaches 0.85 validation "
     "accuracy.", []),
    ("We ran seeds 1, 2 and 3 for 5 epochs; seed 2 took 41 minutes.", []),
    ("Seed 3: 0.86 / 900 / 0.85", []),
])
def test_per_seed_figures_as_written(text, expected):
    assert claims(text) == expected


def test_lines_count_from_the_report_as_handed_in():
    text = ("# Lab B\n\nintro\n\n## Task 3\n\nWe fine-tuned both models.\n\n"
            "For seed 2 the best validation accuracy is 0.853 at step 1200, which gives 0.841 "
            "on the test set.\n")
    section = text[text.index("## Task 3"):]
    (claim,) = read_claims([Source(section, "report.md", first_line=5)], FAMILIES)
    assert claim["line"] == 9 == text.splitlines().index(section.splitlines()[4]) + 1
    assert claim["where"] == "report.md line 9"
    (pdf,) = read_claims([Source(section, "report.pdf", 5, lines_mean_something=False)],
                         FAMILIES)
    assert pdf["where"] == "report.pdf"  # a PDF's text lines are the reader's, not the student's


def test_honest_prose_agrees_with_its_csv_log(tmp_path):
    log = tmp_path / "runs.csv"
    rows = ["model,seed,step,val_acc,test_acc"]
    for step, val, test in ((400, 0.80, 0.79), (800, 0.853, 0.841), (1200, 0.85, 0.845)):
        rows.append(f"pretrained,2,{step},{val},{test}")
    log.write_text("\n".join(rows) + "\n")
    check = LAB_B.checks("logs")[0][1]
    text = ("## Task 3\n\nFor seed 2 the best validation accuracy of the fine-tuned model is "
            "85.3% at step 800, which gives 84.1% on the test set.\n")
    result = check_logs(check, [log], [Source(text, "report.md", 40)])
    assert result.status == "passed", result.message
    wrong = text.replace("84.1%", "85.1%")
    result = check_logs(check, [log], [Source(wrong, "report.md", 40)])
    assert result.status == "partial"
    assert "report.md line 42: test 0.851 for seed 2 (pretrained), the log says 0.841" \
        in result.message


def test_logs_that_pair_with_no_seed_of_the_report_go_to_a_ta(tmp_path):
    log = tmp_path / "pretrained.csv"  # no seed column, no seed in the path
    log.write_text("step,val_acc,test_acc\n400,0.80,0.79\n800,0.853,0.841\n")
    check = LAB_B.checks("logs")[0][1]
    text = "For seed 2 the best validation accuracy is 85.3% at step 800, test 84.1%.\n"
    result = check_logs(check, [log], [Source(text, "report.md")])
    assert result.status == "manual" and "name seeds nowhere" in result.message
    assert result.evidence["answer_text"] == text
