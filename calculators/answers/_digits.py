"""Digits of every script, read as the ASCII digits the parser knows.

Why here: a student who writes in Persian, Arabic, Hindi or Thai types the answer in the
digits of that script ('۰٫۷۵', '١٤٫٥', '१४.५'). The report reader folds them before it
looks for labels, and ``grader answers check``, ``calc`` and the service receive the same
answers typed by hand; one fold in the calculators serves both, so the two never disagree
on what a digit is.
"""

from __future__ import annotations

import unicodedata

_ARABIC_SEPARATORS = {"\u066b": ".", "\u066c": ","}
"""The Arabic decimal (٫) and thousands (٬) separators, read as such between digits."""


def ascii_digits(text: str) -> str:
    """Every Unicode decimal digit (Arabic-Indic ٣, Persian ۳, Devanagari ३, Thai ๓ ...)
    as its ASCII digit, and ٫ / ٬ between two digits as '.' / ','. NFKC folds full-width
    digits but leaves these. One character for one, so a text keeps its length and the
    positions (and line numbers) quoted from it stay the student's own. Only decimal
    digits: circled or superscript digits are not numbers written in another script."""
    if text.isascii():
        return text
    chars = list(text)
    for i, ch in enumerate(chars):
        if ch.isdecimal() and not ch.isascii():
            chars[i] = str(unicodedata.decimal(ch))
    for i, ch in enumerate(chars):
        if (ch in _ARABIC_SEPARATORS and 0 < i < len(chars) - 1
                and chars[i - 1].isdigit() and chars[i + 1].isdigit()):
            chars[i] = _ARABIC_SEPARATORS[ch]
    return "".join(chars)
