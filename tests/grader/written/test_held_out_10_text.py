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


LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
       QuestionSpec("cls", ("Question 3",), part="Classification task"),
       QuestionSpec("q4", ("Question 4",))]

JOURNAL = """Lab A journal

2026-11-16 Sun 15:10 —
Read the handout; 4 layers, nhid = 200.

2026-11-18 Tue 21:40 — Question 3, language modeling task
  per encoder layer   = 242,000   x 4 = 968,000
Question 3, language modeling task: 20,968,400 trainable parameters.

2026-11-19 Wed 09:15 — correction
My first sum was 10,968,200; the total above stands. Check: 120,600 + 121,400 = 242,000.

2026-11-20 Thu 23:50 — Question 3, classification task
Same body (10,000,200 + 968,000 = 10,968,200) and a head of 400.
Question 3, classification task: 10,968,600 trainable parameters.

2026-11-21 Fri 17:20 — Question 4
Both end at 0.81.
"""


def test_a_journals_dated_entries_are_headings_and_an_entrys_result_is_its_answer():
    got = extract_answers(as_markdown(JOURNAL), LAB)
    assert got["lm"].answer == "20,968,400"  # not the correction entry's 242,000
    assert got["cls"].answer == "10,968,600"


def test_a_journal_entry_line_is_a_heading_and_one_dated_line_is_no_journal():
    lines = as_markdown(JOURNAL).split("\n")
    assert len(lines) == JOURNAL.count("\n") + 1
    assert lines[2] == "## 2026-11-16 Sun 15:10"
    assert lines[5] == "## Question 3, language modeling task"
    assert lines[7].startswith("Answer: **Question 3, language modeling task**: 20,968,400")
    assert lines[9] == "## correction"
    text = "Report, 2026-11-16\n2026-11-16 — submitted late\nQuestion 3: 20,968,400\n"
    assert as_markdown(text) == text


REPL = """Question 1

Python 3.11.6 (main, Oct  3 2026, 10:21:03) [GCC 12.2.0] on linux
>>> d, N = 512, 4
>>> for k in range(N):
...     pass
...
>>> 32000*d + N*(5*d*d)
21626880
>>> 21626880 / 1e6   # in millions
21.62688

Question 2
"""


def test_a_python_shell_session_is_a_code_block_its_line_count_kept():
    lines = as_markdown(REPL).split("\n")
    assert len(lines) == REPL.count("\n") + 1
    assert lines[1] == "```" and lines[11] == "```"  # the blank lines around it
    assert lines[2].startswith("Python 3.11.6")
    # the typed division is the program's, not a formula the student answers with
    got = extract_answers(as_markdown(REPL), [QuestionSpec("q1", ("Question 1",)),
                                              QuestionSpec("q2", ("Question 2",))])
    assert got["q1"].answer != "21626880 / 1e6"
    # an e-mail's nested quote (">>> ") with no typed code around it is no session
    mail = "On Monday you wrote:\n>>> the answer is 25.77 GB\n\nThanks.\n"
    assert as_markdown(mail) == mail


def test_a_pasted_logs_dated_lines_are_no_journal_entries():
    log = ("Question 4\n\n2026-11-16 12:00:01 - INFO - epoch 1 val_acc 0.71\n"
           "2026-11-16 12:05:01 - INFO - epoch 2 val_acc 0.77\n\n"
           "2026-11-17 09:00:00 - INFO - epoch 1 val_acc 0.62\n"
           "2026-11-17 09:05:00 - INFO - epoch 2 val_acc 0.72\n")
    assert as_markdown(log) == log


CSV = ('A3, part 3\n\nquestion,answer,unit,note\n'
       '"Q3 (a) (II)",0.7500,,"softmax, index 2"\n'
       'Q3 (d),14.50,billion,"weights + biases, 48 layers"\n'
       'Q3 (e) (I),"9,437,184",parameters,"W_Q and W_V, r = 8"\n\n'
       'Explanation\n\nQ3 (d). One FFN, 48 layers, 3 terms, 2 matrices: 14.50 billion.\n')


def test_a_csv_table_under_a_header_of_names_is_a_table_and_prose_with_commas_is_none():
    text = as_markdown(CSV)
    assert text.split("\n")[4] == "| Q3 (d) | 14.50 billion | weights + biases, 48 layers |"
    got = extract_answers(text, Q3)
    assert got["q3a2.p"].answer == "0.7500"
    assert got["q3e1"].answer == "9,437,184"
    prose = "First, the mask, then\nthe heads, in turn, then\nthe output, as usual, then\n"
    assert as_markdown(prose) == prose
