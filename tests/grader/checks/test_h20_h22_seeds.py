"""Held-out-20 to -22's per-seed families, each read from the shape of its text.

Why: lab B reports of these batches gave no per-seed figures at all. A phone's notes and
an OCR'd screenshot name a seed by the shorthand "s1" glued to it ("pretrained s1: best
val 0.853 @ step 1200, test 0.841"), which no seed word matched, so no run had a seed.
The screenshot's text layer runs every run into one line and ends it with "pretrained is
~14 points better on all seeds …; scratch still rising at step 2000", whose step was read
as the last seed's. A Word report laid out as one "| Question | Answer |" table puts all
of T3 in one cell, its runs one after another ("pre-trained, seed 1: best val 0.853 at
step 1200, test 0.841 pre-trained, seed 2: …"): a table with no field in its header gave
nothing, and its cell was never read as the prose it is. Expected claims were written
from the text by hand: (family, seed, best validation, step, test).

Lab A's Q4 claim too: "The pre-trained model is ahead in the first epochs but at the end
both models reach the same accuracy (0.81)" was read as the pre-trained model better, its
concluding clause ("at the end both … reach the same") giving nothing: of the verbs that
end a race level ("end up", "finish", "become"), "reach" was not one.
"""

from __future__ import annotations

import pytest

from tests.grader.checks._claims import better
from tests.grader.checks._seeds import EXPECTED, claims


def test_a_seed_written_as_s_and_its_number_is_that_seed():
    text = ("- [x] pretrained s2: best val 0.851 @ step 1400, test 0.840\n"
            "- [x] scratch s3: best val 0.720 @ step 1600, test 0.707\n")
    assert claims(text) == [EXPECTED[1], EXPECTED[5]]


def test_runs_run_together_on_one_line_are_cut_at_each_model_and_seed():
    text = ("pretrained s1: val 0.853 (step 1200) test 0.841 pretrained s2: val 0.851 "
            "(step 1400) test 0.840 scratch s1: val 0.712 (step 1800) test 0.698\n")
    assert claims(text) == [EXPECTED[0], EXPECTED[1], EXPECTED[3]]


def test_an_upper_case_s_or_a_long_number_is_no_seed():
    # "Fig. S1" is a supplementary figure, "s12345" an id: neither names a run's seed
    assert claims("See Fig. S1: pretrained best val 0.853 at step 1200.\n") == []
    assert claims("pretrained s12345: best val 0.853 at step 1200.\n") == []


def test_a_step_after_a_piece_about_all_seeds_is_of_no_seed():
    text = ("scratch s3: val 0.720 (step 1600) test 0.707 pretrained is ~14 points better "
            "on all seeds and peaks mid-training; scratch still rising at step 2000.\n")
    assert claims(text) == [EXPECTED[5]]


@pytest.mark.parametrize(("text", "want"), [
    ("The pre-trained model is ahead in the first epochs but at the end both models reach "
     "the same accuracy (0.81).", "equal"),
    ("The pre-trained model leads early, but by the end the two models achieve the same "
     "validation accuracy.", "equal"),
    ("The scratch model is behind at first, but in the end both get similar scores.", "equal"),
    # a rate or a level reached on the way is no end state: the comparison stands
    ("The pre-trained model reaches the same accuracy earlier and stays ahead of the "
     "scratch model.", "pretrained"),
    ("Both models reach 0.8 at some point, but the pre-trained model ends higher.",
     "pretrained"),
])
def test_a_concluding_clause_where_both_reach_the_same_says_neither_wins(text, want):
    assert better(text) == want


ANSWER_TABLE = """| Question | Answer |
| Question 1 | V·d + (T+2)·d + 2d + N·(6d^2 + 10d) = 22,829,056 trainable parameters |
| Task 3 | pre-trained, seed 1: best val 0.853 at step 1200, test 0.841 pre-trained, seed 2: best val 0.851 at step 1400, test 0.840 scratch, seed 3: best val 0.720 at step 1600, test 0.707 |
| Task 4 | The pre-trained model is better on all three seeds by about 0.14. |
"""


def test_a_question_and_answer_table_whose_cell_lists_the_runs_is_read_as_prose():
    assert claims(ANSWER_TABLE) == [EXPECTED[0], EXPECTED[1], EXPECTED[5]]


def test_the_cell_is_read_where_the_table_is_only_its_row():
    # the section under "Task 3" is the row alone: a table of one row, no header
    row = ANSWER_TABLE.splitlines()[2]
    assert claims(row) == [EXPECTED[0], EXPECTED[1], EXPECTED[5]]


def test_a_cell_that_names_no_seed_is_not_read_as_prose():
    # its figures would take the seed of whatever was read last
    text = ("| Question | Answer |\n| Task 3 | the pre-trained model: best val 0.853 at "
            "step 1200, test 0.841 on the first run |\n")
    assert claims(text) == []


def test_a_table_of_figures_is_still_read_by_its_columns():
    text = ("| Model | Seed | Best val | Step | Test |\n| --- | --- | --- | --- | --- |\n"
            "| pre-trained | 2 | 0.851 | 1400 | 0.840 |\n")
    assert claims(text) == [EXPECTED[1]]
