"""Questions a TA scores: a TA sheet out (one row per student and question), scores merged back.

A TA scores every question the grader could not (`awaits_ta`): the rubric's manual
questions, and questions a check could not score for this submission (a curve claim
handed in without its notebook, per-seed figures without their logs); such a row says
why first. A record is `graded` only once every question has a score.

The sheet carries the student's answer text: the report section the grader quoted in
the record (a manual check with `report` headings), else the notebook cells tagged
with the question id (the template tags every answer cell), else the section of the
student's report (Markdown or PDF) that names the question, or why that report could
not be read. The TA fills `points` and `comment`; `merge_sheet` checks every row
before changing any record (unknown student or question, points out of range, a
number that is not one) and names the row at fault.

Records are typed (`GradeRecord`) in and out: `merge_sheet` returns new records and
validates every change (a status the model does not know is an error, not a new value
on disk). Which questions a TA scores by design is asked of the check kinds
(`Kind.by_ta`), not read from a kind's name.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from grader.checks.manual import SECTION_KEYS, cut_at_others
from grader.checks.registry import by_ta
from grader.intake.student import Student
from grader.record import CheckOutcome, GradeRecord, QuestionResult
from grader.report.lms import safe_cell, unsafe_cell
from grader.written.reading import ReportReadError, read_report
from grader.written.report import section_text

SHEET_COLUMNS = ("key", "student", "id", "question", "title", "max_points", "rubric",
                 "answer", "points", "comment")
ANSWER_LIMIT = 4000


class SheetError(ValueError):
    """A TA sheet that cannot be merged; `row` is its 1-based line, `field` its column."""

    def __init__(self, row: int, field: str, message: str) -> None:
        super().__init__(f"sheet line {row}, {field}: {message}")
        self.row, self.field = row, field


def _notebook_text(path: Path, qid: str) -> str:
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    parts = []
    for cell in nb.get("cells", []):
        tags = cell.get("metadata", {}).get("tags", [])
        if qid in tags:
            src = cell.get("source", "")
            parts.append("".join(src) if isinstance(src, list) else str(src))
    return "\n\n".join(p.strip() for p in parts if p.strip())


def _report_section(path: Path, names: list[str], others: Sequence[str] = ()) -> str:
    """The section naming the question in one report (ended where another question's
    section opens), or why the report cannot be read."""
    try:
        return cut_at_others(section_text(read_report(path).text, names), others)
    except ReportReadError as exc:
        return f"[report not read: {exc}]"


def pack_phrases_raw(pack_raw: dict[str, Any] | None, but: str = "") -> list[str]:
    """The report headings the rubric's questions (all but `but`) are read under."""
    out: dict[str, None] = {}
    for q in (pack_raw or {}).get("questions", []) or []:
        if not isinstance(q, dict) or q.get("id") == but:
            continue
        for check in q.get("checks", []) or []:
            for key in SECTION_KEYS:
                for phrase in (check.get(key) or []) if isinstance(check, dict) else []:
                    out[str(phrase)] = None
    return list(out)


def answer_text(qid: str, title: str, notebook: Path | None, reports: list[Path],
                others: Sequence[str] = ()) -> str:
    """What the student wrote for `qid`: tagged notebook cells, else their report's section.

    The section opens at a heading naming `qid` or the title's label ("Q3(a)" of "Q3(a)
    Parameter count"), as `calculators.answers.section_text` finds sections everywhere,
    and ends where a section of `others` (other questions' headings) opens.
    """
    text = _notebook_text(notebook, qid) if notebook and notebook.is_file() else ""
    if not text:
        label = title.split(" ")[0] if title else qid
        names = [n for n in dict.fromkeys((qid, label)) if n]
        text = "\n\n".join(s for s in (_report_section(p, names, others) for p in reports)
                            if s)
    return text[:ANSWER_LIMIT] + (" […]" if len(text) > ANSWER_LIMIT else "")


def _by_ta_or_ta_graded(check: CheckOutcome) -> bool:
    return by_ta(check.kind) or (isinstance(check.evidence, dict)
                                 and check.evidence.get("grader") == "TA")


def awaits_ta(question: QuestionResult) -> bool:
    """Whether a TA scores this question: a check of a kind a TA grades (`Kind.by_ta`), a
    question a check handed to a TA (status `manual`), or one a TA already scored through
    the sheet (merging the same sheet twice gives the same record)."""
    return question.status == "manual" or any(_by_ta_or_ta_graded(c) for c in question.checks)


def _why(question: QuestionResult) -> str:
    """Why a question the rubric grades automatically is on the TA sheet ("" for
    questions a TA grades by design)."""
    for check in question.checks:
        if check.status == "manual" and not by_ta(check.kind):
            return check.message
    return ""


def rubric_text(qid: str, pack_raw: dict[str, Any] | None, record_hint: str = "") -> str:
    """What the rubric tells the TA about a question: its `rubric` in pack.toml (the
    marking guide, TA-only), else its `hint` (else the record's). Never an answer key:
    no `expected` value or reference is read."""
    for q in (pack_raw or {}).get("questions", []) or []:
        if isinstance(q, dict) and q.get("id") == qid:
            return " ".join(str(q.get("rubric") or q.get("hint") or record_hint or "").split())
    return record_hint or ""


def manual_sheet(graded: list[tuple[Student, GradeRecord | dict[str, Any]]],
                 reports: dict[str, list[Path]] | None = None,
                 pack_raw: dict[str, Any] | None = None) -> str:
    """The TA sheet (CSV) for every question a TA scores (`awaits_ta`) of every record.

    `graded` holds (Student, TA record) pairs; the notebook is the record's
    `submission.path`, reports come from `reports[key]` (the intake roster). Each row
    puts the rubric's text for the question (`rubric_text`) beside the student's answer.
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(SHEET_COLUMNS)
    for student, given in graded:
        record = GradeRecord.of(given)  # public: a record's JSON is validated here, once
        path = record.submission.path
        notebook = Path(path) if path else None
        for q in record.questions:
            if not awaits_ta(q):
                continue
            quoted = next((str(c.evidence["answer_text"]) for c in q.checks
                           if isinstance(c.evidence, dict) and c.evidence.get("answer_text")),
                          "")
            answer = quoted[:ANSWER_LIMIT] or answer_text(
                q.id, q.title, notebook, (reports or {}).get(student.key, []),
                pack_phrases_raw(pack_raw, but=q.id))
            why = _why(q)
            if why:
                answer = f"[{why}]\n\n{answer}".rstrip()
            writer.writerow([safe_cell(cell) for cell in (
                student.key, student.name, student.id, q.id, q.title, f"{q.max:g}",
                rubric_text(q.id, pack_raw, q.hint), answer,
                "" if q.score is None else f"{q.score:g}", "")])
    return buf.getvalue()


def read_sheet(text: str) -> list[dict[str, str]]:
    rows = [{k: unsafe_cell(v) if isinstance(v, str) else v for k, v in row.items()}
            for row in csv.DictReader(io.StringIO(text.lstrip("\ufeff")))]
    if rows and not {"key", "question", "points"} <= set(rows[0]):
        raise SheetError(1, "header", "needs the columns key, question and points")
    return rows


def merge_sheet(records: dict[str, GradeRecord] | dict[str, dict[str, Any]], text: str,
                now: datetime | None = None) -> dict[str, GradeRecord]:
    """Records (by key) with the sheet's scores and comments in; the inputs are not changed.

    A row with an empty `points` leaves its question awaiting a TA. A record that got
    points has `graded_at` set to the merge time (`now`), which Moodle's worksheet
    writes as "Last modified (grade)": its importer skips a grade older than the one
    it holds, so the autograde time would lose the TA's points.
    """
    rows = read_sheet(text)
    # public: a record's JSON is validated here, once; a GradeRecord is copied
    merged = {key: GradeRecord.of(record).model_copy(deep=True)
              for key, record in records.items()}
    pending: list[tuple[str, QuestionResult, float, str]] = []
    for line, row in enumerate(rows, start=2):
        key, qid = (row.get("key") or "").strip(), (row.get("question") or "").strip()
        if key not in merged:
            raise SheetError(line, "key", f"unknown student {key!r}")
        question = next((q for q in merged[key].questions if q.id == qid), None)
        if question is None:
            raise SheetError(line, "question", f"{key} has no question {qid!r}")
        if not awaits_ta(question):
            raise SheetError(line, "question", f"{qid} is scored by the grader, not by hand")
        raw = (row.get("points") or "").strip()
        if not raw:
            continue
        try:
            points = float(raw)
        except ValueError:
            raise SheetError(line, "points", f"{raw!r} is not a number") from None
        if not 0 <= points <= question.max:
            raise SheetError(line, "points", f"{points:g} is outside 0..{question.max:g}")
        pending.append((key, question, points, (row.get("comment") or "").strip()))
    when = (now or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="seconds")
    for key, question, points, comment in pending:
        _apply(question, points, comment)
        merged[key].graded_at = when
    for record in merged.values():
        _rescore(record)
    return merged


def _apply(question: QuestionResult, points: float, comment: str) -> None:
    top = question.max
    question.score = points
    question.status = ("passed" if points >= top else "failed" if points == 0 else "partial")
    question.message = comment or f"Graded by a TA: {points:g} of {top:g}."
    fraction = points / top if top else 1.0
    for check in question.checks:
        ev = check.evidence
        if by_ta(check.kind):
            evidence: Any = {"comment": comment, "grader": "TA"}
        elif check.status == "manual" or (isinstance(ev, dict) and ev.get("grader") == "TA"):
            # what the check found stays beside the TA's points
            kept = dict(ev) if isinstance(ev, dict) else {"found": ev}
            evidence = {**kept, "comment": comment, "grader": "TA"}
        else:
            continue
        check.status, check.fraction = question.status, fraction
        check.message, check.evidence = question.message, evidence


def _rescore(record: GradeRecord) -> None:
    """Total and status: `graded` only when every question has a score."""
    record.score = sum(q.score or 0.0 for q in record.questions)
    record.status = ("graded" if all(q.score is not None for q in record.questions)
                     else "incomplete")
