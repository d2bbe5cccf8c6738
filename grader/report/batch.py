"""Everything for one batch in one call: per-student reports, class summary, gradebooks.

`render_batch` is what `grader report` and the end of `grader grade` call. Output
layout under `out_dir` (docs/reports.md):

    students/<key>.html|.md|.json|.results.json   one per student and format
    summary.html                                  class summary (TAs), links to students/
    gradebook.csv                                 plain CSV with a Points Possible row
    manual-sheet.csv                              when a question awaits a TA
    moodle-worksheet.csv, moodle-feedback.zip     for students taken in from Moodle
    canvas-gradebook.csv                          with canvas=True
    records/<key>.json                            records with a TA sheet merged in

Records are read once, here (`load_records`: a folder's files through
`grader.record.read_record`, records in memory validated), and every part below takes
`GradeRecord`s. A record file with a field the model does not know is refused with the
file and the field named (`BatchError`), rather than rendered without it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from grader.intake.roster import ROSTER, batch_rosters, load_rosters
from grader.intake.student import Student
from grader.pack.expected import mark_expected
from grader.record import GradeRecord, read_record, write_atomic
from grader.report.lms import canvas_csv, moodle_feedback_zip, moodle_worksheet, plain_csv
from grader.report.manual import awaits_ta, manual_sheet, merge_sheet
from grader.report.names import displayable, displayable_data, displayable_student, json_text
from grader.report.render import FORMATS, SUFFIX, record_key, render_student, student_for
from grader.report.summary import render_summary

DEFAULT_FORMATS = ("html", "md", "json")


class BatchError(ValueError):
    """Input that stops a batch render; `field` names the option or file at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


@dataclass
class BatchResult:
    written: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    students: list[Student] = field(default_factory=list)


BATCH_MANIFEST = "manifest.json"


Records = Path | Iterable[dict[str, Any] | GradeRecord] | dict[str, dict[str, Any] | GradeRecord]
"""A results folder, records in memory, or records in memory by key."""


def load_records(source: Records) -> dict[str, GradeRecord]:
    """Records by key: `<key>.json` files of a folder, or records given in memory (a
    record's JSON is validated: a misspelled field is a `BatchError`)."""
    out: dict[str, GradeRecord] = {}
    if isinstance(source, str | Path):
        folder = Path(source)
        if not folder.is_dir():
            raise BatchError("results", f"{folder} is not a folder of records")
        for path in sorted(folder.glob("*.json")):
            if path.name in (ROSTER, BATCH_MANIFEST) or path.name.startswith("."):
                continue  # a batch folder also holds its manifest (docs/batch.md)
            try:
                out[path.stem] = read_record(path)
            except ValueError as exc:
                raise BatchError(path.name, str(exc).split(": ", 1)[-1]) from None
        if not out:
            raise BatchError("results", f"{folder} holds no records (*.json)")
        return out
    keyed = source.items() if isinstance(source, dict) else ((None, r) for r in source)
    for key, item in keyed:
        try:
            record = GradeRecord.of(item)
        except ValueError as exc:  # pydantic's ValidationError is one
            raise BatchError(str(key or "records"), f"not a valid record: {exc}") from None
        out[str(key) if key is not None else record_key(record)] = record
    return out


def _pack_raw(pack: Any) -> dict[str, Any]:
    if pack is None:
        return {}
    if isinstance(pack, dict):
        return pack
    return dict(getattr(pack, "raw", {}) or {})


def render_batch(records: Records, out_dir: Path, *,
                 pack: Any = None, formats: Sequence[str] = DEFAULT_FORMATS,
                 roster: Path | dict[str, Student] | None = None, summary: bool = True,
                 moodle_worksheet_csv: Path | None = None, canvas: bool = False,
                 manual: Path | None = None, now: datetime | None = None) -> BatchResult:
    """Render a batch's records into `out_dir`; see the module doc for what lands where.

    `records` is a results folder (`<key>.json` records, maybe a `roster.json`) or
    records in memory; `pack` (a `Pack` or its raw rubric dict) supplies visibility
    rules; `roster` maps keys to students: a dict, a roster.json, or a batch's --out
    folder (its roster.json and every OUT/intake/*/roster.json; the default when
    `records` is a folder);
    `manual` is a filled TA sheet to merge first.
    """
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise BatchError("format", f"unknown {', '.join(bad)}; choose from {', '.join(FORMATS)}")
    # keys (file names) shown to people and used for the files written here; a key
    # that was not valid UTF-8 would stop every report of the class (names.py)
    by_key = {displayable(k): r for k, r in load_records(records).items()}
    raw = _pack_raw(pack)
    folder = Path(records) if isinstance(records, str | Path) else None
    if isinstance(roster, dict):
        students = roster
        reports: dict[str, list[Path]] = {}
    else:
        if roster is not None and not Path(roster).exists():
            raise BatchError("roster", f"{roster} does not exist")
        # a folder (the batch's --out) holds its rosters under intake/<zip stem>/
        base = Path(roster) if roster is not None else folder
        paths = (batch_rosters(base) if base is not None and base.is_dir()
                 else [base] if base is not None else [])
        students, reports = load_rosters(paths)
    students = {displayable(k): v for k, v in students.items()}
    reports = {displayable(k): v for k, v in reports.items()}
    out_dir.mkdir(parents=True, exist_ok=True)
    result = BatchResult()
    if manual is not None:
        if not manual.is_file():
            raise BatchError("manual", f"{manual} does not exist")
        by_key = merge_sheet(by_key, manual.read_text(encoding="utf-8-sig"), now=now)
        for key, record in by_key.items():
            path = out_dir / "records" / f"{key}.json"
            write_atomic(path, _record_json(record))
            result.written.append(path)
    graded: list[tuple[Student, GradeRecord]] = []
    for key, record in by_key.items():
        shown = _as_shown(record, raw)
        student = displayable_student(students.get(key) or student_for(shown, key=key))
        graded.append((student, shown))
        result.students.append(student)
    links: dict[str, str] = {}
    feedback_files = []
    for student, record in graded:
        for fmt in formats:
            text = render_student(record, fmt, student=student, pack_raw=raw, now=now)
            path = out_dir / "students" / f"{student.key}{SUFFIX[fmt]}"
            write_atomic(path, text)
            result.written.append(path)
            if fmt == "html":
                links[student.key] = f"students/{student.key}.html"
                feedback_files.append((student, "feedback.html", text.encode("utf-8")))
    _write(out_dir / "gradebook.csv", plain_csv(graded), result)
    if summary:
        _write(out_dir / "summary.html", render_summary(graded, links), result)
    if any(awaits_ta(q) for _, r in graded for q in r.questions):
        _write(out_dir / "manual-sheet.csv", manual_sheet(graded, reports, raw), result)
    if moodle_worksheet_csv is not None or any(s.lms == "moodle" for s, _ in graded):
        downloaded = None
        if moodle_worksheet_csv is not None:
            if not moodle_worksheet_csv.is_file():
                raise BatchError("moodle-worksheet", f"{moodle_worksheet_csv} does not exist")
            downloaded = moodle_worksheet_csv.read_text(encoding="utf-8-sig")
        if downloaded is not None and not any(s.lms == "moodle" and s.lms_id
                                              for s, _ in graded):
            raise BatchError("roster", "no graded student has a Moodle participant id, so "
                             "no Grade could be filled in: pass --roster "
                             "OUT/intake/<zip stem>/roster.json (written when `grader grade` "
                             "took in the Moodle zip), or render the batch's --out folder")
        text, warnings = moodle_worksheet(graded, downloaded, pack_raw=raw, now=now)
        result.warnings += warnings
        _write(out_dir / "moodle-worksheet.csv", text, result)
        if feedback_files:
            path = out_dir / "moodle-feedback.zip"
            path.write_bytes(moodle_feedback_zip(feedback_files))
            result.written.append(path)
    if canvas:
        assignment = (raw.get("assignment") or {})
        lms = raw.get("lms") or {}
        _write(out_dir / "canvas-gradebook.csv",
               canvas_csv(graded, str(assignment.get("title") or assignment.get("id", "")),
                          str(lms.get("canvas_assignment_id", "")) if isinstance(lms, dict)
                          else ""), result)
    return result


def _as_shown(record: GradeRecord, raw: dict[str, Any]) -> GradeRecord:
    """The record as people are shown it: every name displayable (names.py) and the cell
    errors the pack expects marked as such (`grader.pack.expected`). Both rewrite the
    record's JSON (names at any depth, a key `expected` on cell errors), so this goes
    through the JSON once and validates the result back: the copy is a record still."""
    return GradeRecord.from_dict(mark_expected(displayable_data(record.to_dict()), raw))


def _record_json(record: GradeRecord) -> str:
    return json_text(record.to_dict())


def _write(path: Path, text: str, result: BatchResult) -> None:
    write_atomic(path, text)
    result.written.append(path)
