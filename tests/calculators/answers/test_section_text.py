"""section_text: a report's section for a TA to read, found as extract_answers finds it."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.report import section_text
from tests.calculators.answers._shared import sample_report

REPORT = """# My report

## Question 2: attention
Memory grows with S squared.

### Results of Task 7
Kept with the answer.

## Q3 Other
no
"""


def test_runs_from_the_heading_to_the_next_question():
    assert section_text(REPORT, ["Question 2"]) == (
        "## Question 2: attention\nMemory grows with S squared.\n\n"
        "### Results of Task 7\nKept with the answer."
    )
    assert section_text(REPORT, "Q3") == "## Q3 Other\nno"
    assert section_text(REPORT, ["Question 9"]) == ""


def test_opens_where_extract_answers_opens():
    text = sample_report("lab-lm-report-a.md")
    for headings in (("Question 1",), ("Question 2",), ("Question 3",)):
        got = extract_answers(text, [QuestionSpec("q", headings)])["q"]
        first = section_text(text, headings).splitlines()[0]
        assert got.section is not None and first == text.splitlines()[got.section[0] - 1]
