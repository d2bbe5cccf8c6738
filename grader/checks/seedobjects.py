"""Per-seed figures kept as records: a JSON object or a Python dict per run, keys and all.

Why apart from the printed dicts (`seedprints`): there the seed and the model are the
keys a run's figures hang under ("{'pretrained': {1: (0.853, 1200, 0.841)}}"); a
student who dumps a summary from a script writes each run as one record that names its
own seed and model among its figures ({"model": "pretrained", "seed": 1,
"best_val_acc": 0.853, "best_step": 1200, "test_acc_at_best": 0.841}), one a line or
pretty-printed over several lines, in a list of runs, or each run under its seed's key
({"pretrained": {"1": {"best_val_acc": 0.853, …}}}, as `json.dump` writes a nested dict
and `pprint` wraps a long one). No sentence or table reader takes such a record apart:
"seed": 1 has a quote between the word and its number. A record is read by its keys
alone, each key naming its field the way a table's header does (`column_role`); the
seed is its "seed" key's, else the key it hangs under; the model is a value that names
a family, else a key the records hang under ("pretrained": [ … ]). A figure is read as
written, so a record that contradicts the logs is caught; a record without a seed, or
without a figure, is none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.checks.seedprints import FAMILY_KEY
from grader.checks.seedrecords import Claim, Claims
from grader.checks.seedtables import column_role
from grader.checks.seedwords import FIELDS, SEED, cell_value

MAX_RECORD = 800
"""Characters of one record at most: a longer pair of braces is no run's summary (a
LaTeX group, a code block's body)."""
QUOTES = "\"'"


@dataclass
class Record:
    """One innermost `{…}` of the text: where it starts and ends (offsets) and its body."""

    start: int
    end: int
    body: str


def records(text: str) -> list[Record]:
    """Every innermost pair of braces of `text` (none inside it), in order: a run's record
    is the innermost object; what holds the list of runs is not."""
    out: list[Record] = []
    stack: list[list[Any]] = []  # [offset of "{", whether an object is inside it]
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = ""
            elif ch == "\n":
                quote = ""  # an apostrophe in prose opens no string across lines
            continue
        if ch in QUOTES and stack:
            quote = ch
        elif ch == "{":
            stack.append([i, False])
        elif ch == "}" and stack:
            start, nested = stack.pop()
            if stack:
                stack[-1][1] = True
            if not nested and i + 1 - start <= MAX_RECORD:
                out.append(Record(start, i + 1, text[start + 1:i]))
    return out


def pairs(body: str) -> list[tuple[str, str]]:
    """The `key: value` pairs of a record's body, keys and string values unquoted; a
    comma or colon inside quotes or brackets cuts nothing. Empty when a part is no pair."""
    parts, depth, quote, at = [], 0, "", 0
    for i, ch in enumerate(body):
        if quote:
            if ch == quote and body[i - 1] != "\\":
                quote = ""
        elif ch in QUOTES:
            quote = ch
        elif ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[at:i])
            at = i + 1
    parts.append(body[at:])
    out: list[tuple[str, str]] = []
    for part in parts:
        if not part.strip():
            continue  # a trailing comma
        key, colon, value = _split_key(part)
        if not colon:
            return []
        out.append((_unquote(key), _unquote(value)))
    return out


def _split_key(part: str) -> tuple[str, str, str]:
    """`part` cut at its first colon outside quotes (a key may hold none, a value may)."""
    quote = ""
    for i, ch in enumerate(part):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in QUOTES:
            quote = ch
        elif ch == ":":
            return part[:i], ":", part[i + 1:]
    return part, "", ""


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in QUOTES:
        return text[1:-1].strip()
    return text


def read_records(book: Claims, text: str, first_line: int, read: set[int]) -> set[int]:
    """The claims of every per-seed record of `text` (lines counted from `first_line`)
    but those on the lines `read` (a printed dict's entries, read already); the indices
    of the lines the records read stand on, for no other reader to read."""
    used: set[int] = set()
    for record in records(text):
        if text.count("\n", 0, record.start) in read:
            continue
        fields = _record(book, record, _key_before(text, record.start))
        if fields is None:
            continue
        seed, family, figures = fields
        family = family or _hung_under(book, text[:record.start])
        open_claims: dict[Any, Claim] = {}
        quote = " ".join(text[record.start:record.end].split())
        for offset, field, value in figures:
            line = first_line + text.count("\n", 0, record.start + offset)
            book.add(seed, family, line, quote, field, value, open_claims)
        first = text.count("\n", 0, record.start)
        used.update(range(first, first + text.count("\n", record.start, record.end) + 1))
    return used


def _record(book: Claims, record: Record, under: str
            ) -> tuple[int, str | None, list[tuple[int, str, float | int]]] | None:
    """(seed, model, figures with their offsets in the record) of a run's record, or None
    when it names no seed (nor does the key it hangs `under`: "1", "seed_2") or no
    figure, or a figure's key twice."""
    seed: int | None = None
    family: str | None = None
    figures: list[tuple[int, str, float | int]] = []
    for key, value in pairs(record.body):
        role = column_role(key)
        if role == "seed":
            if not value.isdigit() or seed is not None:
                return None
            seed = int(value)
        elif role in FIELDS and value[:1] not in "[({":  # a curve's list is no figure
            figure = cell_value(value, str(role))
            if figure is None or any(r == role for _, r, _ in figures):
                return None
            # where the figure is: after its key, so a record over several lines puts each
            # figure on its own line
            figures.append((record.body.find(value, record.body.find(key)) + 1, str(role),
                            figure))
        elif family is None and value[:1].isalpha():
            family = book.families.first(value.lower())
    if seed is None:
        named = SEED.search(under)
        seed = int(named.group("n")) if named else int(under) if under.isdigit() else None
    if seed is None or not figures:
        return None
    return seed, family, figures


def _key_before(text: str, start: int) -> str:
    """The key a record is the value of ("1" of `"1": {…}`, "seed_2" of `seed_2: {…}`),
    unquoted; empty when the record is no key's value (an item of a list)."""
    before = text[:start].rstrip()
    if not before.endswith(":"):
        return ""
    before = before[:-1].rstrip()
    if before and before[-1] in QUOTES:
        opening = before.rfind(before[-1], 0, len(before) - 1)
        return before[opening + 1:-1].strip() if opening >= 0 else ""
    cut = max(before.rfind(c) for c in " \n\t{,")
    return before[cut + 1:]


def _hung_under(book: Claims, before: str) -> str | None:
    """The model of the last key above a record that names one and opens a list or an
    object ("pretrained": [ … the record), or None."""
    named: str | None = None
    for key in FAMILY_KEY.finditer(before):
        named = book.families.first(key.group("family").lower()) or named
    return named
