"""One student's upload laid out under the intake folder: their notebook, files and tree.

`_lay_out` copies the picked notebook to `dest/<key>.ipynb`, reports and other files to
`dest/files/<key>/` and the upload with its folders to `dest/trees/<key>/`, and says in
the `Submission` what was refused, ignored or unpacked; `_unpack_own_zips` opens the zips
a student made of their own work first.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from grader.intake.layouts import (
    CANVAS,
    LOG_NAMES,
    REPORT_SUFFIXES,
    _plain_name,
    _stand_in,
    slug,
    upload_path,
)
from grader.intake.pick import _pick_notebook
from grader.intake.safezip import UnsafeZip, ZipLimits, safe_extract
from grader.intake.student import Student

TREES = "trees"

@dataclass
class Submission:
    student: Student
    notebook: Path | None
    reports: list[Path] = field(default_factory=list)
    other: list[Path] = field(default_factory=list)
    """Files handed in that are neither the notebook nor a report."""
    handed_in: str = ""
    """The graded notebook's name as the student gave it (`final.ipynb`)."""
    picked: str = ""
    """Why that notebook, when the student handed in more than one (`PICK_RULE`)."""
    ignored: list[str] = field(default_factory=list)
    """Other notebooks handed in and not graded (names as the student gave them)."""
    problem: str = ""
    """Why no notebook was graded although notebooks were handed in (a tie)."""
    folder: str = ""
    """The graded notebook's folder in the student's tree, relative to the intake folder
    (`trees/<key>/hw3`): where the pack's `[assignment] files` are taken from."""
    refused: list[str] = field(default_factory=list)
    """Members of the zip refused for this student ("name: why")."""
    unpacked: list[str] = field(default_factory=list)
    """The student's own zips that were unpacked ("A3.zip: 5 files")."""

    def to_dict(self) -> dict[str, object]:
        return {**self.student.to_dict(),
                "notebook": str(self.notebook) if self.notebook else None,
                "handed_in": self.handed_in, "picked": self.picked, "ignored": self.ignored,
                "problem": self.problem, "folder": self.folder, "refused": self.refused,
                "unpacked": self.unpacked,
                "reports": [str(p) for p in self.reports], "other": [str(p) for p in self.other]}

NOTHING_HANDED_IN = "nothing was handed in (the student's upload is empty)"
"""The problem of a roster entry with no file at all: its record says it."""

OWN_ZIP = ZipLimits(max_files=2000, max_total_bytes=1 << 30, max_member_bytes=512 << 20)
"""Limits for a zip a student made of their own work (each one; the class zip's limits
bound them further)."""


def _unpack_own_zips(lms: str, owned: list[Path], root: Path, where: Path,
                     limits: ZipLimits | None, bad: dict[Path, str],
                     inside: dict[Path, str]) -> tuple[list[Path], list[str]]:
    """A student's files with the zips they made of their own work unpacked beside them.

    Students zip their folder (notebook, module, report) and upload the zip: without
    this, the notebook inside was never found and the student got "nothing to grade".
    Members go where the zip sat in the upload (`A3.zip` holding `A3/hw.ipynb` gives
    `A3/hw.ipynb`; under the zip's name when that would overwrite a file handed in
    beside it), unpacked with the same `safezip` rules; a refused member is the
    student's problem, named in their record, and a zip that cannot be unpacked is kept
    as handed in with the reason. One level only: a zip inside is a file. `inside`
    receives each member's path in the upload; `bad`, the refusals."""
    zips = [f for f in owned if f.suffix.lower() == ".zip" and f.is_file()]
    if not zips:
        return owned, []
    base = limits or ZipLimits()
    own = ZipLimits(max_files=min(base.max_files, OWN_ZIP.max_files),
                    max_total_bytes=min(base.max_total_bytes, OWN_ZIP.max_total_bytes),
                    max_member_bytes=min(base.max_member_bytes, OWN_ZIP.max_member_bytes),
                    max_ratio=base.max_ratio)
    taken = {inside.get(f) or upload_path(lms, f, root) for f in owned}
    out, notes = list(owned), []
    for n, z in enumerate(zips):
        at = inside.get(z) or upload_path(lms, z, root)
        folder, display = where / str(n), PurePosixPath(at).name
        refused: list[tuple[str, str]] = []
        try:
            written = safe_extract(z, folder, own, refused=refused)
        except UnsafeZip as exc:
            stand = z.with_name(z.name + " (not unpacked)")
            bad[stand], inside[stand] = str(exc), at
            out.append(stand)
            continue
        members = [f for f in written if not any(
            p.startswith(".") or p == "__MACOSX" for p in f.relative_to(folder).parts)]
        paths = {f: f.relative_to(folder).as_posix() for f in members}
        parent = PurePosixPath(at).parent
        if any(str(parent / p) in taken for p in paths.values()):
            parent = parent / PurePosixPath(at).stem
        for f, p in paths.items():
            inside[f] = str(parent / p).removeprefix("./")
            taken.add(inside[f])
        for name, why in refused:
            stand = folder / "(refused)" / _stand_in(name)
            bad[stand], inside[stand] = why, f"{display}/{name}"
            out.append(stand)
        out.extend(members)
        notes.append(f"{display}: {len(members)} file{'s' * (len(members) != 1)} taken in")
    return out, notes

def _lay_out(lms: str, name: str, lms_id: str, owned: list[Path], dest: Path,
             notebook_name: str | None, root: Path | None = None,
             bad: dict[Path, str] | None = None, inside: dict[Path, str] | None = None,
             unpacked: list[str] | None = None) -> Submission:
    key = f"{slug(name)}-{lms_id}" if lms_id else slug(name)
    bad, inside = bad or {}, inside or {}

    def plain(f: Path) -> str:  # the name as the student gave it
        return PurePosixPath(inside[f]).name if f in inside else _plain_name(lms, f)

    def uploaded(f: Path) -> str:  # where it sat in the student's upload
        return inside[f] if f in inside else upload_path(lms, f, root or f.parent)

    refused = [f"{inside.get(f) or _plain_name(lms, f)}: {bad[f]}" for f in owned if f in bad]
    owned = [f for f in owned if f not in bad]
    late = lms == "canvas" and any((m := CANVAS.match(f.name)) and m["late"] for f in owned)
    student = Student(key=key, name=name, id=lms_id, lms=lms, lms_id=lms_id, late=bool(late))
    pick = _pick_notebook(lms, owned, notebook_name, plain)
    nb = pick.notebook
    copied_nb = None
    if nb is not None:
        copied_nb = dest / f"{key}.ipynb"
        shutil.copyfile(nb, copied_nb)
    folder = ""
    if root is not None:  # the upload with its folders, for the pack's `files`
        tree = dest / TREES / key
        for f in owned:
            target = tree / uploaded(f)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, target)
        if nb is not None:
            folder = (Path(TREES) / key / uploaded(nb)).parent.as_posix()
    problem = pick.problem
    if nb is None and refused and not problem:
        problem = ("nothing could be graded: the upload's files were refused (" +
                   "; ".join(refused) + ")")
    if not owned and not refused:
        problem = NOTHING_HANDED_IN
    reports, other = [], []
    for f in owned:
        if f == nb:
            continue
        if f in pick.ignored:  # kept for the TA to open, but neither graded nor a report
            target = dest / "files" / key / "not-graded" / plain(f)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, target)
            continue
        log = bool(LOG_NAMES.search(f.name))
        # a log's folders name its run (runs/pretrained/seed-1/events...): keep them
        flat = "__".join([f.parent.parent.name, f.parent.name, f.name]) if log else ""
        target = dest / "files" / key / (flat or plain(f))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, target)
        (reports if f.suffix.lower() in REPORT_SUFFIXES or log else other).append(target)
    return Submission(student, copied_nb, reports, other,
                      handed_in=plain(nb) if nb is not None else "",
                      picked=pick.why, ignored=[plain(f) for f in pick.ignored],
                      problem=problem, folder=folder, refused=refused,
                      unpacked=list(unpacked or []))

def _inside(path: Path, folder: Path) -> bool:
    """Whether `path` lies strictly inside `folder` (both resolved)."""
    return folder in path.parents


def _under(path: Path, folders: list[Path]) -> bool:
    """Whether `path` lies in one of `folders` (resolved)."""
    if not folders:
        return False
    resolved = path.resolve()
    return any(resolved == f or f in resolved.parents for f in folders)
