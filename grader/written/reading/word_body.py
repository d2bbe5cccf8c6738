"""A Word body in document order as lines: headings (by style, outline level or size),
paragraphs split at a soft break before a part marker, numbered lists, tables, the
footnotes and endnotes a paragraph refers to after it, and paragraphs pasted in a
monospace font (a notebook's printed output) as one fenced code block."""

from __future__ import annotations

import re
from typing import Any

from grader.written.reading.document import (
    MAX_TEXT_CHARS,
    ReportTooComplex,
)
from grader.written.reading.markup import Run, render
from grader.written.reading.word_notes import _Notes
from grader.written.reading.word_numbering import _Numbering
from grader.written.reading.word_runs import (
    BOX_END,
    BOX_PARAGRAPH,
    BOX_START,
    _Ctx,
    _Styles,
    _walk,
    run_font,
)
from grader.written.reading.word_tables import _table
from grader.written.reading.word_xml import M, W, _children
from grader.written.vocabulary import BULLETS

_HEADING_NAME = re.compile(r"^(?:heading|überschrift|titre|título|titolo)\s*(\d)$", re.I)


def _heading_levels(document: Any) -> dict[str, int]:
    """style id -> heading level, from the style name or its outline level."""
    levels: dict[str, int] = {}
    for style in document.styles:
        try:
            name, sid = style.name or "", style.style_id
        except Exception:  # a style without a name or id
            continue
        m = _HEADING_NAME.match(name.strip())
        if name.strip().lower() == "title":
            levels[sid] = 1
        elif m:
            levels[sid] = min(int(m.group(1)), 6)
        else:
            outline = style.element.find(f"{W}pPr/{W}outlineLvl")
            if outline is not None and outline.get(f"{W}val", "9").isdigit():
                level = int(outline.get(f"{W}val")) + 1
                if level <= 6:
                    levels[sid] = level
    return levels


def _body_lines(body: Any, levels: dict[str, int], numbering: _Numbering,
                sizes: _Styles | None = None, notes: _Notes | None = None) -> list[str]:
    sizes = sizes or _Styles(None)
    notes = notes or _Notes(None)
    # (line, size when set large like a heading, pasted in a monospace font)
    items: list[tuple[str, float | None, bool]] = []
    chars = 0
    for element in _children(body):
        if element.tag == f"{W}p":
            marker = numbering.marker(element)
            code = not marker and _pasted(element, levels, sizes)
            for k, (line, big) in enumerate(_paragraph(element, levels, sizes, code)):
                if k == 0 and marker and line.strip():
                    # a numbered heading ("Heading 1" numbered "Question %1"): after its #s
                    hashes = re.match(r"#+ ", line)
                    cut = hashes.end() if hashes else 0
                    line = f"{line[:cut]}{marker} {line[cut:]}"
                items.append((line, big, code))
            # a footnote's or endnote's text where the paragraph refers to it
            items.extend((line, None, False) for line in notes.referred(element))
        elif element.tag == f"{W}tbl":
            items.extend((row, None, False) for row in _table(element, sizes, notes, numbering))
        chars += len(items[-1][0]) if items else 0
        if chars > MAX_TEXT_CHARS:
            raise ReportTooComplex(
                f"{ReportTooComplex.prefix} (more than {MAX_TEXT_CHARS:,} characters of text)")
    # headings set by size alone ("Normal" text at 16 pt, bold): the largest size is #
    ranks = sorted({round(big * 2) / 2 for _, big, _ in items if big}, reverse=True)
    lines: list[str] = []
    fenced = False
    for line, big, code in items:
        if not line.strip():
            continue  # an empty paragraph (dropped anyway) neither opens nor closes a fence
        if code != fenced:
            lines.append(FENCE)
            fenced = code
        lines.append(
            "#" * min(ranks.index(round(big * 2) / 2) + 1, 6) + " " + _plain(line) if big else line)
    if fenced:
        lines.append(FENCE)
    return lines


FENCE = "```"
"""What opens and closes lines pasted in a monospace font (a notebook's printed output, a
code cell): a Markdown code fence, so every stage reads them as a program's text, the
same block a Markdown report's fenced output is (``blocks``: ``code``)."""
_MONOSPACE = ("mono", "courier", "consolas", "menlo", "monaco", "lucida console",
              "lucida sans typewriter", "inconsolata", "source code", "fira code", "cascadia",
              "andale", "typewriter")
"""Fonts of fixed width: Consolas, Courier New, Menlo, "DejaVu Sans Mono", "Source Code
Pro" (what a pasted terminal or notebook output keeps, what Word's "HTML Preformatted",
"Macro Text" and pandoc's "Source Code" styles set)."""


def _monospace(font: str) -> bool:
    """Whether a font name is one of fixed width (``_MONOSPACE``; "Hack" as a whole word)."""
    low = font.lower()
    return any(name in low for name in _MONOSPACE) or "hack" in low.split()


def _pasted(p: Any, levels: dict[str, int], styles: _Styles) -> bool:
    """Whether a paragraph is pasted program text: every run with text set in a monospace
    font (its own, its character style's or its paragraph style's), no equation, and no
    heading. Students paste a notebook's printed lines ("LM model trainable parameters:
    21018401") or a code cell this way, in a "Code"/"Pasted Output" style or in Consolas.
    In a document whose body text is itself in a fixed-width font (a report typed in
    Courier) nothing stands out as pasted, and nothing is."""
    style = p.find(f"{W}pPr/{W}pStyle")
    psid = style.get(f"{W}val", "") if style is not None else ""
    if (levels.get(psid) or p.find(f".//{M}oMath") is not None
            or _monospace(styles.body_font)):
        return False
    seen = False
    for run in p.iter(f"{W}r"):
        if not "".join(t.text or "" for t in run.iter(f"{W}t")).strip():
            continue
        if any(a.tag in _NOT_SHOWN for a in run.iterancestors()):
            continue
        rpr = run.find(f"{W}rPr")
        rstyle = rpr.find(f"{W}rStyle") if rpr is not None else None
        rsid = rstyle.get(f"{W}val", "") if rstyle is not None else ""
        font = run_font(rpr) or styles.font.get(rsid) or styles.font.get(psid) or ""
        if not _monospace(font):
            return False
        seen = True
    return seen


_NOT_SHOWN = {f"{W}del", f"{W}moveFrom"}


def _paragraph(p: Any, levels: dict[str, int], sizes: _Styles,
               code: bool = False) -> list[tuple[str, float | None]]:
    """The paragraph's lines: one, or more where a soft line break (Shift+Enter) starts a
    new part ("(b) ...", "II. ...", "Q3 ..."), with the size of a heading set by size.
    Pasted program text (``code``) keeps every line break and no emphasis markers."""
    style = p.find(f"{W}pPr/{W}pStyle")
    sid = style.get(f"{W}val", "") if style is not None else ""
    level = levels.get(sid)
    runs: list[Run] = []
    run_sizes: list[float] = []
    _walk(p, runs, _Ctx(sizes, sid, run_sizes))
    segments: list[list[Run]] = [[]]
    boxes: list[list[list[Run]]] = []  # each text box's paragraphs
    inside = 0  # text boxes open around the run (a box may hold another)
    for run in runs:
        if run.text == BOX_START:
            boxes.append([])
            inside += 1
        elif run.text == BOX_END:
            inside = max(0, inside - 1)
        elif run.text == BOX_PARAGRAPH and boxes:
            boxes[-1].append([])
        elif inside and boxes and boxes[-1]:
            boxes[-1][-1].append(run)
        elif run.text == "\n":
            segments.append([])
        else:
            segments[-1].append(run)
    lines: list[str] = []
    for segment in segments:
        text = render(segment, emphasis=not level and not code)
        if lines and not code and not (text and _PART_START.match(text)) \
                and not _own_line(lines[-1], text):
            lines[-1] = f"{lines[-1]} {text}".strip()
        else:
            lines.append(text)
    boxed = [line for box in boxes for line in _box(box)]
    if level:
        return [("#" * level + " " + " ".join(lines), None), *((b, None) for b in boxed)]
    if boxed:
        lines = [line for line in [*lines, *boxed] if line]
    plain = " ".join(lines)
    big = min(run_sizes) if run_sizes else None
    if (not code and big is not None and big >= HEADING_RATIO * sizes.body
            and 0 < len(plain) <= 150):
        return [(plain, big)]
    return [(line, None) for line in lines]


def _own_line(before: str, text: str) -> bool:
    """Whether a line after a soft line break stands on its own, as the PDF reader keeps a
    line broken by hand: the line before it ends a sentence, a figure or a heading word
    ("*Task 3*", "… test 84.1%") and this one opens with a capital, a bullet or a figure
    (WhatsApp drafts pasted into Word, one line a run). A break inside a sentence ("the
    best validation" | "accuracy was 0.853") joins the lines."""
    last = before.rstrip(" *_")[-1:]
    first = text.lstrip(" *_")[:1]
    return bool(last) and bool(first) and (last in ".:!?%)" or last.isdigit()
                                           or before.rstrip().endswith(("*", "_"))) \
        and (first.isupper() or first.isdigit() or first in BULLETS)


def _box(paragraphs: list[list[Run]]) -> list[str]:
    """A text box's lines. A box titled by a short bold first paragraph ("**Q3 (c)**",
    then "2.577E+10 bytes", "(= 25.77 GB)": a call-out with the student's final answer)
    is a framed cell under its title, written as a table row ``| title | the rest |``;
    any other box, its paragraphs one line each."""
    texts = [t for t in (render(p) for p in paragraphs) if t]
    title = texts[0] if texts else ""
    if (len(texts) >= 2 and title.startswith("**") and title.endswith("**")
            and title.count("**") == 2 and len(title) <= 44):
        return [f"| {title} | {' '.join(texts[1:])} |"]
    return texts


HEADING_RATIO = 1.15
"""A short paragraph set this much larger than the body text is a heading (as for PDF)."""
_PART_START = re.compile(
    r"^\**\s*(?:\(?(?:[a-hA-H]|[ivxIVX]{1,4}|\d{1,2})[.):]\s|(?:Q|Question|Part|Task)\s*\d|Answer\b)"
)


def _plain(line: str) -> str:
    return line.replace("**", "").replace("*", "") if line.count("**") <= 2 else line
