"""Right-to-left lines (held-out-12's Hebrew report printed to PDF) put back in the order
they were typed: ``bidi.to_logical`` on the visual lines a PDF sets.

Each visual line below is what the page shows left to right (the Hebrew letters of each
word right to left); the expected text is what the student typed, label and answer word
first. Neighbours of the family: Arabic letters and Arabic-Indic digits, a writer that
records mirrored glyphs for brackets, and an English line quoting a Hebrew word.
"""

from __future__ import annotations

import pytest

from grader.written.reading.bidi import clusters, has_rtl, logical_order, strong_letters, to_logical


@pytest.mark.parametrize(
    ("visual", "typed"),
    [
        # a part label after its bold heading: it leads the line again
        ("םידקמה ןומיאה תרטמ (I)", "(I) מטרת האימון המקדים"),
        ('דספההו "mat" לש תורבתסהה (II)', '(II) ההסתברות של "mat" וההפסד'),
        ("FFN-ל האוושה (III)", "(III) השוואה ל-FFN"),
        # the answer word before the value, the value's unit after it
        ("25.77 GB :הבושת", "תשובה: 25.77 GB"),
        ("p(mat) = 0.1015 :הבושת", "תשובה: p(mat) = 0.1015"),
        ("ןומיאל םינתינ םירטמרפ 9,437,184 :הבושת", "תשובה: 9,437,184 פרמטרים ניתנים לאימון"),
        (")דראילימ( םירטמרפ 14.497 billion :הבושת", "תשובה: 14.497 billion פרמטרים (מיליארד)"),
        # a percent sign stays with its number, a hyphen with the Hebrew prefix it joins
        (".FFN-ה לש הזמ 0.065% ךרעב אוה LoRA לש רזיימיטפואה ןורכיז :הבושת",
         "תשובה: זיכרון האופטימייזר של LoRA הוא בערך 0.065% מזה של ה-FFN."),
        # a bracketed list of numbers, and a Latin word in Hebrew brackets
        (".[0.5, 0.1, 3.0, 0.2, 1.0] םה logits-ה", "ה-logits הם [0.5, 0.1, 3.0, 0.2, 1.0]."),
        (":)BERT( Encoder-only .רשקהב", "בהקשר. Encoder-only (BERT):"),
        # brackets of a formula, nested or not, stay with it; a percent sign set apart
        ("loss = −ln(0.1015) :הבושת", "תשובה: loss = −ln(0.1015)"),
        ("f((x)) :הבושת", "תשובה: f((x))"),
        ("טקפ 15 % וחנ", "נחו 15 % פקט"),
        ("טקפ % 15 וחנ", "נחו 15 % פקט"),
        # a heading: the question word, then its number and part
        ("3 (a) הלאש", "שאלה 3 (a)"),
        # Arabic letters and Arabic-Indic digits (with the Arabic thousands separator)
        (".)٢٠٬٩٦٣٬٦٠٠ يأ( ةلماعم", "معاملة (أي ٢٠٬٩٦٣٬٦٠٠)."),
    ],
)
def test_a_right_to_left_line_reads_as_typed(visual: str, typed: str) -> None:
    assert to_logical(visual, rtl=True) == typed


def test_a_line_of_the_right_to_left_page_with_more_latin_than_hebrew() -> None:
    # the page decides: alone, this line has more Latin letters than Hebrew ones
    line = ".L = 48, H = 6144, h = 48, S_max = 16,384 :לדומה"
    assert to_logical(line, rtl=True) == "המודל: L = 48, H = 6144, h = 48, S_max = 16,384."
    assert to_logical(line, rtl=False) == ".L = 48, H = 6144, h = 48, S_max = 16,384 :המודל"


def test_an_english_line_quoting_hebrew_reverses_only_the_hebrew() -> None:
    assert to_logical("the answer word is הבושת: 42", rtl=False) == "the answer word is תשובה: 42"
    # digits between two Hebrew words keep their order
    assert to_logical("see םלוע 12 םולש here", rtl=False) == "see שלום 12 עולם here"
    assert to_logical("the answer word is הבושת: 42") == "the answer word is תשובה: 42"


def test_brackets_recorded_as_drawn_are_mirrored_back() -> None:
    # Chromium records the bracket typed (drawn mirrored): reversing pairs it already;
    # a writer that records the glyph drawn gives "(...)" on the page for a Hebrew
    # aside, which reversed would read ")...(": mirrored back, it pairs
    assert to_logical("(תוארנה גול סונימ) לש", rtl=True) == "של (מינוס לוג הנראות)"
    assert to_logical(")תוארנה גול סונימ( לש", rtl=True) == "של (מינוס לוג הנראות)"
    pieces = clusters("(בא)")
    assert [m for _, m in logical_order(pieces, True)] == [True, False, False, True]


def test_marks_move_with_their_letter() -> None:
    # Hebrew points and Arabic vowel signs follow their letter in the text typed
    assert clusters("שָׁלוֹם") == ["שָׁ", "ל", "וֹ", "ם"]
    assert to_logical("םוֹלשָׁ", rtl=True) == "שָׁלוֹם"


def test_text_without_right_to_left_letters_is_left_alone() -> None:
    for line in ("sum exp(z) = 26.7791", "× 48 = 14,496,989,184", "Ερώτηση 3 (c)", ""):
        assert not has_rtl(line)
        assert to_logical(line, rtl=True) == line
    assert has_rtl("תשובה") and has_rtl("الطالبة") and not has_rtl("Ответ: 25,77 ГБ")
    assert strong_letters("תשובה: 25.77 GB") == (5, 2)
