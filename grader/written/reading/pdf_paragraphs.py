"""A PDF's blocks as paragraphs, headings, code lines and table rows, then as lines
of Markdown-flavoured text with the page of each.

Why: the stages read one paragraph per line; a PDF breaks a paragraph at every line,
column and page end, and a heading is only a larger font."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from grader.written.reading.bidi import MIRROR as _MIRROR
from grader.written.reading.bidi import (
    clusters,
    has_rtl,
    logical_order,
    pairs_mirrored,
    strong_letters,
)
from grader.written.reading.markup import Run, render
from grader.written.reading.pdf_margins import (
    _drop_line_numbers,
    _drop_margins,
    _drop_point_tallies,
)
from grader.written.reading.pdf_page import _Block, _Line, _Para, _Span
from grader.written.reading.pdf_rows import (
    _limits_of,
    _merge_markers,
    _over_bar,
    _Row,
    _rows,
    _spaced,
)
from grader.written.reading.pdf_tables import (
    _align_tables,
    _column_flows,
    _columns,
    _one_table_row,
    _stretched,
)
from grader.written.vocabulary import LIST_MARKER, ends_sentence

HEADING_RATIO = 1.15
"""A short block whose text is this much larger than the body text is a heading."""
_DIGIT_GROUPS = re.compile(r"(?<=[=≈] )\d{1,3}(?:, \d{3})+(?![\d.,])")
"""Chromium sets MathML's digit-group commas as separators with a space after them
("= 9, 437, 184"); after "=" that is one number, not a list."""


def _paragraphs(block: _Block, rtl: bool = False,
                edges: dict[tuple[int, int, int], float] | None = None) -> list[_Para]:
    """The block's paragraphs; ``rtl``: its page runs right to left (``_rtl_pages``);
    ``edges``: where the page's lines that start at each left edge end (``_right_edges``)."""
    rows = [_logical(r, rtl) for r in _rows(block.lines, block.rules, block.walls) if r.cells]
    if not rows:
        return []
    if block.row and len(rows) > 1:
        # cells of one table row whose text wraps: one row of its columns, not a row per
        # printed line; a row whose cells hold paragraphs (a question beside its answer,
        # the working above the result, in a two-column grid) is a page laid out in
        # columns, not a table: its paragraphs, column by column
        flows = _column_flows(block.lines)
        if flows is not None and any(len(flow) > 1 for flow in flows):
            return [_Para(render(p.runs), block.page, None, p.size,
                          rows=[render(p.runs, emphasis=False)], top=p.top, bottom=p.bottom)
                    for flow in flows for p in flow]
        wrapped = _columns(block.lines)
        if wrapped is not None:
            return [_Para("", block.page, table=True, grid=[([render(c) for c in wrapped], [])])]
    multi = sum(len(r.cells) > 1 for r in rows)
    if multi == 1 and len(rows) >= 2 and _header_under_caption(rows):
        # "Bảng 1. Kết quả theo seed." over "Model | Seed | Best val | Step | Test": MuPDF
        # gave a table's caption and header row one block; the header is the table's
        # (its rows follow in a block of their own), the caption a paragraph
        top = rows[-1].y0
        caption = replace(block, lines=[ln for ln in block.lines if ln.y1 <= top + 0.5])
        header = rows[-1]
        return _paragraphs(caption, rtl, edges) + [_Para(
            "", block.page, table=True,
            grid=[([render(c) for c in header.cells], header.bounds)])]
    if (multi >= 2 and not _stretched(rows)) or (multi == 1 and len(rows) == 1):
        # a table, or one row of one
        grid = [([render(c) for c in row.cells], row.bounds) for row in rows]
        return [_Para("", block.page, table=True, grid=grid)]
    if all(s.mono for ln in block.lines for s in ln.spans if s.text.strip()):
        # a code block (Markdown's fenced code printed by a browser, a listing): its
        # lines are lines, its keywords' bold no emphasis
        out = []
        for row in rows:
            text = render([r for cell in _spaced(row.cells) for r in cell], emphasis=False)
            out.append(_Para(text, block.page, None, row.size, rows=[text], top=row.y0,
                             bottom=row.y1, code=True))
        return out
    columns = _columns(block.lines) if len(rows) > 1 else None
    if columns is not None:
        return [_Para("", block.page, table=True, grid=[([render(c) for c in columns], [])])]
    left = min(row.x0 for row in rows)
    weight: Counter[float] = Counter()  # the block's body size: the size of most of its text
    for row in rows:
        weight[row.size] += sum(len(r.text.strip()) for cell in row.cells for r in cell)
    body = weight.most_common(1)[0][0]
    right = _column_right(rows, (edges or {}).get((block.page, round(left), round(body)), 0.0))
    paras: list[list[_Row]] = [[]]
    hand_broken: set[int] = set()
    for row in rows:
        indented = row.x0 - left > 0.8 * row.size
        current = paras[-1]
        starts_list = bool(current) and LIST_MARKER.match(current[0].first_word)
        item = bool(LIST_MARKER.match(row.first_word))
        # a line set as large as a heading over smaller text (a heading that wrapped, its
        # last words in the block of the paragraph under it: Typst) is no part of it;
        # smaller text after body text (inline code, a formula's lower line) is
        resized = bool(current) and current[-1].size >= HEADING_RATIO * max(row.size, body)
        broken = bool(current) and not rtl and _broken_early(current[-1], row, right)
        if current and (item or (indented and not starts_list) or resized or broken):
            paras.append([])
            if broken:
                hand_broken.add(len(paras) - 1)
        paras[-1].append(row)
    out = []
    for k, para in enumerate(paras):
        runs: list[Run] = []
        for row in para:
            # one odd wide gap in a paragraph (a stretched justified line) is a space
            line_runs = [r for cell in _spaced(row.cells) for r in cell]
            if runs:
                while runs and not runs[-1].text.strip():
                    runs.pop()
                prev = runs[-1].text.rstrip() if runs else ""
                nxt = next((r.text for r in line_runs if r.text.strip()), "").lstrip()
                # a word hyphenated at the line's end: "para-" | "meters", or at a soft
                # hyphen (U+00AD: Typst, a browser's hyphens: auto), whatever follows
                soft = prev[-1:] == "\xad"
                if prev[-2:-1].isalpha() and ((prev[-1:] == "-" and nxt[:1].islower()) or soft):
                    runs[-1] = Run(prev[:-1], runs[-1].bold, runs[-1].italic, runs[-1].vert)
                else:
                    runs.append(Run(" "))
            runs.extend(line_runs)
        size = min(row.size for row in para)
        out.append(_Para(render(runs), block.page, size if len(para) <= 2 else None, size,
                         after_break=k in hand_broken))
        out[-1].rows = [render(runs, emphasis=False)]
        out[-1].top, out[-1].bottom = min(r.y0 for r in para), max(r.y1 for r in para)
    return out


HEADER_CELL_CHARS = 24
"""The longest cell of a table's header row ("Best validation accuracy")."""


def _header_under_caption(rows: list[_Row]) -> bool:
    """Whether a block's last row is a table's header row under lines of one cell each (a
    caption): three cells or more, each a short name (words, no sentence), none a
    figure: a row of figures under its wrapped first cell ("Language modeling" over
    "10,000,200 | …") is a table's row, not a header."""
    last = rows[-1]
    cells = ["".join(r.text for r in c).strip() for c in last.cells]
    return len(cells) >= 3 and all(len(r.cells) == 1 for r in rows[:-1]) \
        and all(0 < len(c) <= HEADER_CELL_CHARS and not ends_sentence(c)
                and any(ch.isalpha() for ch in c) for c in cells)


def _x1(row: _Row) -> float:
    return max((b[1] for b in row.bounds), default=row.x0)


MIN_MEASURE_CHARS = 30
"""The fewest characters a line of a wrapped paragraph holds: a box narrower is no column
of prose but short lines broken by hand."""


def _column_right(rows: list[_Row], page_edge: float) -> float:
    """Where the block's lines may reach: its own measure where two of its lines before the
    last, each of a line's worth of text, end within an em of its widest (a paragraph
    wrapped in a narrow box, a sidebar or a grid's column: the page's wider lines are no
    edge of it), else the page's edge for its left and size (a block of short lines broken
    by hand, "Ans: probability = 0.75" / "cross entropy = -ln(0.75)", shows no measure)."""
    ends = [_x1(row) for row in rows]
    own = max(ends, default=0.0)
    full = sum(own - end <= row.size and len(_text(row)) >= MIN_MEASURE_CHARS
               for end, row in zip(ends[:-1], rows[:-1], strict=True))
    return own if full >= 2 else max(own, page_edge)


def _text(row: _Row) -> str:
    return "".join(r.text for cell in row.cells for r in cell)


def _broken_early(prev: _Row, row: _Row, right: float) -> bool:
    """Whether ``prev`` ended before the column did although ``row``'s first word would
    have fitted after it: a line broken by hand (Word's Shift+Enter, HTML's ``<br>``, a
    Google Doc's lines with no space between them), not a paragraph wrapping. Why: such
    lines ("... = 20.09 / 26.78" | "Ans: probability = 0.75") are lines of their own to
    the writer and to a TA; joined, the answer word stands in the middle of a line.
    The word's width is measured in the row's own average glyph width, words as the line
    breaker sees them (split at plain spaces only: a no-break space keeps "25.77 GB" one
    word); a margin of one em keeps a ragged line that only just missed whole."""
    text = _text(row)
    width = _x1(row) - row.x0
    if not text.strip() or width <= 0 or not prev.bounds:
        return False
    glyph = width / len(text)
    word = text.lstrip(" ").split(" ", 1)[0]
    return right - _x1(prev) > (len(word) + 1) * glyph + row.size


def _right_edges(blocks: list[_Block]) -> dict[tuple[int, int, int], float]:
    """Where the lines of each page that start at the same left edge, in the same size,
    end at the most: a column's right edge, for blocks of a few lines that cannot show it
    themselves. Keyed by the left edge, a two-column page keeps one edge a column; by the
    size, a title or a banner of key figures set wider over a poster's columns is not
    taken for the body's edge."""
    edges: dict[tuple[int, int, int], float] = {}
    for block in blocks:
        for line in block.lines:
            key = (block.page, round(line.x0), round(line.size))
            edges[key] = max(edges.get(key, 0.0), line.x1)
    return edges


def _join_broken(paras: list[_Para]) -> list[_Para]:
    """A paragraph cut by a column or page break ("... every pair" | "of positions, ...")
    is one paragraph again: the first part ends mid-sentence, the second starts lowercase.

    Linear in the text: the joined paragraph's pieces are kept in a list and joined once,
    and its end is read from its last piece (a page of thousands of one-letter blocks
    joins them all: building the string, and searching it for its end, at each join was
    quadratic)."""
    out: list[_Para] = []
    parts: list[str] = []  # the pieces of out[-1]'s text, its rows[0], and whether it has = or ≈
    row_parts: list[str] = []
    eq = False

    def flush() -> None:
        if len(parts) > 1:
            out[-1].text = " ".join(parts)
            out[-1].rows = [" ".join(row_parts)]

    for para in paras:
        prev = out[-1] if out else None
        last = parts[-1] if parts else ""
        if (
            prev is not None
            and not prev.table
            and not para.table
            and not prev.code
            and not para.code
            and not para.after_break
            and parts[0]
            and para.text
            and abs((prev.size or 0) - (para.size or 0)) < 0.6
            and (
                (
                    # a sentence whose value opens the next column or page: "... need in
                    # total" | "25.77 GB of memory"
                    not ends_sentence(last)
                    and re.match(r"\**[\d$€£−-]", para.text)
                    and not LIST_MARKER.match(para.text.strip("*").split(" ")[0])
                    and (para.page != prev.page or para.top < prev.top)
                )
                or (
                    not ends_sentence(last)
                    and para.text[:1].islower()
                    # "ii. Adam: …" opens the list's next item, lowercase as it is
                    and not LIST_MARKER.match(para.text.strip("*").split(" ")[0])
                    # two display equations one under the other stay two lines
                    and not (
                        re.search(r"\d%?$", last) and re.match(r"\S{1,12} ?[=≈]", para.text)
                    )
                )
                or re.search(r"[=+×·−\-,(]$", last)  # "e^0.1 =" | "1.1052, ..."
                or (
                    # a display formula broken before an operator (TeX's multline, a
                    # long MathML line): "N = n_token n_hid" | "+ n_layers (...)"
                    re.match(r"[+−×·] ?[\w(]", para.text)
                    and eq
                    and not ends_sentence(last)
                )
            )
        ):
            parts.append(para.text)
            row_parts.append(para.rows[0])
            eq = eq or "=" in para.text or "≈" in para.text
            prev.heading_size = None
            continue
        if out:
            flush()
        out.append(para)
        parts = [para.text]
        row_parts = [para.rows[0]] if para.rows else []
        eq = "=" in para.text or "≈" in para.text
    if out:
        flush()
    return out


def _join_wrapped_headings(paras: list[_Para]) -> list[_Para]:
    """A heading wrapped onto a second line of its size on its page, the second starting
    lowercase after a first that ends mid-word or mid-phrase (Typst and LaTeX titles in a
    narrow column: "A Q3 (a) Pre-training with lan-" | "guage modelling"), is one heading."""
    out: list[_Para] = []
    for para in paras:
        prev = out[-1] if out else None
        if (prev is not None and prev.heading_size and para.heading_size
                and abs(prev.heading_size - para.heading_size) < 0.6 and prev.page == para.page
                and para.rows and prev.rows and para.rows[0][:1].islower()
                and not ends_sentence(prev.rows[0])):
            glue = "" if prev.rows[0].endswith("\xad") else " "
            prev.rows = [prev.rows[0].rstrip("\xad") + glue + para.rows[0]]
            continue
        out.append(para)
    return out


MARKER_CHARS = 6
"""The longest marker set apart in a margin: "(b)", "(III)", "3.", "(e)"."""


def _hung_markers(blocks: list[_Block]) -> list[_Block]:
    """A part's marker hung in the margin, printed after the text it marks (LaTeX's exam
    class, a hanging list: "(b)" is a block of its own, left of its paragraph's first line
    and on its baseline, but written to the page after it) goes back into that line, so
    the paragraph it labels follows it, as the page shows. Only a short one-line block
    that ends like a marker (")" or ".") and an earlier block with a line on its baseline
    starting less than three ems to its right ("(a)  (I)  Causal language ...": a
    sub-part's marker between its part's and the text)."""
    hung: dict[int, _Line] = {}  # id of the line a marker opens -> the marker's line
    for k, block in enumerate(blocks):
        if len(block.lines) != 1 or block.row:
            continue
        mark = block.lines[0]
        text = mark.text.strip()
        if not 2 <= len(text) <= MARKER_CHARS or text[-1] not in ").":
            continue
        for j in range(k - 1, -1, -1):
            other = blocks[j]
            if other.page != block.page:
                break
            line = next((ln for ln in other.lines[:MAX_HUNG_LINES]
                         if abs(ln.baseline - mark.baseline) <= 0.35 * mark.size
                         and 0 < ln.x0 - mark.x1 < 3 * mark.size and id(ln) not in hung), None)
            if line is not None:
                hung[id(line)] = mark
                break
    if not hung:
        return blocks
    moved = {id(mark) for mark in hung.values()}
    out = []
    for block in blocks:
        if len(block.lines) == 1 and id(block.lines[0]) in moved:
            continue
        if any(id(ln) in hung for ln in block.lines):
            block = _Block([_opened(hung[id(ln)], ln) if id(ln) in hung else ln
                            for ln in block.lines], block.page, block.rules, block.walls,
                           block.row)
        out.append(block)
    return out


def _opened(mark: _Line, line: _Line) -> _Line:
    """``line`` with the marker hung before it as its first words."""
    space = _Span(" ", mark.x1, line.x0, line.baseline, line.size, False, False, False, 0)
    return _Line([*mark.spans, space, *line.spans], mark.x0, line.x1, min(mark.y0, line.y0),
                 max(mark.y1, line.y1), line.baseline, line.size)


MAX_HUNG_LINES = 40
"""How far into a block a hung marker's line is looked for (a page of long blocks stays
linear)."""


def _rejoin(blocks: list[_Block]) -> list[_Block]:
    """Blocks that continue the previous block's line are one block again.

    MuPDF starts a new block at a lowered or raised script in LaTeX inline mathematics
    (``n_hid^2``): the block begins on the same visual line, right of where the previous
    one stopped."""
    out: list[_Block] = []
    px0 = px1 = 0.0  # out[-1]'s extent across, kept as it grows (linear in blocks)
    for block in blocks:
        prev = out[-1] if out else None
        first = block.lines[0]
        bx0, bx1 = min(ln.x0 for ln in block.lines), max(ln.x1 for ln in block.lines)
        if prev is not None and prev.page == block.page:
            tail = prev.lines[-3:]
            # a block beside the previous one, across a gap (the next column of a
            # two-column page, whose baselines line up with this column's), is no
            # continuation of its line
            apart = (bx0 > px1 + 0.5 * first.size) or (px0 > bx1 + 0.5 * first.size)
            continues = not apart and any(
                ln.y0 < first.y1
                and ln.y1 > first.y0
                and (
                    first.x0 >= ln.x1 - ln.size
                    or abs(first.baseline - ln.baseline) <= 0.35 * ln.size
                    or (
                        first.x0 >= ln.x0 + 2 * ln.size
                        and min(first.y1, ln.y1) - max(first.y0, ln.y0)
                        > 0.5 * min(first.y1 - first.y0, ln.y1 - ln.y0)
                    )
                    or _over_bar(first, [ln], block.rules)
                )
                for ln in tail
            )
            cells = not continues and _one_table_row(prev, block)
            if continues or cells or _limits_of(first, prev.lines[-4:]) or any(
                _limits_of(ln, block.lines) and _same_line(block.lines, prev.lines[-3:])
                for ln in block.lines[:1]
            ):
                prev.lines.extend(block.lines)
                prev.row = prev.row or cells
                px0, px1 = min(px0, bx0), max(px1, bx1)
                continue
        out.append(_Block(list(block.lines), block.page, block.rules, block.walls))
        px0, px1 = bx0, bx1
    return out


def _same_line(lines: list[_Line], tail: list[_Line]) -> bool:
    """One of the lines (a big operator under its upper limit) stands on a line of the
    tail's baseline, right of it."""
    return any(
        abs(ln.baseline - t.baseline) <= 0.35 * t.size and ln.x0 >= t.x1 - t.size
        for ln in lines
        for t in tail
    )



def _rtl_pages(blocks: list[_Block]) -> set[int]:
    """Pages that run right to left: where the lines holding Hebrew or Arabic letters
    hold more of them than Latin letters (a Hebrew report's page; not an English
    report's page that quotes a Hebrew word). The page decides for its lines: a line of
    a Hebrew report that holds more Latin than Hebrew ("המודל: L = 48, H = 6144") is
    still laid out right to left."""
    letters: dict[int, list[int]] = {}
    for block in blocks:
        for line in block.lines:
            text = line.text
            if has_rtl(text):
                right, left = strong_letters(text)
                count = letters.setdefault(block.page, [0, 0])
                count[0] += right
                count[1] += left
    return {page for page, (right, left) in letters.items() if right > left}


def _logical(row: _Row, rtl_page: bool) -> _Row:
    """A row holding right-to-left letters in the order it was written (see ``bidi``):
    its runs put back in logical order, and, right to left, its cells too (a table's
    first column is its rightmost). A row of a right-to-left page with no right-to-left
    letter has its brackets mirrored back where that pairs them (``pairs_mirrored``);
    other rows are left as they are."""
    text = "".join(r.text for cell in row.cells for r in cell)
    if not has_rtl(text):
        if rtl_page and pairs_mirrored(text):
            cells = [[Run(r.text.translate(_MIRROR), r.bold, r.italic, r.vert) for r in cell]
                     for cell in row.cells]
            return _Row(cells, row.x0, row.size, row.y0, row.y1, row.bounds)
        return row
    right, left = strong_letters(text)
    rtl = rtl_page or right > left
    cells = [_logical_runs(cell, rtl) for cell in row.cells]
    bounds = row.bounds
    if rtl and len(cells) > 1:
        cells.reverse()
        bounds = bounds[::-1]
        merged = _merge_markers(cells)  # "(a)" set apart from its text, now before it
        if len(merged) != len(cells):
            cells = merged
            bounds = [(min(b[0] for b in bounds), max(b[1] for b in bounds))] if bounds else []
    return _Row(cells, row.x0, row.size, row.y0, row.y1, bounds)


def _logical_runs(runs: list[Run], rtl: bool) -> list[Run]:
    pieces: list[str] = []
    owners: list[int] = []
    for k, run in enumerate(runs):
        for piece in clusters(run.text):
            pieces.append(piece)
            owners.append(k)
    out: list[Run] = []
    last = -1
    for k, mirrored in logical_order(pieces, rtl):
        piece = pieces[k].translate(_MIRROR) if mirrored else pieces[k]
        if owners[k] == last:
            out[-1] = Run(out[-1].text + piece, out[-1].bold, out[-1].italic, out[-1].vert)
        else:
            source = runs[owners[k]]
            out.append(Run(piece, source.bold, source.italic, source.vert))
        last = owners[k]
    return out


def _layout(blocks: list[_Block], heights: dict[int, float]) -> tuple[list[str], list[int]]:
    blocks = _rejoin(_drop_point_tallies(_drop_margins(_drop_line_numbers(blocks), heights)))
    blocks = _hung_markers(blocks)
    rtl = _rtl_pages(blocks)
    edges = _right_edges(blocks)
    paras = _join_broken([p for b in blocks for p in _paragraphs(b, b.page in rtl, edges)])
    weights: Counter[float] = Counter()
    for block in blocks:
        for line in block.lines:
            weights[round(line.size * 2) / 2] += len(line.text.strip())
    body = weights.most_common(1)[0][0] if weights else 10.0
    for para in paras:
        plain = para.rows[0] if para.rows else ""
        if (
            para.heading_size is None
            or para.table
            or len(plain) > 150
            or not plain.strip()
            or para.heading_size < HEADING_RATIO * body
        ):
            para.heading_size = None
    _align_tables(paras)
    paras = _join_wrapped_headings(paras)
    sizes = sorted({round(p.heading_size * 2) / 2 for p in paras if p.heading_size}, reverse=True)
    level = {s: min(i + 1, 6) for i, s in enumerate(sizes)}
    lines: list[str] = []
    pages: list[int] = []
    # Code printed among prose (an R Markdown chunk, a notebook's cell, a listing) is fenced
    # as Markdown has it, so "## [1] 21018401" is R's output, no heading, and "cls_head <-
    # nhid * nclasses" an assignment, no formula offered as the answer. A report that is
    # mostly code (a script handed in as its report, answers in its comments and prints)
    # is read as text: its comments are its headings.
    # (counted in characters: a code cell's lines are a paragraph each, a prose paragraph
    # many lines in one, so a notebook printed with a cell before each answer would count
    # as mostly code by paragraphs)
    code = sum(len(p.text.strip()) for p in paras if p.code)
    fence = code * 2 < sum(len(p.text.strip()) for p in paras if not p.table)
    fenced = False  # inside a fenced run of code lines
    for para in paras:
        if fence and para.code != fenced and para.text.strip():
            lines.append("```")
            pages.append(para.page)
            fenced = para.code
        if para.table:
            out = para.rows
        elif para.heading_size:
            out = ["#" * level[round(para.heading_size * 2) / 2] + " " + para.rows[0]]
        else:
            out = [para.text]
        for line in out:
            if line.strip():
                lines.append(_DIGIT_GROUPS.sub(lambda m: m.group().replace(", ", ","), line))
                pages.append(para.page)
    if fenced:
        lines.append("```")
        pages.append(pages[-1])
    return lines, pages
