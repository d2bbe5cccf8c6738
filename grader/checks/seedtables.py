"""Per-seed claims read out of tables: a row per run, a column per seed, or columns of spaces.

Why apart from the sentences: a table says what a figure is by its header, not by the
words around it, so a cell is read by its column's role ("Test acc at best val step"
holds test accuracies) and its row's or column's seed. Students write a row per run
("| Model | Seed | Best val acc | Step | Test acc |"), the same written with spaces (as
PDF text and plain-text reports give it), or a column per seed ("| | Seed 1 | Seed 2 |"
with a row per field); a PDF may lose the empty top-left cell. Plain-text reports frame
the rows with rules ("+----+", or the box-drawing of `tabulate` and `rich`), Markdown may
leave out the outer pipes, and a cell may hold several figures joined by "/" in the order
its label names them. The model is the one the row, the column, the table's caption or
the heading above names; a row whose model cell is empty is of the model named last in
that column (LaTeX's multirow writes "Pre-trained" once, over its three seeds' rows, and
the rows below it would otherwise take the caption's model). In a table with a column
per seed, a row whose label names a field and no model ("| step | 1200 | 1400 |" under "|
pre-trained best val | 0.853 | 0.851 |") is of the model the last row naming one named,
as is one whose model cell, before a "Metric" column, is left blank under a merged cell;
otherwise its steps and test accuracies are of no model. A row per model may instead
hold every run, a group of columns per seed under a header of two rows ("| Model | Seed 1 |
Seed 2 |" over "| | best val | step | test | best val | step | test |", a Word table whose
"Seed N" cells span their group): each column's seed is its group's and its field the one
the second row names (`_read_seed_groups`). A table of one run has a row
per field and no header ("| Best validation accuracy | 0.853 |" / "| Reached at step |
1200 |", a Word table under the heading "Pre-trained – seed 1"): its seed is the
heading's. A report in a language with a decimal comma writes "0,853" and "1.200"
(`cell_value`) and its own words for "seed" and "step" (`seedwords.OTHER_LANGUAGES`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from grader.checks.seedrecords import Claim, Claims
from grader.checks.seedsentences import Figure, name_runs, read_sentence, records
from grader.checks.seedwords import (
    FIELDS,
    KEYWORD,
    SEED,
    SEED_WORDS,
    SEEDS_WORDS,
    STEP_WORDS,
    STEPS_WORDS,
    TEST,
    VAL,
    cell_value,
)

TABLE_RULE = re.compile(r":?-{2,}:?")
FIELD_WORDS = re.compile(rf"(?<![a-z])(?:(?P<seed>seed|{SEED_WORDS})|(?P<step>step|iter\w*|"
                         rf"{STEP_WORDS}|{STEPS_WORDS})|(?P<best_validation>{VAL})|(?P<test>{TEST}))"
                         r"(?![a-z])", re.IGNORECASE)
OTHER_FIELD = re.compile(rf"(?P<seed>{SEED_WORDS}|{SEEDS_WORDS})|(?P<step>{STEP_WORDS}|"
                         rf"{STEPS_WORDS})", re.IGNORECASE)
""""Seed" and "step" as a column header says them in the languages students write in
(French "Graine" / "Pas", Vietnamese "Bước", Polish "Krok", Hindi "चरण", …; the words are
`seedwords.OTHER_LANGUAGES`): a column whose header is read as no field loses every
figure of its column."""
CELL = re.compile(r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?%?|\.\d+%?")


HEADER_STARTS_BY = 3
"""How far down a table its header may start: under a title row, or under a notebook's
code cell caught in the table."""
FIGURE = re.compile(r"(?<![A-Za-z0-9_])\d")
"""A digit that begins a number of its own: "int64" under a DataFrame's column name and
"fp16" in a header are parts of words, while "Seed 1" and "0.853" are figures."""


def read_table(book: Claims, rows: list[tuple[int, list[str]]], seed: int | None = None) -> None:
    """The claims of a table of `|` rows, each row as (line number, cells); `seed` is the
    one the heading or label above names (a key/value table's run)."""
    rows = [(n, cells) for n, cells in rows
            if not all(TABLE_RULE.fullmatch(c) for c in cells if c)]
    if _read_boxed_plain(book, rows):
        return
    if _read_pairs(book, rows, seed):
        return
    if len(rows) < 2 or _read_seed_groups(book, rows):
        return
    (_, header), body = _header_rows(rows, book)
    first = len(book.claims)
    header = [c.strip("*_ ").lower() for c in header]
    if header and _seed_cell(header[0]) is not None and 2 * sum(
            len(cells) == len(header) + 1 for _, cells in body) > len(body):
        # the empty top-left cell was lost (a PDF's table text): the header's first
        # cell is a seed, so it heads the first column of figures, not the labels
        header = ["", *header]
    seeds = [_seed_cell(c) for c in header[1:]]
    if column_role(header[0]) == "seed" and len(header) > 2 and all(
            c.isdigit() for c in header[1:]):
        seeds = [int(c) for c in header[1:]]  # "| Seed | 1 | 2 | 3 |"
    if sum(s is not None for s in seeds) >= 2:  # one column per seed
        named = tuple(s for s in seeds if s is not None)
        lead = 1 + next(i for i, s in enumerate(seeds) if s is not None)
        above: str | None = None  # the model the last row that named one named
        for number, cells in body:
            label = " ".join(c.strip("*_ ") for c in cells[:lead] if c.strip("*_ "))
            key = column_role(label)
            fam = book.families.first(label)
            if fam is not None:
                above = fam
            elif key in FIELDS:
                fam = above  # "| step | 1200 | …" under "| pre-trained best val | … |"
            fam = fam or book.family
            for seed, cell in zip(seeds, cells[1:], strict=False):
                if seed is None:
                    continue
                open_claims: dict[Any, Claim] = {}
                for field, value in _figures(cell, label, key):
                    claim = book.add(seed, fam, number, " | ".join(cells), field, value,
                                     open_claims)
                    if claim is not None and len(cells) != len(header):
                        claim.candidates = named
                        claim.why = (f"the row has {len(cells)} cells and the header "
                                     f"{len(header)}, so which seed's column each "
                                     "figure is in is not certain")
        _merge_columns(book.claims, first)
        return
    roles = [column_role(h) for h in header]
    column_family = [book.families.first(h) for h in header]
    spanned: str | None = None  # the model a multirow-like first cell names for the rows below
    other = _other_group(body, roles, book)
    for number, cells in body:
        text = " ".join(c for c, r in zip(cells, roles, strict=False) if r in (None, "model"))
        named = book.families.first(text) or other.get(_label_cell(cells, roles).lower())
        if named is not None:
            spanned = named
        elif not _label_cell(cells, roles):
            named = spanned  # "| | 2 | 0.705 |" under "| From scratch | 1 | 0.712 |"
        row_family = named or book.family
        seed = next((_seed_cell(c, bare=True) for c, r in zip(cells, roles, strict=False)
                     if r == "seed"), None)
        if seed is None:
            seed = next((s for c in cells if (s := _seed_cell(c)) is not None), None)
        open_claims: dict[Any, Claim] = {}
        for cell, role, fam, head in zip(cells, roles, column_family, header, strict=False):
            for field, value in _figures(cell, head, role):
                book.add(seed, fam or row_family, number, "| " + " | ".join(cells) + " |",
                         field, value, open_claims)


def _read_seed_groups(book: Claims, rows: list[tuple[int, list[str]]]) -> bool:
    """A table with a row per model and a group of columns per seed, its header over two
    rows: "| Model | Seed 1 | Seed 2 |" above "| | best val | step | test | best val | step
    | test |" (a Word table in a landscape section, each "Seed N" cell spanning its run's
    columns). Each column's seed is its group's and its field the one the second row
    names. The span is given once per merged cell (the DOCX reader: the top row then has
    fewer cells, and the groups must share the figure columns evenly), as empty cells
    after the seed (Markdown), or repeated in each column it covers. True when the header
    is such a pair of rows, even where the groups cannot be told apart (then nothing is
    read: a figure under the wrong seed would contradict the logs); False otherwise."""
    top = [c.strip("*_ ") for c in rows[0][1]]
    sub = [c.strip("*_ ") for c in rows[1][1]]
    top_seeds = [_seed_cell(c) for c in top]
    if len({s for s in top_seeds if s is not None}) < 2 or any(
            ch.isdigit() for c in sub for ch in c):
        return False
    roles = [column_role(c) for c in sub]
    lead = next((i for i, r in enumerate(roles) if r in FIELDS), 0)
    if lead < 1 or len(sub) - lead < 4 or any(r not in FIELDS for r in roles[lead:]):
        return False
    columns = _group_seeds(top, top_seeds, lead, len(sub))
    if not columns:
        return True
    groups: dict[int | None, list[str | None]] = {}
    for column, role in zip(columns, roles[lead:], strict=True):
        groups.setdefault(column, []).append(role)
    if any(len(set(g)) != len(g) for g in groups.values()):
        return True  # a field twice under one seed: the groups are not the seeds'
    above: str | None = None  # the model of a row whose label cell is left blank
    for number, cells in rows[2:]:
        if len(cells) != len(sub):
            continue
        label = " ".join(c.strip("*_ ") for c in cells[:lead] if c.strip("*_ "))
        fam = book.families.first(label)
        if fam is not None:
            above = fam
        elif not label:
            fam = above
        fam = fam or book.family
        open_claims: dict[Any, Claim] = {}
        for seed_of, role, cell in zip(columns, roles[lead:], cells[lead:], strict=True):
            value = cell_value(cell, str(role))
            if value is not None:
                book.add(seed_of, fam, number, "| " + " | ".join(cells) + " |", str(role),
                         value, open_claims)
    return True


def _group_seeds(top: list[str], seeds: list[int | None], lead: int, width: int
                 ) -> list[int | None]:
    """The seed of each figure column (from `lead` to `width`) under a top row of seed
    groups; empty when the top row does not say it. A top row as wide as the row below
    gives each column the seed named over it or, under an empty cell, the one on its left;
    a narrower one (each merged cell once) has as many label cells as the row below and
    then one cell per seed, each over an equal share of the figure columns."""
    if len(top) == width:
        out: list[int | None] = []
        last: int | None = None
        for cell, seed in zip(top[lead:], seeds[lead:], strict=True):
            if seed is None and cell:
                return []
            last = seed if seed is not None else last
            out.append(last)
        return out if out and out[0] is not None else []
    named = seeds[lead:]
    if len(top) > width or any(s is None for s in named) or any(seeds[:lead]):
        return []
    share, rest = divmod(width - lead, len(named))
    return [] if rest or share < 2 else [s for s in named for _ in range(share)]


def _header_rows(rows: list[tuple[int, list[str]]], book: Claims
                 ) -> tuple[tuple[int, list[str]], list[tuple[int, list[str]]]]:
    """The header and the body of a table whose header may run over several rows: a PDF
    table whose header cells wrap ("Beste val.-" / "nøyaktighet", "Steg" set between them)
    is read as a row per printed line, and a DataFrame printed to PDF sets some column
    names a row lower than others, each over its dtype ("**seed**int64" over "|  |  |
    **step**int64 |"). Leading rows with no figure and no model's name are one header,
    each column's words joined; a row naming a model is a group's label ("| Pre-trained |
    | |"), not the header's. A row of words alone over a row naming the seeds ("| Model |
    Best run per seed |" over "| Model | Seed 1 | Seed 2 | Seed 3 |", a Word table whose
    title cell spans the seeds' columns) is a title: the seeds' row is the header. Rows
    with a figure and of another width above a header of several rows (the notebook's
    code cell, caught in the table) are not the table's."""
    if len(rows) > 2 and _title_over_seeds(rows[0][1], rows[1][1], book):
        rows = rows[1:]
    count = _header_count(rows, book)
    for start in range(1, min(HEADER_STARTS_BY, len(rows) - 2) if count < 2 else 0):
        width = len(rows[start][1])
        if (_header_count(rows[start:], book) >= 2 and len(rows[start + 1][1]) == width
                and all(len(cells) != width for _, cells in rows[:start])):
            rows = rows[start:]
            count = _header_count(rows, book)
            break
    if count < 2:
        return rows[0], rows[1:]
    width = max(len(cells) for _, cells in rows[:count])
    joined = [" ".join(c.strip("*_ ") for _, cells in rows[:count]
                       if i < len(cells) and (c := cells[i]).strip("*_ ")) for i in range(width)]
    return (rows[0][0], joined), rows[count:]


def _header_count(rows: list[tuple[int, list[str]]], book: Claims) -> int:
    """How many leading rows are header rows: no figure in them and, after the first, no
    model's name. The last row is always the body's."""
    count = 0
    while count < len(rows) - 1 and not any(FIGURE.search(c) for c in rows[count][1]) and (
            count == 0 or book.families.first(" ".join(rows[count][1])) is None):
        count += 1
    return count


def _title_over_seeds(top: list[str], below: list[str], book: Claims) -> bool:
    """Whether `top` is a title row over a header with a column per seed: no figure, no
    seed and no model named in it, while the row `below` names two seeds or more. A
    merged title cell is given once, repeated, or followed by empty cells, so which
    column a title cell is over is not asked: it names no seed of any."""
    return (not any(ch.isdigit() for c in top for ch in c)
            and book.families.first(" ".join(top)) is None
            and sum(_seed_cell(c) is not None for c in below) >= 2)


def _other_group(body: list[tuple[int, list[str]]], roles: list[str | None], book: Claims
                 ) -> dict[str, str]:
    """The model of a group of rows whose name no word knows, where the table's model
    column ("Modell", "Model") holds two names, one of them a known model's, and the pack
    has two models, each name over as many rows (a run per seed) and two or more: the
    other group is the other model (a name in a language the words do not cover yet,
    beside "Forhåndstrent" or "Pre-trained"). Empty otherwise: two unknown names say
    nothing of which is which, and one row of "RoBERTa-small" may be a third model."""
    names = list(book.families.words)
    if "model" not in roles or len(names) != 2:
        return {}
    rows: dict[str, int] = {}
    for _, cells in body:
        label = _label_cell(cells, roles).lower()
        if label:
            rows[label] = rows.get(label, 0) + 1
    known = {label: book.families.first(label) for label in rows}
    if (len(rows) != 2 or len(set(rows.values())) != 1 or min(rows.values()) < 2
            or sum(f is not None for f in known.values()) != 1):
        return {}
    (named,) = {f for f in known.values() if f is not None}
    rest = next(n for n in names if n != named)
    return {label: rest for label, f in known.items() if f is None}


def _label_cell(cells: list[str], roles: list[str | None]) -> str:
    """The words of a row's label cells (the model's column, or a column of no field),
    without the emphasis around them: empty when the model is written once, in the first
    row of its runs, as LaTeX's multirow (or a table with merged cells) lays it out."""
    return " ".join(c.strip("*_ ") for c, r in zip(cells, roles, strict=False)
                    if r in (None, "model")).strip()


def _read_pairs(book: Claims, rows: list[tuple[int, list[str]]], seed: int | None) -> bool:
    """A key/value table of one run: two cells a row, each key naming one field ("| Best
    validation accuracy | 0.853 |", "| Reached at step | 1200 |") and no header row, as a
    Word table under a heading "Pre-trained – seed 1" is read. Its seed is a "Seed" row's
    or the heading's. False (nothing read) when any row is not such a pair: a table with
    a header is read by its columns."""
    if not rows or any(len(cells) != 2 for _, cells in rows):
        return False
    pairs: list[tuple[int, str, str, float | int]] = []
    for number, (key, cell) in rows:
        role = column_role(key)
        named = _seed_cell(cell, bare=True) if role == "seed" else None
        if named is not None:
            seed = named
            continue
        value = cell_value(cell, str(role)) if role in FIELDS else None
        if value is None:
            return False
        pairs.append((number, str(role), f"| {key} | {cell} |", value))
    if len({role for _, role, _, _ in pairs}) != len(pairs) or len(pairs) < 2:
        return False
    open_claims: dict[Any, Claim] = {}
    for number, role, quote, value in pairs:
        book.add(seed, book.family, number, quote, role, value, open_claims)
    return True


def _figures(cell: str, heading: str, role: str | None) -> list[tuple[str, float | int]]:
    """The figures of a cell whose row label or column header is `heading` (of `role`):
    one; or several joined by "/" where the heading names as many fields, in the same
    order ("val / step / test" over "0.853 / 1200 / 0.841"). Nothing when they do not
    match: a figure put in the wrong field would contradict the logs."""
    value = cell_value(cell, role) if role in FIELDS else None
    if value is not None:
        return [(str(role), value)]
    labelled = _labelled(cell)
    if labelled:
        return labelled
    parts, names = cell.split("/"), heading.split("/")
    if len(parts) < 2 or len(parts) != len(names):
        return _run_in_words(cell)
    roles = [column_role(name) for name in names]
    values = [cell_value(part, str(r)) if r in FIELDS else None
              for part, r in zip(parts, roles, strict=True)]
    if len(set(roles)) != len(roles) or any(v is None for v in values):
        return []
    return [(str(r), v) for r, v in zip(roles, values, strict=True) if v is not None]


def _run_in_words(cell: str) -> list[tuple[str, float | int]]:
    """The figures of a cell that says one run as a sentence would ("val 0.853 @ 1200 /
    test 0.841", "0.853 at step 1200 (test 0.841)"): read by the sentence reader, and
    only when every number of the cell is one of the run's figures, each named, and the
    cell names no seed (its column or row does); else nothing."""
    accs, steps, seeds = read_sentence(cell)
    figures: list[Figure] = sorted(
        [(o, {"val": "best_validation", "test": "test"}.get(str(r)), v) for o, r, v in accs]
        + [(o, "step", st) for o, st in steps], key=lambda f: f[0])
    runs = records(figures)
    if seeds or len(runs) != 1 or len(figures) != len(CELL.findall(cell)):
        return []
    (named,) = name_runs(runs)
    return [(key, value) for _, key, value in named] if len(named) == len(figures) else []


LABELLED = re.compile(r"(?P<name>[a-z][a-z/_.]*(?:\s+acc\w*\.?)?)\s*[:=]?\s*"
                      r"(?P<value>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?%?|\.\d+%?)(?![\w.]*\d)",
                      re.IGNORECASE)


def _labelled(cell: str) -> list[tuple[str, float | int]]:
    """The figures of a cell that names each one ("val 0.853 step 1200 test 0.841", as a
    table with a column per seed and a row per model holds them): every number of the
    cell after a word naming its field, each field once; else nothing."""
    pairs = list(LABELLED.finditer(cell))
    if len(pairs) < 2 or len(pairs) != len(CELL.findall(cell)):
        return []
    out: list[tuple[str, float | int]] = []
    for m in pairs:
        role = column_role(m.group("name"))
        value = cell_value(m.group("value"), str(role)) if role in FIELDS else None
        if value is None or any(r == role for r, _ in out):
            return []
        out.append((str(role), value))
    return out


PLAIN_ROW_WORDS = 8
"""The most words a row of a table written with spaces holds besides its figures (a
model's name, "seed", "val", "best", "test", a word of the student's language): a line
with more is a sentence, whose figures the sentence reader reads."""


def _read_boxed_plain(book: Claims, rows: list[tuple[int, list[str]]]) -> bool:
    """A table written with spaces inside a box of bars, one cell a row (Stata's ``list``:
    "|      model   seed   val_acc   step   test_acc |"): read as the table of spaces it
    is, its header's fields in order. False (nothing read) for any other table."""
    if len(rows) < 2 or any(len([c for c in cells if c.strip()]) > 1 for _, cells in rows):
        return False
    lines = [(n, " ".join(c for c in cells if c.strip())) for n, cells in rows]
    fields = plain_header(lines[0][1])
    return fields is not None and read_plain_rows(book, lines[1:], fields) > 0


def read_plain_rows(book: Claims, rows: Iterable[tuple[int, str]], fields: list[str],
                    spanned: str | None = None) -> int:
    """How many rows of a table written with spaces were read, in a row from the first,
    up to a blank line or a line that is no such row. A row of numbers only is of the
    model the row above named (`read_plain_row`'s `above`: a model written once over its
    seeds' rows)."""
    count = 0
    for number, line in rows:
        if not line.strip() or not read_plain_row(book, number, line, fields, spanned):
            break
        spanned = book.families.first(line) or spanned
        count += 1
    return count


def read_plain_row(book: Claims, number: int, line: str, fields: list[str],
                   above: str | None = None) -> bool:
    """One row of a table written with spaces: its numbers, in the header's order. A row
    of numbers only is of the model `above` names (the row over it that named one), as a
    model written once over its seeds' rows leaves the first column blank below it. A
    row that leads with one number more, a whole one before the model's name ("2
    pretrained 3 0.861 1600 0.842"), is a pandas DataFrame printed with its index, a
    column the header names no field of: the index is no figure."""
    cells = CELL.findall(line)
    words = line.split()
    if sum(w.isalpha() for w in words) > PLAIN_ROW_WORDS:
        return False  # prose under the table ("The pre-trained model is much better …")
    if (len(cells) == len(fields) + 1 and len(words) > 1 and words[0] == cells[0]
            and cells[0].isdigit() and any(c.isalpha() for c in words[1])):
        cells = cells[1:]
    if len(cells) != len(fields):
        return False
    row = dict(zip(fields, cells, strict=True))
    seed = _seed_cell(row.pop("seed"), bare=True)
    family = book.families.first(line)
    if family is None and not any(c.isalpha() for c in line):
        family = above
    family = family or book.family
    open_claims: dict[Any, Claim] = {}
    for key, cell in row.items():
        value = cell_value(cell, key)
        if value is not None:
            book.add(seed, family, number, line, key, value, open_claims)
    return seed is not None


def _merge_columns(claims: list[Claim], first: int) -> None:
    """A column-per-seed table gives one claim per (row, seed): join them per run."""
    merged: dict[Any, Claim] = {}
    out = claims[:first]
    for claim in claims[first:]:
        run = (claim.family, claim.seed, bool(claim.candidates))
        have = merged.get(run)
        if have is None or any(getattr(have, f) is not None and getattr(claim, f)
                               is not None for f in FIELDS):
            merged[run] = claim
            out.append(claim)
            continue
        for f in FIELDS:
            if getattr(claim, f) is not None:
                setattr(have, f, getattr(claim, f))
    claims[:] = out


def plain_header(line: str) -> list[str] | None:
    """The fields, in order, of a table written with spaces ("Model Seed Best val. acc.
    Step Test acc.", as PDF text and plain-text reports give it), or None."""
    if any(ch.isdigit() for ch in line) or "|" in line:
        return None
    fields: list[str] = []
    for m in FIELD_WORDS.finditer(line):
        name = str(m.lastgroup)
        if name not in fields:
            fields.append(name)
    return fields if "seed" in fields and len(fields) >= 3 else None


def column_role(header: str) -> str | None:
    """What a table column holds, by the first word of its header that names a field
    ("Test acc at best val step" holds test accuracies)."""
    low = header.lower()
    words = [(m.start(), {"val": "best_validation", "test": "test"}.get(str(m.lastgroup)))
             for m in KEYWORD.finditer(low) if m.lastgroup != "train"]
    for word, role in (("seed", "seed"), ("step", "step"), ("iter", "step"),
                       ("model", "model"), ("init", "model"), ("run", "model")):
        pos = low.find(word)
        if pos >= 0:
            words.append((pos, role))
    words += [(m.start(), str(m.lastgroup)) for m in OTHER_FIELD.finditer(low)]
    words.sort(key=lambda w: w[0])
    return words[0][1] if words else None


def _seed_cell(cell: str, bare: bool = False) -> int | None:
    """The seed a cell names ("Seed 2", "seed=2"); a bare number ("2") only where the
    column is the seeds' (`bare`)."""
    cell = cell.strip("*_ ")
    m = SEED.search(cell)
    if m:
        return int(m.group("n"))
    return int(cell) if bare and cell.isdigit() else None


BARS = "|│┃║"
"""What separates the cells of a row: `|`, or the box-drawing bars of tables printed by
`tabulate` ("fancy_grid") or `rich` and pasted into a report."""
_JUNCTIONS = "+├┤┌┐└┘┬┴┼╞╡╪╒╕╘╛╤╧╔╗╚╝╠╣╬╦╩┏┓┗┛┣┫╋┳┻┡┩╇╟╢╫╂"
_STROKES = "-=─━═"
DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)+\|?\s*$")
"""A Markdown table's delimiter row, also without outer pipes ("--- | ---")."""
DASHES = re.compile(r"^\s*-{2,}(?:\s+-{2,})+\s*$")
"""The rule under the header of a table written with spaces ("------  ----  -----", as
`tabulate` prints it)."""


def is_rule(line: str) -> bool:
    """A rule of an ASCII-art or box-drawn table ("+------+------+", "├────┼────┤"), as
    plain-text reports and pandoc's grid tables frame their rows: it belongs to the table
    around it and holds no cells. It starts with a junction, so a line of dashes under a
    heading is none."""
    s = line.strip()
    return (bool(s) and s[0] in _JUNCTIONS and all(c in _JUNCTIONS + _STROKES + ": " for c in s)
            and sum(c in _STROKES for c in s) >= 2)


def is_table_line(line: str) -> bool:
    """A row that starts with a bar, or a rule between rows: a table framed by rules is one
    table, its header row above the first rule inside it."""
    s = line.strip()
    return (bool(s) and s[0] in BARS) or is_rule(line)


def table_end(lines: list[str], at: int) -> int:
    """Where the table that starts at line `at` ends (the index after its last line), or
    `at` when none starts there: rows and rules, or a Markdown header written without
    outer pipes ("Model | Seed | ...") over its delimiter row and the rows with a `|` below."""
    end = at
    while end < len(lines) and is_table_line(lines[end]):
        end += 1
    if end <= at + 1 and "|" in lines[at] and at + 1 < len(lines) and DELIMITER.match(
            lines[at + 1]):
        end = at + 2
        while end < len(lines) and "|" in lines[end] and lines[end].strip():
            end += 1
    return end


def row_cells(line: str) -> list[str]:
    """The cells of a row, stripped (box-drawing bars are bars)."""
    for bar in BARS[1:]:
        line = line.replace(bar, "|")
    return [c.strip() for c in line.strip().strip("|").split("|")]


CAPTION = re.compile(r"^\s*[*_]*(?:table|tab\.)\s*\d+[*_]*\s*[:.—–-]", re.IGNORECASE)


def caption(lines: list[str], at: int, step: int) -> str | None:
    """The caption ("Table 1: pre-trained model") on the nearest non-blank line before
    (`step` -1) or after (+1) a table's line `at`, or None: it names the table's model."""
    i = at + step
    while 0 <= i < len(lines) and not lines[i].strip():
        i += step
    if 0 <= i < len(lines) and CAPTION.match(lines[i]):
        return lines[i]
    return None
