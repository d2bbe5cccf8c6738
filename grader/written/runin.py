"""Run-in parts: "(e) (I) 9.4M. (II) 75.5 MB." holds two parts in one paragraph.

Why a module of its own: an inline "(c)" or "(II)" is usually prose (a citation, "see
(a)", a formula f(a)); ``Parts`` says when the pack's parts make one a part's start, and
``run_in`` finds where in a line it is, so ``sections.split_run_in`` can put each part on
a line of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from grader.written.labels import (
    LABEL,
    LETTER_NAMES,
    LETTER_ONLY,
    NUMS,
    ROMAN_ONLY,
    WORDS,
    Path,
    Target,
    first_of,
    numeral,
    strip_markup,
    sub_letter,
)
from grader.written.vocabulary import (
    ABBREVIATION,
    KINDS,
    ROMAN,
    ROMAN_VALUES,
    ends_sentence,
)


@dataclass(frozen=True)
class Parts:
    """The part markers a pack asks, in order: letters per question, numerals per part.

    Why: an inline "(c)" or "(I)" is usually prose (a citation "(c) 2024", "see (a)", a
    formula f(a), "(d) and (e) differ"). It opens a run-in part only when all of these hold:

    - it stands after a sentence's end (". ", "; ", ": ", "? ", "! ", not "e.g." or "cf."),
      written "(c)", "c)", "(II)", "II)" or "II." (a letter never as "c.": "e. g.") or as
      the question's own label ("Q3(d)", "Q3 (e)(ii)"); or, in any of these but "c)",
      right after a value or a closing bracket ("9,437,184 (II) 75.5 MB (III) ...": terse
      parts end no sentence); or, written "(II)" or "(c)", anywhere in a line that began
      with the part before ("(I) next-token prediction (II) p = 0.75"); in these two cases
      not after a word that names a part ("as in step (ii)", "see (b)", "unlike (c)");
    - it is not followed by "and", "or", "to", ",", "&" or "/" (parts named, not opened),
      and it is no copyright ("(c) 2024");
    - the pack asks parts at that level of the current section (numerals of Q3 (e),
      letters of Q3), and the marker is the next one: the first the pack asks after the
      current part, or the one right after it ("(III)" after "(II)", "(d)" after "(c)"); a
      second numeral may follow a letter whose first went unmarked ("(a) ... (II) ...").

    So a "(ii)" inside Q3 (c), whose pack asks no numerals, stays prose, and so does an
    "(e)" inside Q3 (c) (it skips (d)) or an "(I)" after "(II)".
    """

    letters: dict[tuple[str, str], tuple[str, ...]]
    romans: dict[tuple[str, str, str | None], tuple[str, ...]]

    @classmethod
    def of(cls, targets: Sequence[Target | None]) -> Parts:
        letters: dict[tuple[str, str], set[str]] = {}
        romans: dict[tuple[str, str, str | None], set[str]] = {}
        for t in targets:
            if t is None:
                continue
            if t.letter is not None:
                letters.setdefault((t.kind, t.num), set()).add(t.letter)
            if t.roman is not None:
                romans.setdefault((t.kind, t.num, t.letter), set()).add(t.roman)
        return cls({k: tuple(sorted(v)) for k, v in letters.items()},
                   {k: tuple(sorted(v, key=ROMAN_VALUES.__getitem__)) for k, v in romans.items()})

    def follows(self, path: Path, letter: str | None, roman: str | None) -> Path | None:
        """The path a run-in marker (``letter``, ``roman``) opens inside ``path``, or None."""
        kind, num, cur_letter, cur_roman = path
        kind = "q" if kind == "?" else kind
        if letter is not None:
            asked = self.letters.get((kind, num), ())
            after = [x for x in asked if cur_letter is None or x > cur_letter]
            successor = cur_letter is not None and ord(letter) == ord(cur_letter) + 1
            if not asked or not (after[:1] == [letter] or successor):
                return None
            return (path[0], num, letter, roman)
        if roman is None:
            return None
        asked_romans = self.romans.get((kind, num, cur_letter), ())
        value, cur = ROMAN_VALUES[roman], ROMAN_VALUES[cur_roman] if cur_roman else 0
        after = [x for x in asked_romans if ROMAN_VALUES[x] > cur]
        unmarked_first = cur_roman is None and roman in asked_romans[1:2]  # "(a) ... (II)"
        if not asked_romans or not (after[:1] == [roman] or value == cur + 1 or unmarked_first):
            return None
        return (path[0], num, cur_letter, roman)


_RUN_IN = re.compile(
    rf"(?<=\S)\s+(?=(?P<paren>\(\s*(?:[a-h]|{ROMAN})\s*\))|(?P<bare_letter>[a-h]\))|{ROMAN}[).]\s"
    r"|(?P<label>(?:question|problem|exercise|task|qns?|ques|q)\s*\.?\s*\d))", re.I)
_LIST_NUMBER = re.compile(r"\s*(?:\d{1,3}|[a-z]|[ivx]{1,4})[.)]", re.I)
"""A list's own number opening a line ("3. (d) comes next"): its dot ends no sentence (after
a marker, "(I) 1. (II) 2." it is an answer)."""
_AFTER_VALUE = re.compile(r"(?:\d(?:\s*%|\s+[a-z]{1,12})?|\))$", re.I)
"""A value just written ("9,437,184", "75.5 MB", "0.065 %"): terse run-in parts end none."""
_REFERENCE = re.compile(r"\b(?:see|in|of|and|or|step|steps|from|by|to|with|as|part|parts|case"
                        r"|item|eq|equation|cf|like|unlike|than|per)$", re.I)
"""Words that name a part rather than end one ("as in step (ii)", "see (b)")."""
_NAMED_NOT_OPENED = re.compile(r"\s*(?:(?:and|or|to|through)\b|[,&/])", re.I)
COPYRIGHT = re.compile(r"\(\s*c\s*\)\s*(?:19|20)\d\d\b(?![.,]\d)", re.I)


_MARKER_HINT = re.compile(rf"\b(?:[a-h]|{ROMAN})\s*\\?[).]|\b(?:question|task|q)\s*\.?\s*\d",
                          re.I)
"""Something like a marker ("(c)", "II)", "ii."): lines without one are not stripped of markup."""


def _inline_marker(plain: str, at: int, label: bool,
                   path: Path) -> tuple[int, str | None, str | None] | None:
    """(end, letter, numeral) of the marker or label at ``at`` inside ``path``, or None."""
    if not label:
        m = LETTER_ONLY.match(plain, at)
        if m is not None:
            return m.end(), first_of(m, *LETTER_NAMES), numeral(m)
        m = ROMAN_ONLY.match(plain, at)
        return None if m is None else (m.end(), None, first_of(m, "r1", "r2"))
    m = LABEL.match(plain, at)
    if m is None or m.group("sub"):
        return None
    word = first_of(m, *WORDS)
    same = ((KINDS[word] if word else "q"), first_of(m, *NUMS))
    if same != ("q" if path[0] == "?" else path[0], path[1]):
        return None  # another question's label: only this question's parts run in
    letter, roman = sub_letter(m), numeral(m)
    if letter is not None and letter == path[2] and roman is not None:
        letter = None  # "Q3(e)(ii)" inside Q3(e)(i): the numeral moves on
    return None if letter is None and roman is None else (m.end(), letter, roman)


def run_in(raw: str, start: int, path: Path, parts: Parts) -> int | None:
    """Column of ``raw`` (after ``start``) where a run-in part begins, or None (``Parts``)."""
    if _MARKER_HINT.search(raw, start) is None:
        return None
    plain, where = strip_markup(raw[start:])
    for gap in _RUN_IN.finditer(plain):
        before = plain[max(0, gap.start() - 24):gap.start()]
        ended = ends_sentence(before) and not ABBREVIATION.search(before[-9:]) \
            and not (start == 0 and _LIST_NUMBER.fullmatch(plain, 0, gap.start()))
        named = _REFERENCE.search(before)
        after_value = not gap.group("bare_letter") and _AFTER_VALUE.search(before) and not named
        in_a_run = start > 0 and gap.group("paren") and not named
        if not (ended or after_value or in_a_run):
            continue
        at = gap.end()
        found = _inline_marker(plain, at, bool(gap.group("label")), path)
        if found is None:
            continue
        end, letter, roman = found
        if _NAMED_NOT_OPENED.match(plain, end) or COPYRIGHT.match(plain, at):
            continue
        if parts.follows(path, letter, roman) is None:
            continue
        column = start + where[at]
        while column > start and raw[column - 1] in "*_\\`":
            column -= 1  # "**(II)**", "\\(II\\)": the break goes before the markup
        return column
    return None

