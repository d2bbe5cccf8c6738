"""A PDF block's lines as visual rows: scripts and fraction parts joined to the line
they decorate, each row's text as cells split at wide gaps (a table's columns).

Why: MuPDF puts stacked scripts, inline fractions and a display sum's limits in lines
(even blocks) of their own; a row is what a reader sees as one line."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from grader.written.reading.markup import Run
from grader.written.reading.pdf_math import (
    _BIG_OPERATORS,
    _fractions,
    _hosts,
    _level,
    _script,
)
from grader.written.reading.pdf_page import MAX_BLOCK_LINES, _Line, _main, _Rule, _Span, _Wall
from grader.written.vocabulary import LIST_MARKER

CELL_GAP = 0.9
"""Lines on one baseline further apart than this many font sizes are table cells."""
_FUNCTION_BEFORE = re.compile(r"(?<![^\W\d_])(?:ln|log|lg|exp|sqrt|√)\s*$")
_SECTION_NUMBER = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,3}|[A-Z])\.?$")
_EQUATION_NUMBER = re.compile(r"^\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)$")


@dataclass
class _Row:
    """One visual line of a block: its cells (runs), where it starts, its size."""

    cells: list[list[Run]]
    x0: float
    size: float
    y0: float = 0.0
    y1: float = 0.0
    bounds: list[tuple[float, float]] = field(default_factory=list)  # each cell's x0, x1

    @property
    def first_word(self) -> str:
        text = "".join(r.text for r in self.cells[0]) if self.cells else ""
        return (text.split() or [""])[0]


def _rows(lines: list[_Line], rules: tuple[_Rule, ...] = (),
          walls: tuple[_Wall, ...] = ()) -> list[_Row]:
    """The block's lines grouped into visual lines, in reading order.

    A line joins a row on the same baseline, and a line in a smaller font joins the row
    it overlaps vertically: MuPDF puts raised and lowered scripts (``n_hid^2`` stacked,
    inline fractions) in lines of their own, which belong to the line they decorate.
    """
    if len(lines) > MAX_BLOCK_LINES:
        return [_row([line], walls) for line in lines]
    groups: list[list[_Line]] = []
    operators = any(s.text.strip() in _BIG_OPERATORS for ln in lines for s in ln.spans)
    for line in lines:
        same = [g for g in groups if abs(g[0].baseline - line.baseline) <= 0.35 * line.size]
        script = [
            g
            for g in groups
            if line.size < 0.85 * g[0].size
            and line.y0 < g[0].y1
            and line.y1 > g[0].y0
            and line.x0 >= g[0].x0 - g[0].size
        ] or ([g for g in groups if _limits_of(line, g)] if operators else [])
        # a line that carries on to the right of a row it stands beside (display
        # mathematics: numerators and denominators lift MuPDF's baseline off the row's,
        # by ~0.7 of the font size; the next line of a paragraph is >= 1.1 sizes down)
        beside = [
            g
            for g in groups
            if (line.x0 >= min(ln.x0 for ln in g) + 2 * g[0].size and _overlaps(line, g))
            or (line.x0 >= min(ln.x0 for ln in g) + 0.5 * g[0].size and _over_bar(line, g, rules))
        ]
        hosts = same or script or beside
        if hosts:
            min(hosts, key=lambda g: abs(g[0].baseline - line.baseline)).append(line)
        else:
            groups.append([line])
    # an upper limit read before its operator made a row of its own: it joins the operator's
    for group in list(groups) if operators else []:
        if len(group) == 1:
            home = [g for g in groups if g is not group and _limits_of(group[0], g)]
            if home:
                home[0].append(group[0])
                groups.remove(group)
    return [_row(group, walls) for group in groups]


def _limits_of(line: _Line, lines: list[_Line]) -> bool:
    """A small line stacked under or over a big operator of these lines (a display sum's
    limits, which MuPDF sets apart, even in blocks of their own)."""
    if not line.text.strip():
        return False
    centre = (line.x0 + line.x1) / 2
    return any(
        s.text.strip() in _BIG_OPERATORS
        and line.size < 0.85 * s.size
        and s.x0 - 0.1 * s.size <= centre <= s.x1 + 0.1 * s.size
        and (
            -0.5 * s.size <= line.y0 - s.baseline < s.size  # under it
            or -0.5 * s.size <= s.baseline - s.size - line.y1 < s.size  # over it
        )
        for ln in lines
        for s in ln.spans
    )


def _overlaps(line: _Line, group: list[_Line]) -> bool:
    """The line's glyphs overlap the row's by half the height of either."""
    top, bottom = min(ln.y0 for ln in group), max(ln.y1 for ln in group)
    return min(line.y1, bottom) - max(line.y0, top) > 0.5 * min(
        line.y1 - line.y0, group[0].y1 - group[0].y0
    )


def _over_bar(line: _Line, group: list[_Line], rules: tuple[_Rule, ...]) -> bool:
    """A fraction's numerator or denominator beside the row: its baseline is nearer one of
    the row's than a paragraph's next line would be (~0.7 of the size for TeX and MathML
    fractions, >= 1.1 for lines), and a bar is drawn between it and the row's baseline
    under its glyphs. A two-line table cell centred on its row has no such bar."""
    if not rules:
        return False
    full = [ln for ln in group if ln.size >= 0.85 * line.size] or group
    base = min((ln.baseline for ln in full), key=lambda b: abs(b - line.baseline))
    size = max(line.size, group[0].size)
    distance = abs(base - line.baseline)
    upper, lower = sorted((base, line.baseline))
    if 0.95 * size <= distance < 1.65 * size:
        # a denominator under a numerator that MuPDF set in the row's line (or the other
        # way round): the bar lies between them, and the line is centred on it
        centre = (line.x0 + line.x1) / 2
        return any(
            upper < r.y < lower - 0.3 * size
            and abs((r.x0 + r.x1) / 2 - centre) < 0.5 * size
            and line.x1 - line.x0 <= r.x1 - r.x0 + size
            for r in rules
        )
    if not 0.35 * size < distance < 0.95 * size:
        return False
    # either may be the row's own baseline (a line MuPDF starts at a numerator takes
    # the numerator's): the bar lies between a numerator's baseline and the row's, or
    # over a denominator, about the math axis of the row
    return any(
        upper - 0.6 * size < r.y < lower + 0.1 * size
        and min(r.x1, line.x1) - max(r.x0, line.x0) > 0.5 * size
        for r in rules
    )


def _row(group: list[_Line], walls: tuple[_Wall, ...] = ()) -> _Row:
    spans = sorted(
        (s for ln in group for s in ln.spans), key=lambda s: (round(s.x0 * 2) / 2, s.baseline)
    )
    _, size = _main(spans)
    size = max(size, 1.0)
    # the row's baseline is its first full-size glyph's: a row starts on its baseline,
    # while the fractions of display mathematics put more text above or below it
    base = next(
        (s.baseline for s in spans if s.text.strip() and abs(s.size - size) <= 0.3),
        spans[0].baseline,
    )
    hosts = _hosts(spans)
    # the limits of an operator are written right after it, the lower one first, each in
    # its own order (they may start left of it, and interleave in x)
    limits: dict[int, list[int]] = {}
    for k, host in enumerate(hosts):
        if host is not None and spans[host].text.strip() in _BIG_OPERATORS:
            limits.setdefault(host, []).append(k)
    placed = {k for ks in limits.values() for k in ks}
    order: list[int] = []
    for k in range(len(spans)):
        if k in placed:
            continue
        order.append(k)
        below = sorted(limits.get(k, []), key=lambda j: (spans[j].baseline < spans[k].baseline,
                                                         spans[j].x0))
        order.extend(below)
    if order != list(range(len(spans))):
        where = {old: new for new, old in enumerate(order)}
        spans = [spans[k] for k in order]
        hosts = [None if hosts[k] is None else where[hosts[k]] for k in order]
    # each span's script level (against its glyph) and its part of a fraction, if any
    verts: list[str] = [""] * len(spans)
    parts: list[str] = [""] * len(spans)
    for k, (span, host) in enumerate(zip(spans, hosts, strict=True)):
        if host is None:
            level = _level(span, base, size)
            verts[k] = level if level in ("sup", "sub") else ""
            parts[k] = {"sup": "num", "num": "num", "sub": "den", "den": "den"}.get(level, "")
    for k, (span, host) in enumerate(zip(spans, hosts, strict=True)):
        if host is not None:
            verts[k] = _script(span, spans[host])
            root, seen = host, {k}
            while hosts[root] is not None and root not in seen:  # a script of a script
                seen.add(root)
                root = hosts[root]  # type: ignore[assignment]
            parts[k] = parts[root]
    # scripts stacked on one glyph are written subscript first, as TeX's n_{hid}^2 and
    # every answer parser read them (n^2_hid would raise n to a power "2_hid")
    for k in range(len(spans) - 1):
        a, b = spans[k], spans[k + 1]
        if (verts[k], verts[k + 1]) == ("sup", "sub") and hosts[k] is not None \
                and hosts[k] == hosts[k + 1] and abs(a.x0 - b.x0) < 0.3 * size:
            spans[k], spans[k + 1] = b, a
            verts[k], verts[k + 1] = "sub", "sup"
            parts[k], parts[k + 1] = parts[k + 1], parts[k]
    cells: list[list[Run]] = [[]]
    extents: list[list[float]] = [[]]  # each cell's inked x0, x1
    top, bottom = min(ln.y0 for ln in group), max(ln.y1 for ln in group)
    walls = _grid_walls(walls, (top + bottom) / 2)
    walls = _grid_walls(walls, (top + bottom) / 2)

    def ink(x0: float, x1: float) -> None:
        cell = extents[-1]
        cell[:] = [min(x0, cell[0]), max(x1, cell[1])] if cell else [x0, x1]

    right: float | None = None
    i = 0
    while i < len(spans):
        span = spans[i]
        if parts[i]:
            # a zone of raised and lowered text (a blank span inside it goes with the part
            # on its side of the row's baseline); over one another, not hanging on a
            # glyph, it is one fraction or more
            j, zone_right = i, span.x1
            zone: list[tuple[_Span, str, str]] = []
            while j < len(spans) and spans[j].x0 <= zone_right + 0.6 * size:
                part = parts[j]
                if spans[j].text.strip():
                    if not part:
                        break
                    zone_right = max(zone_right, spans[j].x1)
                else:
                    part = "num" if spans[j].baseline < base else "den"
                # a script of a glyph in the zone stays one; a glyph raised or lowered
                # on its own sits on its part's baseline
                zone.append((spans[j], part, verts[j] if hosts[j] is not None else ""))
                j += 1
            while zone and not zone[-1][0].text.strip():
                zone.pop()
                j -= 1
            last = cells[-1][-1].text if cells[-1] else " "
            attached = right is not None and span.x0 - right < 0.1 * size
            fractions = None if attached and last[-1:].isalnum() else _fractions(zone, size)
            if fractions is not None:
                for x0, x1, text in fractions:
                    if right is not None and x0 - right > CELL_GAP * size:
                        cells.append([])
                        extents.append([])
                    elif cells[-1] and not cells[-1][-1].text[-1:].isspace():
                        cells[-1].append(Run(" "))
                    if _FUNCTION_BEFORE.search("".join(r.text for r in cells[-1][-4:])):
                        text = f"({text})"  # −ln of the whole stacked fraction
                    cells[-1].append(Run(text))
                    ink(x0, x1)
                    right = x1 if right is None else max(right, x1)
                i = j
                continue
        vert = verts[i]
        if right is not None and not vert:
            gap = span.x0 - right
            inked = extents[-1][1] if extents[-1] else right  # past a blank span's width
            if gap > CELL_GAP * size or (span.text.strip()
                                         and _walled(walls, inked, span.x0, top, bottom)):
                cells.append([])
                extents.append([])
            elif (
                gap > 0.12 * size
                and cells[-1]
                and not cells[-1][-1].text[-1:].isspace()
                and not span.text[:1].isspace()
            ):
                cells[-1].append(Run(" "))  # math glyphs set apart without a space
        cells[-1].append(Run(span.text, span.bold, span.italic, vert))
        if span.text.strip():
            ink(span.x0, span.x1)
        right = span.x1 if right is None else max(right, span.x1)
        i += 1
    kept = [(c, e) for c, e in zip(cells, extents, strict=True) if "".join(r.text for r in c).strip()]
    cells = _merge_markers([c for c, _ in kept])
    bounds = [(e[0], e[1]) for _, e in kept if e]
    if len(cells) != len(bounds):  # a list marker merged with its item
        bounds = [(min(b[0] for b in bounds), max(b[1] for b in bounds))] if bounds else []
    return _Row(
        cells,
        min(ln.x0 for ln in group),
        size,
        min(ln.y0 for ln in group),
        max(ln.y1 for ln in group),
        bounds,
    )


GRID_WALLS = 3
"""The fewest borders a row crosses in a table of cells (two columns: left, between,
right); a box drawn round a value (LaTeX's \\boxed{}, a callout) has two."""


def _grid_walls(walls: tuple[_Wall, ...], middle: float) -> tuple[_Wall, ...]:
    """The walls crossing a row's middle, if they are a table's grid, else none."""
    crossing = tuple(w for w in walls if w.y0 <= middle <= w.y1)
    return crossing if len(crossing) >= GRID_WALLS else ()


def _walled(walls: tuple[_Wall, ...], left: float, right: float, top: float,
            bottom: float) -> bool:
    """Whether a cell border is drawn between two spans of a row (``left`` .. ``right``)
    over the row's height: a spreadsheet printed with its grid sets a cell's text close
    to the next one ("Q3 (a)(II) sum exp|0.5, 0.1, …", "25.77|GB"), closer than a gap
    between cells; the border drawn between them is the cell's end."""
    middle = (top + bottom) / 2
    return any(left - 0.5 <= w.x <= right + 0.5 and w.y0 <= middle <= w.y1 for w in walls)


def _merge_markers(cells: list[list[Run]]) -> list[list[Run]]:
    """``•``/``I.``/``(a)`` set apart from its text is one list item, not two cells; so is
    a section number before its title ("1  Question 1") and an equation before its
    number ("N = 12 × 768^2  (1)")."""
    if len(cells) != 2:
        return cells
    first = "".join(r.text for r in cells[0]).strip()
    last = "".join(r.text for r in cells[1]).strip()
    if LIST_MARKER.match(first) or _SECTION_NUMBER.match(first) or _EQUATION_NUMBER.match(last):
        return [[*cells[0], Run(" "), *cells[1]]]
    return cells



def _spaced(cells: list[list[Run]]) -> list[list[Run]]:
    return [c if i == 0 else [Run(" "), *c] for i, c in enumerate(cells)]
