"""Per-seed figures printed by Python and pasted into a report: a dict or its `pprint`.

Why apart from the tables and sentences: a student who works in a REPL or a notebook
pastes what Python printed ("{'pretrained': {1: (0.853, 1200, 0.841), …}}", one seed a
line when pretty-printed). The seed and the model are the dict's keys, not words around
the figures, and the tuple names no field: its order is said once elsewhere, by a legend
("Each tuple is (best validation accuracy, step of that best, test accuracy at that
step)") or by the code that built it ("(r.val_acc, int(r.step), r.test_acc)"). Without
such a legend a tuple is not read: two accuracies in an unknown order would be held
against the logs the wrong way round. A dict whose keys name the fields ("{'val': 0.853,
'step': 1200, 'test': 0.841}") needs no legend.
"""

from __future__ import annotations

import re
from typing import Any

from grader.checks.seedrecords import Claim, Claims
from grader.checks.seedtables import column_role
from grader.checks.seedwords import FIELDS, cell_value

_NUMBER = r"-?\d+(?:\.\d+)?(?:e-?\d+)?"
_NAME = r"""['"](?P<{}>[^'"]{{1,40}})['"]"""
FAMILY_KEY = re.compile(_NAME.format("family") + r"\s*:\s*[{\[]")
ENTRY = re.compile(
    r"(?:\(\s*" + _NAME.format("pair") + r"\s*,\s*(?P<pair_seed>\d+)\s*\)|(?P<seed>\d+)"
    r"|['\"]seed[\s_=-]*(?P<named_seed>\d+)['\"])\s*:\s*"
    r"(?:[(\[](?P<values>\s*" + _NUMBER + r"(?:\s*,\s*" + _NUMBER + r")+\s*)[)\]]"
    r"|\{(?P<fields>[^{}]+)\})")
FIELD_ENTRY = re.compile(_NAME.format("key") + r"\s*:\s*(?P<value>" + _NUMBER + ")")
PRINTED_LINE = re.compile(r"^\s*[{\[]*\s*(?:" + _NAME.format("outer") + r"\s*:\s*[{\[]\s*)?"
                          + ENTRY.pattern + r"\s*[,}\]]*\s*$")
"""A whole line of a printed dict: prose that holds a tuple ("seed 1: (0.853, 0.841)")
is the sentences' to read."""
LEGEND = re.compile(r"\(((?:[^()]|\([^()]*\))+)\)")


def legend(text: str) -> list[str] | None:
    """The fields of a printed tuple, in order, from the first parenthesised list in the
    text whose every part names one field, each once (prose or the code's tuple)."""
    for m in LEGEND.finditer(text):
        parts = [p for p in m.group(1).split(",") if p.strip()]
        if len(parts) < 2 or len(parts) > len(FIELDS):
            continue
        roles = [column_role(p) for p in parts]
        if all(r in FIELDS for r in roles) and len(set(roles)) == len(roles):
            return [str(r) for r in roles]
    return None


def printed_lines(lines: list[str]) -> set[int]:
    """The indices of lines that hold a printed per-seed entry ("1: (0.853, 1200, 0.841),")."""
    return {i for i, line in enumerate(lines) if PRINTED_LINE.match(line)}


def read_printed(book: Claims, lines: list[str], first_line: int, order: list[str] | None
                 ) -> None:
    """The claims of the printed entries of `lines`; the model is a key on the entry's
    line or the last one above it ("{'pretrained': {1: …," then "2: …,")."""
    family: str | None = None
    for i, line in enumerate(lines):
        for key in FAMILY_KEY.finditer(line):
            named = book.families.first(key.group("family").lower())
            if named is not None:
                family = named
        m = PRINTED_LINE.match(line)
        if m is None:
            continue
        seed = int(m.group("pair_seed") or m.group("seed") or m.group("named_seed"))
        fam = family
        if m.group("pair"):
            fam = book.families.first(m.group("pair").lower()) or fam
        open_claims: dict[Any, Claim] = {}
        for field, value in _values(m, order):
            book.add(seed, fam, first_line + i, line, field, value, open_claims)


def _values(m: re.Match[str], order: list[str] | None) -> list[tuple[str, float | int]]:
    """An entry's figures with their fields: by the keys of a dict, or by the legend's
    order for a tuple with as many items; nothing when a figure fits no field."""
    if m.group("fields"):
        pairs = [(column_role(f.group("key")), f.group("value"))
                 for f in FIELD_ENTRY.finditer(m.group("fields"))]
    elif order is not None:
        items = [v.strip() for v in m.group("values").split(",")]
        if len(items) != len(order):
            return []
        pairs = list(zip(order, items, strict=True))
    else:
        return []
    out: list[tuple[str, float | int]] = []
    for role, raw in pairs:
        value = cell_value(raw, str(role)) if role in FIELDS else None
        if value is not None and all(r != role for r, _ in out):
            out.append((str(role), value))
    return out
