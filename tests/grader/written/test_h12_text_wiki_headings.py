"""Headings a plain-text report writes as MediaWiki and AsciiDoc do, closed with ``=``
signs (``== 3(c) ==``, ``=== 3(e)(II) ===``) or opening with a part's label (``== 3(c)
Memory``). A label opening with a digit is a heading there, as ``== Question 3 ==`` is;
a working line that starts with ``=`` signs ("= 25.77 GB", "== 24 GB", "==> 24 GB")
stays a value (held-out-12's box-drawn report wrote its working under such headings;
these are small reports written here)."""

from __future__ import annotations

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.vocabulary import heading_text

Q3 = [QuestionSpec("q3a2.p", ("Q3 (a)",), part="(II)"),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]


@pytest.mark.parametrize(("line", "title"), [
    ("== 3(c) ==", "3(c)"),
    ("== 3(a)(II) ==", "3(a)(II)"),
    ("=== 3(e)(I) ===", "3(e)(I)"),
    ("==  3.2 Memory of the scores  ==", "3.2 Memory of the scores"),
    ("== Question 3 ==", "Question 3"),
    ("== 3(c) Memory of the attention scores", "3(c) Memory of the attention scores"),
    ("=== 3 (e) LoRA", "3 (e) LoRA"),
    ("=== Task 3", "Task 3"),
])
def test_a_heading_closed_with_equals_signs_is_a_heading(line: str, title: str) -> None:
    assert heading_text(line) == title


@pytest.mark.parametrize("line", [
    "= 25.77 GB", "== 24 GB", "==> 24 GB", "== 24 GB == 24 GB", "==  ==", "==========",
    "x == 3 ==", "== 48 (16384^2) x 2", "== 3e9 bytes", "= 3(c) 24 GB",
])
def test_a_working_line_opening_with_equals_signs_is_no_heading(line: str) -> None:
    assert heading_text(line) is None


def test_closed_wiki_headings_open_the_parts_sections() -> None:
    text = ("STAT8021 A3, part 3 (plain text)\n\n"
            "== 3(a)(I) ==\nCausal language modelling: predict each next token.\n\n"
            "== 3(a)(II) ==\np(mat) = 20.0855 / 26.7791 = 0.750\n\n"
            "== 3(b) ==\nDecoder-only: one stack, generates; 2 other designs compared.\n\n"
            "== 3(c) ==\n2 x 12,884,901,888 = 25,769,803,776 bytes\n=> 25.77 GB\n\n"
            "== 3(d) ==\n48 x 302,020,608 = 14,496,989,184\n~ 14.50 billion\n\n"
            "== 3(e)(I) ==\n48 layers: 9,437,184\n\n"
            "== 3(e)(II) ==\n9,437,184 x 8 = 75,497,472 bytes = 75.5 MB\n")
    got = extract_answers(text, Q3)
    assert {k: v.answer for k, v in got.items()} == {
        "q3a2.p": "0.750", "q3c": "25.77 GB", "q3d": "14.50 billion", "q3e1": "9,437,184",
        "q3e2": "75.5 MB"}


def test_a_value_on_a_line_of_its_own_after_equals_signs_answers() -> None:
    """The working's last line "= 25.77 GB" (or "== 24 GB", a chain written on) is the
    section's answer, not a heading that would open an empty section after it."""
    text = ("Q3 (c)\n48 x 16384^2 x 2 bytes\n= 25,769,803,776 bytes\n= 25.77 GB\n\n"
            "Q3 (d)\n48 x 302,020,608\n== 14,496,989,184\n")
    got = extract_answers(text, Q3)
    assert (got["q3c"].answer, got["q3d"].answer) == ("25.77 GB", "14,496,989,184")


def test_open_asciidoc_headings_naming_the_part_first_open_its_section() -> None:
    """AsciiDoc with no document title ("= Report" first) is read as text: its headings
    "== 3(c) Attention memory" still open the parts' sections."""
    text = ("STAT8021 A3\n\n== 3(c) Attention memory\n2 x 12,884,901,888 bytes\n"
            "= 25,769,803,776 bytes = 25.77 GB\n\n== 3(d) FFN parameters\n"
            "48 x 302,020,608 = 14,496,989,184\n")
    got = extract_answers(text, Q3)
    assert (got["q3c"].answer, got["q3d"].answer) == ("25.77 GB", "14,496,989,184")
