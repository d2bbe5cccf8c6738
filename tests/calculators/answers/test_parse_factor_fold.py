"""A factor joined to its number by a hyphen ("1536-fold smaller", held-out-41's NHS
e-portfolio form) is the factor convention's answer, as "1536 times" is; a letter after a
hyphen ("2-x") is no factor word."""

from __future__ import annotations

import pytest

from calculators.answers import parse_answer


@pytest.mark.parametrize("text", ["1536-fold", "1536-fold smaller", "~1536-fold", "1536 fold"])
def test_a_fold_is_a_factor(text: str):
    got = parse_answer(text)
    assert (got.status, got.value, got.unit) == ("ok", 1536, "times")


def test_a_letter_after_a_hyphen_is_no_factor():
    assert parse_answer("2-x").unit != "times"
