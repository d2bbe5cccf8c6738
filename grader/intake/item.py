"""One submission as intake hands it to grading: which files, and what intake decided.

It lives in `grader.intake` (not in the batch driver that consumes it) so that intake,
which builds items, does not import the batch package that imports intake: the two
used to import each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.intake.files import StudentFiles, default_folder
from grader.pack import Pack


@dataclass(frozen=True)
class Item:
    """One submission: its output key (the record's file name) and its files."""

    key: str
    notebook: Path | None
    """None for a report handed in alone."""
    reports: tuple[Path, ...] = ()
    problem: str = ""
    """Why nothing can be graded although files came in (two equally new notebooks): the
    record says it, as for an unreadable notebook."""
    intake: dict[str, Any] | None = field(default=None, hash=False, compare=False)
    """What the intake decided (`handed_in`, `picked`, `ignored`, `problem`, `late`,
    `refused`, `folder`):
    written into the record's `submission.reports` as entries marked `intake`."""
    folder: Path | None = None
    """The folder the pack's `[assignment] files` are taken from (the notebook's folder in
    the student's tree); None: the notebook's own folder unless other notebooks share it."""


def item_files(pack: Pack, item: Item) -> StudentFiles:
    """The student's files an item brings (docs/submissions.md): what its run copies and
    its cache key covers."""
    if item.notebook is None:
        return StudentFiles()
    folder = item.folder if item.folder is not None else default_folder(item.notebook)
    return pack.student_files(folder, item.notebook)
