"""Right-to-left lines (Hebrew, Arabic, Persian) from visual order back to logical order.

Why: a PDF has no reading order, only glyphs placed on the page. A line of a Hebrew or
Arabic report is laid out right to left, with its numbers, formulas and Latin words
left to right inside it; read left to right as the page sets it, the line comes out
backwards: a part label ends its line ("מטרת האימון המקדים (I)" reads "... (I)" last),
the answer word follows its value ("25.77 GB :הבושת"). The stages read a student's
line from its start, as they read a left-to-right student's, so each line that holds
right-to-left letters is put back in the order it was typed.

What the reversal does: the Unicode bidirectional algorithm (UAX #9) run backwards for
the cases reports have. In a right-to-left line the order of its pieces is reversed,
where a piece is one right-to-left letter (or space or mark) or one left-to-right run:
Latin letters and digits with what stands between them ("S_max = 16,384", "25.77 GB",
"[0.5, 0.1]", "(I)", "0.065%"), kept as written. In a left-to-right line (an English
report quoting a Hebrew word) only the right-to-left runs are reversed.

Brackets: writers disagree on what a text layer says for a bracket set right to left.
Chromium (and so a report printed from a browser) records the character typed, whose
glyph is drawn mirrored, so reversing the line is enough; others record the glyph
drawn. The line's brackets are mirrored back (``(`` for ``)``) only where that pairs
them and leaving them does not.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

_RTL = frozenset({"R", "AL"})
_NEUTRAL = ("-", " ", "%")
_NUMBER = frozenset({"EN", "AN"})
_NUMBER_SIGNS = frozenset({"ET"})  # %, $, °, ‰: part of the number they touch (UAX #9 W5)
_OPENERS = "([{⟨«‹"
_CLOSERS = ")]}⟩»›"
_BRACKETS = _OPENERS + _CLOSERS
MIRROR = str.maketrans(_OPENERS + _CLOSERS, _CLOSERS + _OPENERS)
"""A bracket for its mirror image: what ``logical_order`` says to mirror."""
_FIRST_RTL = "\u0590"
"""No character below U+0590 is right to left: a line whose largest character is below
it is left as it is without looking at each character."""


def has_rtl(text: str) -> bool:
    """Whether the text holds a right-to-left letter (Hebrew, Arabic, Syriac, Thaana...)."""
    if not text or max(text) < _FIRST_RTL:
        return False
    return any(unicodedata.bidirectional(c) in _RTL for c in text)


def strong_letters(text: str) -> tuple[int, int]:
    """(right-to-left, left-to-right) letters in the text: which way a line runs."""
    rtl = ltr = 0
    for c in text:
        kind = unicodedata.bidirectional(c)
        if kind in _RTL:
            rtl += 1
        elif kind == "L":
            ltr += 1
    return rtl, ltr


def clusters(text: str) -> list[str]:
    """The text's characters, each with the combining marks after it (Hebrew points,
    Arabic vowel signs): a mark moves with its letter."""
    out: list[str] = []
    for c in text:
        if out and (unicodedata.combining(c) or unicodedata.bidirectional(c) == "NSM"):
            out[-1] += c
        else:
            out.append(c)
    return out


def logical_order(pieces: Sequence[str], rtl: bool) -> list[tuple[int, bool]]:
    """The logical order of a line's pieces given in visual order (left to right).

    ``pieces`` are clusters (see ``clusters``); ``rtl`` is the line's base direction.
    Returns each piece's index in visual order, in logical order, with whether its
    bracket is mirrored back."""
    kinds = [_kind(p) for p in pieces]
    n = len(pieces)
    if rtl:
        order = _reversed_runs(kinds, 0, n)
        reversed_at = {k for k, joined in enumerate(_ltr_runs(kinds)) if not joined}
    else:
        order = []
        reversed_at = set()
        runs = _rtl_runs(kinds)
        k = 0
        while k < n:
            if runs[k]:
                end = k
                while end < n and runs[end]:
                    end += 1
                inner = _reversed_runs(kinds[k:end], k, end - k)
                order.extend(inner)
                joined = _ltr_runs(kinds[k:end])
                reversed_at.update(k + j for j in range(end - k) if not joined[j])
                k = end
            else:
                order.append(k)
                k += 1
    mirror = _mirror_brackets([pieces[k] for k in order], [k in reversed_at for k in order])
    return [(k, mirror and k in reversed_at and pieces[k][:1] in _BRACKETS) for k in order]


def to_logical(visual: str, rtl: bool | None = None) -> str:
    """A line of text in visual order as it was typed; ``rtl`` None: the line's own
    direction (right to left where most of its letters are)."""
    if not has_rtl(visual):
        return visual
    if rtl is None:
        right, left = strong_letters(visual)
        rtl = right >= left
    pieces = clusters(visual)
    return "".join(
        pieces[k].translate(MIRROR) if mirrored else pieces[k]
        for k, mirrored in logical_order(pieces, rtl)
    )


def pairs_mirrored(text: str) -> bool:
    """Whether the text's brackets pair when every one is mirrored and not as they stand
    (")I(" for "(I)"). Why: a line of a right-to-left page that holds no right-to-left
    letter (a bold part label "(I)" on its own line) is set right to left all the same,
    and a writer that records the glyph drawn gives its brackets mirrored; with no
    right-to-left letter ``logical_order`` never sees the line."""
    if not any(c in _BRACKETS for c in text):
        return False
    return _unpaired(text.translate(MIRROR)) < _unpaired(text)


def _kind(piece: str) -> str:
    """"R" (right-to-left letter), "L" (left-to-right letter), "N" (digit), "%" (a sign
    of a number), "O" (an opening bracket), "C" (a closing one), " " (a space) or "-"
    (another neutral)."""
    c = piece[:1]
    kind = unicodedata.bidirectional(c) if c else ""
    if kind in _RTL:
        return "R"
    if kind == "L":
        return "L"
    if kind in _NUMBER:
        return "N"
    if kind in _NUMBER_SIGNS:
        return "%"
    if c.isspace():
        return " "
    if c in _OPENERS:
        return "O"
    if c in _CLOSERS:
        return "C"
    return "-"


def _reversed_runs(kinds: list[str], start: int, n: int) -> list[int]:
    """The order of ``n`` pieces of a right-to-left stretch (numbered from ``start``):
    reversed, each left-to-right run in it kept as it stands."""
    joined = _ltr_runs(kinds[:n])
    segments: list[list[int]] = []
    for k in range(n):
        if k > 0 and joined[k] and joined[k - 1]:
            segments[-1].append(start + k)
        else:
            segments.append([start + k])
    return [k for seg in reversed(segments) for k in seg]


def _ltr_runs(kinds: list[str]) -> list[bool]:
    """Which pieces of a right-to-left line belong to left-to-right runs.

    Letters and digits do; a sign of a number (``%``, ``$``) does where it touches a
    digit; a bracket does where it hugs left-to-right text on its inner side ("(I)",
    "exp(z)", "[0.5"), not where it stands apart from it ("BERT( Encoder"): that is a
    bracket of the right-to-left text around a left-to-right word. Anything else
    (spaces, "=", ",", "·", "-") does where left-to-right text stands on both sides,
    before any right-to-left letter or bracket of the right-to-left text."""
    n = len(kinds)
    strong = [k in ("L", "N") for k in kinds]
    for k in range(n):
        if kinds[k] != "%":
            continue
        before = k - 1
        while before >= 0 and kinds[before] == " ":
            before -= 1
        # touching a digit (W5), or after its number with spaces between: set apart
        # right to left it would stand on the number's other side ("% 15")
        touching = (k > 0 and kinds[k - 1] == "N") or (k + 1 < n and kinds[k + 1] == "N")
        if touching or (before >= 0 and kinds[before] == "N" and before < k - 1):
            strong[k] = True
    joined = list(strong)
    for k in range(n - 1, -1, -1):  # "((x": each opener hugs what follows it
        if kinds[k] == "O":
            joined[k] = k + 1 < n and (strong[k + 1] or (kinds[k + 1] == "O" and joined[k + 1]))
    for k in range(n):
        if kinds[k] == "C":
            joined[k] = k > 0 and (strong[k - 1] or (kinds[k - 1] == "C" and joined[k - 1]))
    # neutrals: between two pieces of left-to-right runs, with only neutrals between
    # (a bracket that is no part of a run stops them, as a right-to-left letter does)
    left: list[bool] = [False] * n
    seen = False
    for k in range(n):
        if kinds[k] in _NEUTRAL and not strong[k]:
            left[k] = seen
        else:
            seen = joined[k]
    seen = False
    for k in range(n - 1, -1, -1):
        if kinds[k] in _NEUTRAL and not strong[k]:
            joined[k] = left[k] and seen
        else:
            seen = joined[k]
    return joined


def _rtl_runs(kinds: list[str]) -> list[bool]:
    """Which pieces of a left-to-right line belong to right-to-left runs: the letters,
    and what stands between two of them with no Latin letter (spaces, punctuation,
    digits: "שלום 3 עולם", whose digits stay in their order)."""
    n = len(kinds)
    runs = [k == "R" for k in kinds]
    last = -1
    for k in range(n):
        if kinds[k] == "R":
            if last >= 0 and all(kinds[j] != "L" for j in range(last + 1, k)):
                for j in range(last + 1, k):
                    runs[j] = True
            last = k
        elif kinds[k] == "L":
            last = -1
    return runs


def _mirror_brackets(pieces: list[str], flipped: list[bool]) -> bool:
    """Whether the brackets of the right-to-left text are mirrored back: only where the
    line's brackets pair better that way (see the module's note)."""
    if not any(f and p[:1] in _BRACKETS for p, f in zip(pieces, flipped, strict=True)):
        return False
    kept = _unpaired(p[:1] for p in pieces)
    mirrored = _unpaired(
        p[:1].translate(MIRROR) if f else p[:1] for p, f in zip(pieces, flipped, strict=True)
    )
    return mirrored < kept


def _unpaired(chars: object) -> int:
    """Brackets with no partner: closers before any opener, openers never closed."""
    depth = 0
    unpaired = 0
    for c in chars:  # type: ignore[attr-defined]
        if c in _OPENERS:
            depth += 1
        elif c in _CLOSERS:
            if depth:
                depth -= 1
            else:
                unpaired += 1
    return unpaired + depth
