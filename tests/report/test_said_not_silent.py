"""Nothing silently empty or wrong in what a student and a TA read (issue 27 items 5, 7).

- A notebook whose cell crashed (`nn.Modle`) got "does not define the class
  `PositionalEncoding`" from `grader check` and nothing in its Markdown report, while
  the web page showed the cell's error: the CLI and the Markdown report show it too.
- Moodle's worksheet came back with its own `-` cells rewritten `'-` (the formula guard
  applied to cells it says it keeps).
- A record of a corrupt notebook said "(some questions await a TA)" when nothing waits.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from grader.batch.work import unreadable_record
from grader.cli import main
from grader.cli.check import print_check
from grader.intake.student import Student
from grader.pack import load_pack
from grader.record import GradeRecord
from grader.report.lms import comment_html, moodle_worksheet
from grader.report.render import render_student
from grader.report.visibility import student_view
from tests.report import small

ROOT = Path(__file__).resolve().parents[2]
PACK = ROOT / "reference" / "stat8021-a3"
CRASH = ROOT / "submissions" / "stat8021-a3" / "crash-pe-cell.ipynb"


@pytest.mark.sandbox
def test_check_and_the_markdown_report_show_the_cell_that_crashed(capsys, hf_cache) -> None:
    from tests.conftest import needs_bwrap

    needs_bwrap()
    code = main(["check", str(CRASH), "-a", str(PACK), "--hf-cache", str(hf_cache), "--json"])
    assert code == 1
    record = json.loads(capsys.readouterr().out)
    pack = load_pack(PACK)
    printed = io.StringIO()
    print_check(GradeRecord.from_dict(record), pack, CRASH.name, full=False, cache=None,
                out=Console(file=printed, width=300))
    text = printed.getvalue()
    q1d = next(q for q in record["questions"] if q["id"] == "q1d")
    assert "PositionalEncoding" in q1d["message"]  # what is missing, from the question
    # ...and why: the cell (counted from 1) that raised, with its error
    assert "cell error: cell 15: AttributeError: module 'torch.nn' has no attribute 'Modle'" \
        in text
    md = render_student(record, "md", student=Student(key="crash", name="Crash"))
    assert "**Cells that raised an error**" in md
    row = next(line for line in md.splitlines() if "Modle" in line)
    assert row.startswith("| 15 | `AttributeError: module 'torch.nn' has no attribute")


MOODLE_HEADER = ["Identifier", "Full name", "Email address", "Status", "Grade",
                 "Maximum Grade", "Grade can be changed", "Last modified (submission)",
                 "Last modified (grade)", "Feedback comments"]


def _record(score: float, questions: list[dict]) -> dict:
    record = small.record_json(questions, graded_at="2026-05-02T10:00:00+00:00",
                               submission={"name": "a.ipynb", "path": None, "sha256": None,
                                           "evidence": "notebook"})
    record["assignment"]["id"] = "stat8021-a3"
    return {**record, "score": score, "max_score": 100}


def test_the_moodle_worksheet_keeps_its_own_cells_as_they_were() -> None:
    rows = [MOODLE_HEADER,
            ["Participant 1001", "Ada Lovelace", "ada@uni.example", "Submitted", "-",
             "100.00", "Yes", "-", "-", ""],
            ["Participant 1003", "Not Submitted", "x@uni.example", "No submission", "-",
             "100.00", "Yes", "-", "-", ""]]
    downloaded = "".join(",".join(r) + "\r\n" for r in rows)
    ada = Student(key="ada-1001", name="Ada Lovelace", lms="moodle", lms_id="1001")
    out, _ = moodle_worksheet([(ada, GradeRecord.from_dict(_record(54, [])))], downloaded)
    table = list(csv.reader(io.StringIO(out)))
    assert table[2] == rows[2]  # a row the grader does not grade: byte for byte
    assert table[1][4] == "54" and table[1][7] == "-"  # Moodle's "-" stays "-"
    assert "'-" not in out


def test_a_corrupt_notebook_s_record_does_not_say_questions_await_a_ta(tmp_path) -> None:
    pack = load_pack(PACK)
    broken = tmp_path / "a.ipynb"
    broken.write_text('{"cells": [', encoding="utf-8")
    record = unreadable_record(pack, broken, "a.ipynb is not valid notebook JSON").to_dict()
    assert record["status"] == "incomplete"
    for text in (render_student(record, "md"), render_student(record, "html"),
                 comment_html(student_view(record))):
        assert "await a TA" not in text
    waiting = _record(40, [small.question("q3b", "manual")])
    assert "some questions await a TA" in comment_html(student_view(waiting))


def test_the_ta_sheet_has_the_rubric_of_every_shipped_manual_question(tmp_path, monkeypatch):
    """Item 9: `manual-sheet.csv`'s `rubric` column was empty for the shipped pack's manual
    questions. Graded and rendered through the CLI (`--no-execute`: no kernel); the
    rubric is the TA's, so the exported public part and the student reports lack it."""
    monkeypatch.chdir(tmp_path)
    assert main(["grade", str(ROOT / "submissions" / "stat8021-a3" / "solution.ipynb"),
                 "-a", "stat8021-a3", "--out", "grades", "--no-execute", "--no-report"]) == 0
    assert main(["report", "grades", "--out", "feedback", "-a", "stat8021-a3"]) == 0
    with (tmp_path / "feedback" / "manual-sheet.csv").open(encoding="utf-8") as fh:
        sheet = {r["question"]: r for r in csv.DictReader(fh)}
    assert set(sheet) == {"q3a1", "q3b"}
    assert sheet["q3a1"]["rubric"].startswith("2 points. 1: says the model is trained")
    assert "Encoder-decoder" in sheet["q3b"]["rubric"]
    student = (tmp_path / "feedback" / "students" / "solution.html").read_text()
    assert "Encoder-decoder: the encoder reads" not in student
    assert main(["pack", "export-public", "stat8021-a3", "public"]) == 0
    assert "rubric" not in (tmp_path / "public" / "pack.toml").read_text()


def _finetune_record(reported: dict[str, list[float]]) -> dict:
    model = {"name": "distilbert-base-uncased", "architecture": "DistilBertForSequenceClassification",
             "reported": reported, "threshold": 0.85, "reevaluated_accuracy": 0.9,
             "weight_distance": 0.2194}
    check = {"kind": "finetune", "status": "passed", "fraction": 1.0, "message": "ok",
             "evidence": {"models": [model], "quick": False, "executed": True}}
    question = {"id": "q2b", "title": "Q2(b)", "score": 12, "max": 12, "status": "passed",
                "message": "ok", "hint": "", "checks": [check], "printed": []}
    return {**_record(12, [question]), "mode": "grade"}


def test_a_student_reads_words_not_weight_distance_and_no_empty_chart() -> None:
    """Item 9: the student HTML showed `weight_distance 0.2194` and an empty accuracy chart."""
    empty = render_student(_finetune_record({"train_accuracy": [], "test_accuracy": []}), "html")
    assert "weight_distance" not in empty and "weight distance" not in empty
    assert "how far the encoder&#39;s weights moved from the checkpoint" in empty
    assert "No accuracy per epoch was printed" in empty and "<svg" not in empty
    drawn = render_student(_finetune_record({"test_accuracy": [0.8, 0.9]}), "html")
    assert "<svg" in drawn and "No accuracy per epoch was printed" not in drawn
