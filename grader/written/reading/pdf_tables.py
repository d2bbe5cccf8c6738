"""Tables in a PDF: rows of cells on shared baselines, one row whose cells wrap,
cells in blocks of their own between the same drawn borders, and every row of a table
put in the table's columns with its empty cells kept.

Why: a table read as prose pairs every figure with the wrong header; a row missing its
empty corner shifts every cell one column left (docs/reading-reports.md, "Tables")."""

from __future__ import annotations

from dataclasses import dataclass

from grader.written.reading.markup import Run
from grader.written.reading.pdf_page import _Block, _Line, _Para
from grader.written.reading.pdf_rows import CELL_GAP, _merge_markers, _Row, _rows, _spaced
from grader.written.vocabulary import ends_sentence


def _stretched(rows: list[_Row]) -> bool:
    """Lines of a justified paragraph stretched word by word (a forced line break, an
    underfull line beside long mathematics), not a table: rows of four or more "cells",
    no two of which line up column by column. A table's rows of as many cells have their
    inner cells at the same starts, ends or centres; justified lines share only margins."""
    wordy = [r for r in rows if len(r.cells) >= 4 and len(r.bounds) == len(r.cells)][:12]
    if len(wordy) < 2:
        return False

    def lined(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return (
            abs(a[0] - b[0]) <= 1.5
            or abs(a[1] - b[1]) <= 1.5
            or abs(a[0] + a[1] - b[0] - b[1]) <= 3
        )

    for i, first in enumerate(wordy):
        for other in wordy[i + 1 :]:
            if len(other.bounds) != len(first.bounds):
                continue
            inner = list(zip(first.bounds[1:-1], other.bounds[1:-1], strict=True))
            if sum(lined(a, b) for a, b in inner) >= 0.75 * len(inner):
                return False  # columns: a table
    return True



def _columns(lines: list[_Line]) -> list[list[Run]] | None:
    """One table row whose cells wrap (a Word/HTML table row with a two-line cell): the
    block's lines fall into columns with a clear gap between them, and no line crosses it."""
    flows = _column_flows(lines)
    if flows is None:
        return None
    cells = []
    for flow in flows:
        runs: list[Run] = []
        for piece in flow:
            if runs:
                runs.append(Run(" "))
            runs.extend(piece.runs)
        cells.append(runs)
    cells = _merge_markers(cells)
    return cells if len(cells) > 1 else None


@dataclass
class _Piece:
    """A paragraph of one column of a table row: its runs and where it stands."""

    runs: list[Run]
    top: float
    bottom: float
    size: float


PARAGRAPH_GAP = 0.25
"""Lines of one cell further apart than this many font sizes may be two paragraphs: a
browser's or Word's paragraphs have a margin between them, a wrapped line's boxes touch
(but Chromium spaces the lines of wrapped MathML as far apart: ``_new_paragraph``)."""


def _new_paragraph(piece: _Piece, row: _Row, runs: list[Run]) -> bool:
    """A line of a cell starts a paragraph of its own: set apart from the one before by a
    margin, after a sentence's end or a result, or where bold starts or stops (a label
    over its text, a bold result under the working)."""
    if row.y0 - piece.bottom <= PARAGRAPH_GAP * row.size:
        return False
    before = "".join(r.text for r in piece.runs).rstrip()
    after = "".join(r.text for r in runs).lstrip("* ")
    return (ends_sentence(before) or _bold(piece.runs) != _bold(runs)
            # a result, then the next statement ("p = 0.7500" | "loss = ..."), where a
            # formula wrapped over lines goes on with an operator or a figure
            or (before[-1:].isdigit() and after[:1].isalpha()))


def _bold(runs: list[Run]) -> bool:
    inked = [r for r in runs if r.text.strip()]
    return bool(inked) and all(r.bold for r in inked)


def _column_flows(lines: list[_Line]) -> list[list[_Piece]] | None:
    """The block's lines as columns with a clear gap between them, no line crossing it,
    each column as its paragraphs (``_columns``); None for fewer than two columns, or for
    a column holding pieces set wide apart on one baseline (a justified line stretched
    around inline mathematics, not a cell)."""
    size = max(1.0, max(ln.size for ln in lines))
    columns: list[list[_Line]] = []
    right = -1.0
    for line in sorted(lines, key=lambda ln: ln.x0):
        if columns and line.x0 <= right + CELL_GAP * size:
            columns[-1].append(line)
        else:
            columns.append([line])
        right = max(right, line.x1) if len(columns[-1]) > 1 else line.x1
    if len(columns) < 2:
        return None
    flows = []
    for column in columns:
        ordered = sorted(column, key=lambda ln: ln.baseline)
        flow: list[_Piece] = []
        for row in _rows(ordered):
            if len(row.cells) > 1:
                return None
            runs = [r for cell in _spaced(row.cells) for r in cell]
            if flow and not _new_paragraph(flow[-1], row, runs):
                flow[-1].runs.extend([Run(" "), *runs])
                flow[-1].bottom = max(flow[-1].bottom, row.y1)
            else:
                flow.append(_Piece(runs, row.y0, row.y1, row.size))
        flows.append(flow)
    return flows


def _align_tables(paras: list[_Para]) -> None:
    """Write each table's rows (``para.rows``), every row in the table's columns.

    A row with no text in some column (an empty top-left header cell over seeds as
    columns, a blank cell mid-row) has fewer cells than the table: written as it is, every
    later cell of it would stand one column left, under the wrong header. The rows of
    consecutive table paragraphs (MuPDF often gives the header row a block of its own, and
    a table may run over a page) are one table; its columns are its widest row's cells, and
    a shorter row's cell goes to the column it overlaps most, in order, the others empty.
    (PyMuPDF's ``find_tables`` keeps empty cells too, but only of ruled tables, and costs
    40-300 ms a page: docs/reading-reports.md.)"""
    i = 0
    while i < len(paras):
        if not paras[i].table:
            i += 1
            continue
        j = i
        while j < len(paras) and paras[j].table:
            j += 1
        rows = [r for p in paras[i:j] for r in p.grid]
        aligned = iter(_aligned(rows))
        for para in paras[i:j]:
            para.rows = ["| " + " | ".join(next(aligned)) + " |" for _ in para.grid]
        i = j


def _aligned(rows: list[tuple[list[str], list[tuple[float, float]]]]) -> list[list[str]]:
    """The cells of each row in the columns of the widest row (``_align_tables``) whose
    cells' places are known: a row whose model cell wraps ("pre-" / "trained") keeps no
    places, and a wider row of that kind would leave every row where it was."""
    placed = [r for r in rows if len(r[1]) == len(r[0])] or rows
    cells_w, columns = max(placed, key=lambda r: len(r[0]))
    out = []
    for cells, bounds in rows:
        if len(cells) == len(columns) or len(bounds) != len(cells) \
                or len(columns) != len(cells_w):
            out.append(cells)
            continue
        slots: list[str] | None = [""] * len(columns)
        at = 0
        for i, (x0, x1) in enumerate(bounds):
            room = range(at, len(columns) - (len(cells) - 1 - i))  # a column for each left
            best = max(room, key=lambda k: (min(x1, columns[k][1]) - max(x0, columns[k][0]),
                                            -abs((x0 + x1) - sum(columns[k]))))
            if min(x1, columns[best][1]) <= max(x0, columns[best][0]):
                slots = None  # a cell under no column: another table's row, left as it is
                break
            slots[best] = cells[i]
            at = best + 1
        out.append(cells if slots is None else slots)
    return out


def _between_rules(block: _Block) -> tuple[float, float, float] | None:
    """The rules drawn nearest above and below a block, over its text: a table cell's
    borders (y above, y below), and its width; None without both."""
    x0, x1 = min(ln.x0 for ln in block.lines), max(ln.x1 for ln in block.lines)
    top, bottom = min(ln.y0 for ln in block.lines), max(ln.y1 for ln in block.lines)
    over = [r for r in block.rules if min(r.x1, x1) - max(r.x0, x0) > 0.5 * (x1 - x0)]
    above = [r.y for r in over if r.y <= top + 1]
    below = [r.y for r in over if r.y >= bottom - 1]
    if not above or not below:
        return None
    return max(above), min(below), x1 - x0


def _one_table_row(prev: _Block, block: _Block) -> bool:
    """Two blocks side by side between the same two drawn borders are cells of one table
    row (Chromium and Word exports give each cell a block; a cell that wraps stands
    taller than its neighbours, so their lines do not share baselines)."""
    if not block.rules or prev.page != block.page:
        return False
    px0, px1 = min(ln.x0 for ln in prev.lines), max(ln.x1 for ln in prev.lines)
    bx0, bx1 = min(ln.x0 for ln in block.lines), max(ln.x1 for ln in block.lines)
    ptop, pbottom = min(ln.y0 for ln in prev.lines), max(ln.y1 for ln in prev.lines)
    btop, bbottom = min(ln.y0 for ln in block.lines), max(ln.y1 for ln in block.lines)
    if min(px1, bx1) > max(px0, bx0) or min(pbottom, bbottom) <= max(ptop, btop):
        return False  # one over the other, or apart: not side by side
    a, b = _between_rules(prev), _between_rules(block)
    size = max(ln.size for ln in block.lines)
    return (
        a is not None
        and b is not None
        and abs(a[0] - b[0]) < 1.5
        and abs(a[1] - b[1]) < 1.5
        and a[1] - a[0] < 12 * size  # a row of cells, not a framed page
    )
