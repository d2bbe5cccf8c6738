"""Held-out-31 and -32's families: a Google Docs contents printed as a table with neither
its title nor leaders, and IEEEtran's section titles set in numbered capitals."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.blocks import capitals_section
from grader.written.vocabulary import contents_lines

C = [QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",))]
LAB_B = [QuestionSpec("q1", ("Question 1",)), QuestionSpec("t3", ("Task 3",))]


def answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


def test_a_contents_table_whose_entries_head_the_sections_after_it_opens_nothing():
    lines = ["# STAT8021 Assignment 3 – Part 3", "| Q3 (a) | 1 |", "| Q3 (c) | 2 |",
             "| Q3 (d) | 2 |", "## Q3 (a)", "p = 0.75", "## Q3 (c)", "**25.77 GB**",
             "## Q3 (d)", "**14.50 billion**"]
    assert contents_lines(lines) == {1, 2, 3}
    assert answers("\n".join(lines), C) == {"c": "25.77 GB", "d": "14.50 billion"}
    # a summary whose rows are not headed again below is no contents
    summary = ["| Q3 (a) | 1 |", "| Q3 (c) | 2 |", "| Q3 (d) | 2 |", "## Working"]
    assert contents_lines(summary) == set()


def test_a_section_title_in_numbered_capitals_is_a_heading():
    assert capitals_section("II. ENCODER PARAMETERS (QUESTION 1)")
    assert capitals_section("3. RESULTS AND DISCUSSION")
    assert not capitals_section("II. 75.50 MB")  # a part's value, no title
    assert not capitals_section("II. P(MAT) = 0.750")
    assert not capitals_section("2. The Encoder Parameters")  # not in capitals
    text = """I. INTRODUCTION
This report answers Question 1, Tasks 3 and 4.
II. ENCODER PARAMETERS (QUESTION 1)
P_enc = Vd + Pd + 2d + N(6d^2 + 10d) (1)
= 22,829,056. (2)
III. PRE-TRAINED VS. RANDOM INITIALISATION (TASK 3
AND TASK 4)
"""
    assert answers(text, LAB_B)["q1"] == "22,829,056"
