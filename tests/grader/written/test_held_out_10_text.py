"""Held-out-10's plain-text families, on small reports written here (not the corpus's
files): a tab-separated answer table, an issue thread with quoted replies, a Python REPL
session, a dated lab journal."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.reading.lightweight import as_markdown

Q3 = [QuestionSpec("q3a2.p", ("Q3 (a)",), part="(II)"),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]

TSV = ("A3, part 3\n\nquestion\tanswer\tunit\tnote\n"
       "Q3 (a) (II)\t0.7500\t\tsoftmax, index 2\n"
       "Q3 (c)\t0.54\tGB\tone head\n"
       "Q3 (d)\t14.50\tbillion\tweights + biases, 48 layers\n"
       "Q3 (e) (I)\t9,437,184\tparameters\tW_Q and W_V, r = 8\n"
       "Q3 (e) (II)\t75.49\tMB\tAdam, 8 bytes/param\n\n"
       "Explanation\n\nQ3 (c). 16384 x 16384 entries at 2 bytes: 0.54 GB.\n")


def test_a_tab_separated_table_is_a_table_and_its_answer_column_answers():
    got = extract_answers(as_markdown(TSV), Q3)
    assert got["q3a2.p"].answer == "0.7500"  # not "2" of "softmax, index 2"
    assert got["q3d"].answer == "14.50 billion"  # not the note's "48 layers"
    assert got["q3e1"].answer == "9,437,184"
    assert got["q3e2"].answer == "75.49 MB"  # its unit from the unit column


def test_a_tab_table_keeps_the_line_count_and_a_tab_that_indents_is_no_table():
    text = as_markdown(TSV)
    assert text.count("\n") == TSV.count("\n")
    assert text.split("\n")[2] == "| question | answer | note |"
    code = "def f(x):\n\treturn x\n\tpass\n"
    assert as_markdown(code) == code


THREAD = """Part 3 answers #12
Open   kwongly opened this issue on Nov 19 · 2 comments

kwongly commented on Nov 19

- [x] Q3 (a) (I) causal LM, next-token prediction.
- [x] Q3 (a) (II) p(mat) = 20.09 / 26.78 = 0.75
- [ ] Q3 (c) 48 heads x 16384^2 scores x 2 bytes = 25.77 GB
- [x] Q3 (d) 14.50 billion

chanhm commented on Nov 20

> - [ ] Q3 (c) 48 heads x 16384^2 scores x 2 bytes = 25.77 GB

Are you sure about 2 bytes? 4 bytes gives 51.5 GB. Q3 (d): I got 14.2 billion.

kwongly commented on Nov 21

> 4 bytes gives 51.5 GB

You're right. Final (this is what goes in the report):

Final Q3 (c): 48 x 16384^2 x 4 bytes = 51,539,607,552 bytes = 51.5 GB

- [x] Q3 (a)   - [x] Q3 (c)   - [x] Q3 (d)

kwongly closed this as completed on Nov 21
"""


def test_a_threads_latest_reply_by_the_student_stands():
    got = extract_answers(as_markdown(THREAD), Q3)
    assert got["q3c"].answer == "51.5 GB"  # the final reply, not the first comment's
    assert got["q3d"].answer == "14.50 billion"  # not the teammate's 14.2 billion
    assert got["q3a2.p"].answer == "0.75"


def test_a_threads_quotes_teammates_and_timeline_are_not_the_students_words():
    lines = as_markdown(THREAD).split("\n")
    assert len(lines) == THREAD.count("\n") + 1
    assert not any("14.2" in ln or "25.77" in ln or "Nov 2" in ln for ln in lines)
    assert "Q3 (a) (II) p(mat) = 20.09 / 26.78 = 0.75" in lines[6]
    assert lines[22] == "Q3 (c): Final: 48 x 16384^2 x 4 bytes = 51,539,607,552 bytes = 51.5 GB"
    # a report quoting a line, or naming once who commented, is no thread
    text = ("## Q3 (c)\n> Note: the scores are fp16.\nAlice commented on the draft.\n"
            "**25.77 GB**\n")
    assert as_markdown(text) == text
