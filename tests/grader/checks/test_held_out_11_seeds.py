"""Per-seed figures as the held-out-11 batch wrote them (lab B, T3/T4), by family.

Why: each form below read a row the report does not give, or none at all, so the logs
check held a wrong figure, or nothing, against the logs. The families: the length of
every run written after the last seed's figures ("… test 0.850 eval every 200 steps, 2000
steps per run", as a slide's notes line is glued to its last bullet), read as that
seed's step; a run named by a heading ("Pre-trained – seed 2") with its figures in a
key/value table under it ("| Reached at step | 1400 |"), read not at all; and a table in
a language with a decimal comma ("0,853", steps grouped with a dot: "1.200") and its
own word for "step" ("Bước"), read not at all. Expected claims were written from the text
by hand: (family, seed, best validation, step, test).
"""

from __future__ import annotations

import pytest

from grader.checks.seedclaims import Families, parse_claims
from grader.checks.seedwords import cell_value

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"],
                     "scratch": ["scratch", "random", "not pre-trained"]},
                    {"pretrained": ["fine-tuned"]})


def claims(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


def test_the_length_of_every_run_after_the_last_seed_is_no_step_of_it():
    text = ("## Task 3/4 – pre-trained model\n"
            "Seed 1 — best val 0.853 @ step 1200 → test 0.841\n"
            "Seed 2 — best val 0.851 @ step 1400 → test 0.840\n"
            "Seed 3 — best val 0.861 @ step 1600 → test 0.850 eval every 200 steps, 2000 "
            "steps per run\n")
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                            ("pretrained", 2, 0.851, 1400, 0.840),
                            ("pretrained", 3, 0.861, 1600, 0.850)]


@pytest.mark.parametrize("tail", ["2k steps in total", "1200 steps per seed"])
def test_a_run_length_in_a_sentence_is_no_step(tail):
    assert claims(f"Seed 1: best val 0.853 at step 1200, test 0.841; {tail}.") == [
        (None, 1, 0.853, 1200, 0.841)]


HEADINGS = """## Task 3 / Task 4
Each run trains for 2,000 steps and evaluates every 200 steps.
### Pre-trained – seed 1
| Best validation accuracy | 0.853 |
| Reached at step | 1200 |
| Test accuracy at that step | 0.841 |
### Random init – seed 2
| Best validation accuracy | 0.705 |
| Reached at step | 2000 |
| Test accuracy at that step | 0.699 |
The pre-trained model wins every seed; the random-init model is still climbing at step 2000.
"""


def test_a_key_value_table_under_a_heading_that_names_the_run():
    assert claims(HEADINGS) == [("pretrained", 1, 0.853, 1200, 0.841),
                                ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_key_value_table_may_name_its_seed_in_a_row():
    text = ("### Pre-trained model\n| Seed | 3 |\n| Best val acc | 0.861 |\n| Step | 1600 |\n"
            "| Test acc | 0.850 |\n")
    assert claims(text) == [("pretrained", 3, 0.861, 1600, 0.850)]


def test_a_two_column_table_with_a_key_of_no_field_is_not_read_as_pairs():
    # a table of settings: "Learning rate" names no field, so no figure is read
    text = "### Pre-trained – seed 1\n| Learning rate | 0.0001 |\n| Steps | 2000 |\n"
    assert claims(text) == []


VIETNAMESE = """| Mô hình | Seed | Val tốt nhất | Bước | Test |
| Mô hình pre-trained | 1 | 0,853 | 1.200 | 0,841 |
| Mô hình scratch (khởi tạo ngẫu nhiên) | 2 | 0,705 | 2.000 | 0,699 |
"""


def test_a_table_with_decimal_commas_and_its_own_word_for_step():
    assert claims(VIETNAMESE) == [("pretrained", 1, 0.853, 1200, 0.841),
                                  ("scratch", 2, 0.705, 2000, 0.699)]


@pytest.mark.parametrize(("header", "model"), [
    ("Krok", "wstępnie wytrenowany"), ("Stap", "voorgetraind"), ("Langkah", "pra-latih")])
def test_step_headers_and_model_names_of_other_languages(header, model):
    text = (f"| Model | Seed | Val | {header} | Test |\n"
            f"| {model} | 1 | 0,853 | 1.200 | 0,841 |\n")
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841)]


@pytest.mark.parametrize(("cell", "role", "want"), [
    ("1.200", "step", 1200), ("12 000", "step", 12000), ("1.2k", "step", 1200),
    ("1,200", "step", 1200), ("0,853", "test", 0.853), ("85,3 %", "test", 0.853)])
def test_a_cell_read_with_a_decimal_comma_or_dotted_thousands(cell, role, want):
    assert cell_value(cell, role) == want
