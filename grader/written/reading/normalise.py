"""One normalisation for every reader: superscripts kept visible, then NFKC.

NFKC folds what browsers and equation editors emit into the digits and letters the
answer parser reads (mathematical bold 𝟏𝟎,𝟎𝟓𝟎 -> 10,050, the ligature ﬁ -> fi, no-break
spaces -> spaces). It would also fold ``16,384²`` into ``16,3842``, a different number,
so Unicode superscripts and subscripts are first spelled ``^2`` / ``_k``.

A table drawn with box-drawing characters (``┌─┬─┐ │ ├─┼─┤ └─┴─┘``, the double ``╔═╦═╗ ║``
and heavy ``┏━┳━┓ ┃`` ones, ``╭─╮`` rounded corners) as a student draws it in a text
editor, or as ``tabulate``'s fancy and ``rich``'s tables print it, is written as the ASCII
grid table (``+---+---+`` / ``| a | b |``) that MySQL's client, ``tabulate``'s grid and
reStructuredText draw: one table grammar for the readers after it, its columns where
they were (one character for one). A table psql prints (no frame, a ``---+---`` rule under
its header) is given the frame a Markdown table has.
"""

from __future__ import annotations

import re
import unicodedata

from calculators.answers._digits import ascii_digits

_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", "0123456789+-=()ni", strict=True))
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜ", "0123456789+-=()aeoxhklmnpst", strict=True))
_SUP_RUN = re.compile("[" + "".join(_SUPERSCRIPTS) + "]+")
_SUB_RUN = re.compile("[" + "".join(_SUBSCRIPTS) + "]+")
_SIMPLE = re.compile(r"^[\w.]+$")


def raised(text: str, mark: str) -> str:
    """``^2``, ``^(-3)``: a superscript (or ``_k`` subscript) that stays one token."""
    text = text.strip()
    return f"{mark}{text}" if _SIMPLE.match(text) else f"{mark}({text})"


def _box_ascii(code: int) -> str:
    """The ASCII a box-drawing character stands for in a grid table, by the directions its
    Unicode name gives it: a line up and down is a bar ``|``, one left and right a rule's
    stroke (``=`` where it is double, as reStructuredText marks a header's), a corner or
    junction ``+``; a diagonal is no table's, ``""``."""
    words = set(unicodedata.name(chr(code)).split())
    vertical = bool(words & {"UP", "DOWN", "VERTICAL"})
    horizontal = bool(words & {"LEFT", "RIGHT", "HORIZONTAL"})
    if "DIAGONAL" in words or not (vertical or horizontal):
        return ""
    if vertical and horizontal:
        return "+"
    return "|" if vertical else "=" if "DOUBLE" in words else "-"


_BOX_FIRST, _BOX_LAST = 0x2500, 0x257F
_BOX_ASCII = {code: a for code in range(_BOX_FIRST, _BOX_LAST + 1) if (a := _box_ascii(code))}


def _grid_line(line: str) -> str:
    """A line of a box-drawn table as the ASCII grid's, else the line as it is.

    Only a table's lines change: a rule (strokes and junctions, a junction first and last
    or, in a table drawn with no frame, ``───┼───``, within) and a row (a bar first and
    last; a frameless table's rows are framed by ``_unframed_tables``). A directory tree's
    ``│   ├── data/`` and a quote's margin bar ``│ text`` keep their characters."""
    ascii_line = line.translate(_BOX_ASCII)
    s = ascii_line.strip()
    if len(s) < 2 or ascii_line == line:
        return line
    rule = not s.strip("+-=: ") and sum(c in "-=" for c in s) >= 2 and "+" in s
    row = s[0] == "|" == s[-1]
    return ascii_line if rule or row else line


_BOX_LINES = "─━═│┃║┄┅┆┇┈┉┊┋╌╍╎╏"
"""The bars and strokes of box drawing: every box-drawn table has one of them."""


def _unframed_rule(line: str) -> tuple[int, list[int]]:
    """Where the rule under the header of an unframed table starts, and the columns of its
    junctions (``----------+--------``: psql's and presto's tables, which draw no frame);
    ``(0, [])`` for any other line. A grid's rule (``+---+``) and an org-mode table's
    (``|---+---|``) open with their frame and are none."""
    s = line.rstrip()
    start = len(s) - len(s.lstrip())
    body = s[start:]
    if len(body) < 5 or body[0] != "-" or body[-1] != "-" or "+" not in body \
            or body.strip("-+"):
        return 0, []
    return start, [start + k for k, c in enumerate(body) if c == "+"]


def _bars_at(line: str, columns: list[int]) -> bool:
    """Whether ``line`` has a bar (``|``, ``│``) at every one of ``columns`` (a row of the
    table)."""
    return all(k < len(line) and _BOX_ASCII.get(ord(line[k]), line[k]) == "|" for k in columns)


def _framed(line: str, start: int) -> str:
    """A row of an unframed table with its frame: the space psql leaves before the first
    cell becomes the left bar, so the columns stay where they were."""
    s = line.rstrip().translate(_BOX_ASCII)
    left = s[:start] + ("|" + s[start + 1:] if s[start:start + 1] == " " else "| " + s[start:])
    return left + " |"


def _unframed_tables(lines: list[str]) -> list[str]:
    """psql's and presto's tables, pasted from a terminal (a header, a ``---+---`` rule,
    rows with ``|`` where the rule has ``+``, "(5 rows)" after them), and tables drawn
    with no frame in box characters (``───┼───``, ``│`` between the cells), framed as a
    Markdown table is: the header row, the rule as ``|---|---|``, the rows between bars.
    A line of dashes and pluses with no header and rows of bars above and below it is
    left as it is."""
    out = list(lines)
    for i in range(1, len(lines) - 1):
        start, junctions = _unframed_rule(lines[i])
        if not junctions or not _bars_at(lines[i - 1], junctions):
            continue
        end = i + 1
        while end < len(lines) and _bars_at(lines[end], junctions):
            end += 1
        if end == i + 1:
            continue  # a header and its rule, no row
        for k in (i - 1, *range(i + 1, end)):
            out[k] = _framed(lines[k], start)
        rule = lines[i].rstrip()
        out[i] = rule[:start] + "|" + rule[start + 1:].replace("+", "|") + "|"
    return out


def grid_tables(text: str) -> str:
    """``text`` with its box-drawn tables' lines as ASCII grid tables' (``_grid_line``),
    and its unframed tables (psql's) framed (``_unframed_tables``)."""
    box = any(c in text for c in _BOX_LINES)
    if not box and "-+-" not in text:
        return text
    lines = text.split("\n")
    if box:
        lines = [_grid_line(line) for line in lines]
    if any("-+-" in line for line in lines):
        lines = _unframed_tables(lines)
    return "\n".join(lines)


UNIT_HEADERS = ("unit", "units", "einheit", "unidad", "unidades", "unité", "unités", "unità",
                "jednostka", "eenheid", "birim", "単位", "单位", "單位", "단위")
"""The header of a table's column that holds the unit of the value beside it."""
UNIT_CHARS = 14


UNIT_HEADER_ROWS = 5
"""How far down a table its header row may stand (under a sheet's column letters and a
title row or two, as Excel prints it)."""


def unit_columns(text: str) -> str:
    """A table's "Unit" column joined to the value before it ("| 25.77 | GB |" as "| 25.77
    GB |  |"): a spreadsheet printed, or a Word table laid out so, gives the value and its
    unit in cells side by side, and a value without its unit is another answer."""
    lines = text.split("\n")
    unit = None  # the unit column of the table the lines are in
    rows = 0  # the table's rows so far: its header may stand under a title row or two
    for i, line in enumerate(lines):
        body = line.strip()
        if not body.startswith("|"):
            unit, rows = None, 0
            continue
        rows += 1
        cells = body.strip("|").split("|")
        names = [c.strip().strip("*_ ").lower() for c in cells]
        if unit is None or unit < 0 and rows <= UNIT_HEADER_ROWS:
            # "| A | B | C | D |" (a sheet's column letters) and its title rows over
            # "| Label | Formula | Value | Unit |"
            found = [k for k, n in enumerate(names) if n in UNIT_HEADERS and k > 0]
            unit = found[0] if found else -1
            continue
        if unit < 0 or unit >= len(cells):
            continue
        value, word = cells[unit - 1].strip(), cells[unit].strip()
        if value.strip("*_")[-1:].isdigit() and word and len(word) <= UNIT_CHARS \
                and not any(c.isdigit() for c in word):
            cells[unit - 1], cells[unit] = f" {value} {word} ", " "
            lines[i] = line[:len(line) - len(line.lstrip())] + "|" + "|".join(cells) + "|"
    return "\n".join(lines)


GUTTER_RUN = 3
"""The fewest lines in a row numbered 1, 2, 3, … that make a code block's gutter."""


def code_gutters(text: str) -> str:
    """Code blocks without the line numbers a file view prints in their gutter ("1
    model,seed,best_val_acc,…", "2 pretrained,1,0.853,…": a Gist or GitHub page printed,
    each file numbered from 1): a run of lines in a fence opening with consecutive whole
    numbers loses them, so a CSV's rows and a script's lines read as written."""
    lines = text.split("\n")
    fenced = False
    run: list[int] = []

    def flush() -> None:
        if len(run) >= GUTTER_RUN:
            for i in run:
                lines[i] = lines[i].lstrip().partition(" ")[2]
        run.clear()

    for i, raw in enumerate(lines):
        if raw.lstrip().startswith("```"):
            flush()
            fenced = not fenced
            continue
        head = raw.lstrip().split(" ", 1)[0]
        if fenced and head == str(len(run) + 1):  # the gutter counts on: 1, 2, 3, …
            run.append(i)
            continue
        flush()
        if fenced and head == "1":  # the next file's gutter starts again
            run.append(i)
    flush()
    return "\n".join(lines)


def normalise(text: str) -> str:
    """Superscript/subscript runs spelled out, box-drawn tables as ASCII grids, a table's
    unit column joined to its values, a code block's gutter of line numbers taken off
    (``code_gutters``), then NFKC; line breaks are kept as they are. A soft
    hyphen left in the text is one the page never showed (Word's optional hyphen, HTML's
    &shy;), so it goes."""
    text = code_gutters(unit_columns(grid_tables(text.replace("\xad", ""))))
    text = _SUP_RUN.sub(lambda m: raised("".join(_SUPERSCRIPTS[c] for c in m.group()), "^"), text)
    text = _SUB_RUN.sub(lambda m: raised("".join(_SUBSCRIPTS[c] for c in m.group()), "_"), text)
    return ascii_digits(unicodedata.normalize("NFKC", text))


LOST_GLYPHS = re.compile("[\ufffd\ue000-\uf8ff]|\\(cid:\\d+\\)")
LOST_NOTE = (
    "some symbols, probably mathematics, could not be recovered from the PDF; "
    "check equations by eye"
)
