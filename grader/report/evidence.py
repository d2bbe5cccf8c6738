"""Turn each check's evidence into what a template shows, one small explainer per kind.

Check kinds grow with the project (tensor and static today, finetune and answer with
their issues), so a template never indexes evidence blindly: each explainer picks the
keys it knows and hands the rest to a generic key/value table. An unknown kind is
shown generically too; it never breaks a report.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from grader.report.plots import line_chart

KNOWN_KINDS = ("tensor", "static", "finetune", "answer", "manual", "series")


def short(value: Any, limit: int = 160) -> str:
    """A one-line rendering of any JSON value, cut to `limit` characters."""
    if isinstance(value, float):
        text = f"{value:.4g}"
    elif isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(v, int) for v in value):
        text = "(" + ", ".join(map(str, value)) + ")"
    else:
        text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def generic_rows(data: Any, skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(key, value) rows of a dict's unknown keys; a non-dict is one row."""
    if isinstance(data, dict):
        return [(str(k), short(v)) for k, v in data.items() if k not in skip]
    if data in (None, [], {}):
        return []
    return [("evidence", short(data))]


def _tensor(check: dict[str, Any]) -> dict[str, Any]:
    cases = []
    for case in check.get("evidence") or []:
        if not isinstance(case, dict):
            continue
        outputs = [o for o in case.get("outputs") or [] if isinstance(o, dict)]
        cases.append({"case": case.get("case", "?"), "passed": bool(case.get("passed")),
                      "problem": case.get("problem") or "", "outputs": outputs,
                      "extra": generic_rows(case, ("case", "passed", "problem", "outputs",
                                                   "kind"))})
    failing = [c for c in cases if not c["passed"]]
    return {"cases": cases, "n_passed": len(cases) - len(failing), "n_cases": len(cases)}


def _static(check: dict[str, Any]) -> dict[str, Any]:
    ev = check.get("evidence")
    findings = ev if isinstance(ev, list) else [ev] if ev else []
    return {"rows": [row for f in findings for row in generic_rows(f)]}


def _finetune(check: dict[str, Any]) -> dict[str, Any]:
    ev = check.get("evidence") or {}
    models = []
    for m in ev.get("models") or [] if isinstance(ev, dict) else []:
        if not isinstance(m, dict):
            continue
        reported = m.get("reported") or {}
        curves = {k.replace("_", " "): v for k, v in reported.items()
                  if isinstance(v, list) and all(isinstance(x, int | float) for x in v)}
        threshold = m.get("threshold")
        reeval = m.get("reevaluated_accuracy")
        n = max((len(v) for v in curves.values()), default=1)
        chart = line_chart(
            curves, title=f"{m.get('name', 'model')}: accuracy per epoch",
            hlines={"threshold": threshold} if isinstance(threshold, int | float) else None,
            markers={"re-evaluated": (n, reeval)} if isinstance(reeval, int | float) else None,
        ) if curves else None
        models.append({
            "name": m.get("name", "model"), "architecture": m.get("architecture", ""),
            "chart": chart, "reevaluated": reeval, "threshold": threshold,
            "meets": (reeval >= threshold) if isinstance(reeval, int | float)
            and isinstance(threshold, int | float) else None,
            "train_seconds": m.get("train_seconds"), "device": m.get("device"),
            "peak_memory_mib": (m["peak_memory_bytes"] / 2**20
                                if isinstance(m.get("peak_memory_bytes"), int | float) else None),
            "extra": generic_rows(m, ("name", "architecture", "reported", "reevaluated_accuracy",
                                      "threshold", "train_seconds", "peak_memory_bytes",
                                      "device")),
        })
    extra = generic_rows(ev, ("models",)) if isinstance(ev, dict) else generic_rows(ev)
    return {"models": models, "quick": bool(ev.get("quick")) if isinstance(ev, dict) else False,
            "extra": [r for r in extra if r[0] != "quick"]}


def _answer(check: dict[str, Any]) -> dict[str, Any]:
    ev = check.get("evidence") or {}
    if not isinstance(ev, dict):
        return {"answer": None, "slips": [], "extra": generic_rows(ev)}
    slips = [s for s in (ev.get("slips") or check.get("slips") or []) if isinstance(s, dict)]
    known = ("answer", "verdict", "convention", "message", "slips", "expected_display")
    return {"answer": ev.get("answer"), "verdict": ev.get("verdict"),
            "convention": ev.get("convention"), "note": ev.get("message"), "slips": slips,
            "extra": generic_rows(ev, known)}


def _manual(check: dict[str, Any]) -> dict[str, Any]:
    ev = check.get("evidence")
    return {"comment": ev.get("comment") if isinstance(ev, dict) else None,
            "grader": ev.get("grader") if isinstance(ev, dict) else None,
            "extra": generic_rows(ev, ("comment", "grader")) if isinstance(ev, dict) else []}


EXPLAINERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "tensor": _tensor, "static": _static, "finetune": _finetune, "answer": _answer,
    "manual": _manual, "series": _finetune,
}
TEMPLATE_OF = {"series": "finetune"}
"""Kinds laid out like another: printed curves (`series`) are charted as fine-tuning's."""


def explain(check: dict[str, Any]) -> dict[str, Any]:
    """A template-ready view of one check: common fields plus its kind's details."""
    kind = str(check.get("kind", "?"))
    view = {"kind": kind, "status": check.get("status", ""), "message": check.get("message", ""),
            "fraction": check.get("fraction"), "gate": bool(check.get("gate")),
            "template": TEMPLATE_OF.get(kind, kind) if kind in EXPLAINERS else "generic"}
    try:
        view.update(EXPLAINERS[kind](check) if kind in EXPLAINERS
                    else {"rows": generic_rows(check.get("evidence"))})
    except Exception as exc:  # noqa: BLE001 - a malformed evidence must not sink the report
        view.update(template="generic", rows=generic_rows(check.get("evidence")),
                    explain_error=f"could not lay out this evidence ({type(exc).__name__})")
    return view
