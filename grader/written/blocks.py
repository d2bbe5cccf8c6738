"""A report as blocks: headings, paragraphs, list items, tables, mathematics and code, each
with the line and page it was handed in on, whatever format it came in.

Why from ``Document.text``: every reader (PDF with its layout, Word, HTML tables in
Markdown, Markdown, plain text, a notebook's Markdown cells) already writes the same
Markdown-flavoured text, one paragraph a line (``# heading``, ``**bold**``, ``| a | b |``
rows, ``$$ .. $$``). Reading that text into blocks once gives every format the same
structure, so a stage that needs a table's header or a list item's marker asks the block
instead of matching the line again; what a heading, a list marker or a table row is comes
from ``vocabulary``.

A table drawn in plain text (``+-----+`` rules between ``|`` rows) is one table, its rule
under the first row marking the header as ``|---|`` does. Tables keep their empty cells (``| | Seed 1 | Seed 2 |``: the top-left corner is a cell),
and know their header row (the row over a ``|---|`` line, or a first row with no number
over rows with numbers) and header column (a first column of names beside numbers), so a
transposed table (seeds as columns, the figures down the rows) reads as well as the usual
one: ``Table.value(row, column)`` takes the names from either header.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from grader.written.vocabulary import (
    BOLD_LINE,
    LATEX_HEADING,
    LIST_MARKER,
    MD_HEADING,
    TABLE_SEPARATOR,
    has_digit,
    heading_text,
    is_table_row,
)

_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])")
_FENCE = ("```", "~~~")
_DISPLAY_MATH = ("$$", "\\[", "\\begin{equation", "\\begin{align")


@dataclass(frozen=True)
class Emphasis:
    """A bold or italic run of a block's text (``start``, ``end`` in ``Block.text``)."""

    start: int
    end: int
    kind: str  # "bold" | "italic"


@dataclass(frozen=True)
class Table:
    """A table's cells as written (empty cells kept), and which row and column name the rest."""

    rows: tuple[tuple[str, ...], ...]
    header_rows: int = 0
    header_columns: int = 0

    def column_names(self) -> tuple[str, ...]:
        return self.rows[0] if self.header_rows else ()

    def row_names(self) -> tuple[str, ...]:
        return tuple(r[0] if r else "" for r in self.rows[self.header_rows:]) \
            if self.header_columns else ()

    def value(self, row: str, column: str) -> str | None:
        """The cell of the row named ``row`` in the column named ``column`` (names matched
        case-insensitively, without emphasis), or None."""
        want_row, want_col = _key(row), _key(column)
        cols = [_key(c) for c in self.column_names()]
        if want_col not in cols:
            return None
        k = cols.index(want_col)
        for r in self.rows[self.header_rows:]:
            if r and _key(r[0]) == want_row and k < len(r):
                return r[k]
        return None

    @property
    def transposed(self) -> bool:
        """Records as columns: a header row of names over a header column of fields whose
        cells below are numbers ("| | Seed 1 | Seed 2 |" / "| best val. acc. | 0.85 | ..")."""
        return bool(self.header_rows and self.header_columns and self.rows
                    and not self.rows[0][0].strip())


@dataclass(frozen=True)
class Block:
    """One block of a report: ``kind`` is heading, paragraph, item, table, math or code.

    ``line``: the (1-based) line of ``Document.text`` it starts on, ``end_line`` its last;
    ``page``: the PDF page, None for other formats; ``level``: a heading's (1-6; a bold
    line or a LaTeX heading counts as level 6, below every ``#``); ``marker``: a list
    item's ("-", "1.", "(a)"); ``table``: a table's cells; ``emphasis``: bold and italic
    runs of ``text``, with their markers taken off.
    """

    kind: str
    text: str
    line: int
    end_line: int
    page: int | None = None
    level: int | None = None
    marker: str | None = None
    table: Table | None = None
    emphasis: tuple[Emphasis, ...] = field(default=(), compare=False)
    cell: int | None = None
    """For a notebook's Markdown cell: the cell's index (``line`` is then the cell's line)."""


def cells(row: str) -> tuple[str, ...]:
    """``| a |  | c |`` -> ("a", "", "c"): the cells of a table row, empty ones kept."""
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and len(inner) > 0 else inner
    return tuple(c.strip() for c in inner.split("|"))


def ascii_rule(raw: str) -> bool:
    """A rule of a table drawn in plain text (``+-------+-----+``, ``+=====+``): between
    its rows it is what ``|---|`` is in Markdown, and a table drawn so is one table."""
    s = raw.strip()
    return len(s) > 2 and s[0] == "+" and s[-1] == "+" and not s.strip("+-=: ")


def _key(text: str) -> str:
    return " ".join(text.replace("*", " ").replace("_", " ").lower().split())


def _figure(cell: str) -> bool:
    """A cell that is a value ("0.853", "**1200**", "≈ 25.77 GB"), not a name ("Seed 1")."""
    s = cell.lstrip("*_$ \t≈~<>±−+-")
    return s[:1].isdecimal() or (s[:1] == "." and s[1:2].isdecimal())


def table_of(rows: Sequence[str]) -> Table:
    """The ``Table`` of consecutive ``|`` rows, its header row and column recognised."""
    header_rows = 0
    body: list[tuple[str, ...]] = []
    for raw in rows:
        if TABLE_SEPARATOR.match(raw) or ascii_rule(raw):
            header_rows = 1 if len(body) == 1 else header_rows  # a rule under the first row
            continue
        body.append(cells(raw))
    if not header_rows and len(body) > 1 and not any(_figure(c) for c in body[0]) \
            and any(_figure(c) for r in body[1:] for c in r[1:]):
        header_rows = 1  # a first row of names over rows of figures
    below = body[header_rows:]
    header_columns = int(bool(below) and all(r and r[0] and not _figure(r[0]) for r in below)
                         and any(_figure(c) for r in below for c in r[1:]))
    return Table(tuple(body), header_rows, header_columns)


def _emphasis(text: str) -> tuple[str, tuple[Emphasis, ...]]:
    out: list[str] = []
    runs: list[Emphasis] = []
    pos = 0
    length = 0
    for m in _EMPHASIS.finditer(text):
        out.append(text[pos:m.start()])
        length += m.start() - pos
        inner = m.group(1) if m.group(1) is not None else m.group(2)
        runs.append(Emphasis(length, length + len(inner), "bold" if m.group(1) else "italic"))
        out.append(inner)
        length += len(inner)
        pos = m.end()
    out.append(text[pos:])
    return "".join(out), tuple(runs)


def blocks(text: str, line_pages: Sequence[int] | None = None) -> list[Block]:
    """The blocks of a report's text (``Document.text``), in order."""
    lines = text.split("\n")
    out: list[Block] = []

    def page(i: int) -> int | None:
        return line_pages[i] if line_pages is not None and i < len(line_pages) else None

    i = 0
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        if not stripped:
            i += 1
            continue
        if stripped.startswith(_FENCE) or stripped.startswith(_DISPLAY_MATH):
            kind = "code" if stripped.startswith(_FENCE) else "math"
            closer = stripped[:3] if kind == "code" else None
            j = i + 1
            if kind == "code" or not _closed(stripped):
                while j < len(lines) and not (
                        lines[j].strip().startswith(closer) if closer else _closes(lines[j])):
                    j += 1
                j = min(j + 1, len(lines))
            body = "\n".join(lines[i:j])
            out.append(Block(kind, body, i + 1, j, page(i)))
            i = j
            continue
        if is_table_row(raw) or (ascii_rule(raw) and i + 1 < len(lines)
                                 and is_table_row(lines[i + 1])):
            j = i
            while j < len(lines) and (is_table_row(lines[j]) or ascii_rule(lines[j])):
                j += 1
            table = table_of(lines[i:j])
            out.append(Block("table", "\n".join(lines[i:j]), i + 1, j, page(i), table=table))
            i = j
            continue
        level = heading_level(raw)
        if level is not None:
            title = heading_text(raw)
            plain, runs = _emphasis(title if title is not None else stripped)
            out.append(Block("heading", plain, i + 1, i + 1, page(i), level=level,
                             emphasis=runs))
            i += 1
            continue
        marker, _, rest = stripped.partition(" ")
        item = bool(LIST_MARKER.match(marker)) and bool(rest.strip())
        plain, runs = _emphasis(rest if item else stripped)
        out.append(Block("item" if item else "paragraph", plain.strip(), i + 1, i + 1, page(i),
                         marker=marker if item else None, emphasis=runs))
        i += 1
    return out


def heading_level(raw: str) -> int | None:
    """The level of the heading a line is (1-6 from its ``#``s; 6 for a LaTeX heading or a
    short all-bold line with no digit: "**Question 3**", not "**25.77 GB**"), or None.
    The one definition the blocks and the section finder (``sections.read_lines``) share."""
    md = MD_HEADING.match(raw)
    if md is not None:
        return len(md.group(1))
    if LATEX_HEADING.match(raw) or (BOLD_LINE.match(raw) and not has_digit(raw)) \
            or capitals_section(raw):
        return 6
    return None


CAPS_SECTION_CHARS = 90
"""The longest a section title set in capitals is (IEEEtran's wrap after about 50)."""


def capitals_section(raw: str) -> bool:
    """Whether a line is a section title numbered and set in capitals, as IEEEtran and
    some journal classes print them ("II. ENCODER PARAMETERS (QUESTION 1)"): in the
    body's size, so no reader sees a heading by its font."""
    text = raw.strip()
    number, dot, title = text.partition(". ")
    roman = number and not number.strip("IVX")
    words = [w for w in title.split() if w.isalpha() and len(w) >= 3]
    return bool(dot) and len(text) <= CAPS_SECTION_CHARS and (roman or (
        number.isdecimal() and len(number) <= 2)) and title[:1].isalpha() and len(words) >= 2 \
        and not any(c.islower() for c in title) and not any(r in title for r in "=≈:")


def notebook_blocks(notebook: Mapping[str, Any]) -> list[Block]:
    """The blocks of a notebook's Markdown cells (an nbformat dict), each with its cell's
    index and its line in that cell: answers written in the notebook read like a report's."""
    from grader.written.reading.normalise import normalise

    out: list[Block] = []
    for index, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else str(source)
        out.extend(replace(b, cell=index) for b in blocks(normalise(text)))
    return out


def _closed(first: str) -> bool:
    """A display formula that closes on its own line (``$$ x $$``, ``\\[ x \\]``)."""
    return (first.startswith("$$") and first.count("$$") >= 2) or (
        first.startswith("\\[") and "\\]" in first) or (
        first.startswith("\\begin") and "\\end{" in first)


def _closes(raw: str) -> bool:
    s = raw.strip()
    return s.endswith("$$") or s.endswith("\\]") or s.startswith("\\end{")
