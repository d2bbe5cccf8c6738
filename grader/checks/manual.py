"""The `manual` check: a question a TA grades; the student's report section is quoted."""

from __future__ import annotations

from typing import Any

from grader.checks import CheckResult
from grader.checks.kind import Context, Kind, Settings, generic_rows
from grader.pack import Check, Question
from grader.written import report_section

QUOTE_CHARS = 4000


class ManualSettings(Settings):
    report: list[str] = []
    """Headings of the report section quoted for the TA."""


class Manual(Kind):
    name = "manual"
    Settings = ManualSettings

    def score(self, check: Check, question: Question, ctx: Context) -> CheckResult:
        headings = check.settings.get("report")
        reports = ctx.reports
        text = (report_section(reports, question.id, headings)
                if headings and reports is not None and reports.docs else "")
        evidence = {"answer_text": text[:QUOTE_CHARS], "source": "report"} if text else {}
        return CheckResult("manual", 0.0, "manual", "Graded by a TA.", evidence)

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        ev = check.get("evidence")
        if not isinstance(ev, dict):
            return {"comment": None, "grader": None, "extra": []}
        return {"comment": ev.get("comment"), "grader": ev.get("grader"),
                "extra": generic_rows(ev, ("comment", "grader"))}


KIND = Manual()
