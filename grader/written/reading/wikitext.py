"""MediaWiki tables written as pipe tables.

Why: a student who keeps notes in a study group's wiki hands in the page's source, where
a table is ``{| class="wikitable"`` … ``|}``, a header row ``! Model !! Seed !! Best val``,
rows apart by ``|-`` and cells ``| pre-trained || 1 || 0.853``. Read as text, each cell
line is a sentence of its own and no row is a row: the per-seed figures of a lab-B report
are lost. The table is written as the Markdown table it is, in the lines it took, so the
lines after it keep their numbers.
"""

from __future__ import annotations

from grader.written.reading.lightweight import pipe_table, write_in_place

OPEN, CLOSE, ROW, CAPTION = "{|", "|}", "|-", "|+"


def _cells(text: str, sep: str) -> list[str]:
    """A row line's cells; a cell's attributes before a single bar go ("style="…" |
    0.853")."""
    out = []
    for cell in text.split(sep):
        if "|" in cell and "=" in cell.split("|", 1)[0]:
            cell = cell.split("|", 1)[1]
        out.append(cell.strip())
    return out


def wiki_tables(lines: list[str]) -> list[str]:
    """``lines`` with each MediaWiki table written as a pipe table (its leading header rows
    over a rule; a row whose first cell is a row header, "! pre-trained | 0.853", is a
    body row), in as many lines as the table took."""
    out = list(lines)
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith(OPEN):
            i += 1
            continue
        rows: list[tuple[bool, list[str]]] = []  # (a header row, cells)
        caption = ""
        j = i + 1
        while j < len(lines) and not lines[j].lstrip().startswith(CLOSE):
            text = lines[j].strip()
            if text.startswith(CAPTION):
                caption = text[2:].strip()
            elif text.startswith(ROW):
                rows.append((False, []))
            elif text.startswith("!"):
                if not rows or rows[-1][1]:
                    rows.append((True, []))
                rows[-1] = (True, rows[-1][1] + _cells(text[1:].replace("||", "!!"), "!!"))
            elif text.startswith("|"):
                if not rows:
                    rows.append((False, []))
                rows[-1] = (False, rows[-1][1] + _cells(text[1:], "||"))  # a data cell
            elif text and rows and rows[-1][1]:
                head, cells = rows[-1]
                rows[-1] = (head, [*cells[:-1], f"{cells[-1]} {text}".strip()])
            j += 1
        if j == len(lines):
            break  # never closed: no table
        rows = [r for r in rows if r[1]]
        if rows:
            header = next((k for k, (head, _) in enumerate(rows) if not head), len(rows))
            write_in_place(out, i, j, pipe_table([cells for _, cells in rows], header, caption))
        i = j + 1
    return out
