"""Which candidate is the answer, and whether the student offers several.

Why apart from ``candidates``: reading a line's numbers and judging how conclusive each is
is one question; choosing among a section's candidates (the last of the highest tier)
and telling a rounding restated from a second answer offered ("25.77 GB or 24 GB") is
another, asked once per section.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from grader.written.candidates import TIER_ASIDE, TIER_FINAL, Candidate, same

_PARENTHESES = re.compile(r"\([^()]*\)")
_OR_BETWEEN = re.compile(r"^[\s*$)]*(?:,\s*)?(?:\bor\b|/|\beither\b|;)[\s*$(]*$", re.I)


def pick(found: Sequence[Candidate]) -> Candidate | None:
    """The answer: the last candidate of the highest tier present."""
    if not found:
        return None
    top = max(c.tier for c in found)
    return [c for c in found if c.tier == top][-1]


def shotgun(found: Sequence[Candidate], chosen: Candidate) -> tuple[str, ...]:
    """Different values the student offers as the answer beside ``chosen`` (empty if none).

    Offered means: several boxed values, "Answer:" lines or answer cells that disagree;
    or values joined to the chosen one by "or", "/" or ";" on its line or wrapped onto the
    next, passing over what is in parentheses.
    """
    rivals: list[Candidate] = []
    if chosen.tier == TIER_FINAL:
        rivals += [c for c in found if c.tier == TIER_FINAL and c is not chosen
                   and c.why == chosen.why and not same(c, chosen)]
    # values in reading order, asides left out ("**25.77 GB** ($10^9$ bytes) or\n**24 GB**":
    # the "(10^9 bytes)" between is no value offered); a join may wrap onto the next line
    offered = sorted((c for c in found if c.tier > TIER_ASIDE or c is chosen),
                     key=lambda c: (c.line, c.column))
    k = offered.index(chosen)
    for step in (-1, 1):
        j = k
        while 0 <= j + step < len(offered):
            a, b = offered[min(j, j + step)], offered[max(j, j + step)]
            gap = _between(a, b)
            if gap is None or not _OR_BETWEEN.match(_PARENTHESES.sub(" ", gap)):
                break
            other = offered[j + step]
            if not same(other, chosen) and other not in rivals:
                rivals.append(other)
            j += step
    if not rivals:
        return ()
    return tuple(dict.fromkeys([chosen.text, *(c.text for c in rivals)]))


def _between(a: Candidate, b: Candidate) -> str | None:
    """The text between two values on one line or on two lines in a row (None if further)."""
    if a.line == b.line:
        return a.line_text[a.end:b.column]
    if b.line == a.line + 1:
        return a.line_text[a.end:] + "\n" + b.line_text[:b.column]
    return None
