"""Figures named by a legend after them: "0.851 / 0.840 (val / test)" (lab B, T3/T4).

Why: the split named right after a figure names that figure ("0.841 on the test set"),
so "(val / test)" after "0.840" made 0.840 the validation figure and left 0.851 unread:
a certain claim the logs contradict. A legend in parentheses names the figures joined by
"/" before it, in order; when they are not such a group, it names none of them. Expected
claims were written from the text by hand: (family, seed, best validation, step, test).
"""

from __future__ import annotations

import pytest

from grader.checks.seedclaims import Families, parse_claims

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch"]})


def claims(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


@pytest.mark.parametrize(("text", "expected"), [
    ("Pre-trained, seed 2: 0.851 / 0.840 (val / test) at step 1400.",
     [("pretrained", 2, 0.851, 1400, 0.840)]),
    ("Seed 2: 85.1% / 84.0% (validation/test acc.), step 1400",
     [(None, 2, 0.851, 1400, 0.840)]),
    ("Seed 2 (step 1400): 0.840, 0.851 (test, val)", [(None, 2, 0.851, 1400, 0.840)]),
])
def test_a_legend_names_the_figures_joined_before_it_in_order(text, expected):
    assert claims(text) == expected


def test_a_legend_after_a_single_figure_names_none():
    # which of the two splits 0.840 is cannot be told: the step alone is read
    assert claims("Seed 2: 0.840 (val / test) at step 1400.") == [(None, 2, None, 1400, None)]


def test_a_split_named_after_a_figure_still_names_it():
    assert claims("For seed 2 it peaks at 0.851 (validation) at step 1400, with 0.840 on "
                  "the test set.") == [(None, 2, 0.851, 1400, 0.840)]
