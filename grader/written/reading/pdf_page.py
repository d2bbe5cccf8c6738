"""One PDF page as text blocks: MuPDF's spans with font, size, flags and baseline,
grouped in lines and blocks, in reading order, with the thin rules drawn on the page.

Why a module of its own: everything after it (rows, tables, paragraphs) works on these
records and never on MuPDF's dictionaries, so the limits on what one page may cost are
enforced here, before any object is built."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, field, replace

from grader.written.reading.bidi import has_rtl
from grader.written.reading.document import ReportTooComplex

_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi|^cmbx|^cmb\d|-bd|\bbd\b", re.I)
_ITALIC_FONT = re.compile(r"italic|oblique|^cmti|^cmsl", re.I)
_MATH_FONT = re.compile(r"math|^cmmi|^cmsy|^cmex|^msam|^msbm|symbol|stix|^rsfs|^eufm", re.I)
_MONO_FONT = re.compile(r"mono|courier|consol|menlo|^cmtt|^lmmono|inconsolata|fira ?code", re.I)
_TEX_EXTENSION = re.compile(r"^cmex|mathextension", re.I)
_TEX_OPERATORS = str.maketrans("PQRSXYZ[pqrst", "∑∏∫⋃∑∏∫⋃√√√√√")
"""TeX's math-extension font (cmex, Latin Modern's MathExtension) has no Unicode map
for its big operators: pdfTeX's text layer says "P" for ∑ and "p" for √."""


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


@dataclass(frozen=True)
class _Wall:
    """A thin vertical line drawn on the page: a table cell's border."""

    x: float
    y0: float
    y1: float


@dataclass
class _Block:
    lines: list[_Line]
    page: int
    rules: tuple[_Rule, ...] = ()  # the page's, when it sets text over other text
    walls: tuple[_Wall, ...] = ()  # the page's cell borders: a cell ends at one
    row: bool = False
    """Cells of one table row, joined from blocks side by side between the same borders
    (``pdf_tables._one_table_row``): its lines are that row's cells, wrapped."""


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
    after_break: bool = False  # opens a line broken by hand (``_broken_early``): stays apart
    grid: list[tuple[list[str], list[tuple[float, float]]]] = field(default_factory=list)
    """A table's rows: each cell's text and where it stands (x0, x1): ``_align_tables``
    puts them in the table's columns."""


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
    if any(has_rtl(span["text"]) for b in texts for line in b["lines"] for span in line["spans"]):
        data = _visual_page(page)
    blocks = []
    sideways = 0
    rules, walls, frames = _strokes(page)
    chars = None  # the page's glyphs, read once a line through some text asks for them
    for b, block in enumerate(data["blocks"]):
        if block.get("type") != 0:
            continue
        lines = []
        for k, raw in enumerate(block["lines"]):
            cuts = _strikes(raw, rules) if rules else []
            if any(cuts):
                if chars is None:
                    chars = page.get_text("rawdict")  # type: ignore[attr-defined]
                glyphs = _raw_line(chars, b, k)
                if glyphs is not None:
                    raw = _unstruck(raw, glyphs, cuts)
            line = _line(raw)
            if line is not None:
                lines.append(line)
            else:
                sideways += sum(len(s["text"].strip()) for s in raw["spans"])
        if lines:
            blocks.append(_Block(lines, number))
    blocks = _reading_order(blocks)
    if frames:
        _frame_marks(blocks, frames)
    if blocks:
        for block in blocks:
            block.walls = walls
            if len(blocks) > 1:
                block.rules = rules
    return blocks, sideways


def _visual_page(page: object) -> dict:
    """The page's text with each line that holds right-to-left letters in visual order:
    its spans cut into pieces, each piece's characters left to right as set.

    Why: MuPDF keeps the content stream's order inside a span, and a writer sets a
    right-to-left line piece by piece in an order of its own (Chromium: its runs left
    to right, the letters of each Hebrew run right to left), so a span's text is
    neither the order read nor the order seen. The order seen, from each character's
    place, is one ``bidi`` can turn back into the order written (``pdf_paragraphs``
    does, row by row). Only pages with right-to-left text pay for MuPDF's characters."""
    data = page.get_text("rawdict")  # type: ignore[attr-defined]
    for block in data["blocks"]:
        if block.get("type") != 0:
            continue
        for line in block["lines"]:
            for span in line["spans"]:
                span["text"] = "".join(c["c"] for c in span["chars"])
            if any(has_rtl(span["text"]) for span in line["spans"]):
                line["spans"] = _visual_pieces(line["spans"])
    return data


def _visual_pieces(spans: list[dict]) -> list[dict]:
    """A line's spans as pieces in visual order: its characters sorted by where they
    stand, a combining mark kept with its letter, each run of one span's characters a
    piece with that span's font, size, flags and baseline."""
    clusters: list[tuple[tuple[float, float], int, str, list[float]]] = []  # x, span, text, box
    pending = ""  # marks met before their letter (after a space, at a span's start)
    for index, span in enumerate(spans):
        for char in span["chars"]:
            c = char["c"]
            if unicodedata.combining(c) or unicodedata.bidirectional(c) == "NSM":
                if clusters and clusters[-1][1] == index and clusters[-1][2][:1].strip():
                    x, i, text, box = clusters[-1]
                    clusters[-1] = (x, i, text + c, box)
                else:
                    pending += c
                continue
            box = char["bbox"]
            clusters.append(((char["origin"][0], (box[0] + box[2]) / 2), index, c + pending,
                             list(box)))
            pending = ""
    if pending and clusters:  # marks after the line's last letter stay with it
        x, i, text, box = clusters[-1]
        clusters[-1] = (x, i, text + pending, box)
    # where each glyph starts, then its middle: the characters of one ligature or one
    # shaped cluster may share a start, the later ones drawn with no width
    clusters.sort(key=lambda cl: cl[0])
    pieces: list[dict] = []
    last = -1
    for _x, index, text, box in clusters:
        if index == last:
            piece = pieces[-1]
            piece["text"] += text
            b = piece["bbox"]
            piece["bbox"] = (min(b[0], box[0]), min(b[1], box[1]),
                             max(b[2], box[2]), max(b[3], box[3]))
        else:
            span = spans[index]
            pieces.append({**span, "text": text, "bbox": tuple(box), "chars": ()})
        last = index
    return pieces


def _reading_order(blocks: list[_Block]) -> list[_Block]:
    """The blocks in reading order: the content stream's, except that a block drawn
    after text set below it in its column goes before that text.

    Why: Chromium draws a Markdown code block (its shaded box, then its text) after the
    page's other text, so in stream order every code sample and its printed output fall
    at the page's end, under the wrong part. Only a block that starts above the block
    before it *in its column* (the two overlap across) moves: a LaTeX right column starts
    above the left one's end but beside it, a table's cells and the pieces of display
    mathematics sit side by side, and they keep the stream's order. It goes before the
    nearest block below it in its column, not the first one drawn: a page number drawn
    before all the rest (a PDF annotated in Xournal++, its notes added last) is below
    everything."""

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
            nearest = None  # the top of the nearest block below it in its column
            for k, (ox0, ox1, otop, _ob) in enumerate(extents):
                steps += 1
                if not beside((x0, x1), (ox0, ox1)) and otop >= bottom - slack \
                        and (nearest is None or otop < nearest):
                    at, nearest = k, otop
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


def _strike(span: dict, rules: tuple[_Rule, ...]) -> tuple[float, float] | None:
    """The x-range of a line drawn through the middle of a span's glyphs (a strike-out),
    not an underline under them, a rule between lines, or a line ruled across the page
    that a line of text happens to sit on (a note app's lined paper, Notability's): that
    one runs on well past the text at both ends, where a strike-out stops at its words."""
    x0, y0, x1, y1 = span["bbox"]
    height = y1 - y0
    overrun = RULED_OVERRUN * span["size"]
    chains: list[list[float]] = []  # strokes through the middle, joined where they meet
    for r in rules:  # left to right (``_strokes``)
        if r.x0 < x0 - overrun and r.x1 > x1 + overrun:
            continue
        if not y0 + 0.35 * height <= r.y <= y1 - 0.3 * height or r.x1 < x0 or r.x0 > x1:
            continue
        if chains and r.x0 <= chains[-1][1] + STROKE_GAP:
            chains[-1][1] = max(chains[-1][1], r.x1)  # a pen's stroke drawn in pieces
        else:
            chains.append([r.x0, r.x1])
    for a, b in chains:
        if min(x1, b) - max(x0, a) >= min(STRUCK_GLYPHS * span["size"] * 0.5, x1 - x0):
            return max(x0, a), min(x1, b)
    return None


STRUCK_GLYPHS = 2
"""The fewest glyphs a strike-out covers."""
STROKE_GAP = 1.5
"""The widest gap (points) between two pieces of one stroke through a line."""
RULED_OVERRUN = 3
"""How far (in ems of the text) a line must run past a span at both ends to be ruled
paper rather than a strike-out through the span."""


def _raw_line(chars: dict, block: int, line: int) -> dict | None:
    """The line of the page's raw dictionary with its glyphs, if it is the same line (a
    right-to-left page is reordered, and then its lines are no longer MuPDF's)."""
    try:
        return chars["blocks"][block]["lines"][line]
    except (IndexError, KeyError):
        return None


def _strikes(raw: dict, rules: tuple[_Rule, ...]) -> list[tuple[float, float] | None]:
    """Each span's strike-out (``_strike``), None for a span with none or no text."""
    return [_strike(span, rules) if span["text"].strip() else None for span in raw["spans"]]


def _unstruck(raw: dict, glyphs: dict, cuts: list[tuple[float, float] | None]) -> dict:
    """A MuPDF line without its struck-out glyphs: a suggestion or a tracked change
    printed (Google Docs, Word) shows the deleted text with a line through its middle
    and the inserted text after it, often in one span ("20,857,601" struck, then
    "21,018,401"); the deletion is no text of the report. ``glyphs``: the same line of
    the page's raw dictionary, whose characters have their own boxes; ``cuts``: each
    span's strike-out (``_strikes``)."""
    spans = []
    if len(glyphs.get("spans", ())) != len(raw["spans"]):
        return raw  # not the same line's spans: leave it as it is
    for span, raw_span, cut in zip(raw["spans"], glyphs["spans"], cuts, strict=True):
        if cut is None:
            spans.append(span)
            continue
        kept = [c for c in raw_span.get("chars", ())
                if not cut[0] <= (c["bbox"][0] + c["bbox"][2]) / 2 <= cut[1]]
        if kept:
            box = (kept[0]["bbox"][0], span["bbox"][1], kept[-1]["bbox"][2], span["bbox"][3])
            spans.append({**span, "text": "".join(c["c"] for c in kept), "bbox": box})
    return {**raw, "spans": spans}


HAND_SLOPE = 0.03
"""How much a line drawn by hand may rise over its length and still be a horizontal stroke
(a strike-out drawn with a mouse or pen rises a point or so over a word)."""


def _strokes(page: object) -> tuple[tuple[_Rule, ...], tuple[_Wall, ...], tuple[Frame, ...]]:
    """The page's thin horizontal rules (left to right, as ``_strike`` joins a stroke drawn
    in pieces) and vertical walls (filled flat rectangles or stroked lines): fraction bars
    and table borders; and the rectangles drawn round something (stroked, not filled: a
    frame, not a shaded background)."""
    try:
        paths = page.get_cdrawings()  # type: ignore[attr-defined]
    except Exception:  # a drawing MuPDF cannot list costs the fractions, not the page
        return (), (), ()
    if len(paths) > MAX_PATHS:
        return (), (), ()
    rules, walls, frames = [], [], []
    for path in paths:
        stroked = "s" in (path.get("type") or "")
        for item in path.get("items", ()):
            if item[0] == "re":
                x0, y0, x1, y1 = item[1]
                if stroked and x1 - x0 > FRAME_MIN and y1 - y0 > FRAME_MIN:
                    frames.append((x0, y0, x1, y1))
                    continue
            elif item[0] == "l":
                (x0, y0), (x1, y1) = item[1], item[2]
            else:
                continue
            thin = 1.5 if item[0] == "re" else 0.5
            # a stroke drawn by hand (a pen through a value, in Xournal++) slopes a little
            slope = HAND_SLOPE * abs(x1 - x0) if item[0] == "l" else 0.0
            if abs(y1 - y0) <= max(thin, slope) and abs(x1 - x0) >= 2:
                rules.append(_Rule(min(x0, x1), max(x0, x1), (y0 + y1) / 2))
            elif abs(x1 - x0) <= thin and abs(y1 - y0) >= 2:
                walls.append(_Wall((x0 + x1) / 2, min(y0, y1), max(y0, y1)))
    return tuple(sorted(rules, key=lambda r: r.x0)), tuple(walls), tuple(frames)


Frame = tuple[float, float, float, float]
FRAME_MIN = 3.0
"""The smallest side (points) of a rectangle drawn round text."""
FRAMED_LINES = 2.5
"""How many of its line's heights a frame round one line may be tall."""


def _frame_marks(blocks: list[_Block], frames: tuple[Frame, ...]) -> None:
    """A line alone in a frame drawn round it is set off as bold text is: the result a
    student boxes (ConTeXt's \\framed, a box drawn round "9 437 184 trainable parameters",
    a PDF annotator's rectangle) is the answer of its working. A frame round several lines
    (a callout, a code listing) marks none of them, nor one round a line of code (a
    notebook's one-line cell, "48 * 16384**2 * 2 / 1e9", printed in its box)."""
    lines = [ln for block in blocks for ln in block.lines]
    for fx0, fy0, fx1, fy1 in frames[:MAX_FRAMES]:
        inside = [ln for ln in lines if fx0 - 1 <= ln.x0 and ln.x1 <= fx1 + 1
                  and fy0 - 1 <= ln.y0 and ln.y1 <= fy1 + 1]
        if len(inside) == 1 and fy1 - fy0 <= FRAMED_LINES * (inside[0].y1 - inside[0].y0) \
                and not any(span.mono for span in inside[0].spans):
            inside[0].spans = [replace(span, bold=True) for span in inside[0].spans]


MAX_FRAMES = 200
"""The most frames a page's lines are held against (a page of hundreds is a drawing)."""


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
        text = _digit_groups(span["text"].translate(_VARIANTS)) if math else span["text"]
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


_OPENS, _CLOSES = "([{⟨", ")]}⟩"
_VARIANTS = dict.fromkeys(range(0xFE00, 0xFE10))
"""Variation selectors a math font's text layer keeps after a glyph (Typst: 'L︀= −ln p'
is L, U+FE00, '='): no part of what is read."""


def _digit_groups(text: str) -> str:
    """Digit groups a math font sets as punctuation, ``25, 769, 803, 776``, as one number.

    Typst (and TeX without ``{,}``) put a space after every comma in mathematics, so the
    text layer says "25, 769, 803, 776" for 25,769,803,776: read as it stands, that is a
    list of four small numbers. Groups of three digits after a group of one to three are
    one number, except inside brackets, where a tuple or set of numbers stands
    (``(128, 256, 512)``)."""
    parts = text.split(", ")
    if len(parts) < 2:
        return text
    out = [parts[0]]
    chained = False  # out[-1] ends with a group joined to the one before it
    for part in parts[1:]:
        head = out[-1]
        lead = len(head) - len(head.rstrip("0123456789"))
        before = head[: len(head) - lead].rstrip()[-1:]
        group = len(part) >= 3 and part[:3].isdigit() and not part[3:4].isdigit() \
            and part[3:4] != "."
        first = 1 <= lead <= 3 and not (before and (before in ".,-_^" + _OPENS
                                                    or before.isalnum()))
        after = part[3:].lstrip()[:1]
        if group and (chained or first) and not (after and after in _CLOSES):
            out[-1] = f"{head},{part}"
            chained = True
        else:
            out.append(part)
            chained = False
    return ", ".join(out)


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
