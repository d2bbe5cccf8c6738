"""Held-out-17 to -19's per-seed families, each read from the shape of its text.

Why: five lab B reports of these batches had their per-seed figures read wrong. A pandas
DataFrame printed with its index (a Quarto-rendered report: "2  pretrained  3  0.861  1600
0.842" under "model  seed  best_val  step  test") had one number more a row than its
header has fields, so no row was read. A training length in the prose after the table
("… still rising at the end for seed 2. … that 2000 steps on the small labelled set
cannot learn") was read as seed 2's step, a contradiction the student never wrote. A Word
table whose title cell spans the seeds' columns ("| Model | Best run per seed |" over "|
Model | Seed 1 | Seed 2 | Seed 3 |"), each cell a run in words ("val 0.853 @ 1200 / test
0.841"), gave nothing. A list numbered by hand with a full-width bracket glued to its text
("1）Pre-trained, seed 1: …") read its "1" as step 1 of the line above ("… at that
step:"). Expected claims were written from the text by hand: (family, seed, best
validation, step, test).
"""

from __future__ import annotations

from tests.grader.checks._seeds import EXPECTED, claims

DATAFRAME = """best_runs[['model', 'seed', 'best_val', 'step', 'test']]
        model  seed  best_val  step   test
0  pretrained     1     0.853  1200  0.841
1  pretrained     2     0.851  1400  0.840
2  pretrained     3     0.861  1600  0.850
3     scratch     1     0.712  1800  0.698
4     scratch     2     0.705  2000  0.699
5     scratch     3     0.720  1600  0.707
"""


def test_a_dataframe_printed_with_its_index_is_read_without_the_index():
    assert claims(DATAFRAME) == EXPECTED


def test_the_index_is_dropped_when_a_word_processor_closes_up_the_columns():
    text = "model seed best_val step test\n0 pretrained 1 0.853 1200 0.841\n"
    assert claims(text) == EXPECTED[:1]


def test_a_row_of_one_number_more_that_leads_with_its_model_is_not_read():
    # the extra number is not before the model: which column it is, is not known
    text = "model seed best_val step test\npretrained 1 7 0.853 1200 0.841\n"
    assert claims(text) == []


TABLE = """| model      | seed | best val | step | test  |
|------------|------|----------|------|-------|
| pretrained | 2    | 0.851    | 1400 | 0.840 |
| scratch    | 2    | 0.705    | 2000 | 0.699 |
"""


def test_a_training_length_after_a_sentence_naming_a_seed_is_no_claim():
    text = TABLE + """
The scratch model is still improving at the end for seed 2. Pre-training gives the encoder
what 2000 steps on a small labelled set cannot learn from scratch.
"""
    assert claims(text) == [EXPECTED[1], EXPECTED[4]]


def test_a_length_said_with_in_is_no_claim_either():
    text = TABLE + """
For seed 2 the randomly initialised model is still rising at the last step. The pre-trained
weights already encode syntax, which the small labelled set cannot teach in 2000 steps.
"""
    assert claims(text) == [EXPECTED[1], EXPECTED[4]]


def test_a_step_alone_still_joins_the_run_its_seed_names():
    text = ("For seed 2 the pre-trained model's best validation accuracy is 0.851. "
            "It was reached at step 1400.\n")
    assert claims(text) == [("pretrained", 2, 0.851, 1400, None)]
    text = "Seed 2 of the scratch model needed 2000 steps.\n"
    assert claims(text) == [("scratch", 2, None, 2000, None)]


def test_a_title_row_over_a_header_of_seeds_is_no_header():
    text = """| **Model** | **Best run per seed** |
| **Model** | Seed 1 | Seed 2 | Seed 3 |
| Pre-trained | val 0.853 @ 1200 / test 0.841 | val 0.851 @ 1400 / test 0.840 | val 0.861 @ 1600 / test 0.850 |
| Random init | val 0.712 @ 1800 / test 0.698 | val 0.705 @ 2000 / test 0.699 | val 0.720 @ 1600 / test 0.707 |
"""
    assert claims(text) == EXPECTED


def test_a_title_cell_repeated_over_the_seeds_and_runs_written_as_sentences():
    text = """| | Best run | Best run |
|---|---|---|
| | seed 1 | seed 2 |
| pre-trained | 0.853 at step 1200 (test 0.841) | 0.851 at step 1400 (test 0.840) |
"""
    assert claims(text) == EXPECTED[:2]


def test_a_cell_with_a_number_of_no_field_gives_nothing():
    text = """| Model | Seed 1 | Seed 2 |
| pre-trained | val 0.853 @ 1200 / test 0.841 (3 runs) | val 0.851 @ 1400 / test 0.840 |
"""
    assert claims(text) == EXPECTED[1:2]


def test_a_list_numbered_with_a_bracket_glued_to_its_text():
    text = """Best validation accuracy, its step and the test accuracy at that step:
1)Pre-trained, seed 1: best val 0.853 at step 1200, test 0.841
2）Pre-trained, seed 2: best val 0.851 at step 1400, test 0.840
3)Random init, seed 1: best val 0.712 at step 1800, test 0.698
"""
    assert claims(text) == [EXPECTED[0], EXPECTED[1], EXPECTED[3]]


def test_a_fixed_width_table_pasted_into_a_chat_is_read_as_the_students_rows():
    # held-out-17's Teams chat: the rows are read once the section holds them (the
    # section itself is cut by the report reader, grader/written)
    text = """Oliver Grant  [27/11 21:41]
Task 3 - best validation accuracy per seed, step, test acc at that step:
model        seed  best_val  step   test
pretrained   1     0.853     1200   0.841
scratch      1     0.712      1800   0.712

Chloe Martin  [27/11 21:43]
nice, mine peaked at step 1400
"""
    assert claims(text) == [EXPECTED[0], ("scratch", 1, 0.712, 1800, 0.712)]
