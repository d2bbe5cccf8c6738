"""Held-out-20 to -22's text families: a console session (Python's shell, R's console)
handed in as the report, its answers in the comments typed at the prompt; a notes app's
checklist exported as text (Google Keep's ☑/☐ items named "3c", "3e (II)"); a flat
``key: value`` answers file with no section headers."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.reading.lightweight import as_markdown

P3 = [QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability")),
      QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "cross entropy")),
      QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",)),
      QuestionSpec("e1", ("Q3 (e)",), part="(I)"), QuestionSpec("e2", ("Q3 (e)",), part="(II)")]
LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
       QuestionSpec("cls", ("Question 3",), part="Classification task")]


def _answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(as_markdown(text), specs).items()}


PYREPL = """Python 3.11.6 (main, Oct  2 2023, 13:45:54) [GCC 11.4.0] on linux
Type "help", "copyright", "credits" or "license" for more information.
>>> # my session, sorry no pdf
>>> s = sum(math.exp(v) for v in z)
>>> p = math.exp(z[2]) / s     # mat = index 2
>>> p
0.7500283010713087
>>> # Q3(a)(II) answer: p(mat) = 0.75, cross entropy loss = 0.415
>>>
>>> scores = 48 * 16384 * 16384
>>> scores * 2
25769803776
>>> # Q3(c) answer: 25.77 GB  (fp16 = 2 bytes, all 48 heads, one layer)
>>>
>>> ffn = 48 * (2 * 6144 * 24576 + 24576 + 6144)
>>> ffn
14496989184
>>> # Q3(d) answer: 14.497 billion FFN params (biases included)
>>> lora = 48 * 2 * (8 * 6144 * 2)
>>> lora
9437184
>>> # Q3(e)(I) answer: 9437184 trainable params
>>> lora * 8 / 1e6
75.497472
>>> # Q3(e)(II) answer: 75.5 MB of Adam states
>>> exit()
"""


def test_a_python_session_handed_in_reads_its_comments_as_the_report():
    text = as_markdown(PYREPL)
    assert "Q3(c) answer: 25.77 GB  (fp16 = 2 bytes, all 48 heads, one layer)" in text.split("\n")
    assert "`25769803776`" in text  # a printed value stays code
    assert ">>>" not in text and "Type \"help\"" not in text
    assert len(text.split("\n")) == len(PYREPL.split("\n"))  # the file's line numbers kept
    assert _answers(PYREPL, P3) == {"p": "0.75", "loss": "0.415", "c": "25.77 GB",
                                    "d": "14.497 billion", "e1": "9437184", "e2": "75.5 MB"}


def test_a_session_whose_comments_name_no_question_is_still_one_code_block():
    session = ("Question 1\n\nPython 3.11.6 (main) on linux\n>>> d, N = 512, 4  # sizes\n"
               ">>> # the embedding first\n>>> emb = 32000 * d\n>>> emb\n16384000\n\n"
               "So Question 1: 16,384,000 parameters.\n")
    lines = as_markdown(session).split("\n")
    assert lines[1] == lines[8] == "```"  # the blank lines around it are its fences
    assert lines[4] == ">>> # the embedding first"


RCONSOLE = """
R version 4.3.2 (2023-10-31) -- "Eye Holes"
Copyright (C) 2023 The R Foundation for Statistical Computing
Platform: x86_64-pc-linux-gnu (64-bit)

> ## Question 3: trainable parameters, counted in R
> emb <- 50001 * 200
> emb
[1] 10000200
> per_layer <- (3*200*200 + 3*200) + (200*200 + 200) +
+              2*(200*200 + 200) + 2*(2*200)
> format(emb + 4*per_layer + 200*50001, big.mark = ",")
[1] "20,968,400"
> ## Q3 language modeling task: 20,968,400 trainable parameters (head without bias)
> ## Q3 classification task:    10,968,600 trainable parameters (head without bias)
>
> ## Question 4: the pre-trained model is better at every epoch
> q()
Save workspace image? [y/n/c]: n
"""


def test_an_r_console_handed_in_reads_its_comments_as_the_report():
    lines = as_markdown(RCONSOLE).split("\n")
    assert lines[5] == "Question 3: trainable parameters, counted in R"
    assert lines[8] == "`10000200`"  # R's "[1]" is its index, not a value
    assert lines[10] == "`2*(200*200 + 200) + 2*(2*200)`"  # the "+ " continuation is code
    assert _answers(RCONSOLE, LAB) == {"lm": "20,968,400", "cls": "10,968,600"}


def test_quoted_mail_is_no_r_console():
    mail = ("Thanks, see below.\n\n> On Thu, the TA wrote:\n> Reminder: upload the PDF.\n"
            "> ## Question 3 is due tonight\n> Please check your numbers.\n")
    assert as_markdown(mail) == mail


LABB = """>>> # Lab B written part. Q1 then Tasks 3/4.
>>> total = emb + N*layer
>>> f"{total:,}"
'22,829,056'
>>> # Q1: V*d + P*d + 2d + N*(4(d^2+d) + 2(d*512+512) + 4d) = 22,829,056 trainable parameters
>>>
>>> # pretrained seed 1: best val 0.853 at step 1200, test 0.841
>>> # scratch seed 1: best val 0.712 at step 1800, test 0.691
>>> exit()
"""


def test_a_sessions_comment_lines_are_prose_the_per_seed_reader_sees():
    lines = as_markdown(LABB).split("\n")
    assert lines[6:8] == ["pretrained seed 1: best val 0.853 at step 1200, test 0.841",
                          "scratch seed 1: best val 0.712 at step 1800, test 0.691"]
    assert _answers(LABB, [QuestionSpec("q1", ("Question 1",))]) == {"q1": "22,829,056"}


KEEP = """STAT8021 A3 – part 3 stuff (due fri!!)

☑ 3a (II) softmax of [0.5, 0.1, 3.0, 0.2, 1.0], mat = index 2
    p(mat) → 0.75
    loss = -ln(0.75) → 0.288
☑ 3c scores = 48 × 16384^2 numbers, ×4 bytes each
    → 51.5 GB
☑ 3d FFN per layer = 302,020,608
    × 48 layers → 14.5 billion
☑ 3e (I) LoRA on W_Q, W_V, r=8: 98,304 per matrix, ×2 ×48
    → 9437184
☑ 3e (II) Adam state, 4 bytes per param (fp32) → 37,748,736 B
    → 37.75 MB
☐ upload pdf + notebook to moodle
"""


def test_a_checklist_exported_from_a_notes_app_is_a_list_of_its_labelled_items():
    lines = as_markdown(KEEP).split("\n")
    assert lines[5] == "- 3 (c) scores = 48 × 16384^2 numbers, ×4 bytes each"
    assert lines[13] == "- upload pdf + notebook to moodle"
    assert _answers(KEEP, P3) == {"p": "0.75", "loss": "0.288", "c": "51.5 GB",
                                  "d": "14.5 billion", "e1": "9437184", "e2": "37.75 MB"}


def test_a_checklist_items_first_word_is_a_label_only_when_it_is_one():
    text = "☑ 3dB is the gain\n☐ 3 bytes per value\n☐ 7b parameters? check\n"
    assert as_markdown(text).split("\n")[:3] == [
        "- 3dB is the gain", "- 3 bytes per value", "- 7b parameters? check"]


KEYVALUE = """# Transfer lab A answers -- format: key: value, working in comments

# embedding = 50001 x 200 = 10,000,200
# LM head = 200 x 50001 + 50001 = 10,050,201
question_3.language_modeling_task: 21018401
question_3.classification_task: 10968602

question_4.better_model: pretrained
question_5.limitation: left-to-right LM only sees the left context
"""


def test_a_flat_key_value_answers_file_answers_by_its_keys():
    lines = as_markdown(KEYVALUE).split("\n")
    assert lines[4] == "Answer: **Q3 language modeling task** = 21018401"
    assert lines[2] == "embedding = 50001 x 200 = 10,000,200"  # the working, as text
    assert _answers(KEYVALUE, LAB) == {"lm": "21018401", "cls": "10968602"}


def test_a_report_of_labelled_lines_and_prose_is_no_key_value_file():
    report = ("Q3: trainable parameters\nq3.lm: 21018401\nq3.cls: 10968602\n"
              "q4: the pre-trained model is better\nThe heads have biases.\n")
    assert as_markdown(report) == report
