"""Sections in the forms the second held-out batch showed (issue 15), each with its neighbours.

Three families: an outline or part headings with no question number ("3." then "(a)" then
"(ii)", indented; "## (c) Memory" where the pack asks lettered parts of one question only;
code blocks whose printed comments are no headings), a closing section restating the
answers ("Summary", "Final answers", a table going back over the parts) that must end the
last part, and a heading naming several tasks ("Tasks 3 and 4", "Questions 3–4").
"""

from __future__ import annotations

import pytest

from grader.written import extract_answers
from grader.written.report import section_text
from grader.written.sections import read_lines
from tests.calculators.answers._shared import PART3, C, D, E

BODY = (f"{{c}}\n  Memory = 48 x 16384^2 x 2 bytes = {C}\n\n{{d}}\n  FFN total = {D}\n\n{{e}}\n"
        f"  {{i}} trainable = {E[0]}\n  {{ii}} Adam states = {E[1]}\n  {{iii}} ratio = {E[2]}\n")


def cde(text: str) -> tuple[str | None, ...]:
    got = {k: v.answer for k, v in extract_answers(text, PART3).items()}
    return got["q3c"], got["q3d"], got["e1"], got["e2"], got["e3"]


def body(letter: str = "({})", roman: str = "({})") -> str:
    return BODY.format(c=letter.format("c"), d=letter.format("d"), e=letter.format("e"),
                       i=roman.format("i"), ii=roman.format("ii"), iii=roman.format("iii"))


# -- 1. outlines, parts with no question number, code blocks ---------------------------------

@pytest.mark.parametrize("top", ["3.", "3. Transformer analysis", "3) Transformer analysis", "3"])
@pytest.mark.parametrize("letter,roman", [("({})", "({})"), ("{})", "{})"), ("{}.", "{}.")])
def test_a_plain_text_outline_opens_its_question_and_parts(top, letter, roman):
    text = f"Assignment 3\nName (123)\n\n{top}\n\n" + body("  " + letter, "  " + roman)
    assert cde(text) == (C, D, *E)


def test_a_numbered_step_inside_a_part_reopens_nothing():
    text = "Q3 (c)\n1. Scores per head.\n3. Memory per head\nMemory = 25.77 GB\n\nQ3 (d)\nFFN = 14.5 billion\n"
    assert cde(text)[:2] == (C, D)


def test_an_outline_number_of_a_question_asked_without_parts_opens_nothing():
    lines = read_lines("2. Background\nsome text\n", {"3"})
    assert not any(line.opens for line in lines)


@pytest.mark.parametrize("head", ["## ({}) Memory of the scores", "**({})**", "({}) Memory",
                                  "### Part ({})", "{})"])
def test_a_part_heading_with_no_question_number_is_the_one_lettered_question(head):
    text = "# Report\n\n" + "\n\n".join(
        f"{head.format(x)}\n\nanswer: {v}" for x, v in (("c", C), ("d", D)))
    assert cde(text)[:2] == (C, D)


def test_a_part_with_no_question_number_is_no_part_when_two_questions_have_letters():
    lines = read_lines("## (c) Memory\n25.77 GB\n", {"2", "3"})
    assert not any(line.opens for line in lines)


@pytest.mark.parametrize("fence", ["```python", "```", "~~~"])
def test_printed_numbers_in_a_code_block_are_no_headings(fence):
    close = fence[:3]
    text = (f"## Q3\n\n**c)**\n\n{fence}\nh, S = 48, 16384\nprint(h * S**2 * 2)\n"
            f"# 25769803776\n# 3.2\n# 4 heads\n{close}\n\n**Answer: {C}**\n\n**d)**\n\n"
            f"**Answer: {D}**\n")
    assert cde(text)[:2] == (C, D)


@pytest.mark.parametrize("comment", ["# Q3 (d)", "# (d)", "// Q3 (d)", "# d)"])
def test_a_code_comment_that_is_a_label_and_nothing_else_opens_it(comment):
    text = f"## Q3\n\n(c)\nanswer: {C}\n\n```python\n{comment}\nprint(8 * 6144**2 * 48)\n```\nanswer: {D}\n"
    assert cde(text)[:2] == (C, D)


def test_a_bare_number_heading_must_look_like_a_section_number():
    lines = read_lines("# 25769803776 25.769803776\n# 3 Memory\n", {"3"})
    assert [line.opens for line in lines] == [False, True]


# -- 2. a closing section restating the answers ----------------------------------------------

@pytest.mark.parametrize("closing", [
    "## Summary", "## Summary of answers", "**Final answers**", "# Final Answers:",
    "## 4. Summary", "### Answer summary", "## Summary of results", "## Overview of the answers",
])
def test_a_closing_summary_ends_the_last_part(closing):
    text = ("Q3\n" + body() + f"\n{closing}\n\n| Question | Answer |\n|---|---|\n"
            "| (a)(ii) | p = 0.75, loss = 0.2876 |\n| (c) | 25.77 GB |\n| (e)(iii) | 0.065 % |\n")
    assert cde(text) == (C, D, *E)


@pytest.mark.parametrize("label", ["({})", "3 {})", "Q3 ({})", "3({})"])
def test_a_table_going_back_over_the_parts_is_a_summary(label):
    rows = "".join(f"| {label.format(x)} | {v} |\n" for x, v in (("a", "0.2876"), ("c", C),
                                                                 ("d", D)))
    text = "Q3\n" + body() + "\n| Part | Answer |\n|---|---|\n" + rows
    assert cde(text) == (C, D, *E)


def test_a_table_answering_the_parts_in_order_is_no_summary():
    text = (f"Q3 (d)\nFFN = {D}\n\nQ3 (e)\n| Part | Answer |\n|---|---|\n| (I) | {E[0]} |\n"
            f"| (II) | {E[1]} |\n| (III) | {E[2]} |\n")
    assert cde(text)[1:] == (D, *E)


def test_two_rows_for_one_part_are_no_summary():
    text = ("Q3\n| Part | Result |\n|---|---|\n| (a)(II) probability | 0.75 |\n"
            "| (a)(II) loss | 0.29 |\n| (c) | 25.77 GB |\n| (d) | 14.5 billion |\n")
    assert cde(text)[:2] == (C, D)


@pytest.mark.parametrize("heading", ["## Results", "## Conclusion"])
def test_results_and_conclusion_are_no_closing_section(heading):
    text = f"## Q3 (d)\nFFN parameters:\n\n{heading}\n\nabout {D}\n"
    assert cde(text)[1] == D


# -- 3. a heading naming several tasks ---------------------------------------------------------

@pytest.mark.parametrize("head", ["# Tasks 3 and 4", "## Task 3 & 4", "### Questions 3–4",
                                  "Tasks 3, 4", "**Tasks 3 and 4**", "# Tasks 2-4"])
def test_a_heading_naming_several_tasks_opens_each(head):
    kind = "Question" if "Question" in head else "Task"
    text = f"# Question 1\nx = 5\n\n{head}\n\nseed 1: 85.3 %\n\n# Question 5\nr = 16\n"
    for n in (3, 4):
        got = section_text(text, [f"{kind} {n}"])
        assert "seed 1: 85.3 %" in got and "r = 16" not in got, (n, got)


def test_a_range_is_read_only_after_a_plural_word():
    (line,) = read_lines("Q3-4 memory\n")
    assert line.paths == (("q", "3", None, "iv"),)


@pytest.mark.parametrize("closing", ["## Summary", "**Final answers**", ""])
def test_a_summary_row_answers_a_part_whose_body_marks_no_answer(closing):
    """A summary's row is the student's final word where the body holds working only
    (held-out-6: every answer only in a closing table); where the body marks its answer
    (bold, boxed, an "Answer:" line), the body is graded and the summary restates."""
    text = ("Q3\n(c)\nthe memory is the scores times two bytes\n\n(d)\nFFN = **14.2 billion**"
            f"\n\n(e)\n(i) {E[0]}\n(ii) {E[1]}\n(iii) FFN = 116 GB, ratio = 0.065\n\n{closing}\n\n"
            f"| Part | Answer |\n|---|---|\n| (c) | {C} |\n| (d) | {D} |\n| (e)(iii) | {E[2]} |\n")
    assert cde(text) == (C, "14.2 billion", E[0], E[1], E[2])


@pytest.mark.parametrize("closing,ends", [("### Summary", False), ("**Summary**", False),
                                          ("## Summary", True), ("# Final answers", True),
                                          ("### References", True)])
def test_a_summary_below_the_part_heading_sums_up_that_part(closing, ends):
    text = f"# Q3\n\n## (d)\n\nFFN per layer = 8H^2 + 5H\n\n{closing}\n\nFFN total = {D}\n"
    assert (cde(text)[1] != D) == ends


def test_a_fence_never_closed_hides_no_heading():
    text = f"## Q3\n\n(c)\n\n```python\nprint(48 * 16384**2 * 2)\n\nanswer: {C}\n\n(d)\n\nanswer: {D}\n"
    assert cde(text)[:2] == (C, D)


def test_parts_with_no_question_at_all_are_the_lettered_question():
    text = f"Jane Doe, 3036\n\n(c) The scores take {C}.\n\n(d) The FFN has {D} parameters.\n"
    assert cde(text)[:2] == (C, D)


def test_a_copyright_line_before_any_label_opens_no_part():
    lines = read_lines("(c) 2024 Jane Doe\n\n## Q3 (c)\n25.77 GB\n", {"3"})
    assert [line.opens for line in lines] == [False, False, True, False]


@pytest.mark.parametrize("closing", ["Summary of answers:", "FINAL ANSWERS", "Summary",
                                     "Final answers:", "=== Summary ==="])
def test_a_text_reports_closing_line_ends_the_last_part(closing):
    text = ("Q3\n" + body() + f"\n{closing}\n(a) p = 0.75, loss = 0.2876\n(c) 25.77 GB\n"
            "(d) 14.5 billion\n")
    assert cde(text) == (C, D, *E)


def test_a_closing_word_inside_a_sentence_ends_nothing():
    text = f"Q3 (d)\nIn summary: the FFN has\n{D}\n"
    assert cde(text)[1] == D
