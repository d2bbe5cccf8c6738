"""Held-out-11's families the lead fixed, through the whole reader (extract_answers): a
working line summing both lab parts before the lines that name each part, and Indian
digit grouping as a candidate."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers

LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
       QuestionSpec("cls", ("Question 3",), part="Classification task")]


def test_a_working_line_naming_both_parts_yields_to_the_lines_naming_each():
    # Indonesian: the parts are named in the student's words (loosely), after a line of
    # working that names both heads in turn
    text = ("**Pertanyaan 3**\n"
            "Embedding: 10.000.200; 4 lapisan: 963.200; Head LM: 200 × 50.001 = 10.000.200; "
            "head klasifikasi: 400\n"
            "**Tugas pemodelan bahasa (LM):** 10.000.200 + 963.200 + 10.000.200 = "
            "**20.963.600** parameter.\n"
            "**Tugas klasifikasi:** 10.000.200 + 963.200 + 400 = **10.963.800** parameter.\n"
            "**Pertanyaan 4**\nx\n")
    got = extract_answers(text, LAB)
    assert (got["lm"].answer, got["cls"].answer) == ("20,963,600", "10,963,800")  # regrouped


def test_indian_digit_grouping_is_one_number():
    text = "## Q3 (e)\n(I)\nLoRA: 2 × 48 × 98,304 = **94,37,184** parameters\n"
    got = extract_answers(text, [QuestionSpec("e1", ("Q3 (e)",), part="(I)")])["e1"]
    assert got.answer == "94,37,184"
