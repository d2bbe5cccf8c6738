"""Markdown and plain text: read as written, one file line per text line.

Nothing is re-flowed, so the line numbers the grader quotes are the file's own. The
text is normalised like every other format (``normalise``): a Markdown report pasted
from a browser carries the same mathematical alphanumerics as its PDF export.
"""

from __future__ import annotations

from pathlib import Path

from grader.written.reading.document import Document
from grader.written.reading.html import markdown_html
from grader.written.reading.lightweight import (
    announced_headings,
    as_markdown,
    footnote_units,
    list_tables,
    outline_headings,
    roam_highlights,
    title_fields,
)
from grader.written.reading.mathblocks import display_math
from grader.written.reading.normalise import normalise
from grader.written.reading.wikitext import wiki_tables

REPLACED_NOTE = "some characters are not valid UTF-8 and were replaced"


def read_plain(p: Path) -> Document:
    text = p.read_bytes().decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]  # a byte-order mark from Windows editors
    notes = (REPLACED_NOTE,) if "\ufffd" in text else ()
    fmt = "markdown" if p.suffix.lower() in (".md", ".markdown") else "text"
    # Markdown: its HTML and formulas over lines; text: AsciiDoc, reStructuredText and
    # org-mode written as Markdown. Either way the file's lines are kept (MyST's list tables
    # and MediaWiki's tables are pipe tables in both).
    lines = wiki_tables(list_tables(outline_headings(title_fields(announced_headings(
        text.split("\n"))))))
    text = "\n".join(roam_highlights(line) for line in lines)
    text = display_math(markdown_html(text)) if fmt == "markdown" else as_markdown(text)
    text = footnote_units(text)  # "**0,537**[^go]" with "[^go]: En Go": "**0,537** Go"
    return Document(normalise(text), str(p), fmt, "text", notes=notes)
