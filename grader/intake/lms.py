"""Submissions in, whatever the LMS: a plain folder, Moodle's or Canvas's download zip.

Every layout ends the same way: `dest/<key>.ipynb` per student (so `grader grade
dest/*.ipynb --out RESULTS` names each record `<key>.json`), the student's other
files (a PDF or Markdown report) under `dest/files/<key>/`, the student's upload with
its folders intact under `dest/trees/<key>/` (where a pack's `[assignment] files` are
taken from: `pkg/a/x.py` stays there, and two `__init__.py` do not collide), and
`dest/roster.json` mapping each key to the student's name and LMS identifiers, which
reports and gradebooks read back. Zips are unpacked with `safezip` (they are student
data); a member it refuses (a link, `..`, a bomb) is that student's problem, named in
their record, and the rest of the class is taken in. Files no student can be found for
are listed in `dest/not-taken.json`, never dropped in silence. A zip a student made of
their own work is unpacked into their tree where it sat (`_unpack_own_zips`).

Layouts recognised (docs/reports.md has the details):
- Moodle "Download all submissions": `Full Name_12345_assignsubmission_file_/file`
  (folders) or `Full Name_12345_assignsubmission_file_file` (flat); 12345 is the
  participant id the grading worksheet calls `Participant 12345`.
- Canvas "Download submissions": `name_userid_submissionid_file` (with `_LATE_`
  after the name for late work; Canvas may append `-1` to a resubmitted file's name).
- A plain folder: top-level `<stem>.ipynb` files (reports `<stem>*.pdf|md` beside
  them), or one subfolder per student.

The intake is split by what each part holds: `layouts` (which LMS laid the download
out, and whose each file is), `pick` (which notebook is graded), `uploads` (one
student's upload laid out), `roster` (roster.json) and `errors`; this module runs them
over a download (`intake`) and re-exports the names the rest of the grader imports.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from grader.intake.errors import IntakeError
from grader.intake.layouts import (
    CANVAS,
    LOG_NAMES,
    MOODLE,
    REPORT_SUFFIXES,
    _group,
    _stand_in,
    _unwrap,
    slug,
)
from grader.intake.pick import PICK_RULE, Pick
from grader.intake.roster import (
    ROSTER,
    _relative_rows,
    batch_rosters,
    load_roster,
    load_rosters,
    roster_files,
    roster_intake,
    roster_reports,
)
from grader.intake.safezip import UnsafeZip, ZipLimits, safe_extract
from grader.intake.uploads import (
    NOTHING_HANDED_IN,
    TREES,
    Submission,
    _inside,
    _lay_out,
    _under,
    _unpack_own_zips,
)

__all__ = [
    "CANVAS", "LOG_NAMES", "MOODLE", "NOTHING_HANDED_IN", "NOT_TAKEN", "PICK_RULE",
    "REPORT_SUFFIXES", "ROSTER", "TREES", "IntakeError", "Pick", "Submission",
    "batch_rosters", "intake", "load_roster", "load_rosters", "roster_files",
    "roster_intake", "roster_reports", "slug",
]

NOT_TAKEN = "not-taken.json"


def intake(source: Path, dest: Path, *, notebook_name: str | None = None,
           limits: ZipLimits | None = None, exclude: tuple[Path, ...] = ()) -> list[Submission]:
    """Take in `source` (folder or zip) and lay it out under `dest`; see the module doc.

    `exclude`: folders inside a source folder that are not submissions (the batch's own
    `--out` when a TA writes it into the class folder, `class/grades`): without it the
    grader's records and intake were taken in as a student's upload."""
    source = Path(source)
    if not source.exists():
        raise IntakeError("source", f"{source} does not exist")
    dest.mkdir(parents=True, exist_ok=True)
    if any(dest.glob("*.ipynb")):
        raise IntakeError("dest", f"{dest} already holds notebooks; use an empty folder")
    refused: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory(prefix="grader-intake-") as tmp:
        if source.is_dir():
            root = source
        elif source.suffix.lower() == ".zip":
            root = Path(tmp) / "unzipped"
            try:
                safe_extract(source, root, limits, refused=refused)
            except UnsafeZip as exc:  # the whole zip (not a zip, too large, too many)
                raise IntakeError("source", f"{source.name}: {exc}") from None
        else:
            raise IntakeError("source", f"{source} is neither a folder nor a .zip")
        # only a folder inside the source is left out (a source inside --out is whole)
        skipped = [e.resolve() for e in exclude if _inside(e.resolve(), root.resolve())]
        files = sorted(f for f in root.rglob("*") if f.is_file() and not f.is_symlink()
                       and not any(p.startswith(".") or p == "__MACOSX"
                                   for p in f.relative_to(root).parts)
                       and not _under(f, skipped))
        # a refused member still tells whose it was: it joins its student's files as a
        # path that does not exist, and `_lay_out` names it in their record
        bad = {root / _stand_in(name): why for name, why in refused}
        root = _unwrap(root, [*files, *bad])
        holding = {f.relative_to(root).parts[0] for f in [*files, *bad]
                   if len(f.relative_to(root).parts) > 1}
        empty = tuple(sorted(d for d in root.iterdir() if d.is_dir() and not d.is_symlink()
                             and d.name not in holding and not d.name.startswith(".")
                             and d.name not in ("__MACOSX", "__pycache__")
                             and not _under(d, skipped)))
        lms, groups = _group(sorted([*files, *bad]), root, empty)
        if not groups:
            raise IntakeError("source", f"no submissions found in {source}")
        owned_all = {f for owned in groups.values() for f in owned}
        strays = [{"path": str(f.relative_to(root)), "why": bad.get(f, "no student's upload")}
                  for f in sorted({*files, *bad} - owned_all)]
        inside: dict[Path, str] = {}
        unpacked: dict[tuple[str, str], list[str]] = {}
        for n, (who, owned) in enumerate(sorted(groups.items())):
            groups[who], unpacked[who] = _unpack_own_zips(
                lms, owned, root, Path(tmp) / "own-zips" / str(n), limits, bad, inside)
        subs = [_lay_out(lms, name, lms_id, owned, dest, notebook_name, root, bad, inside,
                         unpacked[(name, lms_id)])
                for (name, lms_id), owned in sorted(groups.items())]
    (dest / ROSTER).write_text(json.dumps([_relative_rows(s.to_dict(), dest) for s in subs],
                                          indent=2, ensure_ascii=False), encoding="utf-8")
    if strays:
        (dest / NOT_TAKEN).write_text(json.dumps(strays, indent=2, ensure_ascii=False),
                                      encoding="utf-8")
    return subs
