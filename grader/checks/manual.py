"""The `manual` check: a question a TA grades; the student's report section is quoted.

Why quotes are cut here, with the whole pack in view: `calculators.answers.section_text`
runs a section from its heading to the next "Question N" line, so in a lab report whose
"Question 2" comes before "Task 3" the quote for Q2 ran on through Task 3 (and "Question 1
& Task 1" swallowed "Task 3 & 4"). The pack knows every heading its questions are read
under; a quote ends where another question's section opens (a heading, a bold line, or a
paragraph starting with its phrase) or at a References/Appendix heading. The other kinds
that send a question to a TA (`series` without a notebook, `logs` without logs) quote
their sections the same way (`quote_section`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from grader.checks import CheckResult
from grader.checks.kind import Context, Kind, Settings, generic_rows
from grader.pack import Check, Question
from grader.written.report import section_text

if TYPE_CHECKING:
    from grader.pack import Pack
    from grader.written import Reports

QUOTE_CHARS = 4000
SECTION_KEYS = ("report", "claim_from")
"""Check settings that name the report headings a question is read under."""
_HEADING = re.compile(r"^\s*(?:#{1,6}\s|\*\*[^*]+\*\*\s*:?\s*$|__[^_]+__\s*:?\s*$)")
_END = re.compile(r"^\s*(?:#{1,6}\s*|\*\*)\s*(?:\d+(?:\.\d+)*\.?\s*)?"
                  r"(?:references|bibliography|appendix|acknowledg)", re.IGNORECASE)


@dataclass(frozen=True)
class Quoted:
    """A report section as handed in: its text, the report, and the line it starts on."""

    text: str
    report: str
    name: str
    format: str
    first_line: int  # 1-based, in the report's text


def pack_phrases(pack: Pack | None) -> list[str]:
    """Every heading phrase the pack's checks read report sections under."""
    if pack is None:
        return []
    out: dict[str, None] = {}
    for question in pack.questions:
        for check in question.checks:
            for key in SECTION_KEYS:
                for phrase in getattr(check.settings, key, None) or []:
                    out[str(phrase)] = None
    return list(out)


def _key(phrase: str) -> str:
    return " ".join(phrase.lower().split())


def others_of(pack: Pack | None, own: Sequence[str]) -> list[str]:
    mine = {_key(p) for p in own}
    return [p for p in pack_phrases(pack) if _key(p) not in mine]


def cut_at_others(section: str, others: Iterable[str]) -> str:
    """`section` up to the first later line that opens another question's section (a
    heading or bold line naming it, or a paragraph that starts with it) or a
    References/Appendix heading."""
    lines = section.splitlines()
    others = list(others)
    for i in range(1, len(lines)):
        line = lines[i]
        if _END.match(line):
            return "\n".join(lines[:i]).rstrip()
        starts_block = _HEADING.match(line) or not lines[i - 1].strip()
        if line.strip() and starts_block and any(section_text(line, [o]) for o in others):
            return "\n".join(lines[:i]).rstrip()
    return section.rstrip()


def _first_line(text: str, section: str) -> int:
    """The report line a section starts on: where its text is, else its heading's line."""
    at = text.find(section) if section else -1
    if at >= 0:
        return text.count("\n", 0, at) + 1
    head = section.splitlines()[0].strip() if section else ""
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() == head:
            return number
    return 1


def quote_section(reports: Reports | None, headings: Sequence[str],
                  others: Iterable[str] = (), part: str | None = None) -> Quoted | None:
    """The first report's section for `headings` (and `part`: Q3(a)'s "(I)" alone),
    ended where another of the pack's sections opens; None when no report has one."""
    if not headings or reports is None:
        return None
    others = list(others)
    for doc in reports.docs:
        found = section_text(doc.text, list(headings), part)
        if found:
            text = cut_at_others(found, others)
            return Quoted(text, doc.path, Path(doc.path).name, doc.format,
                          _first_line(doc.text, found))
    return None


class ManualSettings(Settings):
    report: list[str] = []
    """Headings of the report section quoted for the TA."""
    report_part: str | None = None
    """The part of that section a TA grades ("(I)" of Q3 (a)), as the `answer` kind
    names it: the quote ends where the next part opens."""


class Manual(Kind):
    name = "manual"
    evidence_doc = """the quoted report section (`answer_text`, `where`), later the TA's `comment`."""
    label = "graded by a TA"
    by_ta = True
    Settings = ManualSettings

    def score(self, check: Check, question: Question, ctx: Context) -> CheckResult:
        s = cast(ManualSettings, check.settings)
        quoted = quote_section(ctx.reports, s.report, others_of(ctx.pack, s.report),
                               s.report_part)
        evidence: dict[str, Any] = ({"answer_text": quoted.text[:QUOTE_CHARS],
                                     "source": "report",
                                     "where": f"{quoted.name} line {quoted.first_line}"}
                                    if quoted else {})
        return CheckResult("manual", 0.0, "manual", "Graded by a TA.", evidence)

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        ev = check.get("evidence")
        if not isinstance(ev, dict):
            return {"comment": None, "grader": None, "extra": []}
        return {"comment": ev.get("comment"), "grader": ev.get("grader"),
                "extra": generic_rows(ev, ("comment", "grader"))}


KIND = Manual()
