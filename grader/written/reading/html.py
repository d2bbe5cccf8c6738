"""The HTML a Markdown report carries, read as the Markdown it stands for.

Why: pandoc writes a table as raw ``<table>`` when a cell holds a line break or a
paragraph (it cannot be a pipe table then), and Google Docs / Word "download as
Markdown" do the same; students also leave inline HTML (``<b>``, ``<sup>2</sup>``,
``<br>``, ``&times;``) in Markdown they paste from a browser. Section finding reads
table rows as ``| a | b |`` and scripts as ``^2`` / ``_k``: left as HTML, a report set
out as a table of "Question | Working | Answer" rows has no part label at a line's start
and no answer at all.

Line numbers stay the file's (the grader quotes them): a table row is written on the
line where its ``<tr>`` opens and the table's other lines are left empty; rows opened
on one line (a minified table) are set apart by U+2028, which ``str.splitlines`` splits
but section finding does not count as a new line. Fenced code blocks are left as
written (HTML in a code sample is code).
"""

from __future__ import annotations

import html
import re

from grader.written.reading.normalise import raised

SOFT_BREAK = "\u2028"
"""A line to ``str.splitlines`` but not to section finding's numbering (the same
character as ``grader.written.sections.SOFT_BREAK``)."""

_TABLE = re.compile(r"<table\b[^>]*>(.*?)</table\s*>", re.I | re.S)
_ROW = re.compile(r"<tr\b[^>]*>(.*?)(?=<tr\b|</table|$)", re.I | re.S)
_CELL = re.compile(r"<t([dh])\b[^>]*>(.*?)(?=<t[dh]\b|</tr|<tr\b|$)", re.I | re.S)
_FENCE = re.compile(r"^\s{0,3}(```+|~~~+)")
_INLINE_TAGS = (
    "b|strong|i|em|u|ins|mark|small|big|span|font|div|p|sup|sub|br|hr|a|code|tt|kbd|"
    "center|section|article|header|footer|colgroup|col|caption|thead|tbody|tfoot|s|del|strike"
)
_TAG = re.compile(rf"</?(?:{_INLINE_TAGS})\b[^<>]*?/?>", re.I)
_ANY_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*\b[^<>]*?/?>")
_SCRIPT = re.compile(r"<(sup|sub)\b[^>]*>(.*?)</\1\s*>", re.I | re.S)
_BOLD = re.compile(r"<(b|strong)\b[^>]*>(.*?)</\1\s*>", re.I | re.S)
_ITALIC = re.compile(r"<(i|em)\b[^>]*>(.*?)</\1\s*>", re.I | re.S)
_BREAK = re.compile(r"<br\b[^>]*>|</p\s*>\s*<p\b[^>]*>", re.I)
_DELETED = re.compile(r"<(s|del|strike)\b[^>]*>.*?</\1\s*>", re.I | re.S)
_ENTITY = re.compile(r"&(?:[a-zA-Z][a-zA-Z0-9]{1,31}|#\d{1,7}|#[xX][0-9a-fA-F]{1,6});")
_HAS_HTML = re.compile(rf"<(?:{_INLINE_TAGS}|table|tr|td|th)\b|&[#a-zA-Z]", re.I)


def _emphasis(mark: str, inner: str) -> str:
    core = inner.strip()
    return f"{mark}{core}{mark}" if core else inner


def inline(text: str, *, strip_all: bool = False) -> str:
    """Inline HTML as Markdown: ``<b>x</b>`` -> ``**x**``, ``<sup>2</sup>`` -> ``^2``,
    ``<sub>max</sub>`` -> ``_max``, ``<br>`` -> a space, struck-out text dropped, other
    known tags taken off, entities (``&times;``, ``&nbsp;``, ``&#8722;``) decoded. Inside
    a table cell (``strip_all``) every tag goes; elsewhere only HTML's own tag names, so
    ``a <b`` or ``<n_hid>`` in prose stay as written."""
    if "<" not in text and "&" not in text:
        return text
    text = _DELETED.sub("", text)
    text = _BREAK.sub(" ", text)
    text = _SCRIPT.sub(lambda m: raised(_plain(m.group(2)), "^" if m.group(1).lower() == "sup"
                                        else "_"), text)
    text = _BOLD.sub(lambda m: _emphasis("**", m.group(2)), text)
    text = _ITALIC.sub(lambda m: _emphasis("*", m.group(2)), text)
    text = (_ANY_TAG if strip_all else _TAG).sub("", text)
    return _ENTITY.sub(lambda m: html.unescape(m.group()), text)


def _plain(text: str) -> str:
    return _ENTITY.sub(lambda m: html.unescape(m.group()), _ANY_TAG.sub("", text))


def _rows(table: str) -> list[tuple[int, str]]:
    """(offset in the table's body, ``| a | b |``) for each row with a cell."""
    out = []
    for row in _ROW.finditer(table):
        cells = [" ".join(inline(c.group(2), strip_all=True).split())
                 for c in _CELL.finditer(row.group(1))]
        if cells:
            out.append((row.start(), "| " + " | ".join(cells) + " |"))
    return out


def _tables(text: str) -> str:
    """Each ``<table>`` as pipe rows, on the lines where its rows open."""
    pieces: list[str] = []
    last = 0
    for table in _TABLE.finditer(text):
        start, end = table.span()
        pieces.append(text[last:start])
        body_at = table.start(1)
        lines: list[list[str]] = [[] for _ in range(text.count("\n", start, end) + 1)]
        for offset, row in _rows(table.group(1)):
            lines[text.count("\n", start, body_at + offset)].append(row)
        pieces.append("\n".join(SOFT_BREAK.join(rows) for rows in lines))
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def markdown_html(text: str) -> str:
    """A Markdown file's raw HTML read as Markdown, its lines kept (see the module)."""
    if not _HAS_HTML.search(text):
        return text
    out: list[str] = []
    chunk: list[str] = []
    fence = ""

    def flush() -> None:
        if chunk:
            out.append(_inline_lines(_tables("".join(chunk))))
            chunk.clear()

    lines = text.splitlines(keepends=True)
    closes = _closing_fences(lines)
    for i, line in enumerate(lines):
        opened = _FENCE.match(line)
        if fence:
            out.append(line)
            if i in closes:
                fence = ""
            continue
        if opened and i in closes.values():
            flush()
            fence = opened.group(1)
            out.append(line)
            continue
        chunk.append(line)
    flush()
    return "".join(out)


def _closing_fences(lines: list[str]) -> dict[int, int]:
    """{closing line: opening line} of each fence that closes; a fence never closed
    fences nothing (a forgotten closing ``` must not hide the rest of the report)."""
    pairs: dict[int, int] = {}
    start, fence = -1, ""
    for i, line in enumerate(lines):
        opened = _FENCE.match(line)
        if not opened:
            continue
        mark = opened.group(1)
        if not fence:
            start, fence = i, mark
        elif mark[0] == fence[0] and len(mark) >= len(fence):
            pairs[i] = start
            fence = ""
    return pairs


def _inline_lines(text: str) -> str:
    return "".join(inline(line) for line in text.splitlines(keepends=True))
