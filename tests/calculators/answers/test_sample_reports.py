"""The two real reports (tests/fixtures/sample-reports): answers a careful TA would pick, and every slip."""

from __future__ import annotations

import pytest

from calculators.answers import check_answer, lint_arithmetic
from grader.written import QuestionSpec, extract_answers
from tests.calculators.answers._shared import sample_report

LAB_A = [
    QuestionSpec("Q3-lm", ("Question 3",), part="Language modeling task"),
    QuestionSpec("Q3-cls", ("Question 3",), part="Classification task"),
]
LAB_B = [QuestionSpec("Q1", ("Question 1",))]

# Report A, done by hand. Line, what was written, and the true value of the left side.
REPORT_A_SLIPS = [
    (38, 38, "120,000 + 600 + 40,000 + 200", "160,000", 160_800),
    (49, 49, "160,000 + 81,200", "261,200", 241_200),
    (51, 51, "4 \\times 261, 200", "968,000", 1_044_800),
    (53, 53, "50,001 \\times 200 + 50,001", "10,050,020", 10_050_201),
    (57, 58, "10,000,200+968,000+10,050,020", "21,018,401", 21_018_220),
    (69, 69, "10,000,200 + 968,000 + 402", "10,969,602", 10_968_602),
]


def test_report_a_has_exactly_six_slips():
    slips = lint_arithmetic(sample_report("lab-lm-report-a.md"))
    found = [(s.line, s.end_line, s.left, s.written, s.true_value) for s in slips]
    assert found == REPORT_A_SLIPS


def test_report_a_slip_on_two_lines_quotes_both():
    slips = lint_arithmetic(sample_report("lab-lm-report-a.md"))
    two_line = next(s for s in slips if s.line == 57)
    assert two_line.text == "$$10,000,200+968,000+10,050,020=$$\n**21,018,401**"


def test_report_b_has_no_slip():
    assert lint_arithmetic(sample_report("lab-roberta-report-a.md")) == []


def test_report_a_answers():
    found = extract_answers(sample_report("lab-lm-report-a.md"), LAB_A)
    lm, cls = found["Q3-lm"], found["Q3-cls"]
    assert (lm.answer, lm.line, lm.why) == ("21,018,401", 58, "bold")
    assert (cls.answer, cls.line, cls.why) == ("10,969,602", 69, "after =")
    assert lm.section == (22, 61) and cls.section == (62, 75)
    assert lm.parsed.value == 21_018_401


def test_report_a_answers_graded():
    """The LM total is right although its sum on line 57 is not; the classification count is 1,000 off."""
    found = extract_answers(sample_report("lab-lm-report-a.md"), LAB_A)
    # nn.TransformerEncoder, ntoken 50001, nhid 200, 4 layers, dim_feedforward 200
    layer = 3 * 200 * 200 + 3 * 200 + 200 * 200 + 200 + 2 * (200 * 200 + 200) + 2 * 400
    lm_total = 50_001 * 200 + 4 * layer + 200 * 50_001 + 50_001
    cls_total = 50_001 * 200 + 4 * layer + 200 * 2 + 2
    assert check_answer(found["Q3-lm"].parsed, lm_total).verdict == "correct"
    verdict = check_answer(found["Q3-cls"].parsed, cls_total)
    assert (verdict.verdict, verdict.got, verdict.expected) == ("close", 10_969_602, 10_968_602)


def test_report_b_answer():
    found = extract_answers(sample_report("lab-roberta-report-a.md"), LAB_B)["Q1"]
    assert (found.answer, found.line, found.why) == ("22829056", 51, "after =")
    assert found.section == (1, 53)  # up to "## 2 Task 3 & 4", across its 1.1-1.3 subsections


def test_a_missing_question_says_so():
    found = extract_answers(
        sample_report("lab-roberta-report-a.md"), [QuestionSpec("Q9", ("Question 9",))]
    )
    assert not found["Q9"].found
    assert found["Q9"].reason == "no heading matching ['Question 9']"


@pytest.mark.parametrize("name", ["lab-lm-report-a.md", "lab-roberta-report-a.md"])
def test_extraction_to_dict(name):
    found = extract_answers(sample_report(name), LAB_A + LAB_B)
    for item in found.values():
        data = item.to_dict()
        assert data["question_id"] == item.question_id
