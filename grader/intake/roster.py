"""`roster.json`: who each key is and which files are theirs, written by the intake.

Reports and gradebooks read a batch's students back from its rosters (`load_rosters`,
`batch_rosters`); file paths in a roster are relative to the roster's own folder
(`_relative_rows` writes them so, `_located` reads older ones).
"""

from __future__ import annotations

import json
from pathlib import Path

from grader.intake.errors import IntakeError
from grader.intake.student import Student

ROSTER = "roster.json"

def load_roster(path: Path) -> dict[str, Student]:
    """`roster.json` (as `intake` writes it) by key; a missing file is an empty roster."""
    if path.is_dir():
        path = path / ROSTER
    if not path.is_file():
        return {}
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
        fields = Student.__dataclass_fields__
        return {r["key"]: Student(**{k: (v is True if k == "late" else str(v))
                                     for k, v in r.items() if k in fields})
                for r in rows}
    except (ValueError, KeyError, TypeError) as exc:
        raise IntakeError("roster", f"{path} is not a roster ({exc})") from None


def roster_reports(path: Path) -> dict[str, list[Path]]:
    """Report files per student key, from `roster.json`."""
    return roster_files(path, "reports")


def roster_intake(path: Path) -> dict[str, dict[str, object]]:
    """What the intake decided per student key: `handed_in`, `picked`, `ignored`,
    `problem`, `late` (rosters written before these existed give empty values)."""
    if path.is_dir():
        path = path / ROSTER
    if not path.is_file():
        return {}
    return {r["key"]: {k: r.get(k) for k in ("handed_in", "picked", "ignored", "problem",
                                             "late", "folder", "refused", "unpacked")}
            for r in json.loads(path.read_text(encoding="utf-8"))}


def roster_files(path: Path, kind: str) -> dict[str, list[Path]]:
    """Files of one kind ("reports" or "other") per student key, from `roster.json`."""
    if path.is_dir():
        path = path / ROSTER
    if not path.is_file():
        return {}
    folder = path.parent
    return {r["key"]: [_located(Path(p), folder) for p in r.get(kind, [])]
            for r in json.loads(path.read_text(encoding="utf-8"))}


def _relative_rows(row: dict[str, object], dest: Path) -> dict[str, object]:
    """A roster row whose file paths are relative to the roster's own folder.

    The one rule for where a roster's files are: relative to `roster.json`, whatever
    `--out` was (relative, absolute, named like the submissions folder) and wherever the
    intake was built (`grader grade` builds it in `.<stem>.new/` and renames it). Paths
    written as the intake saw them (`grades/intake/.with-md.new/files/...`) pointed into
    the staging folder, gone after the rename, or, read relative to the roster, nowhere
    (issue 27: a whole class with reports failed on a relative `--out`)."""
    def rel(value: object) -> object:
        if not isinstance(value, str) or not value:
            return value
        path = Path(value)
        try:
            return path.resolve().relative_to(dest.resolve()).as_posix()
        except ValueError:  # not under dest: kept as given (nothing intake writes)
            return value
    out = dict(row)
    out["notebook"] = rel(row.get("notebook"))
    for kind in ("reports", "other"):
        out[kind] = [rel(v) for v in row.get(kind) or []]  # type: ignore[union-attr]
    return out


def _located(path: Path, folder: Path) -> Path:
    """A roster's file path where it is now: a relative one under the roster's folder.

    Rosters written before the rule of `_relative_rows` hold paths as the intake saw them
    (relative to the working folder, or absolute), often inside the staging folder
    `.<stem>.new/`: those are rebased onto the roster's folder from the last part that
    names it (the staging name first: `out/labA/intake/.labA.new/files/x` has `labA`
    twice, and only the staging folder is the intake)."""
    candidate = path if path.is_absolute() else folder / path
    if candidate.exists() or not path.parts:
        return candidate
    parts = path.parts
    for names in ((f".{folder.name}.new",), (folder.name,)):
        hits = [i for i, part in enumerate(parts) if part in names]
        if hits:
            return folder.joinpath(*parts[hits[-1] + 1:])
    return candidate


def batch_rosters(folder: Path) -> list[Path]:
    """The rosters of a results folder: its own `roster.json`, then each intake's
    (`OUT/intake/<zip stem>/roster.json`, as `grader grade` leaves them)."""
    own = folder / ROSTER
    return ([own] if own.is_file() else []) + sorted(
        p for p in (folder / "intake").glob(f"*/{ROSTER}") if p.is_file())


def load_rosters(paths: list[Path]) -> tuple[dict[str, Student], dict[str, list[Path]]]:
    """Students and report files by key from several rosters (a key's first entry wins)."""
    students: dict[str, Student] = {}
    reports: dict[str, list[Path]] = {}
    for path in paths:
        for key, student in load_roster(path).items():
            students.setdefault(key, student)
        for key, files in roster_reports(path).items():
            reports.setdefault(key, files)
    return students, reports
