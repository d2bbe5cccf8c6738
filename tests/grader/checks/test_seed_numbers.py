"""Steps as students write them in per-seed claims (lab B, T3/T4): grouped by spaces, after "@".

Why: "step 1 400" (SI style, or Word's narrow no-break space) used to be read as step 1
and a stray 400, a certain claim the logs then contradict, telling an honest student
their figures are wrong. "val 0.851 @ 1400" left the step unread. Expected values were
written from the text by hand: (seed, best validation, step, test).
"""

from __future__ import annotations

import pytest

from grader.checks.seedclaims import Families, parse_claims
from grader.checks.seedwords import read_numbers

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch"]})


def claims(text: str) -> list[tuple[int, float | None, int | None, float | None]]:
    return [(c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


@pytest.mark.parametrize("text", [
    "Seed 2: 85.1 % val., step 1 400, 84.0 % test.",
    "Seed 2: 85.1 % val., step 1\u202f400, 84.0 % test.",  # narrow no-break space
    "Seed 2: 85.1 % val., step 1\u00a0400, 84.0 % test.",  # no-break space
    "Seed 2 \u2192 val 0.851 @ 1400, test 0.840",
    "Seed 2 \u2192 val 0.851 @ 1.4k, test 0.840",
])
def test_a_step_grouped_by_spaces_or_after_an_at_sign_is_read_whole(text):
    assert claims(text) == [(2, 0.851, 1400, 0.84)]


def test_a_step_before_the_word_steps_grouped_by_spaces_is_read_whole():
    assert claims("Seed 3 peaks at 0.72 after 12 000 steps, with 0.707 on the test set.") == [
        (3, 0.72, 12000, 0.707)]


def test_numbers_with_spaces_away_from_a_step_word_stay_apart():
    # three-digit groups after "steps" are a list, not one number; no step word, no step
    roles = [(n.value, n.role) for n in read_numbers("steps 200 400 600 and 1 400 tokens")]
    assert roles[:3] == [(200, "step"), (400, "other"), (600, "other")]
    assert (1400, "step") not in roles


def test_an_at_sign_before_epochs_or_a_percentage_is_no_step():
    assert [(n.value, n.role) for n in read_numbers("val 0.851 @ 3 epochs")] == [
        (0.851, "acc"), (3, "epoch")]
    assert [(n.value, n.role) for n in read_numbers("@ 85%")] == [(0.85, "acc")]


@pytest.mark.parametrize("text", [
    "The scratch model learns slowly; with 2k steps it cannot learn language.",
    "Both models were fine-tuned for 2,000 steps and evaluated every 200 steps.",
    "Training ran for a total of 2000 steps.",
])
def test_a_length_of_training_or_an_interval_is_no_step_of_a_claim(text):
    # after a seed, such a sentence used to add a step the logs contradict (h3-labB-md-ksteps)
    assert claims("Seed 3 peaks at 0.720 at step 1600 (test 0.707). " + text) == [
        (3, 0.72, 1600, 0.707)]


def test_the_step_of_a_peak_written_as_after_n_steps_is_still_read():
    assert claims("With seed 1, validation peaks at 0.86 after 800 steps, with 0.85 test "
                  "accuracy.") == [(1, 0.86, 800, 0.85)]
