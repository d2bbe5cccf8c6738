"""Running headers, footers, page numbers and print stamps of a PDF, dropped.

Why: Chromium prints the date, the title, the file URL and "1/2" on every page, and a
course's template its name; read as text they would be answers or headings."""

from __future__ import annotations

import re

from grader.written.reading.pdf_page import _Block, _Line
from grader.written.vocabulary import QUESTION_LABEL

MARGIN = 0.1
"""Top and bottom fraction of a page where running headers and footers live."""
_PAGE_NUMBER = re.compile(
    r"^(?:page\s*)?[-–—(]?\s*#\s*[-–—)]?(?:\s*(?:of|/)\s*#)?$|^#\s*/\s*#$", re.I
)
_PRINT_STAMP = re.compile(
    r"^(?:file|https?)://\S+$|^#{1,2}/#{1,2}/#{2,4},?\s+#{1,2}:#{2}(?:\s*[ap]m)?$", re.I
)


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def _drop_margins(blocks: list[_Block], heights: dict[int, float]) -> list[_Block]:
    """Blocks without their running headers, footers, page numbers and print stamps."""

    def in_margin(line: _Line, page: int) -> bool:
        h = heights[page]
        return line.y1 < MARGIN * h or line.y0 > (1 - MARGIN) * h

    seen: dict[str, set[int]] = {}
    exact: dict[str, set[int]] = {}  # the same text, digits and all
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
                exact.setdefault(" ".join(line.text.split()), set()).add(block.page)
    page_lines: dict[int, list[_Line]] = {}
    for block in blocks:
        page_lines.setdefault(block.page, []).extend(ln for ln in block.lines if ln.text.strip())

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
        """No other text beside the line on its baseline (a section number has its title
        there). Text it is printed over is not beside it: a page's footer drawn across its
        last line (an HTML page's absolutely placed number) sits inside that line's span."""
        return all(ln.x0 <= line.x0 and line.x1 <= ln.x1 for ln in page_lines[page]
                   if ln is not line and abs(ln.baseline - line.baseline) < 2)

    out = []
    for block in blocks:
        kept = []
        for line in block.lines:
            key = _key(line.text)
            if in_margin(line, block.page):
                number = _in_row(line, block.page, key)
                if not key or (len(seen.get(key, ())) >= 2 and not number
                               and not _continued_title(line.text, seen[key], exact)):
                    continue
                if (_PAGE_NUMBER.match(key) and not number) or _PRINT_STAMP.match(key):
                    continue
            # a lone page number is the first or last line of its page, wherever that is
            if not key:
                continue  # blank
            extreme = line.y0 <= top.get(block.page, line.y0) or line.y1 >= bottom.get(
                block.page, line.y1
            ) or line.baseline >= max(ln.baseline for ln in page_lines[block.page]) - 2
            if extreme and key and _PAGE_NUMBER.match(key) and _alone(line, block.page):
                continue
            kept.append(line)
        if kept:
            out.append(_Block(kept, block.page, block.rules, block.walls))
    return out


def _continued_title(text: str, pages: set[int], exact: dict[str, set[int]]) -> bool:
    """Whether a margin line repeated on a page or two is a title continued, not a running
    header: a slide's frame title over two frames ("Q3 (e) LoRA (1/2)", "(2/2)") names a
    question and differs in its digits; a header repeats itself word for word, or on
    three pages or more."""
    return len(pages) < 3 and len(exact.get(" ".join(text.split()), ())) < 2 \
        and QUESTION_LABEL.search(text) is not None


LINE_NUMBERS_MIN = 5
"""How many numbered lines a page needs before its left column is read as line numbers."""


def _drop_line_numbers(blocks: list[_Block]) -> list[_Block]:
    """Blocks without a review copy's line numbers ("12  Q3 (c) ..." in the margin).

    Why: Word's and LaTeX's ``lineno`` print a number before every line, in a column of
    its own left of the text; read as text it makes every page a two-column table, and
    no label starts its line. A page's numbers are a line-number column when there are
    at least ``LINE_NUMBERS_MIN``, each a bare integer, all left of every other line of
    the page, rising from top to bottom. A numbered list ("3. Q3(c)", "1) ...") has its
    stops and its text's indent, and a table's first column (seeds 1, 2, 3) starts where
    the body text does: neither is dropped. A two-column review copy (ACL's "000", "001",
    …) numbers its right column in the right margin too: a column of numbers right of
    every other line, rising, goes as the left one does."""
    pages: dict[int, list[_Line]] = {}
    for block in blocks:
        pages.setdefault(block.page, []).extend(block.lines)
    drop: set[int] = set()
    for lines in pages.values():
        numbers = [ln for ln in lines if ln.text.strip().isdecimal()]
        others = [ln for ln in lines if ln.text.strip() and not ln.text.strip().isdecimal()]
        if len(numbers) < LINE_NUMBERS_MIN or not others:
            continue
        left = min(ln.x0 for ln in others)
        right = max(ln.x1 for ln in others)
        for margin in ([ln for ln in numbers if ln.x1 <= left],
                       [ln for ln in numbers if ln.x0 >= right]):
            values = [int(ln.text) for ln in sorted(margin, key=lambda ln: ln.baseline)]
            if len(margin) >= LINE_NUMBERS_MIN and all(
                    a < b for a, b in zip(values, values[1:], strict=False)):
                drop.update(id(ln) for ln in margin)
    return _without(blocks, drop)


def _without(blocks: list[_Block], drop: set[int]) -> list[_Block]:
    """The blocks without the lines whose ids are in ``drop`` (a block left empty goes)."""
    if not drop:
        return blocks
    out = []
    for block in blocks:
        kept = [ln for ln in block.lines if id(ln) not in drop]
        if kept:
            out.append(_Block(kept, block.page, block.rules, block.walls))
    return out


_TALLY_WORDS = ("point", "points", "pt", "pts", "mark", "marks", "p")
"""What a question's points are counted in: "(4 points)", "[6 marks]", "(2 pts)"."""


def _tally(text: str) -> bool:
    """A question's points as an exam sheet prints them: "(4 points)", "[6 marks]",
    "(2 pts)", "4 points"; a number with any other word is not one."""
    body = text.strip()
    if body[:1] in "([" and body[-1:] in ")]":
        body = body[1:-1].strip()
    words = body.split()
    return (len(words) == 2 and words[0].replace(".", "", 1).isdecimal()
            and words[1].lower().rstrip(".") in _TALLY_WORDS)


def _drop_point_tallies(blocks: list[_Block]) -> list[_Block]:
    """Blocks without an exam sheet's point tallies: "(4 points)" flush right on the line
    of its question's label ("(c) Memory of the attention scores …").

    Why: LaTeX's ``exam`` class (and most course templates) print each question's points
    at the right margin, on its label's baseline; read with the label, the row is a table
    whose only number is the 4, and the grader read every answer as "4". A tally is the
    teacher's, not the student's: a line that is only a tally, with other text left of
    it on its baseline, is dropped."""
    pages: dict[int, list[_Line]] = {}
    for block in blocks:
        pages.setdefault(block.page, []).extend(block.lines)
    drop = {id(ln) for page in pages.values() for ln in page if _tally(ln.text) and any(
        other is not ln and other.x1 <= ln.x0 and abs(other.baseline - ln.baseline) < 0.35 * ln.size
        and other.text.strip() for other in page)}
    return _without(blocks, drop)
