"""The TA route through the CLI: what the grader cannot score reaches the TA sheet with its
section quoted, `grader report --manual` takes the TA's points for it, and a record is
`graded` only once every question has a score.

One lab B batch holds a report-only submission (per-seed figures in prose, no logs) and a
notebook-plus-report one with CSV logs (saved outputs, `--no-execute`: no kernel runs);
one lab A batch holds a report alone (a curve claim without the notebook's curves).
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.cli import main
from tests.conftest import ROOT

LAB_A = ROOT / "reference" / "transfer-lab-a"
LAB_B = ROOT / "reference" / "transfer-lab-b"
RUNS = {("pretrained", 1): (1200, 0.853, 0.841), ("pretrained", 2): (800, 0.861, 0.85),
        ("scratch", 1): (400, 0.64, 0.63), ("scratch", 2): (600, 0.655, 0.641)}
"""(family, seed) -> the step of the best validation accuracy, that accuracy, the test
accuracy at that step: what the logs hold and what the honest reports say."""

REPORT_B = """# Lab B report

## Question 1

The encoder has 22,829,056 trainable parameters.

## Question 2

LoRA trains a low-rank update of each attention weight: r = 16 is its rank and
lora_alpha = 32 scales it.

## Task 3 & 4

For seed 1 the best validation accuracy of the fine-tuned model is 85.3% at step 1200,
which gives 84.1% on the test set. For seed 2 it is 86.1% at step 800, which gives 85.0%
on the test set.

The model trained from scratch peaks much lower: for seed 1 its best validation accuracy
is 0.64 at step 400 (test 0.63), and for seed 2 it is 0.655 at step 600 (test 0.641).

The pre-trained model is better on every seed.
"""

REPORT_A = """# Lab A report

## Question 1

The square mask lets each token attend only to the tokens before it.

## Question 4

The fine-tuned model reaches a higher validation accuracy than the model trained from
scratch at every epoch (see Figure 2).

## Question 5

A left-to-right model sees only the left context.
"""


def _write_logs(path: Path) -> None:
    rows = [["model", "seed", "step", "val_acc", "test_acc"]]
    for (family, seed), (best, val, test) in RUNS.items():
        for step in range(200, 1401, 200):
            gap = abs(step - best) / 10000
            rows.append([family, seed, step, round(val - gap, 4) if step != best else val,
                         round(test - gap, 4) if step != best else test])
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows(rows)


def _grade(subs: Path, pack: Path, out: Path, *extra: str) -> None:
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(subs), "-a", str(pack),
                           "--out", str(out), "--seed", "3", "--no-report", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def lab_b(tmp_path_factory):
    base = tmp_path_factory.mktemp("lab-b")
    prose = base / "subs" / "u-prose"
    prose.mkdir(parents=True)
    (prose / "report.md").write_text(REPORT_B)
    logged = base / "subs" / "u-logs"
    logged.mkdir()
    (logged / "report.md").write_text(REPORT_B)
    shutil.copy(LAB_B / "solution" / "transfer_lab_b.ipynb", logged / "transfer_lab_b.ipynb")
    _write_logs(logged / "runs.csv")
    _grade(base / "subs", LAB_B, base / "grades", "--no-execute")
    assert main(["report", str(base / "grades"), "--out", str(base / "feedback")]) == 0
    return base


def _records(folder: Path) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in folder.glob("u-*.json")}


def _sheet(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig"))))


def _question(record: dict, qid: str) -> dict:
    return next(q for q in record["questions"] if q["id"] == qid)


def test_figures_without_logs_go_to_the_ta_and_with_logs_are_checked(lab_b):
    records = _records(lab_b / "grades")
    prose, logged = records["u-prose"], records["u-logs"]
    assert prose["submission"]["evidence"] == "report"
    assert logged["submission"]["evidence"] == "notebook+report"
    t34 = _question(prose, "t34")
    assert t34["status"] == "manual" and t34["score"] is None
    assert prose["status"] == "incomplete"
    claims = t34["checks"][0]["evidence"]["claims"]
    assert {(c["family"], c["seed"]): (c["step"], c["best_validation"], c["test"])
            for c in claims} == RUNS
    assert [c["line"] for c in claims] == [14, 15, 19, 19]  # lines of report.md as written
    checked = _question(logged, "t34")
    assert checked["status"] == "passed" and checked["score"] == checked["max"], \
        checked["message"]


def test_the_sheet_has_a_row_for_every_question_a_ta_scores(lab_b):
    rows = {(r["key"], r["question"]): r for r in _sheet(lab_b / "feedback" / "manual-sheet.csv")}
    assert set(rows) == {("u-prose", "q2"), ("u-prose", "t34"), ("u-prose", "t34-text"),
                         ("u-logs", "q2"), ("u-logs", "t34-text")}
    figures = rows[("u-prose", "t34")]["answer"]
    assert figures.startswith("[No training logs were handed in")
    assert "For seed 1 the best validation accuracy" in figures and "Question 2" not in figures
    # Q2 comes before Task 3 in this report: its quote ends where Task 3 begins
    q2 = rows[("u-prose", "q2")]["answer"]
    assert q2.startswith("## Question 2") and "lora_alpha = 32" in q2 and "Task 3" not in q2


def test_manual_merges_the_new_rows_and_the_record_is_graded_only_when_all_are(lab_b, tmp_path):
    rows = _sheet(lab_b / "feedback" / "manual-sheet.csv")
    points = {"q2": "25", "t34": "18", "t34-text": "15"}
    partial = tmp_path / "partial.csv"
    filled = tmp_path / "filled.csv"
    for path, skip in ((partial, "t34"), (filled, None)):
        with path.open("w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            for row in rows:
                given = "" if row["question"] == skip else points[row["question"]]
                writer.writerow({**row, "points": given, "comment": "read by a TA"})
    assert main(["report", str(lab_b / "grades"), "--out", str(tmp_path / "p"),
                 "--manual", str(partial)]) == 0
    waiting = _records(tmp_path / "p" / "records")["u-prose"]
    assert waiting["status"] == "incomplete" and _question(waiting, "t34")["score"] is None
    assert main(["report", str(lab_b / "grades"), "--out", str(tmp_path / "f"),
                 "--manual", str(filled)]) == 0
    merged = _records(tmp_path / "f" / "records")
    prose, logged = merged["u-prose"], merged["u-logs"]
    assert prose["status"] == logged["status"] == "graded"
    t34 = _question(prose, "t34")
    assert t34["score"] == 18 and t34["status"] == "partial"
    assert t34["checks"][0]["evidence"]["grader"] == "TA"
    assert len(t34["checks"][0]["evidence"]["claims"]) == 4  # what was read stays
    q1 = _question(prose, "q1")["score"]
    assert prose["score"] == q1 + 25 + 18 + 15
    assert logged["score"] == _question(logged, "q1")["score"] + 20 + 25 + 15


def test_a_row_for_a_question_the_grader_scored_is_refused(lab_b, tmp_path, capsys):
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("key,question,points\nu-prose,q1,30\n")
    assert main(["report", str(lab_b / "grades"), "--out", str(tmp_path / "x"),
                 "--manual", str(sheet)]) == 2
    assert "q1 is scored by the grader, not by hand" in capsys.readouterr().err


def test_a_curve_claim_without_its_notebook_reaches_the_sheet(tmp_path):
    student = tmp_path / "subs" / "u-a"
    student.mkdir(parents=True)
    (student / "report.md").write_text(REPORT_A)
    _grade(tmp_path / "subs", LAB_A, tmp_path / "grades")
    assert main(["report", str(tmp_path / "grades"), "--out", str(tmp_path / "fb")]) == 0
    record = _records(tmp_path / "grades")["u-a"]
    q4a = _question(record, "q4a")
    assert q4a["status"] == "manual" and q4a["score"] is None
    # "fine-tuned" is the pre-trained model here: the claim is read the right way round
    assert q4a["checks"][0]["evidence"]["claim"]["better"] == "pretrained"
    rows = {r["question"]: r for r in _sheet(tmp_path / "fb" / "manual-sheet.csv")}
    assert set(rows) >= {"q1", "q4a", "q4b", "q5"}
    assert rows["q4a"]["answer"].startswith("[The curves come from the notebook")
    assert "Figure 2" in rows["q4a"]["answer"] and "Question 5" not in rows["q4a"]["answer"]
