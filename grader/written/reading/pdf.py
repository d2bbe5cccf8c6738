"""PDF reports with their layout, through PyMuPDF (``pymupdf``, an optional dependency).

Why PyMuPDF: it gives each span's font, size, flags (bold, italic, superscript) and
baseline, and groups lines into blocks in the content stream's order, which is the
reading order of LaTeX two-column pages and of browser/Word exports. On this project's
fixtures it reads a page in ~5-15 ms; pdfplumber (pdfminer) exposes the same fonts and
positions per character but took 14-30x longer, has no block grouping and no superscript
flag (see docs/reading-reports.md for the figures). Without pymupdf the reader falls back
to pypdf's plain text (no emphasis, headings or tables) and says so in ``reader``.

What the layout pass does, page by page:

- drops running headers and footers: lines in the top or bottom tenth of a page whose
  text (digits ignored) recurs on another page, and page numbers, URLs and print dates
  there (Chromium prints "11/24/26, 2:30 PM", the title, the file URL and "1/2");
- joins the lines of a block into one paragraph (a number and its unit broken across
  lines meet again; "para-" + "meters" is de-hyphenated), splitting at first-line
  indents;
- writes a block whose lines share baselines in separate columns as table rows
  ``| a | b |`` (LaTeX ``tabular``, Word and HTML tables), and ``I. text`` list items
  as one line;
- marks headings by size (``#`` for the largest heading size, ``##`` for the next...),
  bold and italic runs as ``**..**`` / ``*..*``, raised or flagged superscripts as ``^2``
  and lowered smaller runs as ``_k`` (a smaller span hangs on the glyph it touches);
- writes stacked fractions linearly, ``e^3/(e^0.5 + e^0.1 + ...)``: raised and lowered
  text over one another (TeX or MathML printed by Chromium), a line beside a row joining
  it only over a drawn fraction bar, since a two-line table cell centred on its row looks
  the same without one; cells in blocks of their own between the same borders are one
  table row;
- flags pages that are only images (a scan or photo) for a TA.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from grader.written.reading.document import (
    MAX_PAGES,
    MAX_TEXT_CHARS,
    NO_TEXT_LAYER,
    Document,
    ReportReadError,
    ReportTooComplex,
)
from grader.written.reading.markup import Run, render
from grader.written.reading.normalise import LOST_GLYPHS, LOST_NOTE, normalise
from grader.written.vocabulary import LIST_MARKER, ends_sentence

MARGIN = 0.1
"""Top and bottom fraction of a page where running headers and footers live."""
HEADING_RATIO = 1.15
"""A short block whose text is this much larger than the body text is a heading."""
CELL_GAP = 0.9
"""Lines on one baseline further apart than this many font sizes are table cells."""

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|^cmbx|^cmb\d|-bd|\bbd\b", re.I)
_ITALIC_FONT = re.compile(r"italic|oblique|^cmti|^cmsl", re.I)
_MATH_FONT = re.compile(r"math|^cmmi|^cmsy|^cmex|^msam|^msbm|symbol|stix|^rsfs|^eufm", re.I)
_PAGE_NUMBER = re.compile(
    r"^(?:page\s*)?[-–—(]?\s*#\s*[-–—)]?(?:\s*(?:of|/)\s*#)?$|^#\s*/\s*#$", re.I
)
_PRINT_STAMP = re.compile(
    r"^(?:file|https?)://\S+$|^#{1,2}/#{1,2}/#{2,4},?\s+#{1,2}:#{2}(?:\s*[ap]m)?$", re.I
)
_MONO_FONT = re.compile(r"mono|courier|consol|menlo|^cmtt|^lmmono|inconsolata|fira ?code", re.I)
_TEX_EXTENSION = re.compile(r"^cmex|mathextension", re.I)
_TEX_OPERATORS = str.maketrans("PQRSXYZ[pqrst", "∑∏∫⋃∑∏∫⋃√√√√√")
"""TeX's math-extension font (cmex, Latin Modern's MathExtension) has no Unicode map
for its big operators: pdfTeX's text layer says "P" for ∑ and "p" for √."""
_FUNCTION_BEFORE = re.compile(r"(?<![^\W\d_])(?:ln|log|lg|exp|sqrt|√)\s*$")
_BIG_OPERATORS = frozenset("∑∏∫⋃⋂∐")
_DIGIT_GROUPS = re.compile(r"(?<=[=≈] )\d{1,3}(?:, \d{3})+(?![\d.,])")
"""Chromium sets MathML's digit-group commas as separators with a space after them
("= 9, 437, 184"); after "=" that is one number, not a list."""
_SECTION_NUMBER = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2}){0,3}|[A-Z])\.?$")
_EQUATION_NUMBER = re.compile(r"^\(\d{1,3}(?:\.\d{1,3})?[a-z]?\)$")


@dataclass(frozen=True)
class _Span:
    text: str
    x0: float
    x1: float
    baseline: float
    size: float
    bold: bool
    italic: bool
    flagged_sup: bool  # MuPDF's superscript flag
    chars: int  # non-blank characters (weights of baselines and sizes)
    mono: bool = False  # a monospaced font: code


@dataclass
class _Line:
    """One MuPDF line: a run of spans on (about) one baseline."""

    spans: list[_Span]
    x0: float
    x1: float
    y0: float
    y1: float
    baseline: float
    size: float  # the size of most of its text

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.spans)


@dataclass(frozen=True)
class _Rule:
    """A thin horizontal line drawn on the page: a fraction bar (or a table border)."""

    x0: float
    x1: float
    y: float


@dataclass
class _Block:
    lines: list[_Line]
    page: int
    rules: tuple[_Rule, ...] = ()  # the page's, when it sets text over other text


@dataclass
class _Para:
    text: str
    page: int
    heading_size: float | None = None  # set when the paragraph looks like a heading
    size: float | None = None  # its text's size
    table: bool = False
    rows: list[str] = field(default_factory=list)
    top: float = 0.0  # where it starts and ends on its page
    bottom: float = 0.0
    code: bool = False  # a line of a code block: never joined to its neighbours
    grid: list[tuple[list[str], list[tuple[float, float]]]] = field(default_factory=list)
    """A table's rows: each cell's text and where it stands (x0, x1): ``_align_tables``
    puts them in the table's columns."""


def read_pdf(p: Path) -> Document:
    try:
        import pymupdf
    except ImportError:
        return _read_pypdf(p)
    pymupdf.TOOLS.mupdf_display_errors(False)  # damaged files are reported by our message
    try:
        doc = pymupdf.open(p, filetype="pdf")
    except Exception as error:  # MuPDF raises FileDataError, RuntimeError, ValueError
        raise ReportReadError(f"{p.name}: not a readable PDF ({error})") from error
    with doc:
        if doc.needs_pass:
            raise ReportReadError(
                f"{p.name}: the PDF is protected by a password; ask the student for an "
                "unprotected copy, or a TA reads it"
            )
        if doc.page_count == 0:
            raise ReportReadError(f"{p.name}: not a readable PDF (no pages)")
        if doc.page_count > MAX_PAGES:
            raise ReportReadError(
                f"{p.name}: {doc.page_count} pages, more than the {MAX_PAGES} a report may "
                "have; it was not read (a TA reads it, or the student hands in the report alone)"
            )
        blocks: list[_Block] = []
        image_pages: list[int] = []
        sideways_pages: list[int] = []
        heights: dict[int, float] = {}
        chars = 0
        spans = 0
        try:
            for number, page in enumerate(doc, start=1):
                heights[number] = page.rect.height
                page_blocks, sideways = _page_blocks(page, number)
                spans += sum(len(ln.spans) for b in page_blocks for ln in b.lines)
                if spans > MAX_SPANS or len(blocks) + len(page_blocks) > MAX_BLOCKS:
                    raise ReportTooComplex(
                        f"{ReportTooComplex.prefix} (more than {MAX_BLOCKS:,} text blocks or "
                        f"{MAX_SPANS:,} pieces of text by page {number}; a report of 200 dense "
                        "pages has about a fifth of the blocks and half the pieces)")
                page_chars = sum(len(ln.text.strip()) for b in page_blocks for ln in b.lines)
                if sideways > 40 and sideways > page_chars / 2:
                    sideways_pages.append(number)
                if page_chars == 0 and page.get_images(full=False):
                    image_pages.append(number)
                chars += page_chars
                if chars > MAX_TEXT_CHARS:
                    raise ReportTooComplex(
                        f"{ReportTooComplex.prefix} (more than {MAX_TEXT_CHARS:,} characters "
                        f"of text by page {number}; it was not read)"
                    )
                blocks.extend(page_blocks)
        except ReportTooComplex as error:
            raise ReportTooComplex(f"{p.name}: {error}") from None
        except ReportReadError:
            raise
        except Exception as error:
            raise ReportReadError(f"{p.name}: not a readable PDF ({error})") from error
        pages = doc.page_count
    version = getattr(pymupdf, "VersionBind", getattr(pymupdf, "__version__", "?"))
    lines, line_pages = _layout(blocks, heights)
    text = normalise("\n".join(lines))
    notes: list[str] = []
    needs_ta = None
    if not text.strip():
        notes.append(NO_TEXT_LAYER)
        if image_pages:
            kind = "images" if pages > 1 else "an image"
            kind += " (a scan or photo)"
        elif sideways_pages:
            kind = "only text set sideways, which is not read"
        else:
            kind = "empty"
        plural = pages > 1
        needs_ta = (
            f"the PDF has no text layer: its {pages} page{'s' if plural else ''} "
            f"{'are' if plural else 'is'} {kind}; a TA must read it"
        )
    elif image_pages:
        listed = ", ".join(map(str, image_pages))
        needs_ta = (
            f"page{'s' if len(image_pages) > 1 else ''} {listed} of the PDF "
            f"{'are' if len(image_pages) > 1 else 'is'} only an image (a scan or photo?) "
            "with no text; a TA must read what is written there"
        )
    if LOST_GLYPHS.search(text):
        notes.append(LOST_NOTE)
    if sideways_pages:
        listed = ", ".join(map(str, sideways_pages))
        notes.append(
            f"page{'s' if len(sideways_pages) > 1 else ''} {listed} set{'' if len(sideways_pages) > 1 else 's'} "
            "text sideways (a rotated table?), which was not read; check it by eye"
        )
    return Document(
        text,
        str(p),
        "pdf",
        f"pymupdf {version}",
        pages,
        needs_ta,
        tuple(notes),
        tuple(line_pages),
    )


# -- one page -------------------------------------------------------------------------


MAX_PAGE_BLOCKS = 2_000
"""Text blocks on one page. The densest page of the fixtures and the report corpus has 48;
a hostile page set 8,000 one-character blocks. Each block costs the layout passes (and
memory: ~1 KiB of Python objects for a one-letter block), so a page past this is too
complex to read, and the file goes to a TA."""
MAX_PAGE_SPANS = 20_000
"""Spans (runs of one font) on one page: a dense page has ~1,000."""
MAX_BLOCKS = 50_000
"""Text blocks in the whole PDF: 200 dense pages have ~10,000; at this cap the layout
passes take a few seconds."""
MAX_SPANS = 300_000
"""Spans in the whole PDF: 200 dense pages (the page limit, ~700,000 characters) have
~150,000; 300,000 spans read in a few seconds and ~400 MiB in the bounded worker."""


def _page_blocks(page: object, number: int) -> tuple[list[_Block], int]:
    """The page's text blocks, and how many characters it sets sideways (left out).

    Raises ``ReportTooComplex`` for a page of more than ``MAX_PAGE_BLOCKS`` text blocks
    or ``MAX_PAGE_SPANS`` spans, counted before any is turned into objects."""
    data = page.get_text("dict")  # type: ignore[attr-defined]
    texts = [b for b in data["blocks"] if b.get("type") == 0]
    spans = sum(len(line["spans"]) for b in texts for line in b["lines"])
    if len(texts) > MAX_PAGE_BLOCKS or spans > MAX_PAGE_SPANS:
        raise ReportTooComplex(
            f"{ReportTooComplex.prefix} (page {number} sets {len(texts):,} text blocks in "
            f"{spans:,} pieces, more than the {MAX_PAGE_BLOCKS:,} blocks or {MAX_PAGE_SPANS:,} "
            "pieces a page may; a report's page has a few dozen)")
    blocks = []
    sideways = 0
    for block in data["blocks"]:
        if block.get("type") != 0:
            continue
        lines = []
        for raw in block["lines"]:
            line = _line(raw)
            if line is not None:
                lines.append(line)
            else:
                sideways += sum(len(s["text"].strip()) for s in raw["spans"])
        if lines:
            blocks.append(_Block(lines, number))
    blocks = _reading_order(blocks)
    if len(blocks) > 1:
        rules = _rules(page)
        for block in blocks:
            block.rules = rules
    return blocks, sideways


def _reading_order(blocks: list[_Block]) -> list[_Block]:
    """The blocks in reading order: the content stream's, except that a block drawn
    after text set below it in its column goes before that text.

    Why: Chromium draws a Markdown code block (its shaded box, then its text) after the
    page's other text, so in stream order every code sample and its printed output fall
    at the page's end, under the wrong part. Only a block that starts above the block
    before it *in its column* (the two overlap across) moves: a LaTeX right column starts
    above the left one's end but beside it, a table's cells and the pieces of display
    mathematics sit side by side, and they keep the stream's order."""

    def beside(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return min(a[1], b[1]) - max(a[0], b[0]) < 0.5 * min(a[1] - a[0], b[1] - b[0])

    out: list[_Block] = []
    extents: list[tuple[float, float, float, float]] = []  # x0, x1, top, bottom
    steps = 0
    for block in blocks:
        x0 = min(ln.x0 for ln in block.lines)
        x1 = max(ln.x1 for ln in block.lines)
        top = min(ln.y0 for ln in block.lines)
        bottom = max(ln.y1 for ln in block.lines)
        at = len(out)
        if (steps < MAX_ORDER_STEPS and extents and top < extents[-1][2]
                and not beside((x0, x1), extents[-1][:2])):
            slack = 0.25 * min(ln.size for ln in block.lines)
            for k, (ox0, ox1, otop, _ob) in enumerate(extents):
                steps += 1
                if not beside((x0, x1), (ox0, ox1)) and otop >= bottom - slack:
                    at = k
                    break
                if steps >= MAX_ORDER_STEPS:
                    break  # the budget is spent: this block and the rest keep the stream's order
        out.insert(at, block)
        extents.insert(at, (x0, x1, top, bottom))
    return out


MAX_ORDER_STEPS = 20_000
"""Comparisons the reading-order pass may make on one page. Each block moved looks for
its place among the blocks before it, so the pass is quadratic in blocks per page: a real
page has at most a few hundred blocks (a few thousand comparisons), while a hostile page
of 8,000 one-character blocks took 17 s of CPU. Past the budget (about 5 ms) the rest of
the page keeps the content stream's order, which is the reading order of most PDFs."""
MAX_BLOCK_LINES = 400
"""Lines of one block grouped into visual rows (scripts and fractions to the line they
decorate: quadratic in the block's lines). A real block (a paragraph, a table cell, a
display formula) has tens; in a larger one each line is a row of its own."""


MAX_PATHS = 5000
"""Pages drawing more paths than this (a vector plot) are not searched for fraction bars."""


def _rules(page: object) -> tuple[_Rule, ...]:
    """The page's thin horizontal rules (filled flat rectangles or stroked lines)."""
    try:
        paths = page.get_cdrawings()  # type: ignore[attr-defined]
    except Exception:  # a drawing MuPDF cannot list costs the fractions, not the page
        return ()
    if len(paths) > MAX_PATHS:
        return ()
    out = []
    for path in paths:
        for item in path.get("items", ()):
            if item[0] == "re":
                x0, y0, x1, y1 = item[1]
                if abs(y1 - y0) <= 1.5 and abs(x1 - x0) >= 2:
                    out.append(_Rule(min(x0, x1), max(x0, x1), (y0 + y1) / 2))
            elif item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
                if abs(y1 - y0) <= 0.5 and abs(x1 - x0) >= 2:
                    out.append(_Rule(min(x0, x1), max(x0, x1), (y0 + y1) / 2))
    return tuple(out)


@functools.lru_cache(maxsize=512)
def _font_kind(font: str) -> tuple[bool, bool, bool]:
    """(math, bold, italic) from a font's name; a page has a few fonts and many spans."""
    return (
        bool(_MATH_FONT.search(font)),
        bool(_BOLD_FONT.search(font)),
        bool(_ITALIC_FONT.search(font)),
    )


def _line(raw: dict) -> _Line | None:
    dx, dy = raw.get("dir", (1.0, 0.0))
    if abs(dy) > 0.1 or dx <= 0:
        return None  # rotated text: arXiv-style margin stamps, rotated figure labels
    spans = []
    for span in raw["spans"]:
        if not span["text"]:
            continue
        math, bold_font, italic_font = _font_kind(span["font"])
        text = span["text"]
        flags = span["flags"]
        x0, y0, x1, y1 = span["bbox"]
        baseline = span["origin"][1]
        if math and _TEX_EXTENSION.search(span["font"]):
            text = text.translate(_TEX_OPERATORS)
            # a big operator hangs from its origin, centred on the math axis, which
            # stands a quarter of the size above the baseline it belongs to
            baseline = (y0 + y1) / 2 + 0.25 * span["size"]
        spans.append(
            _Span(
                text,
                x0,
                x1,
                baseline,
                span["size"],
                bool(flags & 16 or bold_font) and not math,
                bool(flags & 2 or italic_font) and not math,
                bool(flags & 1),
                len(span["text"].strip()),
                bool(flags & 8) or bool(_MONO_FONT.search(span["font"])),
            )
        )
    if not spans:
        return None
    baseline, size = _main(spans)
    x0, y0, x1, y1 = raw["bbox"]
    # the line's height is its glyphs', not its blank spans': TeX's math-extension fonts
    # set a space as tall as a big operator's, which would lift a line of a paragraph
    # onto the next one (see _rows' "beside")
    inked = [span["bbox"] for span in raw["spans"] if span["text"].strip()]
    if inked:
        y0, y1 = min(b[1] for b in inked), max(b[3] for b in inked)
    return _Line(spans, x0, x1, y0, y1, baseline, size)


def _main(spans: list[_Span]) -> tuple[float, float]:
    """A line's (baseline, size): the size with the most text, and among its spans the
    baseline with the most text (a fraction's denominator may come first in a line)."""
    weight: dict[float, float] = {}
    for span in spans:
        key = round(span.size, 1)
        weight[key] = weight.get(key, 0.0) + (span.chars or 0.1)
    size = max(weight, key=lambda k: (weight[k], k))
    at: dict[float, float] = {}
    for span in spans:
        if abs(span.size - size) <= 0.3:
            key = round(span.baseline * 2) / 2
            at[key] = at.get(key, 0.0) + (span.chars or 0.1)
    return max(at, key=lambda k: (at[k], -k)), size


# -- the document ---------------------------------------------------------------------


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def _drop_margins(blocks: list[_Block], heights: dict[int, float]) -> list[_Block]:
    """Blocks without their running headers, footers, page numbers and print stamps."""

    def in_margin(line: _Line, page: int) -> bool:
        h = heights[page]
        return line.y1 < MARGIN * h or line.y0 > (1 - MARGIN) * h

    seen: dict[str, set[int]] = {}
    top: dict[int, float] = {}
    bottom: dict[int, float] = {}
    for block in blocks:
        for line in block.lines:
            if not line.text.strip():
                continue
            top[block.page] = min(top.get(block.page, line.y0), line.y0)
            bottom[block.page] = max(bottom.get(block.page, line.y1), line.y1)
            if in_margin(line, block.page):
                seen.setdefault(_key(line.text), set()).add(block.page)
    baselines: dict[int, list[float]] = {}
    for block in blocks:
        baselines.setdefault(block.page, []).extend(ln.baseline for ln in block.lines)

    margin_lines: dict[int, list[tuple[float, str]]] = {}
    for block in blocks:
        for line in block.lines:
            if line.text.strip() and in_margin(line, block.page):
                margin_lines.setdefault(block.page, []).append((line.baseline, _key(line.text)))

    def _in_row(line: _Line, page: int, key: str) -> bool:
        """A number in the margin with other text on its baseline that runs on no other
        page: a table's cell (a row at the top of a page: "0  pretrained  1  0.853  1200"),
        not a page number beside a running header ("STAT8021 report   3")."""
        return key.strip("# ") == "" and any(
            abs(b - line.baseline) < 2 and k != key and len(seen.get(k, ())) < 2
            and not _PAGE_NUMBER.match(k) for b, k in margin_lines.get(page, []))

    def _alone(line: _Line, page: int) -> bool:
        """No other text on the line's baseline (a section number has its title there)."""
        return sum(abs(b - line.baseline) < 2 for b in baselines[page]) == 1

    out = []
    for block in blocks:
        kept = []
        for line in block.lines:
            key = _key(line.text)
            if in_margin(line, block.page):
                number = _in_row(line, block.page, key)
                if not key or (len(seen.get(key, ())) >= 2 and not number):
                    continue
                if (_PAGE_NUMBER.match(key) and not number) or _PRINT_STAMP.match(key):
                    continue
            # a lone page number is the first or last line of its page, wherever that is
            if not key:
                continue  # blank
            extreme = line.y0 <= top.get(block.page, line.y0) or line.y1 >= bottom.get(
                block.page, line.y1
            )
            if extreme and key and _PAGE_NUMBER.match(key) and _alone(line, block.page):
                continue
            kept.append(line)
        if kept:
            out.append(_Block(kept, block.page, block.rules))
    return out


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


def _rows(lines: list[_Line], rules: tuple[_Rule, ...] = ()) -> list[_Row]:
    """The block's lines grouped into visual lines, in reading order.

    A line joins a row on the same baseline, and a line in a smaller font joins the row
    it overlaps vertically: MuPDF puts raised and lowered scripts (``n_hid^2`` stacked,
    inline fractions) in lines of their own, which belong to the line they decorate.
    """
    if len(lines) > MAX_BLOCK_LINES:
        return [_row([line]) for line in lines]
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
    return [_row(group) for group in groups]


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


def _row(group: list[_Line]) -> _Row:
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
            if gap > CELL_GAP * size:
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


def _columns(lines: list[_Line]) -> list[list[Run]] | None:
    """One table row whose cells wrap (a Word/HTML table row with a two-line cell): the
    block's lines fall into columns with a clear gap between them, and no line crosses it."""
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
    cells = []
    for column in columns:
        ordered = sorted(column, key=lambda ln: ln.baseline)
        runs: list[Run] = []
        for row in _rows(ordered):
            if len(row.cells) > 1:
                # a cell holding pieces set wide apart on one baseline is a justified
                # line of a paragraph (stretched around inline mathematics), not a cell
                return None
            if runs:
                runs.append(Run(" "))
            runs.extend(r for cell in _spaced(row.cells) for r in cell)
        cells.append(runs)
    cells = _merge_markers(cells)
    return cells if len(cells) > 1 else None


def _spaced(cells: list[list[Run]]) -> list[list[Run]]:
    return [c if i == 0 else [Run(" "), *c] for i, c in enumerate(cells)]


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
    """The cells of each row in the columns of the widest row (``_align_tables``)."""
    cells_w, columns = max(rows, key=lambda r: len(r[0]))
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


def _paragraphs(block: _Block) -> list[_Para]:
    rows = [r for r in _rows(block.lines, block.rules) if r.cells]
    if not rows:
        return []
    multi = sum(len(r.cells) > 1 for r in rows)
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
    paras: list[list[_Row]] = [[]]
    for row in rows:
        indented = row.x0 - left > 0.8 * row.size
        current = paras[-1]
        starts_list = bool(current) and LIST_MARKER.match(current[0].first_word)
        item = bool(LIST_MARKER.match(row.first_word))
        if current and (item or (indented and not starts_list)):
            paras.append([])
        paras[-1].append(row)
    out = []
    for para in paras:
        runs: list[Run] = []
        for row in para:
            # one odd wide gap in a paragraph (a stretched justified line) is a space
            line_runs = [r for cell in _spaced(row.cells) for r in cell]
            if runs:
                while runs and not runs[-1].text.strip():
                    runs.pop()
                prev = runs[-1].text.rstrip() if runs else ""
                nxt = next((r.text for r in line_runs if r.text.strip()), "").lstrip()
                if re.search(r"[^\W\d_]-$", prev) and nxt[:1].islower():
                    runs[-1] = Run(prev[:-1], runs[-1].bold, runs[-1].italic, runs[-1].vert)
                else:
                    runs.append(Run(" "))
            runs.extend(line_runs)
        size = min(row.size for row in para)
        out.append(_Para(render(runs), block.page, size if len(para) <= 2 else None, size))
        out[-1].rows = [render(runs, emphasis=False)]
        out[-1].top, out[-1].bottom = min(r.y0 for r in para), max(r.y1 for r in para)
    return out


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
            if not apart and any(
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
            ) or _one_table_row(prev, block) or _limits_of(first, prev.lines[-4:]) or any(
                _limits_of(ln, block.lines) and _same_line(block.lines, prev.lines[-3:])
                for ln in block.lines[:1]
            ):
                prev.lines.extend(block.lines)
                px0, px1 = min(px0, bx0), max(px1, bx1)
                continue
        out.append(_Block(list(block.lines), block.page, block.rules))
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


def _layout(blocks: list[_Block], heights: dict[int, float]) -> tuple[list[str], list[int]]:
    blocks = _rejoin(_drop_margins(blocks, heights))
    paras = _join_broken([p for b in blocks for p in _paragraphs(b)])
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
    for para in paras:
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
    return lines, pages


# -- without pymupdf --------------------------------------------------------------------


def _read_pypdf(p: Path) -> Document:
    """Plain text through pypdf: no emphasis, headings or tables (pymupdf not installed)."""
    try:
        import pypdf
    except ImportError as error:
        raise ReportReadError(
            f"{p.name}: reading PDF reports needs the optional package pymupdf "
            "(pip install 'transformer-grader[reports]')"
        ) from error
    try:
        reader = pypdf.PdfReader(str(p))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ReportReadError(f"{p.name}: the PDF is protected by a password")
        if len(reader.pages) > MAX_PAGES:
            raise ReportReadError(
                f"{p.name}: {len(reader.pages)} pages, more than the {MAX_PAGES} a report may have"
            )
        pages = [page.extract_text() or "" for page in reader.pages]
    except ReportReadError:
        raise
    except Exception as error:  # pypdf raises many types for damaged files
        raise ReportReadError(f"{p.name}: not a readable PDF ({error})") from error
    text = normalise("\n".join(pages))
    notes: list[str] = []
    needs_ta = None
    if not text.strip():
        notes.append(NO_TEXT_LAYER)
        needs_ta = "the PDF has no text layer (a scan or photo?); a TA must read it"
    elif LOST_GLYPHS.search(text):
        notes.append(LOST_NOTE)
    return Document(
        text, str(p), "pdf", f"pypdf {pypdf.__version__}", len(pages), needs_ta, tuple(notes)
    )
