"""Footnotes and endnotes, read where the body refers to them.

Students put results in notes: the body gives the working and ends "Ergebnis siehe
Fußnote¹", the note holds "¹ p(mat) = 0,7500"; a TA reads the note there, with the
sentence that calls it. Word keeps the notes out of the body (``word/footnotes.xml``,
``word/endnotes.xml``) and the body holds only a ``w:footnoteReference`` with the note's id,
so a reader that walks the body alone loses every such answer, or takes the working's last
number for it. Each note is therefore written right after the paragraph that refers to it
(in a table, inside the cell that does), once, in the order referred to.
"""

from __future__ import annotations

from typing import Any

from grader.written.reading.markup import Run, render
from grader.written.reading.word_runs import (
    BOX_END,
    BOX_PARAGRAPH,
    BOX_START,
    _Ctx,
    _Styles,
    _walk,
)
from grader.written.reading.word_tables import _table
from grader.written.reading.word_xml import W, _children

_KINDS = {"footnotes": ("footnote", "footnoteReference"),
          "endnotes": ("endnote", "endnoteReference")}
_SEPARATORS = {"separator", "continuationSeparator", "continuationNotice"}
_NOT_SHOWN = {f"{W}del", f"{W}moveFrom"}


class _Notes:
    """The document's footnotes and endnotes as lines, by (reference tag, id)."""

    def __init__(self, document: Any, styles: _Styles | None = None) -> None:
        self.text: dict[tuple[str, str], list[str]] = {}
        self.written: set[tuple[str, str]] = set()
        styles = styles or _Styles(None)
        try:
            rels = list(document.part.rels.values())
        except AttributeError:  # no document part (a test's bare body)
            return
        from docx.oxml import parse_xml  # python-docx's parser: no entities, no network

        for rel in rels:
            kind = rel.reltype.rsplit("/", 1)[-1]
            if kind not in _KINDS or rel.is_external:
                continue
            note_tag, ref_tag = _KINDS[kind]
            root = parse_xml(rel.target_part.blob)
            for note in root.iterchildren(f"{W}{note_tag}"):
                if note.get(f"{W}type", "normal") in _SEPARATORS:
                    continue
                lines = _note_lines(note, styles)
                if lines:
                    self.text[(f"{W}{ref_tag}", note.get(f"{W}id", ""))] = lines

    def referred(self, element: Any) -> list[str]:
        """The lines of every note ``element`` refers to and that was not written yet:
        references in deleted text (tracked changes) are not on the page."""
        if not self.text:
            return []
        out: list[str] = []
        for ref in element.iter(*{tag for tag, _ in self.text}):
            if any(a.tag in _NOT_SHOWN for a in ref.iterancestors()):
                continue
            key = (ref.tag, ref.get(f"{W}id", ""))
            if key in self.text and key not in self.written:
                self.written.add(key)
                out.extend(self.text[key])
        return out


def _note_lines(note: Any, styles: _Styles) -> list[str]:
    """A note's paragraphs, one line each (its own number mark, ``w:footnoteRef``, is
    drawn by Word and is not text); a table in a note, its rows."""
    lines: list[str] = []
    for block in _children(note):
        if block.tag == f"{W}p":
            runs: list[Run] = []
            style = block.find(f"{W}pPr/{W}pStyle")
            _walk(block, runs, _Ctx(styles, style.get(f"{W}val", "") if style is not None else ""))
            text = render([r if r.text not in ("\n", BOX_PARAGRAPH, BOX_START, BOX_END) else Run(" ")
                           for r in runs]).strip()
            if text:
                lines.append(text)
        elif block.tag == f"{W}tbl":
            lines.extend(_table(block, styles))
    return lines
