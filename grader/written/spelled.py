"""Numbers written out in words inside a line ("fourteen and a half billion"): where they
are, so the answer picker (``candidates``) can offer them as it offers figures.

Why: the answer parser reads number words (``calculators.answers._words``), but the
picker finds candidates by the figures' pattern, so a student who writes the answer out
in words had only the figures of the working as candidates.
"""

from __future__ import annotations

from calculators.answers._words import SCALE_WORDS, number_word
from grader.written.formulas import word_spans

_RUN_WORDS = frozenset({"and", "a", "half", "quarter", "point", "hundred", *SCALE_WORDS})
"""Words that carry a number written in words on ("fourteen and a half billion")."""
_WORD_PUNCTUATION = ".,;:!?()*_"


def spelled_out(text: str) -> list[tuple[int, int]]:
    """Spans of numbers written in words with a scale word ("fourteen and a half billion",
    "nine million"): a student who writes the answer out means that number. A number word
    alone ("two matrices", "one head") is prose, never a candidate."""
    low = text.lower()
    if not any(w in low for w in SCALE_WORDS):
        return []
    words = word_spans(text)
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        a, b = words[i]
        bare = text[a:b].strip(_WORD_PUNCTUATION).lower()
        if not number_word(bare):
            i += 1
            continue
        j, last = i, i
        while j < len(words):
            ja, jb = words[j]
            token = text[ja:jb]
            word = token.strip(_WORD_PUNCTUATION).lower()
            if not number_word(word) and word not in _RUN_WORDS:
                break
            if word not in ("and", "a", "point"):
                last = j
            if token.rstrip(_WORD_PUNCTUATION) != token.rstrip("*_"):
                break  # punctuation ends the run
            j += 1
        start, end = a, words[last][1]
        run = text[start:end].rstrip(_WORD_PUNCTUATION)
        if any(run.lower().endswith(w) for w in SCALE_WORDS):
            out.append((start, start + len(run)))
        i = max(last, i) + 1
    return out
