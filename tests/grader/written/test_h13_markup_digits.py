"""Digits of every script read as ASCII digits (held-out-13's Persian report wrote
"پرسش ۳ (a)" and "۰٫۷۵"): Arabic-Indic, Extended Arabic-Indic (Persian), Devanagari,
Bengali, Thai... fold to 0-9 as NFKC folds full-width ones, and the Arabic decimal and
thousands separators between digits to '.' and ','. Lines keep their count and length."""

from __future__ import annotations

import pytest

from calculators.answers._digits import ascii_digits
from grader.written.reading.bidi import pairs_mirrored
from grader.written.reading.normalise import normalise


@pytest.mark.parametrize(("text", "want"), [
    ("پرسش ۳ (a)", "پرسش 3 (a)"),
    ("۰٫۷۵", "0.75"),
    ("١٢٬٣٤٥٫٦", "12,345.6"),
    ("३.१४", "3.14"),
    ("৯", "9"),
    ("๐.๒๕", "0.25"),
    ("２５.７７ GB", "25.77 GB"),
])
def test_every_decimal_digit_reads_as_ascii(text: str, want: str) -> None:
    assert normalise(text) == want


def test_a_separator_not_between_digits_is_kept() -> None:
    assert ascii_digits("٫x ۳٫ ٬۳") == "٫x 3٫ ٬3"


def test_lines_keep_their_count_and_length() -> None:
    text = "## پرسش ۳ (a)\n\n**پاسخ:** ۰٫۷۵\n"
    out = normalise(text)
    assert [len(ln) for ln in out.split("\n")] == [len(ln) for ln in text.split("\n")]


def test_mirrored_brackets_of_a_right_to_left_label_are_found() -> None:
    assert pairs_mirrored(")I(")
    assert pairs_mirrored("**)III(**")
    assert not pairs_mirrored("(I)")
    assert not pairs_mirrored("f(x) = 1")
    assert not pairs_mirrored("no brackets")
