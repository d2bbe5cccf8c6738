"""What a batch grades: notebooks, folders of them, globs, an LMS zip, student folders.

Each submission gets a key, the name of its record: the notebook's stem for plain
notebooks, the student's key from the intake for a Moodle or Canvas zip (which also
writes `roster.json`, so reports and gradebooks know the names and LMS ids).
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from grader.intake.item import Item


class SourceError(ValueError):
    """Submissions that cannot be found or taken in as given."""


def collect(sources: Sequence[str], out: Path, notebook_name: str | None = None,
            notes: list[str] | None = None) -> list[Item]:
    """Expand the command line's sources into items, in a stable order, keys unique.

    `notes` collects what a TA should read before the batch starts (a download taken
    in again because it changed).
    """
    items: list[Item | Path] = []
    taken_in: dict[Path, str] = {}

    def lms(path: Path) -> list[Item]:
        dest = intake_folder(path, out).resolve()
        if taken_in.get(dest) == str(path.resolve()):
            return []  # given twice (a glob and its match): taken in once
        if dest in taken_in:
            raise SourceError(f"{path} and {taken_in[dest]} would both be taken in under "
                              f"{out}/intake/{path.stem}: rename one, or grade them into "
                              "separate --out folders")
        taken_in[dest] = str(path.resolve())
        return _from_lms(path, out, notebook_name, notes)

    for source in sources:
        path = Path(source)
        if path.suffix.lower() == ".zip" and path.is_file():
            items.extend(lms(path))
        elif path.is_dir() and any(path.glob("*.ipynb")) and not _zips(path):
            items.extend(_item(p) for p in sorted(path.glob("*.ipynb")))
        elif path.is_dir():
            # one subfolder per student (a notebook, a report, or both), or students'
            # own zips beside notebooks: the intake lays them out
            items.extend(lms(path))
        elif path.is_file():
            items.append(_item(path) if path.suffix.lower() == ".ipynb" else path)
        else:
            matches = sorted(glob.glob(source))
            if not matches:
                raise SourceError(f"{source}: no such notebook, folder, zip or glob match")
            items.extend(_item(Path(m)) if m.lower().endswith(".ipynb") else Path(m)
                         for m in matches if Path(m).is_file())
    return _unique(items)


def intake_folder(source: Path, out: Path) -> Path:
    """Where a download is taken in: `OUT/intake/<stem>/`, whatever `--out` and the source
    are called and wherever they lie (relative or absolute, named alike, one inside the
    other). The roster written there names its files relative to itself, so the folder
    can be built beside it and renamed (`grader.intake.lms._relative_rows`).

    Refused: a source that is itself inside `OUT/intake/` (a batch's own intake given
    back as submissions), which taking in again would replace while reading it."""
    dest = out / "intake" / source.stem
    here, own = source.resolve(), (out / "intake").resolve()
    if here == own or own in here.parents:
        raise SourceError(f"{source}: this is the grader's own intake under {out}/intake, not "
                          "a download; give the LMS zip or the class folder it came from")
    return dest


def _zips(folder: Path) -> bool:
    """Whether students' own zips lie at the top of `folder` (they need the intake)."""
    return any(p.suffix.lower() == ".zip" and p.is_file() for p in folder.iterdir())


def _unique(found: list[Item | Path]) -> list[Item]:
    """Items with unique keys. A file given that is no notebook (`subs/*` matching a
    stray .txt) is its own item, whose record says it could not be graded, unless it
    is a report already handed in beside a notebook given (`ada.ipynb` + `ada.md`)."""
    attached = {r.resolve() for i in found if isinstance(i, Item) for r in i.reports}
    taken = {i.key for i in found if isinstance(i, Item)}
    items: list[Item] = []
    for entry in found:
        if isinstance(entry, Item):
            items.append(entry)
        elif entry.resolve() not in attached:
            key = entry.stem if entry.stem not in taken else entry.name
            taken.add(key)
            items.append(Item(key, entry))  # graded as a notebook: the worker says why not
    keys = [item.key for item in items]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise SourceError(f"two submissions would share a record name: {', '.join(repeated)}")
    if not items:
        raise SourceError("no notebooks to grade")
    return items


def _item(notebook: Path) -> Item:
    """A notebook and the reports handed in beside it (`<stem>.md`, `<stem>-report.pdf`)."""
    from grader.intake.lms import REPORT_SUFFIXES

    stem = notebook.stem
    # the exact stem, or the stem and a separator: `u123-report.pdf` is u123's,
    # `u1234.md` is not
    reports = tuple(sorted(p for p in notebook.parent.glob(f"{glob.escape(stem)}*")
                           if p.is_file() and p.suffix.lower() in REPORT_SUFFIXES
                           and (p.stem == stem or p.stem[len(stem):][:1] in ("-", "_", " ", "."))))
    return Item(notebook.stem, notebook, reports)


SOURCE_STAMP = "source.json"
"""In OUT/intake/<stem>/: which download was taken in (its path and content digest)."""


def source_digest(path: Path, exclude: tuple[Path, ...] = ()) -> str:
    """sha256 of a zip's bytes, or of a folder's file names and contents (less the
    folders in `exclude`: the batch's own `--out` inside the class folder changes at
    every run and is no part of the download)."""
    digest = hashlib.sha256()
    if path.is_file():
        with path.open("rb") as fh:
            while chunk := fh.read(1 << 20):
                digest.update(chunk)
        return digest.hexdigest()
    here = path.resolve()
    skipped = [e.resolve() for e in exclude if here in e.resolve().parents]
    for f in sorted(p for p in path.rglob("*") if p.is_file() and not p.is_symlink()
                    and not any(s == p.resolve() or s in p.resolve().parents for s in skipped)):
        digest.update(str(f.relative_to(path)).encode("utf-8", "surrogateescape") + b"\0")
        digest.update(hashlib.sha256(f.read_bytes()).digest())
    return digest.hexdigest()


def _stamp(dest: Path) -> dict[str, str]:
    try:
        data = json.loads((dest / SOURCE_STAMP).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _from_lms(path: Path, out: Path, notebook_name: str | None,
              notes: list[str] | None = None) -> list[Item]:
    """An LMS download (zip or folder) taken in under OUT/intake/<stem>/.

    The folder is reused only when it holds the intake of this very download (same
    content digest in its `source.json`): a batch resumed after a crash skips the
    intake. A download that changed since (re-downloaded with a late student, a
    resubmitted notebook) is taken in again, replacing the folder; the driver's cache
    keys then run what is new or changed and reuse the rest.
    """
    from grader.intake.lms import ROSTER, IntakeError, intake, load_roster

    dest = intake_folder(path, out)
    digest = source_digest(path, exclude=(out,))
    stamp = _stamp(dest)
    try:
        if stamp.get("sha256") == digest and (dest / ROSTER).is_file():
            return _items_from_roster(dest)
        before = load_roster(dest) if (dest / ROSTER).is_file() else {}
        fresh = dest.with_name(f".{dest.name}.new")
        shutil.rmtree(fresh, ignore_errors=True)
        intake(path, fresh, notebook_name=notebook_name, exclude=(out,))
        (fresh / SOURCE_STAMP).write_text(json.dumps(
            {"source": str(path.resolve()), "sha256": digest,
             "taken_in_at": datetime.now(UTC).isoformat(timespec="seconds")}, indent=2),
            encoding="utf-8")
        if dest.exists():
            old = dest.with_name(f".{dest.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(dest, old)
            os.replace(fresh, dest)
            shutil.rmtree(old, ignore_errors=True)
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(fresh, dest)
    except IntakeError as exc:
        raise SourceError(str(exc)) from None
    items = _items_from_roster(dest)
    strays = _not_taken(dest)
    if strays and notes is not None:
        notes.append(f"{path.name}: {len(strays)} file(s) belong to no student's upload and "
                     "were not taken in (" + "; ".join(
                         f"{s['path']}: {s['why']}" for s in strays[:5])
                     + ("; ..." if len(strays) > 5 else "") + f"), listed in {dest}/not-taken.json")
    if before and notes is not None:
        now = load_roster(dest)
        added = sorted(set(now) - set(before))
        gone = sorted(set(before) - set(now))
        why = "changed since it was taken in" if stamp else "taken in by an older grader"
        notes.append(f"{path.name} {why}: taken in again into {dest}"
                     + (f"; new: {', '.join(added)}" if added else "")
                     + (f"; no longer in it (their earlier records stay): {', '.join(gone)}"
                        if gone else ""))
    return items


def _not_taken(dest: Path) -> list[dict[str, str]]:
    from grader.intake.lms import NOT_TAKEN

    try:
        rows = json.loads((dest / NOT_TAKEN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []


def _items_from_roster(dest: Path) -> list[Item]:
    from grader.intake.lms import (
        NOTHING_HANDED_IN,
        load_roster,
        roster_files,
        roster_intake,
        roster_reports,
    )

    roster, reports = load_roster(dest), roster_reports(dest)
    notebooks = {key: dest / f"{key}.ipynb" for key in roster}
    other, decided = roster_files(dest, "other"), roster_intake(dest)
    items = []
    for key, nb in sorted(notebooks.items()):
        intake = decided.get(key) or {}
        problem = str(intake.get("problem") or "")
        folder = str(intake.get("folder") or "")
        if nb.is_file() or reports.get(key) or problem:
            # the pack's `files` come from the notebook's folder in the student's tree
            items.append(Item(key, nb if nb.is_file() else None, tuple(reports.get(key, [])),
                              problem=problem, intake=intake,
                              folder=dest / folder if folder else None))
        elif other.get(key):
            # neither a notebook nor a report (a zip, a .py): the record says so
            items.append(Item(key, other[key][0], intake=intake))
        else:  # every roster entry yields one record: here, one that says nothing came
            items.append(Item(key, None, problem=NOTHING_HANDED_IN, intake=intake))
    return items
