"""Where a written answer is: a tagged answer cell, a printed line, or a report's section.

Why one module: a question may be answered in the notebook (the STAT8021 template has
a Markdown cell per sub-question with an `Answer:` line), printed by the notebook
(`LM model trainable parameters: 21018401`), or written in a report handed in beside
it (a PDF or Markdown file, as the labs ask). The `answer` check asks this module
for the answer text and where it came from, so the record can say which evidence
came from where. Reports are read once per submission (`Reports`), with their
arithmetic linted once (`calculators.answers.lint_arithmetic`).

Every report is read through `read_document` (`grader.written.reading`), which reads it in a
bounded worker process (CPU time, address space, wall clock: `reading/bounded.py`). A
file too complex to read within those bounds (`ReportTooComplex`: a limit tripped, a
page of thousands of text blocks, a zip member inflating past its limit or its header)
is kept among the errors *and* listed by `Reports.needs_ta()`, so its questions go to a
TA as a scan's do: never a 0, never a stop of the batch.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calculators.answers import Slip, lint_arithmetic
from grader.checks.patterns import labelled_values
from grader.written.reading import (
    Document,
    Report,
    ReportReadError,
    ReportTooComplex,
    read_document,
    read_report,
)
from grader.written.report import (
    Candidate,
    Extracted,
    QuestionSpec,
    extract_answers,
    section_text,
)

__all__ = [
    "Candidate",
    "Document",
    "Extracted",
    "Found",
    "QuestionSpec",
    "Report",
    "ReportReadError",
    "ReportTooComplex",
    "Reports",
    "extract_answers",
    "notebook_answer",
    "printed_answer",
    "read_document",
    "read_report",
    "report_answer",
    "report_section",
    "section_text",
    "slips_in",
]

DEFAULT_LABEL = "Answer"
MAX_ANSWER = 2000


@dataclass(frozen=True)
class Found:
    """One answer as written, or why none was found (`text is None`)."""

    text: str | None
    source: str  # "notebook" | "printed" | "report" | "none"
    where: str = ""
    reason: str = ""
    section: tuple[int, int] | None = None
    """Report lines searched (1-based, inclusive), so slips inside can be listed."""
    report: str | None = None
    shotgun: tuple[str, ...] = ()
    """Different values the report offers as this answer (none of them is graded)."""
    stated: tuple[str, ...] = ()
    """Conventions the report's section states ("no_bias", "fp32", ...)."""

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "where": self.where}


@dataclass
class Reports:
    """The reports of one submission, read and linted once; unreadable ones keep their reason."""

    docs: list[Report] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    too_complex: list[str] = field(default_factory=list)
    """The errors of files too complex to read (also in `errors`): a TA reads them."""
    _slips: dict[str, list[Slip]] = field(default_factory=dict)
    _answers: dict[tuple[str, tuple[str, ...]], dict[str, Extracted]] = field(
        default_factory=dict)

    def answers(self, doc: Report, questions: Sequence[QuestionSpec]) -> dict[str, Extracted]:
        """`extract_answers` of one report, once per set of questions."""
        key = (doc.path, tuple(q.id for q in questions))
        if key not in self._answers:
            self._answers[key] = extract_answers(doc.text, questions)
        return self._answers[key]

    @classmethod
    def read(cls, paths: Sequence[Path]) -> Reports:
        out = cls()
        for path in paths:
            try:
                out.docs.append(read_report(path))
            except ReportTooComplex as exc:
                out.errors.append(str(exc))
                out.too_complex.append(str(exc))
            except ReportReadError as exc:
                out.errors.append(str(exc))
        return out

    def slips(self, doc: Report) -> list[Slip]:
        if doc.path not in self._slips:
            self._slips[doc.path] = lint_arithmetic(doc.text)
        return self._slips[doc.path]

    def describe(self) -> list[dict[str, Any]]:
        """What the record says about the reports (never their text): which reader read
        each one and how many pages it has, and why a TA must read it (a scan)."""
        return [{"name": Path(d.path).name, "path": d.path, "format": d.format,
                 "reader": d.reader, "pages": d.pages, "needs_ta": d.needs_ta,
                 "notes": list(d.notes),
                 "sha256": hashlib.sha256(Path(d.path).read_bytes()).hexdigest()}
                for d in self.docs] + [
            {"error": e, **({"needs_ta": e} if e in self.too_complex else {})}
            for e in self.errors]

    def unlabelled(self, questions: Sequence[QuestionSpec]) -> list[str]:
        """Why a person must read the reports where none of ``questions`` has a section
        (every report with text, none of the pack's labels found in any): their labels
        are written in a way the reader does not know, and a whole report read as empty
        would score 0 for what a TA sees at once. Empty where any report has a section."""
        texts = [d for d in self.docs if d.text.strip()]
        if not texts or not questions:
            return []
        for doc in texts:
            if any(e.section is not None for e in self.answers(doc, questions).values()):
                return []
        return [f"{Path(d.path).name}: none of the questions' headings was found in it"
                for d in texts]

    def needs_ta(self) -> list[str]:
        """Why a person must read some report (no text layer, pages that are images, a file
        too complex to read within the bounded reader's limits)."""
        return [f"{Path(d.path).name}: {d.needs_ta}" for d in self.docs if d.needs_ta] + list(
            self.too_complex)


def _source(cell: Any) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def notebook_answer(notebook: Any, tag: str, label: str = DEFAULT_LABEL) -> Found:
    """The `label:` line of the cells tagged `tag` (Markdown, or a code comment).

    The last filled line wins, so a student who writes working first and the answer
    last is read right. A line left blank (the template's) means no answer.
    """
    if notebook is None:
        return Found(None, "none", reason="no notebook was handed in")
    tagged = [(i, c) for i, c in enumerate(notebook.get("cells", []))
              if tag in (c.get("metadata", {}).get("tags") or [])]
    if not tagged:
        return Found(None, "none", reason=f"the notebook has no cell tagged {tag!r}")
    found = None
    for index, cell in tagged:
        # "**Answer:** 25.77 GB", "- Answer = 25.77 GB", "> p(mat): 0.75"
        for value in labelled_values(_source(cell), label):
            value = value.strip().lstrip("#").strip()
            if value:
                found = Found(value[:MAX_ANSWER], "notebook", f"cell {index}")
    if found is None:
        return Found(None, "none", reason=f"the {label}: line of the cell tagged {tag!r} is empty")
    return found


def printed_answer(notebook: Any, label: str, tag: str | None = None) -> Found:
    """The last `label: value` line the notebook printed (stdout of its code cells)."""
    if notebook is None:
        return Found(None, "none", reason="no notebook was handed in")
    found = None
    for index, cell in enumerate(notebook.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        if tag is not None and tag not in (cell.get("metadata", {}).get("tags") or []):
            continue
        text = "".join(o.get("text", "") for o in cell.get("outputs", [])
                       if o.get("output_type") == "stream" and o.get("name") == "stdout")
        for value in labelled_values(text, label):
            if value.strip():
                found = Found(value.strip()[:MAX_ANSWER], "printed", f"output of cell {index}")
    return found or Found(None, "none", reason=f"the notebook printed no '{label}:' line")


def report_answer(reports: Reports, spec: QuestionSpec,
                  known: Sequence[QuestionSpec] = ()) -> Found:
    """The final answer of the report section `spec` names (its label, and part).

    `known`: every report question of the pack (other questions, other parts of this
    one): a section ends where the report moves on to one of them, as a TA reads it.
    """
    if not reports.docs:
        reason = "; ".join(reports.errors) or "no report was handed in"
        return Found(None, "none", reason=reason)
    questions = [spec, *(q for q in known if q.id != spec.id)]
    reasons = []
    for doc in reports.docs:
        name = Path(doc.path).name
        if doc.needs_ta and not doc.text.strip():  # a scan: nothing to search
            reasons.append(f"{name}: {doc.needs_ta}")
            continue
        got = reports.answers(doc, questions)[spec.id]
        if got.found and got.answer:
            return Found(got.answer[:MAX_ANSWER], "report", f"{name} line {got.line}",
                         section=got.section, report=doc.path, shotgun=got.shotgun,
                         stated=got.stated)
        reasons.append(f"{name}: {got.reason or 'no answer found'}"
                       + (f" ({doc.needs_ta})" if doc.needs_ta else ""))
    return Found(None, "none", reason="; ".join(reasons))


def report_section(reports: Reports, qid: str, headings: Sequence[str]) -> str:
    """The text of the first report's section for `headings` (for a TA to read), or "".

    `section_text` (`grader.written.report`) finds it: from the heading to the next
    "Question N" heading, sub-headings inside an answer kept with it.
    """
    for doc in reports.docs:
        text = section_text(doc.text, headings)
        if text:
            return text
    return ""


def slips_in(reports: Reports, found: Found) -> list[Slip]:
    """Arithmetic slips inside the report lines an answer was read from."""
    if found.source != "report" or found.section is None:
        return []
    doc = next((d for d in reports.docs if d.path == found.report), None)
    if doc is None:
        return []
    first, last = found.section
    return [s for s in reports.slips(doc) if first <= s.line <= last]
