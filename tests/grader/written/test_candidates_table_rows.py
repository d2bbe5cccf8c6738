"""Which value of a table row answers: a Given / Working / Answer table read down its
first column, a fraction in a cell, the row's answer cell after a working cell."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.formulas import formulas_in_line

E3 = [QuestionSpec("e3", ("Q3 (e)",), part="(III)")]


def _e3(rows: str) -> str | None:
    text = "## Q3 (e)\n(III)\n\n| | |\n|--|--|\n" + rows
    return extract_answers(text, E3)["e3"].answer


def test_a_row_whose_first_cell_is_answer_is_an_answer_line():
    rows = ("| **Working** | FFN states ≈ 115.98 GB; 75.5 MB / 115.98 GB |\n"
            "| **Answer** | 1/1536 of the FFN optimizer memory |\n")
    assert _e3(rows) == "1/1536"


def test_a_fraction_of_working_in_a_middle_cell_stays_working():
    rows = "| Ratio | 75.5 MB / 115.98 GB | 0.065 % |\n"
    assert _e3(rows) == "0.065 %"


def test_a_fraction_in_a_tables_last_cell_is_one_formula():
    found = formulas_in_line("| **Answer** | 1/1536 of the FFN optimizer memory |", {}, [])
    assert [(s, e) for s, e, _, _ in found] == [(15, 21)]


A2 = [QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)",)),
      QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "cross-entropy"))]


def test_a_label_inside_a_logarithm_with_a_base_names_no_answer():
    # "-\log_2 p(mat)" is the loss's formula: the 0.415 after it stays the loss's
    for log in ("-\\log_2", "-log_2", "-log2", "-log₂", "-\\log_{10}"):
        text = (f"## Q3 (a)\n(II)\n**Answer:** p(mat) = 0.7500, cross-entropy loss "
                f"= {log} p(mat) = 0.415 bits.\n")
        got = extract_answers(text, A2)
        assert (got["p"].answer, got["loss"].answer) == ("0.7500", "0.415 bits"), log


def test_a_decimal_without_its_leading_zero_is_a_value():
    text = ("Q3\n* a\n  - ii: p(mat) = e^3 / (e^.5 + e^.1 + e^3 + e^.2 + e^1) = 20.09/26.78 = .75\n"
            "        CE = -ln(.75) = .288\n* b\n  - decoder-only\n")
    specs = [QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)",)),
             QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("CE", "loss"))]
    got = extract_answers(text, specs)
    assert (got["p"].answer, got["loss"].answer) == (".75", ".288")


def test_the_value_after_an_arrow_is_the_steps_result():
    for arrow in ("->", "-->", "→", "=>", "⇒"):
        text = f"## Q3 (e)\n(II)\nAdam 8B/param: 9,437,184 * 8B {arrow} 75.49MB\n"
        got = extract_answers(text, [QuestionSpec("e2", ("Q3 (e)",), part="(II)")])
        assert got["e2"].answer == "75.49MB", arrow


LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task",
                    labels=("LM model trainable parameters",)),
       QuestionSpec("cls", ("Question 3",), part="Classification task",
                    labels=("Classification model trainable parameters",))]


def test_a_pasted_printed_line_naming_the_answer_gives_it():
    text = ("# Question 3\nFor the language modeling task and the classification task, the "
            "cell printed:\n```\nLM model trainable parameters: 21018401\n"
            "Classification model trainable parameters: 10968602\n```\n"
            "By hand: each encoder layer 160,800 + 80,400 + 800 = 242,000, which gives the "
            "same two numbers.\n# Question 4\n")
    got = extract_answers(text, LAB)
    assert (got["lm"].answer, got["cls"].answer) == ("21018401", "10968602")


def test_a_result_named_on_its_own_line_beats_the_working_above_it():
    text = ("# Frage 3 (c)\n48 Köpfe, 2 Byte pro Score: 48 · 16384^2 · 2 = 25.769.803.776 Byte. "
            "Ergebnis siehe Fußnote.\nSpeicherbedarf: 24,0 GB\n# Frage 3 (d)\n")
    got = extract_answers(text, [QuestionSpec("c", ("Q3 (c)",))])
    assert got["c"].answer == "24,0 GB"


def test_a_small_datum_after_a_name_is_no_named_result():
    text = "## Q3 (c)\nmemory = 25.77 GB\nHeads: 48\n## Q3 (d)\n"
    got = extract_answers(text, [QuestionSpec("c", ("Q3 (c)",))])
    assert got["c"].answer == "25.77 GB"


def test_a_given_counting_its_things_in_the_answer_sentence_is_no_second_answer():
    text = ("## Q3 (d)\nOut[8]= 14.4955\n**Answer:** the FFN sub-layers of all 48 layers have "
            "14.4955 billion parameters.\n## Q3 (e)\n")
    spec = QuestionSpec("d", ("Q3 (d)",), symbols={"H": 6144, "L": 48})
    got = extract_answers(text, [spec])["d"]
    assert (got.answer, got.shotgun) == ("14.4955 billion", ())


def test_a_number_that_is_no_given_stays_an_answer():
    text = "## Q3 (d)\n**Answer:** 14.5 billion, or 302 million per layer.\n## Q3 (e)\n"
    spec = QuestionSpec("d", ("Q3 (d)",), symbols={"H": 6144, "L": 48})
    assert extract_answers(text, [spec])["d"].shotgun != ()


def test_a_rounding_in_parentheses_restates_the_value_before_it():
    text = ("3(d)\nI ignored the bias terms.\nFFN parameters = 14,495,514,624 "
            "(about 14.5 billion)\n\n3(e)(i)\nx\n")
    got = extract_answers(text, [QuestionSpec("d", ("Q3 (d)",))])["d"]
    assert got.answer == "14,495,514,624"


def test_a_value_in_parentheses_that_is_no_rounding_of_it_stays_a_candidate():
    text = "3(d)\nFFN parameters = 14,495,514,624 (about 15 billion)\n\n3(e)(i)\nx\n"
    got = extract_answers(text, [QuestionSpec("d", ("Q3 (d)",))])["d"]
    assert got.answer == "15 billion"


def test_a_dashboards_tiles_answer_by_the_tile_the_questions_title_names():
    text = ("MARKDOWN PANEL **Question 1**\nPer layer 1,577,984; four layers 6,311,936\n"
            "| Trainable params (encoder) **22,829,056** | LoRA trainable (r=8) **65,536** |\n")
    titled = QuestionSpec("q1", ("Question 1",),
                          title="Q1 Trainable parameters of the encoder (formula and number)")
    assert extract_answers(text, [titled])["q1"].answer == "22,829,056"
    untitled = QuestionSpec("q1", ("Question 1",))  # no title: the last marked value, as before
    assert extract_answers(text, [untitled])["q1"].answer == "65,536"


def test_a_questions_number_named_in_the_answer_line_is_no_value():
    text = ("## Question 1\nembeddings 16,517,120 plus four layers 5,261,312.\n"
            "So Question 1: 21,778,432\n## Question 2\n")
    got = extract_answers(text, [QuestionSpec("q1", ("Question 1",))])["q1"]
    assert got.answer == "21,778,432"


def test_an_assignment_in_a_code_block_is_data_not_a_conclusion():
    text = ("## Question 1\nThe count:\n```\n>>> d, N = 512, 4\n>>> count(d, N)\n22829056\n```\n"
            "which is the encoder's.\n## Question 2\n")
    got = extract_answers(text, [QuestionSpec("q1", ("Question 1",))])["q1"]
    assert got.answer == "22829056"


def test_a_task_lists_box_before_a_label_opens_its_section():
    text = "- [x] Q3 (c) memory: 25.77 GB\n- [ ] Q3 (d) FFN: 14.5 billion\n"
    got = extract_answers(text, [QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",))])
    assert (got["c"].answer, got["d"].answer) == ("25.77 GB", "14.5 billion")
