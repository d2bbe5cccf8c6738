"""Which LMS laid out a download, and where each file sat in it.

Moodle's "Download all submissions" (`Full Name_12345_assignsubmission_file_/...`),
Canvas's "Download submissions" (`name_userid_submissionid_file`) or a plain folder:
`_group` finds the first layout that explains the files and groups them by student;
`upload_path` and `_plain_name` undo the LMS's renaming; `_unwrap` looks through a
download zipped again inside one folder. The patterns are documented in docs/reports.md.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path, PurePosixPath

REPORT_SUFFIXES = (".pdf", ".docx", ".md", ".markdown", ".txt")
LOG_NAMES = re.compile(r"(\.csv$|tfevents)", re.IGNORECASE)
"""Training logs (CSV, TensorBoard event files) travel with the reports to the grader."""

MOODLE = re.compile(r"^(?P<name>[^_]+)_(?P<id>\d+)_assign(?:submission|feedback)_"
                    r"(?P<plugin>[a-z]+)_(?P<rest>.*)$", re.DOTALL)
"""A name may hold `/` (`AC/DC`): in a zip it reads as folders, so `_moodle_split` tries
the path's leading parts joined."""

CANVAS = re.compile(r"^(?P<name>[^\W_](?:[^\W_]|-)*)_(?P<late>late_)?(?P<uid>\d+)_(?P<sid>\d+)_"
                    r"(?P<file>.+)$", re.IGNORECASE)

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

def _plain_name(lms: str, f: Path) -> str:
    """The file's name as the student gave it, without the LMS prefix."""
    if lms == "canvas" and (m := CANVAS.match(f.name)):
        return m["file"]
    if lms == "moodle" and (m := MOODLE.match(f.name)) and m["rest"]:
        return m["rest"]
    return f.name

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
