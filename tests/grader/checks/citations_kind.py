"""A check kind written the way a course would add one: this module is the whole of it.

`citations`: the question's tagged markdown cell must cite at least `min_citations`
sources as `[n]`. Writing none raises the `uncited` flag for a TA (a copied passage
often comes without its sources). `tests/grader/checks/test_new_kind.py` registers it
and grades a notebook through it, pack to record; docs/architecture.md shows it as the
example of adding a kind.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

from pydantic import Field

from grader.checks import CheckResult
from grader.checks.kind import Context, Kind, Settings
from grader.pack import Check, Question

CITATION = re.compile(r"\[(\d+)\]")


class CitationsSettings(Settings):
    min_citations: int = Field(2, ge=1)
    """Distinct `[n]` a full answer cites."""
    tag: str | None = None
    """The markdown cell's tag; default: the question's id."""


class Citations(Kind):
    name = "citations"
    label = "your sources"
    flags = ("uncited",)
    template = "citations"
    templates = Path(__file__).parent / "templates"  # report/kinds/citations.{html,md}.j2
    Settings = CitationsSettings

    def score(self, check: Check, question: Question, ctx: Context) -> CheckResult:
        s = cast(CitationsSettings, check.settings)
        tag = s.tag or question.id
        cells = ctx.notebook.cells if ctx.notebook is not None else []
        text = " ".join(c.source for c in cells if c.cell_type == "markdown"
                        and tag in c.metadata.get("tags", []))
        cited = sorted({int(n) for n in CITATION.findall(text)})
        evidence: dict[str, Any] = {"cited": cited, "asked": s.min_citations}
        if not cited:
            ctx.flags.setdefault("uncited", []).append(
                {"question": question.id, "message": "no source is cited"})
            return CheckResult(self.name, 0.0, "failed", "No source is cited.", evidence)
        if len(cited) >= s.min_citations:
            return CheckResult(self.name, 1.0, "passed", f"{len(cited)} sources cited.",
                               evidence)
        return CheckResult(self.name, len(cited) / s.min_citations, "partial",
                           f"{len(cited)} of the {s.min_citations} sources asked are cited.",
                           evidence)

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        ev = check.get("evidence") or {}
        return {"cited": ev.get("cited", []), "asked": ev.get("asked")}


KIND = Citations()
