"""The student's files that travel with the notebook: a submission is a folder.

Courses put the code students write in a module beside the notebook
(`mycourse/transformer_layers.py`) that the notebook imports. A pack says which files
are taken (`[assignment] files = ["mycourse/**/*.py", "*.py", "data/*.csv"]`, globs
relative to the notebook's folder); `take_files` finds them and the runner copies them
into the sandbox's scratch folder with their relative paths, so `import mycourse` works
there as it did on the student's machine.

Why a walk of our own rather than `Path.glob`: a student folder is student data. The
walk never follows a link (a link to `/etc` or to another student's folder would copy
what is not theirs), sees devices and pipes without opening them, and stops after
`MAX_ENTRIES` entries (a `node_modules` handed in by mistake). Everything matched but
not taken is *refused* with a reason the record shows (a link, a special file, over the
size or count limit), never dropped in silence. Dot-folders, `__pycache__`,
`.ipynb_checkpoints` and `__MACOSX` are never looked into: they are the tools', not the
student's.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SKIPPED_DIRS = frozenset({"__pycache__", "__MACOSX", ".ipynb_checkpoints"})
MAX_ENTRIES = 20_000
"""Entries looked at in a student's folder before the walk stops (and says so)."""


@dataclass(frozen=True)
class TakenFile:
    path: str
    """Relative to the notebook's folder, with `/`: where it lands beside the notebook."""
    source: Path
    sha256: str
    bytes: int

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "sha256": self.sha256, "bytes": self.bytes}


@dataclass
class StudentFiles:
    """What `take_files` found: the files taken and those refused, with why."""

    folder: Path | None = None
    taken: list[TakenFile] = field(default_factory=list)
    refused: list[dict[str, str]] = field(default_factory=list)
    """{"path", "why"} for each entry matched and not taken."""

    def copies(self) -> list[tuple[Path, str]]:
        """(source, relative name) pairs, as `Runner.run(files=...)` takes them."""
        return [(f.source, f.path) for f in self.taken]

    def digest(self) -> str:
        """sha256 over the relative paths and contents taken: part of the cache key."""
        digest = hashlib.sha256()
        for f in self.taken:
            digest.update(f.path.encode("utf-8", "surrogateescape") + b"\0" + f.sha256.encode())
        return digest.hexdigest()

    def to_record(self) -> dict[str, Any]:
        """The record's `submission.files` and `submission.refused` (absent when empty)."""
        out: dict[str, Any] = {}
        if self.taken:
            out["files"] = [f.to_dict() for f in self.taken]
        if self.refused:
            out["refused"] = list(self.refused)
        return out


def matches(path: str, pattern: str) -> bool:
    """Whether the relative `path` (`a/b/c.py`) matches the glob `pattern`: `*`, `?` and
    `[...]` within one folder level, `**` any number of levels (none included), as in
    `glob.glob(..., recursive=True)`."""
    return _match(path.split("/"), pattern.strip("/").split("/"))


def _match(parts: list[str], pats: list[str]) -> bool:
    if not pats:
        return not parts
    if pats[0] == "**":
        return any(_match(parts[i:], pats[1:]) for i in range(len(parts) + 1))
    return bool(parts) and fnmatch.fnmatchcase(parts[0], pats[0]) and _match(parts[1:], pats[1:])


def _could_hold(path: str, pattern: str) -> bool:
    """Whether a folder at `path` could hold a match of `pattern` (a link to a folder the
    pattern reaches into is refused, not silently skipped)."""
    parts, pats = path.split("/"), pattern.strip("/").split("/")
    return any(_match(parts, pats[:n]) for n in range(1, len(pats))) or (
        "**" in pats and any(_match(parts, pats[:n] + ["**"]) for n in range(len(pats))))


def default_folder(notebook: Path) -> Path | None:
    """The folder a notebook's files are taken from when no one says: its own, unless it
    shares it with other notebooks (a folder of the whole class, where `*.py` would take
    other students' files)."""
    folder = notebook.parent
    try:
        others = [p for p in folder.glob("*.ipynb") if p.name != notebook.name]
    except OSError:
        return None
    return None if others else folder


def take_files(folder: Path | None, patterns: Sequence[str], *, notebook: Path | None = None,
               max_count: int = 200, max_bytes: int = 20 << 20) -> StudentFiles:
    """The files under `folder` that `patterns` match, in path order, within the limits.

    `notebook` (the graded one) is never taken twice. Links, devices, pipes and sockets
    that match are refused; so are files over `max_bytes`, and every file past
    `max_count` files or `max_bytes` in all.
    """
    found = StudentFiles(folder=folder)
    if folder is None or not patterns or not folder.is_dir():
        return found
    root = folder.resolve()
    skip = notebook.resolve() if notebook is not None else None
    matched: list[tuple[str, Path]] = []
    seen = 0
    for dirpath, dirs, files in os.walk(root, followlinks=False):
        base = Path(dirpath)
        rel_dir = base.relative_to(root).as_posix()
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        for name in [*sorted(files), *_linked_dirs(base, dirs)]:
            seen += 1
            if seen > MAX_ENTRIES:
                found.refused.append({"path": rel_dir or ".", "why": (
                    f"the folder holds more than {MAX_ENTRIES} entries: the rest was not "
                    "looked at")})
                return _limited(found, matched, max_count, max_bytes)
            if name.startswith("."):
                continue
            rel = f"{rel_dir}/{name}" if rel_dir != "." else name
            path = base / name
            if skip is not None and path == skip:
                continue
            if any(matches(rel, p) for p in patterns):
                matched.append((rel, path))
            elif path.is_symlink() and any(_could_hold(rel, p) for p in patterns):
                found.refused.append({"path": rel, "why": "a link to a folder: not followed"})
        # links to folders are listed above (os.walk does not descend into them)
        dirs[:] = [d for d in dirs if not (base / d).is_symlink()]
    return _limited(found, matched, max_count, max_bytes)


def _linked_dirs(base: Path, dirs: list[str]) -> list[str]:
    return [d for d in dirs if (base / d).is_symlink()]


def _limited(found: StudentFiles, matched: list[tuple[str, Path]], max_count: int,
             max_bytes: int) -> StudentFiles:
    total = 0
    for rel, path in sorted(matched):
        try:
            info = path.lstat()
        except OSError as exc:
            found.refused.append({"path": rel, "why": f"cannot be read ({exc.strerror})"})
            continue
        if stat.S_ISLNK(info.st_mode):
            found.refused.append({"path": rel, "why": "a link: only plain files are taken"})
            continue
        if not stat.S_ISREG(info.st_mode):
            found.refused.append({"path": rel, "why": "not a plain file (a device, pipe or "
                                  "socket)"})
            continue
        if len(found.taken) >= max_count:
            found.refused.append({"path": rel, "why": f"over the limit of {max_count} files"})
            continue
        if info.st_size > max_bytes or total + info.st_size > max_bytes:
            found.refused.append({"path": rel, "why": (
                f"{info.st_size} bytes: over the limit of {max_bytes} bytes of files in all")})
            continue
        try:
            data = path.read_bytes()
        except OSError as exc:
            found.refused.append({"path": rel, "why": f"cannot be read ({exc.strerror})"})
            continue
        total += len(data)
        found.taken.append(TakenFile(rel, path, hashlib.sha256(data).hexdigest(), len(data)))
    return found
