"""Mathematics on a PDF row: which span is a script of which glyph, raised or lowered,
and which raised and lowered text stands over one another as a fraction.

Why: MuPDF gives glyphs and their positions only; ``n_hid^2``, ``e^3/(e^0.5 + ...)`` and
a display sum's limits are told by size and position alone (docs/reading-reports.md)."""

from __future__ import annotations

import re

from grader.written.reading.markup import Run, render
from grader.written.reading.pdf_page import _Span

_BIG_OPERATORS = frozenset("∑∏∫⋃⋂∐")


def _level(span: _Span, base: float, size: float) -> str:
    """Where a span sits on its row: "" on the baseline, "sup"/"sub" (smaller, raised or
    lowered), "num"/"den" (full size, well above or below: a display fraction)."""
    if not span.text.strip():
        return ""
    shift = span.baseline - base
    smaller = span.size < 0.85 * size
    # MuPDF flags spans above *its* line's first baseline, which is a subscript's when
    # a line starts with one; a superscript is also smaller than the row's text
    if smaller and shift > 0.1 * size:
        return "sub"
    if smaller and (span.flagged_sup or shift < -0.15 * size):
        return "sup"
    if shift < -0.3 * size:
        return "num"
    if shift > 0.3 * size:
        return "den"
    return ""


def _hosts(spans: list[_Span]) -> list[int | None]:
    """For each smaller span, the glyph it hangs on as a script (the nearest larger glyph
    to its left on about its line; a script set in pieces, "3" "." "0", keeps its first
    piece's), else None. A fraction's numerator and denominator interleave in x, so the
    glyph on the left may be the other part's: those too far above or below are skipped."""
    hosts: list[int | None] = [None] * len(spans)
    operators = [k for k, s in enumerate(spans) if s.text.strip() in _BIG_OPERATORS]
    for i, span in enumerate(spans):
        if not span.text.strip():
            continue
        # the limits of a display sum, set under and over it ("∑" with "t=1" and "T"),
        # centred on it as a whole (MathML sets "t" and "= 1" apart)
        centre = _run_centre(spans, i) if operators else 0.0
        under = [
            k for k in operators
            if k != i and spans[k].size > 1.15 * span.size
            and spans[k].x0 - 0.1 * span.size <= centre <= spans[k].x1 + 0.1 * span.size
            and abs(span.baseline - spans[k].baseline) < 1.6 * spans[k].size
        ]
        if under:
            hosts[i] = under[0]
            continue
        for k in range(i - 1, max(-1, i - 16), -1):
            other = spans[k]
            if not other.text.strip():
                continue
            if abs(other.size - span.size) <= 0.3:
                if (
                    hosts[k] is not None
                    and abs(other.baseline - span.baseline) < 0.1 * span.size
                    and span.x0 - other.x1 < 0.3 * span.size
                ):
                    hosts[i] = hosts[k]
                    break
                continue
            if other.size <= 1.15 * span.size or abs(span.baseline - other.baseline) > 0.7 * other.size:
                continue
            # a script touches its glyph ("e" "3"); a fraction set after "ln" or a word
            # and a space starts apart from it
            glyph = other.text[-1:].isalnum() or other.text[-1:] in ")]}|∑∏∫⋃√'′"
            if glyph and span.x0 - other.x1 < 0.15 * other.size:
                hosts[i] = k
            break
    return hosts


def _run_centre(spans: list[_Span], i: int) -> float:
    """The centre of the run of glyphs set with span i: same size and baseline, touching."""
    me = spans[i]
    same = sorted(
        (s for s in spans if s.text.strip() and abs(s.size - me.size) <= 0.3
         and abs(s.baseline - me.baseline) < 0.1 * me.size),
        key=lambda s: s.x0,
    )
    x0, x1 = me.x0, me.x1
    for s in same:  # rightwards
        if s.x0 >= me.x0 and s.x0 <= x1 + 0.3 * me.size:
            x1 = max(x1, s.x1)
    for s in reversed(same):  # leftwards
        if s.x1 <= me.x1 and s.x1 >= x0 - 0.3 * me.size:
            x0 = min(x0, s.x0)
    return (x0 + x1) / 2


def _script(span: _Span, host: _Span) -> str:
    """A span's place against the glyph it hangs on: "sup", "sub" or "" (small text)."""
    shift = span.baseline - host.baseline
    if shift > 0.1 * host.size:
        return "sub"
    if span.flagged_sup or shift < -0.15 * host.size:
        return "sup"
    return ""


def _wrap(text: str) -> str:
    return text if re.fullmatch(r"[\w.,^]+", text) else f"({text})"


def _runs(spans: list[_Span], verts: list[str], size: float) -> list[Run]:
    """Spans as runs; a space where glyphs are set apart without one (math)."""
    runs: list[Run] = []
    right: float | None = None
    for span, vert in zip(spans, verts, strict=True):
        if (
            right is not None
            and span.x0 - right > 0.12 * size
            and runs
            and not runs[-1].text[-1:].isspace()
            and not span.text[:1].isspace()
        ):
            runs.append(Run(" "))
        runs.append(Run(span.text, span.bold, span.italic, vert))
        right = span.x1 if right is None else max(right, span.x1)
    return runs


def _fractions(
    zone: list[tuple[_Span, str, str]], size: float
) -> list[tuple[float, float, str]] | None:
    """Raised and lowered text standing over one another: ``num/den`` for each stack of
    the zone (spans with their part, "num"/"den", and script level), as (x0, x1, text)
    in order; None when a stack lacks a part or its parts do not overlap."""
    stacks: list[list[tuple[_Span, str, str]]] = []
    right = float("-inf")
    for item in sorted(zone, key=lambda t: t[0].x0):
        if not stacks or item[0].x0 > right + 0.1 * size:
            stacks.append([])
        stacks[-1].append(item)
        right = max(right, item[0].x1)
    at = {id(item): k for k, item in enumerate(zone)}
    out = []
    for stack in stacks:
        stack.sort(key=lambda t: at[id(t)])  # the row's order (an operator's limits after it)
        parts = []
        for name in ("num", "den"):
            items = [t for t in stack if t[1] == name]
            inked = [t[0] for t in items if t[0].text.strip()]
            if not inked:
                return None
            text = render(_runs([t[0] for t in items], [t[2] for t in items], size))
            parts.append((min(s.x0 for s in inked), max(s.x1 for s in inked), text.strip()))
        (nx0, nx1, top), (dx0, dx1, bottom) = parts
        if min(nx1, dx1) - max(nx0, dx0) < 0.5 * min(nx1 - nx0, dx1 - dx0):
            return None
        out.append((min(nx0, dx0), max(nx1, dx1), f"{_wrap(top)}/{_wrap(bottom)}"))
    return out
