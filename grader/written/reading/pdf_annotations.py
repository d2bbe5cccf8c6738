"""A PDF's annotations, read where they stand: what a student wrote on the handout in a
PDF reader.

Why: a student may answer on the handout itself, typing each answer in a FreeText box
(or a sticky note) in the margin beside its question. MuPDF reads a FreeText box's text
from its appearance, but after all the page's own text, so every answer landed at the
page's end, under the last question, and each part's section held only the handout's
question text (its "[4 points]", its "h = 48"). An annotation is a margin note: its text
is read right after the block of the page it stands beside (the block left of it that
shares most of its height; else the last block starting above it), so the
page's own text is the question and the note its answer. A FreeText box with no
appearance is read from its contents. A sticky note is a remark in a pop-up, pinned by
an icon (written beside a FreeText box, its text would share that box's lines), and a
highlight adds no text: neither is read.
"""

from __future__ import annotations

from grader.written.reading.pdf_page import _Block, _Line, _Span

MAX_PAGE_ANNOTATIONS = 500
"""Annotations read on one page: a marked-up handout has a few dozen; past this the rest
are not read (each costs a search over the page's blocks)."""
_NOTE_SIZE = 10.0
"""The size a note read from its contents is given: it has no font of its own."""
_TEXT_KINDS = ("FreeText",)


def page_annotations(page: object) -> list[tuple[tuple[float, float, float, float], str, str]]:
    """(rect, kind, contents) of the page's FreeText boxes."""
    out = []
    annot = page.first_annot  # type: ignore[attr-defined]
    while annot is not None and len(out) < MAX_PAGE_ANNOTATIONS:
        kind = annot.type[1]
        if kind in _TEXT_KINDS:
            r = annot.rect
            out.append(((r.x0, r.y0, r.x1, r.y1), kind, annot.info.get("content", "") or ""))
        annot = annot.next
    return out


def _extent(block: _Block) -> tuple[float, float, float, float]:
    return (min(ln.x0 for ln in block.lines), min(ln.y0 for ln in block.lines),
            max(ln.x1 for ln in block.lines), max(ln.y1 for ln in block.lines))


def _inside(block: _Block, rect: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = _extent(block)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return rect[0] <= cx <= rect[2] and rect[1] <= cy <= rect[3]


def _note_block(rect: tuple[float, float, float, float], contents: str, page: int) -> _Block | None:
    """A note's contents as a block at its rect, a line for each of its lines."""
    lines = []
    y = rect[1]
    for text in contents.split("\n"):
        if not text.strip():
            continue
        y += _NOTE_SIZE * 1.2
        width = 0.5 * _NOTE_SIZE * len(text)
        span = _Span(text, rect[0], rect[0] + width, y, _NOTE_SIZE, False, False, False,
                     sum(not c.isspace() for c in text))
        lines.append(_Line([span], rect[0], rect[0] + width, y - _NOTE_SIZE, y, y, _NOTE_SIZE))
    return _Block(lines, page) if lines else None


def _host(page_blocks: list[_Block], note: _Block) -> int:
    """Where a note goes: after the page's block left of it that shares most of its
    height, else after the last block starting above it; -1 before them all."""
    first = note.lines[0]
    x0, top, _, bottom = _extent(note)

    def overlap(block: _Block) -> float:
        e = _extent(block)
        return min(bottom, e[3]) - max(top, e[1]) if e[2] <= x0 + first.size else 0.0

    beside = [i for i, b in enumerate(page_blocks) if overlap(b) > 0]
    if beside:
        return max(beside, key=lambda i: (overlap(page_blocks[i]), i))
    above = [i for i, b in enumerate(page_blocks) if _extent(b)[1] <= first.y0]
    return max(above, key=lambda i: (_extent(page_blocks[i])[1], i)) if above else -1


def annotations_in_place(blocks: list[_Block], notes: list[
        tuple[tuple[float, float, float, float], str, str]], page: int) -> list[_Block]:
    """``blocks`` (one page's, in reading order) with each annotation's text moved (or,
    read from its contents, put) after the block it stands beside."""
    if not notes or not blocks:
        return blocks
    noted: list[_Block] = []
    own = list(blocks)
    for rect, _, contents in notes:
        drawn = [b for b in own if _inside(b, rect)]
        if drawn:
            own = [b for b in own if not any(b is d for d in drawn)]
            noted.extend(drawn)
        elif not drawn:
            block = _note_block(rect, contents, page)
            if block is not None:
                noted.append(block)
    if not own:
        return blocks
    after: dict[int, list[_Block]] = {}
    for note in sorted(noted, key=lambda b: (_extent(b)[1], _extent(b)[0])):
        after.setdefault(_host(own, note), []).append(note)
    out = list(after.get(-1, []))
    for i, block in enumerate(own):
        out.append(block)
        out.extend(after.get(i, []))
    return out
