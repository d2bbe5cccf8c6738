"""MediaWiki tables written as pipe tables.

Why: a student who keeps notes in a study group's wiki hands in the page's source, where
a table is ``{| class="wikitable"`` … ``|}``, a header row ``! Model !! Seed !! Best val``,
rows apart by ``|-`` and cells ``| pre-trained || 1 || 0.853``. Read as text, each cell
line is a sentence of its own and no row is a row: the per-seed figures of a lab-B report
are lost. The table is written as the Markdown table it is, in the lines it took, so the
lines after it keep their numbers.
"""

from __future__ import annotations

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
    """``lines`` with each MediaWiki table written as a pipe table (its header rows over a
    rule), in as many lines as the table took."""
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
                rows[-1] = (rows[-1][0], rows[-1][1] + _cells(text[1:], "||"))
            elif text and rows and rows[-1][1]:
                head, cells = rows[-1]
                rows[-1] = (head, [*cells[:-1], f"{cells[-1]} {text}".strip()])
            j += 1
        if j == len(lines):
            break  # never closed: no table
        rows = [r for r in rows if r[1]]
        width = max((len(cells) for _, cells in rows), default=0)
        table = [caption] if caption else []
        for k, (head, cells) in enumerate(rows):
            table.append("| " + " | ".join(cells + [""] * (width - len(cells))) + " |")
            if head and (k + 1 == len(rows) or not rows[k + 1][0]):
                table.append("|" + "---|" * width)
        span = j - i + 1
        if rows and len(table) <= span:
            out[i:j + 1] = table + [""] * (span - len(table))
        i = j + 1
    return out
