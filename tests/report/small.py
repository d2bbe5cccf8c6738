"""Small valid records built by hand, for tests of one rule of the report layer.

The report layer reads `GradeRecord`s, so a test's record must be a whole one: these
fill in what a rule does not look at, and each test says only what it is about.
"""

from __future__ import annotations

from typing import Any

from grader.record import SCHEMA, GradeRecord

__all__ = ["GradeRecord", "check", "question", "record", "record_json"]


def check(kind: str = "tensor", status: str = "passed", **fields: Any) -> dict[str, Any]:
    """A check outcome's JSON."""
    return {"kind": kind, "fraction": 1.0 if status == "passed" else 0.0, "status": status,
            "message": "", **fields}


def question(qid: str = "q1", status: str = "passed", *, checks: list[dict[str, Any]] = (),
             **fields: Any) -> dict[str, Any]:
    """A question result's JSON: scored 1 of 1 when passed, awaiting a TA when manual."""
    score = {"passed": 1.0, "manual": None}.get(status, 0.0)
    return {"id": qid, "title": qid.upper(), "score": score, "max": 1.0, "status": status,
            "message": "", "checks": list(checks), **fields}


def record_json(questions: list[dict[str, Any]] | None = None, **parts: Any) -> dict[str, Any]:
    """A record's JSON with `questions` (one passed question by default) and `parts`
    (top-level keys) replaced; score, max and status follow the questions."""
    qs = [question()] if questions is None else questions
    base: dict[str, Any] = {
        "schema": SCHEMA,
        "assignment": {"id": "a", "title": "A", "version": "1", "fingerprint": "f"},
        "submission": {"name": "nb.ipynb", "path": None, "sha256": None,
                       "evidence": "notebook"},
        "mode": "grade", "score": sum(q["score"] or 0.0 for q in qs),
        "max_score": sum(q["max"] for q in qs),
        "status": "graded" if all(q["score"] is not None for q in qs) else "incomplete",
        "questions": qs,
        "run": {"seconds": 1.0, "restarts": 0, "sandbox": "none", "executed": True,
                "quick": False, "device": None, "seed": None, "cells_executed": 1},
        "flags": {}, "environment": {"python": "3.11", "platform": "linux", "grader": "0"}}
    return {**base, **parts}


def record(questions: list[dict[str, Any]] | None = None, **parts: Any) -> GradeRecord:
    """`record_json(...)` as a `GradeRecord`."""
    return GradeRecord.from_dict(record_json(questions, **parts))
