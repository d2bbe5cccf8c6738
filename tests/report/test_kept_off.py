"""A question the pack keeps off (0 points) is not shown to students, in any format.

Lab B's numeric follow-up to Q2 (`q2-lora`) has 0 points: "give it points to enable
it". A report graded alone still records it (no answer found, 0 / 0, "failed"); a
student shown it would read a failed question that cannot count. The record is real:
lab B's sample report graded alone, as a batch stores it (no kernel: fast).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from grader.grade import grade_notebook
from grader.pack import load_pack
from grader.report import render_student, student_view
from grader.report.visibility import kept_off, question_visibility, ta_view
from tests.conftest import ROOT

LAB_B = load_pack(ROOT / "reference" / "transfer-lab-b")
REPORT = ROOT / "submissions" / "transfer-lab-b" / "student-report-a"


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    reports = sorted(p for p in REPORT.iterdir() if p.suffix in (".md", ".pdf", ".txt"))
    return grade_notebook(LAB_B, None, seed=1, reports=reports).to_dict()


def test_the_pack_keeps_the_follow_up_off_and_the_record_still_holds_it(record):
    raw = next(q for q in LAB_B.raw["questions"] if q["id"] == "q2-lora")
    assert kept_off(raw) and question_visibility(LAB_B.raw, "q2-lora") == "hidden"
    assert question_visibility(LAB_B.raw, "q1") == "visible"
    q = next(q for q in record["questions"] if q["id"] == "q2-lora")
    assert q["max"] == 0 and q["status"] != "passed"  # what a student must not be shown
    assert "q2-lora" in {q["id"] for q in ta_view(record)["questions"]}  # the TA still sees it


@pytest.mark.parametrize("fmt", ["html", "md", "json", "gradescope"])
def test_no_student_format_shows_a_question_kept_off(record, fmt):
    shown = render_student(record, fmt, pack_raw=LAB_B.raw)
    assert "q2-lora" not in shown and "BLOOM" not in shown
    assert "Trainable parameters of the encoder" in shown  # the graded questions are there
    if fmt == "json":
        view = json.loads(shown)
        assert view["max_score"] == record["max_score"]  # 0 points: the total is unchanged


def test_a_pack_may_show_a_zero_point_question_by_saying_so(record):
    raw = copy.deepcopy(LAB_B.raw)
    next(q for q in raw["questions"] if q["id"] == "q2-lora")["visibility"] = "visible"
    assert "q2-lora" in {q["id"] for q in student_view(record, raw)["questions"]}
    # a question with points is never kept off, whatever its score
    assert not kept_off({"id": "x", "points": 5}) and not kept_off({"id": "x"})
