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
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from grader.intake.safezip import UnsafeZip, ZipLimits, safe_extract
from grader.intake.student import Student

ROSTER = "roster.json"
REPORT_SUFFIXES = (".pdf", ".docx", ".md", ".markdown", ".txt")
LOG_NAMES = re.compile(r"(\.csv$|tfevents)", re.IGNORECASE)
"""Training logs (CSV, TensorBoard event files) travel with the reports to the grader."""
MOODLE = re.compile(r"^(?P<name>[^_]+)_(?P<id>\d+)_assign(?:submission|feedback)_"
                    r"(?P<plugin>[a-z]+)_(?P<rest>.*)$", re.DOTALL)
"""A name may hold `/` (`AC/DC`): in a zip it reads as folders, so `_moodle_split` tries
the path's leading parts joined."""
TREES = "trees"
NOT_TAKEN = "not-taken.json"
CANVAS = re.compile(r"^(?P<name>[^\W_](?:[^\W_]|-)*)_(?P<late>late_)?(?P<uid>\d+)_(?P<sid>\d+)_"
                    r"(?P<file>.+)$", re.IGNORECASE)


class IntakeError(ValueError):
    """Submissions that cannot be taken in as given; `field` names what is at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


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


PICK_RULE = ("the notebook named like the assignment's, else the newest, else none: a "
             "student who handed in several notebooks is graded on the one named like the "
             "pack's `notebook` (Canvas's resubmitted `name-1.ipynb` counts; the newest of "
             "those), else on the newest one (file time, from the LMS zip), else, when the "
             "newest are equally new, on none: the record names them and asks for a choice")


def slug(text: str) -> str:
    """A file-name-safe key part: letters and digits of any script, and dashes.

    NFKC first (full-width letters, ligatures and composed accents read as people
    type them), then every run of other characters becomes one dash: `María José
    García` is `maría-josé-garcía`, `王小明` stays `王小明`."""
    text = unicodedata.normalize("NFKC", text)
    return re.sub(r"[\W_]+", "-", text).strip("-").lower() or "student"


def _group(files: list[Path], root: Path, empty: tuple[Path, ...] = ()
           ) -> tuple[str, dict[tuple[str, str], list[Path]]]:
    """Files by (name, LMS id) under the first layout that explains them.

    `empty`: folders at the top of the download that hold no file. A student's folder
    with nothing in it (Moodle writes one for a student who emptied their upload; a TA's
    folder of student folders has one for who handed in nothing) is that student, with no
    files: every student the download names gets a record ("nothing handed in"), a
    report and a gradebook row, never silence (issue 27 item 6)."""
    moodle: dict[tuple[str, str], list[Path]] = {}
    canvas: dict[tuple[str, str], list[Path]] = {}
    for f in files:
        if (split := _moodle_split(f.relative_to(root).parts)) is not None:
            m = split[0]
            moodle.setdefault((m["name"], m["id"]), []).append(f)
        if m := CANVAS.match(f.name):
            canvas.setdefault((m["name"], m["uid"]), []).append(f)
    for folder in empty:
        if (split := _moodle_split((folder.name,))) is not None and not split[1]:
            moodle.setdefault((split[0]["name"], split[0]["id"]), [])
    if moodle and sum(map(len, moodle.values())) >= len(files) / 2:
        return "moodle", moodle
    if canvas and sum(map(len, canvas.values())) >= len(files) / 2:
        return "canvas", canvas
    plain: dict[tuple[str, str], list[Path]] = {}
    top = [f for f in files if f.parent == root]
    for nb in (f for f in top if f.suffix == ".ipynb"):
        plain[(nb.stem, "")] = [nb] + [f for f in top if f != nb and f.suffix.lower()
                                       in REPORT_SUFFIXES and f.stem.startswith(nb.stem)]
    for z in (f for f in top if f.suffix.lower() == ".zip"):  # a student's own zip
        plain.setdefault((z.stem, ""), []).append(z)
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        owned = [f for f in files if sub in f.parents]
        if owned:
            plain[(sub.name, "")] = owned
    if any(f.parent != root for f in files):  # student folders: an empty one is a student
        for folder in empty:
            plain.setdefault((folder.name, ""), [])
    return "", plain


def _moodle_split(parts: tuple[str, ...]) -> tuple[re.Match[str], tuple[str, ...]] | None:
    """(Moodle's match, the path inside the student's upload) of a path in a Moodle
    download, or None. The student's folder is the first part, unless the student's name
    holds a `/` (then it spans several); a flat download has no path inside (`()`)."""
    for k in range(1, len(parts) + 1):
        head = "/".join(parts[:k])
        if (m := MOODLE.match(head)) and (k == 1 or "/" in m["name"]):
            inside = parts[k:]
            if not inside and m["rest"]:
                inside = (m["rest"],)
            return m, inside
    return None


def upload_path(lms: str, f: Path, root: Path) -> str:
    """Where `f` sat in the student's own upload (`mycourse/layers.py`): the tree kept
    under `trees/<key>/`. Canvas and Moodle's flat downloads keep no folders."""
    parts = f.relative_to(root).parts
    if lms == "moodle" and (split := _moodle_split(parts)) is not None and split[1]:
        return "/".join(split[1])
    if lms in ("moodle", "canvas"):
        return _plain_name(lms, f)
    return "/".join(parts[1:]) if len(parts) > 1 else parts[0]


RESUBMITTED = re.compile(r"^(?P<stem>.+?)-\d+$")
"""Canvas appends -1, -2 to a resubmitted file's name."""


@dataclass
class Pick:
    notebook: Path | None
    why: str = ""
    ignored: list[Path] = field(default_factory=list)
    problem: str = ""


def _pick_notebook(lms: str, files: list[Path], wanted: str | None,
                   plain: Callable[[Path], str] | None = None) -> Pick:
    """The notebook to grade among a student's files, by `PICK_RULE` (`plain`: a file's
    name as the student gave it)."""
    if plain is None:
        def plain(f: Path) -> str:
            return _plain_name(lms, f)

    notebooks = sorted(f for f in files if f.suffix.lower() == ".ipynb"
                       and ".ipynb_checkpoints" not in f.parts)
    if len(notebooks) <= 1:
        return Pick(notebooks[0] if notebooks else None)

    def named(nb: Path) -> bool:
        if not wanted:
            return False
        given = Path(plain(nb))
        stem = m["stem"] if (m := RESUBMITTED.match(given.stem)) else given.stem
        return given.name == wanted or nb.name.endswith("_" + wanted) or (
            stem == Path(wanted).stem and given.suffix == ".ipynb")

    def newest(pool: list[Path]) -> list[Path]:
        top = max(nb.stat().st_mtime for nb in pool)
        return [nb for nb in pool if nb.stat().st_mtime == top]

    like = [nb for nb in notebooks if named(nb)]
    pool = like or notebooks
    best = newest(pool)
    names = ", ".join(plain(nb) for nb in notebooks)
    if len(best) == 1:
        why = (f"named like the assignment's {wanted}" if like else "the newest")
        if like and len(like) > 1:
            why += ", the newest of those"
        return Pick(best[0], why, [nb for nb in notebooks if nb != best[0]])
    tied = ", ".join(plain(nb) for nb in best)
    return Pick(None, "", notebooks, (
        f"{len(notebooks)} notebooks were handed in ({names}); "
        + (f"none is named {wanted} and " if wanted and not like else "")
        + f"{tied} are equally new, so the grader cannot tell which one to grade: "
        "hand in one notebook" + (f" named {wanted}" if wanted else "")))


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


def _inside(path: Path, folder: Path) -> bool:
    """Whether `path` lies strictly inside `folder` (both resolved)."""
    return folder in path.parents


def _under(path: Path, folders: list[Path]) -> bool:
    """Whether `path` lies in one of `folders` (resolved)."""
    if not folders:
        return False
    resolved = path.resolve()
    return any(resolved == f or f in resolved.parents for f in folders)


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


def _unwrap(root: Path, files: list[Path]) -> Path:
    """The folder the students' uploads are in. A download zipped again inside one folder
    (`A3-12345/Ada Lovelace_1001_assignsubmission_file_/a3.ipynb`: a TA's re-zip, a
    folder of downloads) holds a wrapper, not a student: without this, every name
    began with `A3-12345/`. A folder is a wrapper only when it holds every file, is no
    student's entry itself, and holds students' Moodle or Canvas entries."""
    while files:
        tops = {f.relative_to(root).parts[0] for f in files}
        if len(tops) != 1:
            break
        [top] = tops
        inner = root / top
        if MOODLE.match(top) or CANVAS.match(top) or all(f.parent == root for f in files):
            break
        children = {f.relative_to(inner).parts[0] for f in files}
        if not any(MOODLE.match(c) or CANVAS.match(c) for c in children):
            break
        root = inner
    return root


def _stand_in(name: str) -> str:
    """A refused member's name as a path under the root that is never opened: its leading
    folders still say whose upload it was (`Eve_104_assignsubmission_file_/../x.py`)."""
    parts = [p if p not in ("..", ".") else f"({p})"
             for p in PurePosixPath(name.replace("\\", "/")).parts if p not in ("/", "")]
    return "/".join(parts) or "(unnamed)"


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


def _plain_name(lms: str, f: Path) -> str:
    """The file's name as the student gave it, without the LMS prefix."""
    if lms == "canvas" and (m := CANVAS.match(f.name)):
        return m["file"]
    if lms == "moodle" and (m := MOODLE.match(f.name)) and m["rest"]:
        return m["rest"]
    return f.name


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
