"""Held-out-23 and -24's families: an Org or LaTeX contents (bold chapter rows, a title
underlined in box characters), a page number an HTML page draws over its last line, a
name's value with its working in brackets, a slide's items joined by a spaced dot, a
document title naming the question's number, a caption saying "same seed" beside both
models' rows, a chat thread's replies, and a legend's short names for the models."""

from __future__ import annotations

import pytest

from grader.checks.claims import find_claim
from grader.checks.seedclaims import parse_claims
from grader.written import QuestionSpec, extract_answers
from grader.written.reading.threads import student_thread
from grader.written.vocabulary import contents_lines

P = [QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("probability", "p(mat)")),
     QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "-ln")),
     QuestionSpec("c", ("Q3 (c)",))]
LAB_A = [QuestionSpec("q1", ("Question 1",)), QuestionSpec("q2", ("Question 2",)),
         QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
         QuestionSpec("cls", ("Question 3",), part="Classification task"),
         QuestionSpec("q4", ("Question 4",))]
SERIES = {"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch", "random init"]}


def answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


def test_a_contents_table_with_bold_chapter_rows_opens_no_section():
    lines = ["## Contents", "| **1 Q3 (a)** | **1** |", "| 1.1 (II) Probability and loss | 1 |",
             "| **3 Q3 (c)** | **2** |", "## 1 Q3 (a)", "p(mat) = 0.7500"]
    assert contents_lines(lines) == {1, 2, 3}
    text = "\n".join([*lines[:4], "## 1 Q3 (a)", "**(II) Probability and loss**",
                      "p(mat) = 20.0855 / 26.7791 = 0.7500", "## 3 Q3 (c)",
                      "M = 48 · 16384^2 · 2 B ≈ 25.77 GB"])
    assert answers(text, P)["c"] == "25.77 GB"


def test_an_org_contents_under_its_underlined_title_opens_no_section():
    lines = ["Table of Contents", "─────────────────", "", "1. Q3 (a)",
             ".. 1. (I) objective", ".. 2. (II) softmax and loss", "3. Q3 (c)", "", "",
             "1 Q3 (a)", "════════"]
    assert contents_lines(lines) == {3, 4, 5, 6}


def test_a_page_number_drawn_over_the_last_line_is_no_part_of_it(tmp_path):
    """An HTML page with its number placed absolutely at the foot draws it across the
    last line of a full page ("CE = −log10(0.7500) = 0.1249 1 (2)"): no reader of the page
    takes it for the line's text."""
    pymupdf = pytest.importorskip("pymupdf")
    from grader.written.reading import read_document

    doc = pymupdf.open()
    for n in (1, 2):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 100), f"Q3 (a) page {n} text", fontsize=11)
        page.insert_text((214, 768), "CE = -log10(0.7500) = 0.1249      (2)", fontsize=11)
        page.insert_text((295, 768), str(n), fontsize=11)  # the number, over the equation
    path = tmp_path / "org.pdf"
    doc.save(path)
    text = read_document(path).text
    assert not any(line.strip() in ("1", "2") for line in text.splitlines())
    assert all("1" not in line.replace("0.1249", "").replace("(2)", "").replace("log10", "")
               .replace("page 1", "") for line in text.splitlines() if "CE =" in line)


def test_a_names_value_beats_the_working_in_brackets_after_it():
    text = """Question 3
I counted only the weight matrices (LayerNorm kept).
Language modeling task: 20,963,600 (embedding 50001 x 200 = 10,000,200; decoder 200 x 50001 = 10,000,200)
Classification task: 10,963,800 (10,000,200 + 963,200 + 200 x 2 = 400)

Question 4
"""
    got = answers(text, LAB_A)
    assert (got["lm"], got["cls"]) == ("20,963,600", "10,963,800")
    # a value that multiplies the brackets after it is still working
    assert answers("## Q3 (c)\nM = 48 (16384^2 × 2 B) = 25.77 GB\n", P)["c"] == "25.77 GB"


def test_a_spaced_dot_separates_a_slides_items():
    text = """## Q3 (a) (II) — softmax & loss
p(mat) = 20.086 / 26.779
loss = −ln p(mat) (natural log)
### p(mat) = 0.75 · loss = 0.2876
"""
    got = answers(text, P)
    assert (got["p"], got["loss"]) == ("0.75", "0.2876")
    assert answers("## Q3 (c)\nM = 2 · 48 · 16384^2 = 25.77 GB\n", P)["c"] == "25.77 GB"


def test_a_document_title_naming_the_number_is_not_the_questions_section():
    text = """# Assignment 3 – Part 3
table { font-size: 12pt; }
## Question 1
The mask hides the future.
## Question 3
| Part | Count |
| Language modeling task | 20,857,601 |
| Classification task | 10,807,802 |
## Question 4
"""
    got = answers(text, LAB_A)
    assert (got["lm"], got["cls"]) == ("20,857,601", "10,807,802")


def test_a_table_beside_its_caption_is_no_sentence_of_the_claim():
    text = """# 4 Question 4
Validation accuracy after each epoch (from the notebook, 5 epochs, same seed):
| **Epoch** | **1** | **2** | **3** |
| pre-trained | 0.781 | 0.823 | 0.842 |
| from scratch | 0.642 | 0.701 | 0.739 |
Table 1: Validation accuracy per epoch.
The pre-trained model is ahead at every epoch."""
    found = find_claim(text, SERIES)
    assert found is not None and found[:2] == ("pretrained", "scratch")


SLACK = """#lab-b-help

Samuel Adeyemi  11:02 PM
*Question 1*
Total: 22,829,056 (matches what the notebook prints)
9 replies

    Grace Nwosu  11:06 PM
    I got 22,696,960 🤔 did you count the position embeddings?

    Samuel Adeyemi  11:07 PM
    RoBERTa uses learned positions so they're trainable, that's the 132,096

    Samuel Adeyemi  11:15 PM
    *Task 3* — pre-trained
    seed 1 → best val 0.853 @ 1200, test 0.841
"""


def test_a_chat_threads_replies_are_talk_and_the_labelled_messages_stand():
    out = student_thread(SLACK.splitlines())
    kept = [line.strip() for line in out if line.strip()]
    assert kept == ["#lab-b-help", "*Question 1*",
                    "Total: 22,829,056 (matches what the notebook prints)", "9 replies",
                    "*Task 3* — pre-trained", "seed 1 → best val 0.853 @ 1200, test 0.841"]
    assert len(out) == len(SLACK.splitlines())  # line numbers stay the file's
    # one author's notes are no thread: nothing is blanked
    alone = [line for line in SLACK.splitlines() if "Grace" not in line and "I got" not in line]
    assert student_thread(alone) == alone


def test_a_legends_short_names_name_the_models_of_the_tables_columns():
    text = """| Seed | PT best val | PT step | PT test | Scratch best val | Scratch step | Scratch test |
|:---:|:---:|:---:|:---:|:---:|:---:|:---:|
| 1 | 0.853 | 1200 | 0.841 | 0.712 | 1800 | 0.698 |
| 2 | 0.851 | 1400 | 0.840 | 0.705 | 2000 | 0.699 |

(PT = pre-trained RoBERTa, Scratch = same architecture randomly initialised.)
"""
    rows = sorted((c["family"], c["seed"], c["best_validation"], c["step"], c["test"])
                  for c in parse_claims(text, {"pretrained": ["pretrained", "pre-trained"],
                                               "scratch": ["scratch", "random"]}))
    assert rows == [("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.84),
                    ("scratch", 1, 0.712, 1800, 0.698), ("scratch", 2, 0.705, 2000, 0.699)]
    # "PT" inside a word names nothing ("script"), and no legend, no short name
    assert not [c for c in parse_claims(text.replace("(PT = pre-trained RoBERTa, ", "("),
                                        {"pretrained": ["pretrained"], "scratch": ["scratch"]})
                if c["family"] == "pretrained"]
