"""extract_answers on the heading styles reports use, Markdown and plain text."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers

PLAIN = """STAT8021 Assignment 3

Q3 (c) 48 × 16384² × 2 bytes = 25,769,803,776 bytes ≈ 25.77 GB

Q3 (d)
Each layer has 8H^2 + 5H = 302,020,608 parameters, so in total
48 × 302,020,608 = 14,496,989,184, about 14.5 billion.

Q3 (e)
(I) 9,437,184
(II) 75.5 MB
"""

SPECS = [
    QuestionSpec("c", ("Q3 (c)",)),
    QuestionSpec("d", ("Q3(d)",)),
    QuestionSpec("e", ("Q3 (e)",)),
]


def test_plain_text_labels_and_inline_answers():
    found = extract_answers(PLAIN, SPECS)
    assert (found["c"].answer, found["c"].line) == ("25.77 GB", 3)
    assert (found["d"].answer, found["d"].why) == ("14.5 billion", "after ≈")
    assert found["d"].candidates[-2].text == "14,496,989,184"
    assert found["d"].section == (5, 8)
    assert found["e"].answer == "75.5 MB"


MARKDOWN = """# 1 Introduction

Some text with 3 numbers: 1, 2 and 3.

## 3.1 Language Modeling Task

The count is $24 \\times 512^2 = 6,291,456$ (see [4]).

Therefore the model has **6,291,456** parameters. (2)

## 3.2 Classification Task

Only the head changes: $2 \\times 200 + 2 = 402$.

# 4 Conclusion

We used 15 epochs.
"""


def test_numbered_markdown_sections_and_tags():
    specs = [
        QuestionSpec("lm", ("Language Modeling Task",)),
        QuestionSpec("cls", ("Classification Task",)),
    ]
    found = extract_answers(MARKDOWN, specs)
    assert (found["lm"].answer, found["lm"].line, found["lm"].why) == ("6,291,456", 9, "bold")
    assert [c.text for c in found["lm"].candidates] == ["24", "512", "6,291,456", "6,291,456"]
    assert (found["cls"].answer, found["cls"].section) == ("402", (11, 14))


def test_a_section_without_a_conclusive_number_falls_back_to_the_last_number():
    found = extract_answers(
        "## Task 2\nWe trained for 3 epochs with 2 GPUs.\n", [QuestionSpec("t2", ("Task 2",))]
    )
    assert (found["t2"].answer, found["t2"].why) == ("2", "number")


def test_question_10_is_not_question_1():
    text = "# Question 10\nanswer = 5\n# Question 1\nanswer = 7\n"
    found = extract_answers(text, [QuestionSpec("q1", ("Question 1",))])
    assert found["q1"].answer == "7"


def test_a_part_that_is_missing():
    text = "# Question 3\nThe total is 5.\n"
    found = extract_answers(text, [QuestionSpec("q3", ("Question 3",), part="classification task")])
    assert (
        not found["q3"].found
        and found["q3"].reason == "no part 'classification task' in the section"
    )
