"""What a batch grades: notebooks, folders of them, globs, an LMS zip, student folders.

Each submission gets a key, the name of its record: the notebook's stem for plain
notebooks, the student's key from the intake for a Moodle or Canvas zip (which also
writes `roster.json`, so reports and gradebooks know the names and LMS ids).
"""

from __future__ import annotations

import glob
from collections.abc import Sequence
from pathlib import Path

from grader.batch.driver import Item


class SourceError(ValueError):
    """Submissions that cannot be found or taken in as given."""


def collect(sources: Sequence[str], out: Path, notebook_name: str | None = None) -> list[Item]:
    """Expand the command line's sources into items, in a stable order, keys unique."""
    items: list[Item] = []
    for source in sources:
        path = Path(source)
        if path.suffix.lower() == ".zip" and path.is_file():
            items.extend(_from_lms(path, out, notebook_name))
        elif path.is_dir() and any(path.glob("*.ipynb")):
            items.extend(_item(p) for p in sorted(path.glob("*.ipynb")))
        elif path.is_dir():
            # one subfolder per student (a notebook, a report, or both)
            items.extend(_from_lms(path, out, notebook_name))
        elif path.is_file():
            items.append(_item(path))
        else:
            matches = sorted(glob.glob(source))
            if not matches:
                raise SourceError(f"{source}: no such notebook, folder, zip or glob match")
            items.extend(_item(Path(m)) for m in matches if m.endswith(".ipynb"))
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

    reports = tuple(sorted(p for p in notebook.parent.glob(f"{notebook.stem}*")
                           if p.is_file() and p.suffix.lower() in REPORT_SUFFIXES))
    return Item(notebook.stem, notebook, reports)


def _from_lms(path: Path, out: Path, notebook_name: str | None) -> list[Item]:
    from grader.intake.lms import IntakeError, intake

    dest = out / "intake" / path.stem
    try:
        if dest.is_dir() and any(dest.glob("*.ipynb")):
            # taken in by an earlier, interrupted run of this batch: reuse it as it is
            from grader.intake.lms import load_roster, roster_reports

            roster, reports = load_roster(dest), roster_reports(dest / "roster.json")
            notebooks = {key: dest / f"{key}.ipynb" for key in roster}
            return [Item(key, nb if nb.is_file() else None, tuple(reports.get(key, [])))
                    for key, nb in sorted(notebooks.items())
                    if nb.is_file() or reports.get(key)]
        subs = intake(path, dest, notebook_name=notebook_name)
    except IntakeError as exc:
        raise SourceError(str(exc)) from None
    return [Item(s.student.key, s.notebook, tuple(s.reports)) for s in subs
            if s.notebook is not None or s.reports]
