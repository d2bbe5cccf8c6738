"""Cells a pack expects to fail when graded: they need what the grader does not have.

Real starter notebooks load data the grader lacks (CS231n's COCO loader, a Google Drive
path, a dataset download). With a correct module every record said "needs a TA: cells
crashed" (20 of 20 in a real class), so the TA list was noise. A pack names such cells
in `[[expected_errors]]` (by tag, by a pattern of the error, or both; see
`grader.pack.rubric.ExpectedErrorTable`). Those cells still run and their errors stay in
the record; whoever reads the record with the pack (the CLI table, `grader report`'s
summary, gradebook and student reports) marks each matching error `expected` with the
pack's `why`, and it is no reason for a TA to open the record. Everything else a TA
must see (other crashes, refused network, limits, tampering) is untouched.

The rule is applied when a record is read with its pack, as the visibility rules are,
so a rule added after grading takes effect at the next `grader report` without a run.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from grader.pack import Pack
from grader.pack.rubric import ExpectedErrorTable


def rules(pack: Pack | dict[str, Any] | None) -> list[ExpectedErrorTable]:
    """The `[[expected_errors]]` of a pack or of its raw rubric (validated when the pack
    was loaded)."""
    raw = pack.raw if isinstance(pack, Pack) else (pack or {})
    return [ExpectedErrorTable.model_validate(r) for r in raw.get("expected_errors") or []]


def why_expected(error: dict[str, Any], found: list[ExpectedErrorTable]) -> str | None:
    """The `why` of the first rule matching one cell error, else None."""
    tags = {str(t) for t in error.get("tags") or []}
    text = f"{error.get('ename') or ''}: {error.get('evalue') or ''}"
    for rule in found:
        if rule.tags and not tags & set(rule.tags):
            continue
        if rule.error is not None and not re.search(rule.error, text):
            continue
        return rule.why
    return None


def mark_expected(record: dict[str, Any], pack: Pack | dict[str, Any] | None
                  ) -> dict[str, Any]:
    """A copy of `record` whose cell errors matching the pack's rules carry `expected`
    (the rule's `why`); the record itself is not changed. Without rules, the record."""
    found = rules(pack)
    errors = (record.get("run") or {}).get("cell_errors") or []
    if not found or not errors:
        return record
    marked = copy.deepcopy(record)
    for error in marked["run"]["cell_errors"]:
        if isinstance(error, dict) and (why := why_expected(error, found)):
            error["expected"] = why
    return marked
