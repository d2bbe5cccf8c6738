"""One student's feedback from one GradeRecord: HTML, Markdown, JSON and Gradescope.

All four come from the same filtered view (`visibility.student_view`), so a format
cannot show more than another. A TA copy (`audience="ta"`) keeps everything.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from grader.intake.student import Student
from grader.report.evidence import explain
from grader.report.templates import render
from grader.report.visibility import student_view, ta_view

FORMATS = ("html", "md", "json", "gradescope")
SUFFIX = {"html": ".html", "md": ".md", "json": ".json", "gradescope": ".results.json"}
STATUS_WORD = {"passed": "passed", "partial": "partly right", "failed": "not right yet",
               "error": "could not run", "manual": "awaiting a TA"}


def student_for(record: dict[str, Any], roster: dict[str, Student] | None = None) -> Student:
    """The record's student from the roster, else named after its notebook."""
    name = str(record.get("submission", {}).get("name", "submission"))
    key = record.get("_key") or name.rsplit(".", 1)[0]
    if roster and key in roster:
        return roster[key]
    return Student(key=key, name=key)


def view(record: dict[str, Any], *, audience: str = "student",
         pack_raw: dict[str, Any] | None = None, now: datetime | None = None) -> dict[str, Any]:
    """The filtered record for `audience` ("student" or "ta")."""
    if audience == "student":
        return student_view(record, pack_raw, now)
    if audience == "ta":
        return ta_view(record)
    raise ValueError(f"audience must be 'student' or 'ta', not {audience!r}")


def context(shown: dict[str, Any], student: Student) -> dict[str, Any]:
    """What the per-student templates receive."""
    questions = []
    for q in shown.get("questions", []):
        checks = [explain(c) for c in q.get("checks", []) if isinstance(c, dict)]
        questions.append({**q, "explained": checks,
                          "status_word": STATUS_WORD.get(q.get("status", ""), q.get("status"))})
    return {"r": shown, "student": student, "questions": questions,
            "ta": shown.get("audience") == "ta",
            "run": shown.get("run", {}), "flags": shown.get("flags", {})}


def render_html(shown: dict[str, Any], student: Student) -> str:
    return render("student.html.j2", **context(shown, student))


def render_markdown(shown: dict[str, Any], student: Student) -> str:
    return render("student.md.j2", **context(shown, student))


def render_json(shown: dict[str, Any]) -> str:
    return json.dumps(shown, indent=2, ensure_ascii=False)


def render_gradescope(shown: dict[str, Any], student: Student) -> str:
    """Gradescope's autograder `results.json`: one test per auto-graded question.

    Manual questions are left out (Gradescope grades those in its own rubric); a
    question shown as score-only keeps its score and loses its output.
    """
    tests = []
    for q in shown.get("questions", []):
        if q.get("status") == "manual":
            continue
        out = q.get("message", "")
        if q.get("hint") and q.get("status") != "passed":
            out += f"\nHint: {q['hint']}"
        tests.append({"name": f"{q.get('id')}: {q.get('title', '')}".strip(),
                      "score": q.get("score") or 0.0, "max_score": q.get("max", 0.0),
                      "status": "passed" if q.get("status") == "passed" else "failed",
                      "output": out, "visibility": "visible"})
    summary = render("gradescope_output.txt.j2", **context(shown, student)).strip()
    return json.dumps({"score": shown.get("score", 0.0), "output": summary,
                       "output_format": "text", "visibility": "visible",
                       "stdout_visibility": "hidden",
                       "tests": tests}, indent=2, ensure_ascii=False)


def render_student(record: dict[str, Any], fmt: str, *, student: Student | None = None,
                   pack_raw: dict[str, Any] | None = None, audience: str = "student",
                   now: datetime | None = None) -> str:
    """One record in one format (`html`, `md`, `json`, `gradescope`)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    shown = view(record, audience=audience, pack_raw=pack_raw, now=now)
    who = student or student_for(record)
    if fmt == "html":
        return render_html(shown, who)
    if fmt == "md":
        return render_markdown(shown, who)
    if fmt == "json":
        return render_json(shown)
    return render_gradescope(shown, who)
