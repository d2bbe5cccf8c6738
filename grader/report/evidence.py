"""Turn each check's evidence into what a template shows, through its kind.

Each check kind lays out its own evidence (`Kind.explain` in `grader.checks.<kind>`);
this picks the kind from the registry and never lets a malformed evidence, or a kind
this grader does not know (a record from another version), break a report: those
are shown as a generic key/value table.

A check comes in as a dict, a check of the filtered view (`visibility.student_view` or
`ta_view`): the view is the record's JSON cut to what its reader may see, and evidence
is each kind's own shape (`CheckOutcome.evidence: Any`), which `Kind.explain` lays out.
`template` names the kind's partial, `templates/report/kinds/<template>.html.j2` (and
`.md.j2`); a kind without one, or one this grader does not know, uses `generic`.
"""

from __future__ import annotations

from typing import Any

from grader.checks.kind import generic_rows, short
from grader.checks.registry import kinds

__all__ = ["explain", "generic_rows", "short"]


def explain(check: dict[str, Any]) -> dict[str, Any]:
    """A template-ready view of one check: common fields plus its kind's details."""
    name = str(check.get("kind", "?"))
    kind = kinds().get(name)
    view = {"kind": name, "status": check.get("status", ""), "message": check.get("message", ""),
            "fraction": check.get("fraction"), "gate": bool(check.get("gate")),
            "template": (kind.template or kind.name) if kind else "generic"}
    try:
        view.update(kind.explain(check) if kind else {"rows": generic_rows(check.get("evidence"))})
    except Exception as exc:  # noqa: BLE001 - a malformed evidence must not sink the report
        view.update(template="generic", rows=generic_rows(check.get("evidence")),
                    explain_error=f"could not lay out this evidence ({type(exc).__name__})")
    return view
