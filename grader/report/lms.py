"""Gradebooks the LMS imports: Moodle grading worksheet and feedback zip, Canvas CSV, plain CSV.

Column names are the LMS's own (docs/reports.md says where they come from). Moodle's
importer finds its columns by header text (`Identifier`, `Grade`, `Last modified
(grade)`, and the feedback plugin's `Feedback comments`) and the student by the number
after `Participant `; its feedback-zip importer finds the student by the number after
the first `_` of a folder named `Full Name_12345_plugintype_pluginname_`.

Gradebooks read typed records (`GradeRecord`); the feedback comment is rendered from the
student's view (`visibility.student_view`), since it reaches the student.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from grader.intake.student import Student
from grader.record import GradeRecord
from grader.record import needs_a_ta as needs_human
from grader.report.templates import render
from grader.report.visibility import student_view

MOODLE_COLUMNS = ("Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
                  "Grade can be changed", "Last modified (submission)", "Last modified (grade)",
                  "Feedback comments")
MOODLE_ID_PREFIX = "Participant "
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
POINTS_POSSIBLE = "Points Possible"

Graded = tuple[Student, GradeRecord]
"""A student with their record."""


class WorksheetError(ValueError):
    """A Moodle worksheet that cannot be filled; `row` is its 1-based line (0: the header)."""

    def __init__(self, row: int, message: str) -> None:
        super().__init__(f"worksheet line {row}: {message}" if row else f"worksheet: {message}")
        self.row = row


def _grade(value: Any) -> str:
    return "" if value is None else f"{float(value):.2f}".rstrip("0").rstrip(".")


def comment_html(shown: dict[str, Any]) -> str:
    """The short feedback comment an LMS shows beside the grade (HTML, escaped), from the
    student's view of a record (`visibility.student_view`): it reaches the student."""
    return " ".join(render("comment.html.j2", r=shown).split())


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: student text beginning like a formula
    (`=HYPERLINK(...)`, `+1`, `@SUM`) gets a leading apostrophe, as OWASP advises; numbers
    ("-1.5") stay numbers."""
    if not isinstance(value, str) or not value.startswith(FORMULA_START):
        return value
    try:
        float(value)
        return value
    except ValueError:
        return "'" + value


def unsafe_cell(value: str) -> str:
    """`safe_cell` undone, for a cell read back (a TA sheet's key)."""
    return value[1:] if value.startswith("'") and value[1:].startswith(FORMULA_START) else value


def _csv(rows: Iterable[Iterable[Any]], *, guard: bool = True) -> str:
    """CSV text; `guard`: every cell through `safe_cell`. A worksheet Moodle gave is
    written back with its own cells as they were (Moodle's `-` for "no grade" must stay
    `-`, not become `'-`: issue 27 item 7); only the cells the grader fills are guarded."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row] if guard else list(row))
    return buf.getvalue()


def moodle_worksheet(graded: list[Graded], downloaded: str | None = None, *,
                     pack_raw: dict[str, Any] | None = None, now: datetime | None = None
                     ) -> tuple[str, list[str]]:
    """Moodle's grading worksheet with Grade and Feedback comments filled; (csv, warnings).

    With `downloaded` (the worksheet Moodle gave, as text) every row and column is
    kept and only rows of graded students change; a student without a row is a
    warning. Without it a fresh worksheet lists the graded students who have a
    Moodle participant id. The comment is made from each student's view under the
    rubric's visibility (`pack_raw`, at `now`).
    """

    def comment(record: GradeRecord) -> str:
        return comment_html(student_view(record, pack_raw, now))

    by_id = {s.lms_id: (s, r) for s, r in graded if s.lms == "moodle" and s.lms_id}
    warnings = [f"{s.key}: no Moodle participant id (not taken in from a Moodle zip)"
                for s, _ in graded if not (s.lms == "moodle" and s.lms_id)]
    if downloaded is None:
        rows: list[list[str]] = [list(MOODLE_COLUMNS)]
        for pid, (s, r) in sorted(by_id.items(), key=lambda kv: int(kv[0])):
            rows.append([f"{MOODLE_ID_PREFIX}{pid}", s.name, s.email, "Submitted for grading",
                         _grade(r.score), _grade(r.max_score), "Yes", "", r.graded_at,
                         comment(r)])
        return _csv(rows), warnings
    reader = list(csv.reader(io.StringIO(downloaded.lstrip("\ufeff"))))
    if not reader:
        raise WorksheetError(0, "empty file")
    header = reader[0]
    for needed in ("Identifier", "Grade", "Last modified (grade)"):
        if needed not in header:
            raise WorksheetError(0, f"no {needed!r} column; download the worksheet with "
                                 "'Offline grading worksheet' enabled in the assignment")
    if "Feedback comments" not in header:
        header.append("Feedback comments")
        warnings.append("the worksheet had no 'Feedback comments' column: added; enable "
                        "feedback comments in the assignment or Moodle ignores it")
    col = {name: header.index(name) for name in header}
    seen = set()
    for line, row in enumerate(reader[1:], start=2):
        row.extend([""] * (len(header) - len(row)))
        ident = row[col["Identifier"]]
        if not ident.startswith(MOODLE_ID_PREFIX):
            raise WorksheetError(line, f"Identifier {ident!r} is not 'Participant <number>'")
        pid = ident[len(MOODLE_ID_PREFIX):].strip()
        if pid not in by_id:
            continue
        s, r = by_id[pid]
        seen.add(pid)
        row[col["Grade"]] = safe_cell(_grade(r.score))
        row[col["Last modified (grade)"]] = safe_cell(r.graded_at)
        row[col["Feedback comments"]] = safe_cell(comment(r))
        if "Maximum Grade" in col and row[col["Maximum Grade"]]:
            try:
                if abs(float(row[col["Maximum Grade"]]) - r.max_score) > 1e-9:
                    warnings.append(f"{s.key}: Moodle's maximum grade is "
                                    f"{row[col['Maximum Grade']]}, the rubric's {r.max_score:g}")
            except ValueError:
                pass
    if by_id and not seen:
        raise WorksheetError(0, f"none of the {len(by_id)} graded Moodle students has a row "
                             "(Participant <id>): is it this assignment's worksheet?")
    warnings += [f"{s.key}: participant {pid} has no row in the worksheet"
                 for pid, (s, _) in by_id.items() if pid not in seen]
    return _csv(reader, guard=False), warnings


def moodle_feedback_zip(files: list[tuple[Student, str, bytes]]) -> bytes:
    """A zip for Moodle's "Upload multiple feedback files in a zip".

    `files` holds (student, file name, content); each lands in the student's folder
    `Full Name_<participant>_assignfeedback_file_/`. Underscores in names become spaces,
    since Moodle splits the folder name on them.
    """
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for s, name, content in files:
            if not (s.lms == "moodle" and s.lms_id):
                continue
            folder = f"{s.name.replace('_', ' ').replace('/', ' ')}_{s.lms_id}_assignfeedback_file_"
            zf.writestr(f"{folder}/{name}", content)
    return buf.getvalue()


def canvas_csv(graded: list[Graded], assignment: str, assignment_id: str = "") -> str:
    """A Canvas gradebook import: student columns, one assignment column, Points Possible row.

    Canvas matches students by `ID` (its user id, from the submissions zip) or the SIS
    columns, and the assignment by the header `Name (id)`; a header without an id that
    matches no assignment makes Canvas create one.
    """
    head = f"{assignment} ({assignment_id})" if assignment_id else assignment
    max_score = next((r.max_score for _, r in graded), None)
    rows: list[list[str]] = [[*CANVAS_COLUMNS, head],
                             [POINTS_POSSIBLE, "", "", "", "", _grade(max_score)]]
    for s, r in graded:
        rows.append([s.name, s.lms_id if s.lms == "canvas" else s.id, "", "", "",
                     _grade(r.score)])
    return _csv(rows)


def plain_csv(graded: list[Graded]) -> str:
    """One row per student, one column per question, then the total; row 2 holds the maxima.

    `awaiting_ta` lists the manual questions still to grade (the TA sheet's rows);
    `needs_human` the other reasons to open the record (`grader.record.needs_a_ta`).

    A blank question cell means one thing: a TA has yet to score it. A question the
    grader did not grade (no notebook handed in, nothing run) earns nothing and counts 0
    in the total, so its cell is 0: a report-only student's row once mixed blanks and
    0s for the same kind of loss (issue 27 item 8)."""
    maxima: dict[str, float] = {}
    for _, r in graded:
        for q in r.questions:
            maxima.setdefault(q.id, q.max)
    qids = list(maxima)
    max_score = next((r.max_score for _, r in graded), None)
    rows: list[list[str]] = [["student", "id", "key", *qids, "total", "status", "awaiting_ta",
                              "needs_human", "late"],
                             [POINTS_POSSIBLE, "", "", *(_grade(maxima[q]) for q in qids),
                              _grade(max_score), "", "", "", ""]]
    for s, r in graded:
        scores = {q.id: (0 if q.score is None and q.status != "manual" else q.score)
                  for q in r.questions}
        waiting = " ".join(q.id for q in r.questions if q.status == "manual")
        rows.append([s.name, s.id, s.key, *(_grade(scores.get(q)) for q in qids),
                     _grade(r.score), r.status, waiting,
                     "; ".join(needs_human(r, manual=False)),
                     "yes" if getattr(s, "late", False) else ""])
    return _csv(rows)
