"""Held-out-6's families, on small reports written here (not the corpus's files): a label
word of a kind the pack does not ask, Python's digit groups, a Korean answer word and
magnitudes, answers only in a closing summary table, the answer stated first."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers, section_text
from grader.written.phrases import named_span
from grader.written.reading.normalise import normalise

Q3 = [QuestionSpec("q3a2.p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability")),
      QuestionSpec("q3a2.loss", ("Q3 (a)",), part="(II)", labels=("loss", "-ln", "-log")),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)"),
      QuestionSpec("q3e3", ("Q3 (e)",), part="(III)")]


def test_a_task_label_opens_the_question_of_a_pack_that_asks_questions_only():
    text = ("=====\nTask 3.c\n=====\n  QK^T is 16_384 x 16_384 per head.\n"
            "  +--------+----------------+\n  | answer | 25.77 GB       |\n"
            "  +--------+----------------+\n\nTask 3.e.II\n  9_437_184 * 8 = 75_497_472 bytes\n"
            "  | answer | 75.5 MB |\n\nTask 3.e.III\n  | answer | 0.065 % |\n")
    got = extract_answers(text, Q3)
    assert got["q3c"].answer == "25.77 GB"
    assert got["q3e2"].answer == "75.5 MB"
    assert got["q3e3"].answer == "0.065 %"
    assert "25.77 GB" in section_text(text, "Q3 (c)")


def test_a_pack_that_asks_tasks_and_questions_keeps_them_apart():
    both = [QuestionSpec("t3", ("Task 3",)), QuestionSpec("q3", ("Question 3",))]
    got = extract_answers("## Task 3\nThe total is 12.\n\n## Question 3\nIt is 7.\n", both)
    assert (got["t3"].answer, got["q3"].answer) == ("12", "7")


def test_python_digit_groups_are_one_number():
    text = "Q3 (d)\n| answer | 14_496_989_184 parameters |\n"
    assert extract_answers(text, Q3)["q3d"].answer == "14_496_989_184"


def test_the_korean_answer_word_marks_the_answer_and_its_magnitudes_are_read():
    text = normalise("Q3 (c)\n48개 헤드 × 2 바이트 = 25\u2009769\u2009803\u2009776 바이트\n"
                     "답: 25.77 GB\n\nQ3 (d)\n302\u2009020\u2009608 × 48 = 14\u2009496\u2009989\u2009184\n"
                     "답: 145억 개\n")
    got = extract_answers(text, Q3)
    assert got["q3c"].answer == "25.77 GB"
    assert got["q3d"].answer == "145 × 10^8"


def test_an_answer_stated_first_beats_the_working_after_it():
    text = ("## Exercise 3 (c)\n**Answer.** 25.77 GB.\n*Working.* 48 × 16384^2 = "
            "12,884,901,888 scores, at 2 bytes each 25,769,803,776 bytes.\n")
    assert extract_answers(text, Q3)["q3c"].answer == "25.77 GB"


def test_what_stands_under_an_answer_heading_is_the_answer():
    text = ("## Question 3 (c)\n\n```python\nprint(h * S * S * 2)\n```\n\n    25769803776\n\n"
            "### Answer\n\nThe scores of one layer need 25.77 GB (2 bytes × 48 heads × 16,384²).\n"
            "\n## Question 3 (d)\n\nIt is 14.5 billion.\n")
    assert extract_answers(text, Q3)["q3c"].answer == "25.77 GB"


def test_an_answers_heading_over_a_table_leaves_the_table_its_answer_column():
    text = ("# Answers\n\n| Question | Answer | Note |\n|---|---|---|\n"
            "| Q3(a)(II) p(mat) | 0.7500 | softmax at index 2 |\n| Q3(c) | 25.77 GB | 2 bytes |\n")
    got = extract_answers(text, Q3)
    assert (got["q3a2.p"].answer, got["q3c"].answer) == ("0.7500", "25.77 GB")


SUMMARY = ("## Q3 (a)\n\n### (II)\n\n- sum = 26.7791\n- p(mat) = 20.0855 / 26.7791\n\n"
           "## Q3 (c)\n\nS² × h = 12,884,901,888 scores. In GB this is 25.77.\n\n"
           "## Q3 (d)\n\nThe FFN holds **14.50 billion** parameters.\n\n"
           "## Summary of answers\n\n| Question | Answer |\n|---|---|\n"
           "| Q3 (a)(II) probability of \"mat\" | 0.750 |\n"
           "| Q3 (a)(II) cross-entropy loss | 0.415 bits |\n"
           "| Q3 (c) attention score memory | 25.77 GB |\n| Q3 (d) FFN parameters | 14.5 billion |\n")


def test_a_summary_tables_row_answers_where_the_body_holds_working_only():
    got = extract_answers(SUMMARY, Q3)
    assert got["q3a2.p"].answer == "0.750"
    assert got["q3a2.loss"].answer == "0.415 bits"
    assert got["q3c"].answer == "25.77 GB"


def test_where_the_body_marks_its_answer_the_body_is_graded_not_the_summary():
    got = extract_answers(SUMMARY, Q3)["q3d"]
    assert (got.answer, got.why) == ("14.50 billion", "bold")


def test_a_summary_row_names_a_part_in_the_students_words():
    lab = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
           QuestionSpec("cls", ("Question 3",), part="Classification task")]
    text = ("## Q3\n\n- encoder: 50001 × 200 = 10,000,200\n- classification head: 402\n\n"
            "## Answers at a glance\n\n| Question | Answer |\n|---|---|\n"
            "| Q3 — language model | 20,857,601 parameters |\n"
            "| Q3 — classification model | 10,807,802 parameters |\n")
    got = extract_answers(text, lab)
    assert (got["lm"].answer, got["cls"].answer) == ("20,857,601", "10,807,802")


LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
       QuestionSpec("cls", ("Question 3",), part="Classification task")]


def test_an_answer_line_naming_both_parts_in_turn_answers_each_before_the_working():
    text = ("## Exercise 3\n**Answer:** Language-model network: **21,018,401** trainable "
            "parameters Classifier network: **10,968,602** trainable parameters\n"
            "| **block** | **count** |\n| LM head 200 × 50,001 + 50,001 | 10,050,201 |\n"
            "| classifier head 200 × 2 + 2 | 402 |\n")
    got = extract_answers(text, LAB)
    assert (got["lm"].answer, got["cls"].answer) == ("21,018,401", "10,968,602")


def test_a_line_is_cut_into_pieces_only_where_it_names_this_part_and_a_sibling():
    names, siblings = ["Language modeling task"], ["Classification task"]
    line = "Answer: Language-model network: 21,018,401. Classifier network: 10,968,602."
    start, stop = named_span(line, names, siblings)
    assert line[start:stop] == "Language-model network: 21,018,401. "
    assert named_span("Answer: the LM network has 21,018,401.", names, siblings) is None


def test_a_value_alone_on_a_sections_first_line_is_the_answer_stated_first():
    text = ("## Q3 (c)\n25.77 GB\n\nWorking: 48 × 16384² = 12,884,901,888 scores, "
            "times 2 bytes = 25,769,803,776 bytes.\n\n## Q3 (d)\nIt is about 14.5 billion.\n")
    got = extract_answers(text, Q3)
    assert (got["q3c"].answer, got["q3c"].why) == ("25.77 GB", "answer line")
    assert got["q3d"].answer == "14.5 billion"  # a sentence is no value alone


def test_an_answer_wrapped_before_a_parenthesis_keeps_the_parenthesis_an_aside():
    text = ("## Question 3 (e)\n\n### Answer\n\n**(III)** That is only 0.065 % of the Adam "
            "state memory the FFN parameters would need\n(about 116 GB), i.e. roughly 1500× less.\n")
    assert extract_answers(text, Q3)["q3e3"].answer == "0.065 %"


def test_a_share_an_answer_line_states_is_the_answer_not_a_comparison():
    text = "## Q3 (e)\n(III)\nAnswer: 0.065 % of the FFN's Adam memory.\n"
    assert extract_answers(text, Q3)["q3e3"].answer == "0.065 %"


def test_a_number_written_out_under_an_answer_heading_is_the_answer():
    text = ("## Question 3 (d)\n\n    302020608 14496989184\n\n### Answer\n\n"
            "About fourteen and a half billion parameters in the FFN sub-layers of all 48 layers.\n")
    got = extract_answers(text, Q3)["q3d"]
    assert (got.answer, got.why) == ("fourteen and a half billion", "answer line")


def test_number_words_without_a_scale_are_prose():
    text = "## Q3 (e)\n(I)\nAnswer: two matrices per layer give 9,437,184 parameters.\n"
    assert extract_answers(text, Q3)["q3e1"].answer == "9,437,184"


def test_decimal_commas_and_dotted_thousands_are_read_as_a_spanish_student_means_them():
    text = ("## Q3 (a) (II)\nLa suma es 26,7791.\nProbabilidad de «mat»: **0,7500**\n"
            "## Q3 (c)\n268.435.456 puntuaciones × 2 bytes.\nMemoria necesaria: **25,77 GB**\n"
            "## Q3 (d)\nPor 48 capas: 14.496.989.184.\nParámetros: **14,497 mil millones**\n")
    got = extract_answers(text, Q3)
    assert got["q3a2.p"].answer == "0,7500"
    assert got["q3c"].answer == "25,77 GB"
    assert got["q3d"].answer == "14,497 mil millones"


def test_a_list_of_indices_is_no_decimal_comma():
    text = "## Q3 (c)\nThe indices 0,1,2 give a memory of 25.77 GB.\n"
    got = extract_answers(text, Q3)["q3c"]
    assert got.answer == "25.77 GB"
    assert "0,1" not in [c.text for c in got.candidates]


def test_a_section_number_before_a_plural_label_is_a_decoration():
    text = ("# 1. Question 1 – Parameters\nTotal: 22,829,056.\n"
            "# 2. Tasks 3 and 4 – Pre-trained versus random initialisation\n"
            "Seed 1 reached 0.853 at step 1200.\n# 3. Question 2 – LoraConfig\nr = 16.\n")
    for task in ("Task 3", "Task 4"):
        got = section_text(text, [task])
        assert "Seed 1 reached 0.853" in got and "r = 16" not in got, (task, got)


def test_a_quoted_section_maps_label_words_only_where_the_report_has_none_of_its_kind():
    text = "## Question 3\nThe claim.\n\n## Task 3\nSeed 1: 0.853.\n\n## Task 4\nr = 16\n"
    assert section_text(text, ["Task 3"]) == "## Task 3\nSeed 1: 0.853."
    assert section_text(text, ["Question 3"]) == "## Question 3\nThe claim."


def test_t_and_a_number_names_a_task_only_in_a_pack_that_asks_tasks():
    text = ("Q1. Parameters\nTotal 22,829,056.\n\nT3 / T4. Pre-trained vs random init\n"
            "seed 1: 0.853\n\nQ2. LoraConfig\nr = 16\n")
    assert section_text(text, ["Task 3"]) == "T3 / T4. Pre-trained vs random init\nseed 1: 0.853"
    p3 = ("## Q3 (b)\nDecoder-only wins.\nT5: an encoder-decoder, good at translation.\n"
          "It needs 2 stacks.\n\n## Q3 (c)\nThe memory is 25.77 GB.\n")
    assert "It needs 2 stacks" in section_text(p3, "Q3 (b)")  # "T5:" ends nothing here
    assert extract_answers(p3, Q3)["q3c"].answer == "25.77 GB"
