"""Which notebook is graded when a student handed in several (`PICK_RULE`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from grader.intake.layouts import _plain_name

PICK_RULE = ("the notebook named like the assignment's, else the newest, else none: a "
             "student who handed in several notebooks is graded on the one named like the "
             "pack's `notebook` (Canvas's resubmitted `name-1.ipynb` counts; the newest of "
             "those), else on the newest one (file time, from the LMS zip), else, when the "
             "newest are equally new, on none: the record names them and asks for a choice")

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
