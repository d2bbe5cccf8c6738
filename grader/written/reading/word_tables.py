"""Word tables as ``| a | b |`` rows, merged cells written in each row they cover."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grader.written.reading.markup import Run, render
from grader.written.reading.word_runs import BOX_PARAGRAPH, BOX_START, _Ctx, _Styles, _walk
from grader.written.reading.word_xml import W, _children

if TYPE_CHECKING:
    from grader.written.reading.word_notes import _Notes
    from grader.written.reading.word_numbering import _Numbering


def _table(tbl: Any, styles: _Styles | None = None, notes: _Notes | None = None,
           numbering: _Numbering | None = None) -> list[str]:
    """Each row as ``| a | b |``. A cell merged down over several rows (Word's vMerge: a
    "Q3 (e)" cell beside the (I), (II), (III) rows) is written in each of its rows, so a
    row read alone still says which question it answers. A note a cell refers to is
    written at the cell's end (a line of its own would break the row); a list number Word
    draws before a paragraph in a cell ("3.a.", "(ii)") starts its text, counted with the
    body's lists (the same list carries on through a table). A table of one cell holding
    several paragraphs is a box drawn round them (a bordered "FINAL ANSWERS" box at the
    report's end): its paragraphs are lines, as in a text box; so are those of a form's
    response cell beside its key ("| Your response | … |", a course's template)."""
    styles = styles or _Styles(None)
    rows = []
    last: tuple[list[Run], list[int]] = ([], [])  # the row's last cell: its runs, paragraphs' starts
    above: dict[int, str] = {}  # grid column -> the text of the cell last started there
    for tr in _children(tbl):
        if tr.tag != f"{W}tr":
            continue
        cells = []
        column = 0
        for tc in _children(tr):
            if tc.tag != f"{W}tc":
                continue
            span = tc.find(f"{W}tcPr/{W}gridSpan")
            width = int(span.get(f"{W}val", "1")) if span is not None and span.get(
                f"{W}val", "").isdigit() else 1
            merge = tc.find(f"{W}tcPr/{W}vMerge")
            if merge is not None and merge.get(f"{W}val", "continue") == "continue":
                last = ([], [])
                cells.append(above.get(column, ""))
                column += width
                continue
            runs: list[Run] = []
            starts: list[int] = []  # where each paragraph's runs start
            for block in _children(tc):
                if block.tag == f"{W}p":
                    if runs:
                        runs.append(Run(" "))
                    starts.append(len(runs))
                    style = block.find(f"{W}pPr/{W}pStyle")
                    marker = numbering.marker(block) if numbering is not None else ""
                    if marker and marker != "-":  # a bullet's "-" in a cell reads as a minus
                        runs.append(Run(marker + " "))
                    _walk(block, runs, _Ctx(styles, style.get(f"{W}val", "") if style is not None else ""))
                    if notes is not None and (noted := notes.referred(block)):
                        runs.append(Run(" " + " ".join(noted)))
                elif block.tag == f"{W}tbl":  # a table inside a cell: its rows, inline
                    runs.append(Run(" " + " ".join(_table(block, styles, notes, numbering)) + " "))
            text = _render_plain(runs)
            above[column] = text
            cells.append(text)
            column += width
            last = (runs, starts)
        kept = _paragraphs(*last) if len(cells) <= 2 else []
        if len(cells) == 2 and len(kept) > 1 and len(cells[0].strip()) <= FORM_KEY_CHARS \
                and not any(ch.isdigit() for ch in cells[0]):
            # a form's response cell ("| Your response | … |", a template to fill in):
            # its paragraphs are lines, as in the body, the first beside its key; a key
            # that numbers a question ("| Question 1 | … |") keeps its answer in the row
            rows.append(f"| {cells[0]} | {kept[0]} |")
            rows.extend(kept[1:])
        elif any(cells):
            rows.append("| " + " | ".join(cells) + " |")
    if len(rows) == 1 and len(cells) == 1 and len(kept) > 1:
        return kept
    return rows


def _paragraphs(runs: list[Run], starts: list[int]) -> list[str]:
    """A cell's paragraphs that hold text, each as a line (read only for a row of one or
    two cells: a box, or a form's response beside its key)."""
    texts = [_render_plain(runs[a:b]).strip()
             for a, b in zip(starts, [*starts[1:], len(runs)], strict=True)]
    return [t for t in texts if t]


FORM_KEY_CHARS = 40
"""The longest key a form's row names its response cell with ("Your response")."""


def _render_plain(runs: list[Run]) -> str:
    """Runs as one line: a line break or a text box's marks are a space in a cell."""
    return render([r if r.text not in ("\n", BOX_PARAGRAPH, BOX_START) else Run(" ")
                   for r in runs])
