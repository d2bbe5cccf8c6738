"""Finding a question's section: labels in the forms students write them, and where they end.

The specs are those of the STAT8021 pack's Part 3 (one label per question, part markers
for (a)(II) and (e)), given all together as the grader gives them.
"""

from __future__ import annotations

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.report import section_text
from grader.written.sections import Target, parse_label, parse_part, read_lines

PART3 = [
    QuestionSpec("q3a1", ("Q3 (a)",)),
    QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability")),
    QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "-ln", "cross-entropy")),
    QuestionSpec("q3b", ("Q3 (b)",)),
    QuestionSpec("q3c", ("Q3 (c)",)),
    QuestionSpec("q3d", ("Q3 (d)",)),
    QuestionSpec("e1", ("Q3 (e)",), part="(I)"),
    QuestionSpec("e2", ("Q3 (e)",), part="(II)"),
    QuestionSpec("e3", ("Q3 (e)",), part="(III)"),
]


def answers(text: str) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, PART3).items()}


@pytest.mark.parametrize("written", [
    "Q3 (c)", "Q3(c)", "Q3.c", "Question 3(c)", "Question 3 (c)", "3(c)", "3.3",
    "Part 3 – c)", "Part 3 - c)", "**Q3 (c)**", "Q3 ( c )", "q3 c)",
])
def test_every_way_of_writing_q3_c_is_the_same_label(written):
    assert parse_label(written) == Target("q", "3", "c")


@pytest.mark.parametrize(("written", "marker"), [
    ("(II)", (None, "ii")), ("(ii)", (None, "ii")), ("II)", (None, "ii")), ("II.", (None, "ii")),
    ("(c)", ("c", None)), ("e-ii", ("e", "ii")), ("(e)(II)", ("e", "ii")),
])
def test_part_markers(written, marker):
    assert parse_part(written) == marker


def test_phrases_are_no_labels():
    assert parse_label("Language modeling task") is None
    assert parse_label("Results of Task 7") is None
    assert parse_part("Classification task") is None


def test_the_next_sub_question_ends_a_section_though_it_has_the_same_question_number():
    text = ("Q3 (c) 48 × 16384² × 2 bytes = 25,769,803,776 bytes ≈ 25.77 GB\n"
            "Q3 (d) 48 × (8H² + 5H) = 14,496,989,184\n"
            "Q3 (e)\n(I) 9,437,184\n(II) 75.5 MB\n(III) 0.065 %\n")
    got = answers(text)
    assert (got["q3c"], got["q3d"]) == ("25.77 GB", "14,496,989,184")
    assert (got["e1"], got["e2"], got["e3"]) == ("9,437,184", "75.5 MB", "0.065 %")


@pytest.mark.parametrize("style", [
    "Question 3 (c)\n{c}\nQuestion 3 (d)\n{d}\n",
    "3(c) {c}\n3(d) {d}\n",
    "## 3.3 Memory\n{c}\n## 3.4 FFN\n{d}\n",
    "# Part 3 – c)\n{c}\n# Part 3 – d)\n{d}\n",
    "Q3.c: {c}\nQ3.d: {d}\n",
    "## Question 3\n(c) {c}\n(d) {d}\n",
    "| Question | Answer |\n|---|---|\n| Q3(c) | {c} |\n| Q3(d) | {d} |\n",
])
def test_heading_styles(style):
    got = answers(style.format(c="25.77 GB", d="14.5 billion"))
    assert (got["q3c"], got["q3d"]) == ("25.77 GB", "14.5 billion")


def test_roman_parts_are_not_stripped_as_list_markers():
    text = "## Q3 (e)\n- (I) 9,437,184 parameters\n- (II) 75.5 MB\n- (III) 0.065%\n"
    got = answers(text)
    assert (got["e1"], got["e2"], got["e3"]) == ("9,437,184", "75.5 MB", "0.065%")


def test_e_ii_forms_and_a_letter_going_backwards_is_a_list():
    text = ("**Q3-e**\ne-i: 2 × 48 × 2 × 8 × 6144 = 9,437,184\n"
            "e-ii: 9,437,184 × 8 = 75,497,472 bytes ≈ 75.5 MB\n"
            "e-iii: about 0.065 %\n"
            "**Q3-c**\nTwo cases:\na) per head 0.54 GB\nb) all heads 25.77 GB\n")
    got = answers(text)
    assert (got["e1"], got["e2"], got["e3"]) == ("9,437,184", "75.5 MB", "0.065 %")
    assert got["q3c"] == "25.77 GB"  # "a)" after Q3 (c) is a list inside the answer


def test_two_answers_in_one_part_are_told_apart_by_their_labels():
    text = ("## Q3 (a)\n(I) next-token prediction\n"
            "(II) The probability of mat is e^3 / 26.7791 = 0.7500.\n"
            "The cross-entropy loss is\n$$-\\ln p(\\text{mat}) = 0.2876$$\n## Q3 (b)\nno numbers\n")
    got = answers(text)
    assert (got["p"], got["loss"]) == ("0.7500", "0.2876")


def test_a_table_row_per_answer():
    text = ("| Question | Working | Answer |\n|---|---|---|\n"
            "| Q3(a)(II) p(mat) | e^3/26.78 | 0.7500 |\n| Q3(a)(II) loss | -ln p | 0.2876 |\n"
            "| Q3(c) | 48 × 16384² × 2 = 25,769,803,776 | 25.77 GB |\n")
    got = answers(text)
    assert (got["p"], got["loss"], got["q3c"]) == ("0.7500", "0.2876", "25.77 GB")


def test_a_missing_part_says_so():
    found = extract_answers("## Q3 (e)\nLoRA adds 9,437,184 parameters.\n", PART3)
    assert found["e2"].reason == "no part '(II)' in the section"


def test_lines_know_their_label_path():
    lines = read_lines("# Part 3\n## Q3 (e)\n(II) text\n### Notes\n# References\n", {"3"})
    assert [(ln.opens, ln.paths[:1]) for ln in lines] == [
        (True, (("q", "3", None, None),)), (True, (("q", "3", "e", None),)),
        (True, (("q", "3", "e", "ii"),)), (False, (("q", "3", "e", "ii"),)),
        (True, (("end", "", None, None),)),
    ]


def test_a_quote_ends_at_a_task_heading():
    text = "## 1 Question 2\nWhy the head changes.\n## 2 Task 3 & 4\nseed 1: 0.85\n"
    assert section_text(text, ["Question 2"]) == "## 1 Question 2\nWhy the head changes."
