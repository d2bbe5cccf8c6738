"""Held-out-8's families, on small reports written here (not the corpus's files): question
words and part names in Russian, answers kept as an INI or config file's ``key = value``
lines."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.labels import parse_label
from grader.written.reading.lightweight import as_markdown
from grader.written.vocabulary import ANSWER_LINE, contents_lines

LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
       QuestionSpec("cls", ("Question 3",), part="Classification task")]

Q3 = [QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]


def test_russian_question_words_read_as_the_question_kind():
    for text in ("Вопрос 3", "Задание 3", "Задача 3", "Упражнение 3", "Часть 3"):
        label = parse_label(text)
        assert label is not None and (label.kind, label.num) == ("q", "3"), text


def test_a_russian_report_names_the_labs_parts_in_its_own_words():
    text = ("## Вопрос 2\nГолова выдаёт 50 001 логит.\n\n## Вопрос 3\n"
            "- голова LM: 200 · 50 001 + 50 001 = 10 050 201\n"
            "- голова классификатора: 200 · 2 + 2 = 402\n\n"
            "**Модель для языкового моделирования:** 10 000 200 + 968 000 + 10 050 201 = "
            "**21 018 401** параметров.\n\n"
            "**Модель для классификации:** 10 000 200 + 968 000 + 402 = **10 968 602**.\n\n"
            "## Вопрос 4\nЭпоха 3: 0,81.\n")
    got = extract_answers(text, LAB)
    assert (got["lm"].answer, got["cls"].answer) == ("21 018 401", "10 968 602")


def test_a_russian_model_is_no_modeling():
    # "модель" (a model) names neither part; only "моделирования" (modeling) names the
    # language-modeling one, so the classifier's line stays the classifier's
    text = ("## Вопрос 3\n**Модель для классификации:** **10 968 602**.\n"
            "**Модель для языкового моделирования:** **21 018 401**.\n")
    got = extract_answers(text, LAB)
    assert got["cls"].answer == "10 968 602"


INI = ("# A3 answers\n# student = \"T. L.\"\n\n[q3.c]\n# bytes = 2 * 12884901888\n"
       "q3c = 24.0 GB\n\n[q3.d]\n# per layer: 302020608\nq3d = 14.497 billion\n\n"
       "[q3.e]\n# (I) 8*6144*2 = 98304\nq3e1 = 9437184\n# (II) 9437184 * 8 = 75497472 bytes\n"
       "q3_e_ii: 72.0 MB\n")


def test_an_ini_files_keys_naming_questions_are_their_answer_lines():
    got = extract_answers(as_markdown(INI), Q3)
    assert got["q3c"].answer == "24.0 GB"
    assert got["q3d"].answer == "14.497 billion"
    assert got["q3e1"].answer == "9437184"
    assert got["q3e2"].answer == "72.0 MB"


def test_a_key_is_spelled_as_the_label_grammar_reads_it_and_the_line_count_kept():
    md = as_markdown(INI)
    assert md.count("\n") == INI.count("\n")
    assert "Answer: **Q3 (c)** = 24.0 GB" in md
    assert "Answer: **Q3 (e) (ii)** = 72.0 MB" in md
    assert "## q3.e" in md


def test_a_text_with_a_few_equals_signs_is_no_ini_file():
    text = "Q3 (c)\nbytes = 2 * 12884901888\nq3c = 24.0 GB\n[note]\n"
    assert as_markdown(text) == text


CHAT = ("Lab B write-up (my office-hour chat)\n\n"
        "[14:02] TA: Let's start with Question 1. How many parameters?\n"
        "[14:03] Me: embeddings 32000 x 512 = 16,384,000 and 4 layers of 1,577,984.\n"
        "[14:06] TA: Formula and number?\n"
        "[14:07] Me: so the total is 22,696,960\n"
        "[14:08] TA: Fine, write that down. Now Task 3: the best accuracy per seed.\n"
        "[14:17] Me: seed 1 peaks at 0.853\n")


def test_a_tas_turn_naming_a_question_opens_its_section_in_a_transcript():
    md = as_markdown(CHAT)
    assert md.count("\n") == CHAT.count("\n")
    lines = md.split("\n")
    assert lines[2] == "## Question 1" and lines[6] == "## Task 3"  # the last one named
    assert lines[5].strip() == "so the total is 22,696,960"  # the student's turn, unnamed
    got = extract_answers(md, [QuestionSpec("q1", ("Question 1",))])
    assert got["q1"].answer == "22,696,960"


def test_a_students_own_turn_naming_a_question_stays_the_students():
    text = ("TA: Question 1?\nMe: Question 1 is 22,696,960\nTA: ok\nMe: thanks\n")
    assert as_markdown(text).split("\n")[1] == "   Question 1 is 22,696,960"


def test_a_text_with_a_few_colons_is_no_transcript():
    text = "Student: A. B.\nCourse: lab B\nQuestion 1: 22,696,960\n"
    assert as_markdown(text) == text


def test_working_and_result_lines_are_no_transcript():
    text = ("Working: 2 * 12884901888\nResult: Q3 (c) is 25.77 GB\n"
            "Working: 48 * 302020608\nResult: Q3 (d) is 14.497 billion\n")
    assert as_markdown(text) == text


def test_a_keywords_value_beats_a_count_in_parentheses_after_it():
    text = ("## Q3 (c)\n\nso 25,769,803,776 bytes.\n\n> [!IMPORTANT]\n"
            "> **Result:** 25.77 GB for the attention scores of one layer (all 48 heads)\n")
    got = extract_answers(text, [QuestionSpec("q3c", ("Q3 (c)",))])
    assert got["q3c"].answer == "25.77 GB"
    # with no value after the keyword outside them, the parentheses' value still counts
    text = "## Q3 (c)\n\nResult (all heads): so 25.77 GB\n"
    assert extract_answers(text, [QuestionSpec("q3c", ("Q3 (c)",))])["q3c"].answer == "25.77 GB"


SIDEBAR = ("**Part 3 — Analysis**\nQ3 (c) Attention memory Q3 (d) FFN parameters\n"
           "Q3 (e) (I) LoRA parameters\nQ3 (e) (II) Adam states Q3 (e) (III) Comparison\n"
           "Home › Assignment 3 › Part 3\n# Q3 (e) (III) Comparison\n"
           "The LoRA memory is **about 1536 times smaller** than the FFN's.\n")


def test_a_pages_navigation_opens_no_section():
    got = extract_answers(SIDEBAR, [QuestionSpec("q3e3", ("Q3 (e)",), part="(III)")])
    assert got["q3e3"].answer == "1536 times"


def test_headings_one_under_another_are_no_navigation():
    assert contents_lines(SIDEBAR.split("\n")) == {0, 1, 2, 3}
    # a line with a number besides its labels' is the student's: no run of entries
    assert contents_lines(["Q3 (c) 25.77 GB", "Q3 (d) 14.5 billion Q3 (e) 9437184",
                           "Q3 (e) (II) 75.5 MB Q3 (e) (III) 0.065 %"]) == set()


def test_a_margin_notes_answer_naming_its_part_beats_the_working_after_it():
    text = ("## Q3 (c)\nwork\nAnswer (d): 14.50 billion parameters\n## Q3 (d)\n"
            "Each layer has 24,576 + 6,144 = 30,720 biases, 302,020,608 in all.\n## Q3 (e)\n")
    got = extract_answers(text, [QuestionSpec("q3d", ("Q3 (d)",))])
    assert (got["q3d"].answer, got["q3d"].why) == ("14.50 billion", "answer line")
    assert ANSWER_LINE.match("Answer (e)(II): 75.5 MB")
    assert not ANSWER_LINE.match("Answer (see the table) below")


def test_an_answer_line_of_working_naming_its_part_keeps_its_bold_answer():
    text = ("## Q3 (e)\n**Answer (I):** per matrix 8 × 6144 + 6144 × 8 = 98,304; total = "
            "98,304 × 96 = **9,437,184** trainable parameters.\n**Answer (II):** **75.5 MB**.\n")
    got = extract_answers(text, [QuestionSpec("q3e1", ("Q3 (e)",), part="(I)")])
    assert got["q3e1"].answer == "9,437,184"


def test_a_sentence_summing_both_parts_up_after_the_table_answers_each():
    text = ("# Question 3\n| **Component** | **LM** | **Classifier** |\n|---|---|---|\n"
            "| Token embedding | 10,000,200 | 10,000,200 |\n| Head | 10,050,201 | 402 |\n"
            "In total the language-model network has 20,857,601 trainable parameters and "
            "the classifier 10,807,802.\n# Question 4\nBetter.\n")
    got = extract_answers(text, [
        QuestionSpec("lm", ("Question 3",), part="Language modeling task",
                     synonyms={"Language modeling task": ("Pre-training (LM) model",)}),
        QuestionSpec("cls", ("Question 3",), part="Classification task")])
    assert (got["lm"].answer, got["cls"].answer) == ("20,857,601", "10,807,802")


def test_trainable_names_no_pre_training_part():
    text = ("# Question 3\nSo the pre-training network has *21,018,401* trainable parameters.\n"
            "\n## The sentiment classifier (same body)\nThe sentiment classifier has "
            "*10,968,602* trainable parameters: the same 10,968,000 of embedding and encoder.\n")
    got = extract_answers(text, [
        QuestionSpec("lm", ("Question 3",), part="Language modeling task",
                     synonyms={"Language modeling task": ("Pre-training (LM) model",)}),
        QuestionSpec("cls", ("Question 3",), part="Classification task")])
    assert got["lm"].answer == "21,018,401"


A2 = [QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "softmax")),
      QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "-ln"))]


def test_the_value_after_a_labels_unnamed_working_item_is_still_the_labels():
    # "softmax" names p's working; "sum = 26.779" names no answer and ends that run; the
    # settled "p = 0.750" after it outranks the working, and the loss keeps its own line
    text = ("## Q3 (a)\n(II) softmax of [0.5, 0.1, 3.0, 0.2, 1.0]\n"
            "exp = [1.649, 1.105, 20.086, 1.221, 2.718], sum = 26.779\n"
            "p = 20.086 / 26.779\np = 0.750\nloss = -ln(0.750)\nloss = 0.288\n")
    got = extract_answers(text, A2)
    assert (got["p"].answer, got["loss"].answer) == ("0.750", "0.288")


def test_unlabelled_working_before_a_label_stays_out_of_its_answer():
    text = ("## Q3 (a)\n(II)\nWorking: $\\sum_j e^{z_j} = 26.7791$; $e^{3.0} = 20.0855$.\n\n"
            "Answer: $p(\\text{mat}) = 0.75$, loss $= -\\ln 0.75 = 0.288$\n")
    got = extract_answers(text, A2)
    assert (got["p"].answer, got["loss"].answer) == ("0.75", "0.288")


def test_a_rows_answer_cell_is_not_owned_by_the_label_ending_its_working_cell():
    # the working cell ends "loss = −log(p)"; the answer cell's "p = 0.7500" is p's
    text = ("| Question | Working | Answer |\n|---|---|---|\n"
            "| Q3(a)(II) | sum = 26.7791; p = 20.0855 / 26.7791; loss = −log(p) "
            "| p = 0.7500 loss = 0.1249 |\n| Q3(b) | prose | – |\n")
    got = extract_answers(text, A2)
    assert (got["p"].answer, got["loss"].answer) == ("0.7500", "0.1249")


def test_a_rows_first_cell_names_whose_values_the_row_holds():
    text = ("## Q3 (a)\n(II)\n\n| Step | Working | Value |\n|---|---|---|\n"
            "| Probability of mat | e^3 / 26.779 | 0.750 |\n"
            "| Cross-entropy loss | -ln(0.750) | 0.288 |\n")
    got = extract_answers(text, A2)
    assert (got["p"].answer, got["loss"].answer) == ("0.750", "0.288")
