"""The TA sheet's answer text read from reports: the section, or why a report was not read."""

from __future__ import annotations

import re

import pytest

from grader.record import QuestionResult
from grader.report.manual import answer_text, awaits_ta, pack_phrases_raw
from tests.report import small


def test_section_of_the_report_naming_the_question(tmp_path):
    report = tmp_path / "report.md"
    report.write_text("# My report\n\n## Q2 Essay\nMemory is quadratic in S.\n\n## Q3 Other\nno\n")
    assert answer_text("q2", "Q2 Essay", None, [report]) == "## Q2 Essay\nMemory is quadratic in S."


def test_an_unreadable_report_is_named_on_the_sheet(tmp_path):
    broken = tmp_path / "report.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not a PDF")
    text = answer_text("q2", "Q2 Essay", None, [broken, tmp_path / "gone.md"])
    # the reader names the file (by path or by name) and why
    assert re.search(r"\[report not read: [^\]]*report\.pdf: ", text), text
    assert f"[report not read: {tmp_path / 'gone.md'}: no such file]" in text


def test_the_section_ends_where_another_question_of_the_pack_begins(tmp_path):
    report = tmp_path / "report.md"
    report.write_text("## Question 2\nLoRA trains a low-rank update.\n\n## 2 Task 3 & 4\n"
                      "The pre-trained model is better.\n\n# References\n[1] Hu et al.\n")
    raw = {"questions": [{"id": "q2", "checks": [{"kind": "manual", "report": ["Question 2"]}]},
                         {"id": "t34", "checks": [{"kind": "logs", "claim_from": ["Task 3"]}]}]}
    assert pack_phrases_raw(raw, but="q2") == ["Task 3"]
    assert answer_text("q2", "Q2 LoRA", None, [report], pack_phrases_raw(raw, but="q2")) == \
        "## Question 2\nLoRA trains a low-rank update."
    # the last section ends at the references
    assert answer_text("Task 3", "", None, [report], ["Question 2"]) == \
        "## 2 Task 3 & 4\nThe pre-trained model is better."


def test_which_questions_a_ta_scores():
    def question(status: str, check: dict) -> QuestionResult:
        return QuestionResult.model_validate(small.question(status=status, checks=[check]))

    # a kind a TA grades (Kind.by_ta), a check that handed its question to a TA, a
    # question a TA's points were merged into, and one the grader scored
    manual = question("manual", small.check("manual", "manual"))
    handed = question("manual", small.check("logs", "manual"))
    merged = question("partial", small.check("logs", "partial",
                                             evidence={"grader": "TA", "claims": []}))
    scored = question("passed", small.check("answer", "passed"))
    assert [awaits_ta(q) for q in (manual, handed, merged, scored)] == [True, True, True, False]


@pytest.mark.sandbox
def test_a_ta_question_on_one_part_is_quoted_alone(tmp_path):
    """STAT8021 Q3(a)(I) is a TA's, Q3(a)(II) the answer checker's: the TA reads the (I)
    part only, through the pack as it is written (`report_part` of the manual check)."""
    from grader.grade import grade_notebook
    from grader.pack import load_pack
    from tests.conftest import PACK_DIR

    report = tmp_path / "report.md"
    report.write_text("# Q3 (a)\n(I) Predict the next token from the ones before it.\n"
                      "(II) p(mat) = 0.5417, loss = 0.6131\n\n# Q3 (b)\nQuadratic in S.\n")
    record = grade_notebook(load_pack(PACK_DIR), None, seed=1, reports=[report])
    q3a1 = next(q for q in record.questions if q.id == "q3a1")
    quoted = q3a1.checks[0].evidence["answer_text"]
    assert quoted == "(I) Predict the next token from the ones before it."
