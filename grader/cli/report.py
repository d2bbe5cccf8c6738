"""``grader report``: feedback, class summary and gradebooks from a folder of records.

Exit codes: 0 everything rendered; 1 rendering failed part-way (a template error);
2 bad input: a missing folder, an unknown format, a malformed record, roster,
worksheet or TA sheet (one line naming the field or row, never a traceback).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import jinja2
import typer

from grader.cli.options import PacksDirOpt

EXIT_INPUT = 2
ClickException = type(typer.BadParameter("")).__mro__[2]
"""typer's vendored click.ClickException: `grader`'s main shows it and returns its code."""


class ReportFailed(ClickException):  # type: ignore[misc, valid-type]
    """Rendering broke part-way (a template error): one line on stderr, exit code 1."""

    exit_code = 1

    def show(self, file: object = None) -> None:
        typer.echo(f"error: {self.message}", err=True)


class ReportInputError(ClickException):  # type: ignore[misc, valid-type]
    """Bad input to `grader report`: one line on stderr, exit code 2."""

    exit_code = EXIT_INPUT

    def show(self, file: object = None) -> None:
        typer.echo(f"error: {self.message}", err=True)


def report(
    results: Annotated[Path, typer.Argument(help="Folder of GradeRecords (<key>.json), as "
                                                 "`grader grade --out` writes it.")],
    out: Annotated[Path, typer.Option(help="Folder for the reports and gradebooks.")],
    formats: Annotated[str, typer.Option(
        "--format", help="Comma-separated per-student formats: html, md, json, gradescope."
    )] = "html,md,json",
    assignment: Annotated[str | None, typer.Option(
        "--assignment", "-a", help="Pack id or folder: its rubric's visibility rules apply "
        "(default: the pack the batch's manifest.json names, else the records' assignment id "
        "along the pack search path; not found: exit 2).")
    ] = None,
    packs_dir: PacksDirOpt = None,
    roster: Annotated[Path | None, typer.Option(
        help="roster.json from intake (default: RESULTS/roster.json and every "
             "RESULTS/intake/*/roster.json, as `grader grade` leaves them).")] = None,
    moodle_worksheet: Annotated[Path | None, typer.Option(
        help="Moodle's downloaded grading worksheet to fill in (keeps its rows and columns).")
    ] = None,
    canvas: Annotated[bool, typer.Option(help="Also write a Canvas gradebook CSV.")] = False,
    manual: Annotated[Path | None, typer.Option(
        help="A filled TA sheet (manual-sheet.csv) to merge before rendering.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was written as JSON.")
                       ] = False,
) -> None:
    """Render per-student reports, the class summary and gradebooks from graded records.

    Examples: grader report grades/ --out feedback/ |
    grader report grades/ --out feedback/ --format html,gradescope --canvas |
    grader report grades/ --out feedback/ --moodle-worksheet Grades-A3.csv |
    grader report grades/ --out feedback/ --manual feedback/manual-sheet.csv
    """
    from grader.intake import IntakeError
    from grader.pack import PackError
    from grader.report import BatchError, SheetError, render_batch
    from grader.report.lms import WorksheetError

    def bad(message: str) -> None:
        raise ReportInputError(message)

    wanted = tuple(f.strip() for f in formats.split(",") if f.strip())
    if not results.is_dir():
        bad(f"results: {results} is not a folder")
    try:
        pack, notes = find_pack(results, assignment, packs_dir)
    except PackError as exc:
        bad(str(exc) if exc.field == "assignment" else f"assignment: {exc}")
    try:
        result = render_batch(results, out, pack=pack, formats=wanted, roster=roster,
                              moodle_worksheet_csv=moodle_worksheet, canvas=canvas,
                              manual=manual)
    except (BatchError, IntakeError, SheetError, WorksheetError) as exc:
        bad(str(exc))
    except jinja2.TemplateError as exc:
        raise ReportFailed(f"template: {exc}") from None
    for warning in [*notes, *result.warnings]:
        typer.echo(f"warning: {warning}", err=True)
    if as_json:
        typer.echo(json.dumps({"written": [str(p) for p in result.written],
                               "warnings": [*notes, *result.warnings],
                               "students": len(result.students)}, indent=2))
    else:
        typer.echo(f"{len(result.students)} students: {len(result.written)} files in {out}"
                   + (f" (summary: {out / 'summary.html'})" if (out / "summary.html").exists()
                      else "")
                   + f"; to hand out: {out / 'students'}"
                   + (f" or {out / 'moodle-feedback.zip'}"
                      if (out / "moodle-feedback.zip").exists() else ""))


def find_pack(results: Path, assignment: str | None, packs_dir: Path | None):
    """The pack whose visibility rules the reports follow, and warnings about it.

    `-a` wins. Otherwise the batch's `manifest.json` names the pack folder that graded
    it and the sha256 of its pack.toml; without that folder, the records' assignment id
    is looked up along the pack search path, and a pack found there whose pack.toml is
    not the one that graded is refused (its visibility rules may differ). Nothing found
    is a PackError: reports are never rendered without the pack's rules.
    """
    from grader.batch.keys import pack_file_digest
    from grader.pack import PackError, load_pack, resolve_pack

    manifest = _manifest_pack(results)
    graded_with = manifest.get("pack_toml_sha256")
    notes: list[str] = []
    if assignment is not None:
        pack = resolve_pack(assignment, packs_dir)
        if graded_with and pack_file_digest(pack) != graded_with:
            notes.append(f"{pack.root / 'pack.toml'} is not the pack.toml that graded these "
                         "records (manifest.json): its visibility rules apply, the scores are "
                         "the old rubric's until the batch is graded again")
        return pack, notes
    root = manifest.get("root")
    if root and (Path(root) / "pack.toml").is_file():
        pack = load_pack(Path(root))
        if graded_with and pack_file_digest(pack) != graded_with:
            notes.append(f"{Path(root) / 'pack.toml'} changed since the batch was graded: its "
                         "visibility rules apply, the scores are the old rubric's until "
                         "`grader grade` runs again")
        return pack, notes
    ident = manifest.get("id") or _records_assignment(results)
    hint = "pass -a PACK (the pack folder or id that graded them): its visibility rules " \
           "decide what students see"
    if not ident:
        raise PackError("assignment", f"the records in {results} name no assignment; {hint}")
    where = f" (the manifest's {root} is gone)" if root else ""
    try:
        pack = resolve_pack(str(ident), packs_dir)
    except PackError as exc:
        why = str(exc).split(": ", 1)[-1]
        raise PackError("assignment", f"cannot find the pack {ident!r} that graded these "
                        f"records{where}: {why}; {hint}") from None
    if graded_with and pack_file_digest(pack) != graded_with:
        raise PackError("assignment", f"the pack {ident!r} found at {pack.root} is not the one "
                        f"that graded these records{where} (another pack.toml); {hint}")
    if root:
        notes.append(f"the pack that graded these records was at {root}; using {pack.root}, "
                     "the same pack.toml")
    return pack, notes


def _manifest_pack(results: Path) -> dict:
    from grader.batch.driver import MANIFEST

    try:
        data = json.loads((results / MANIFEST).read_text(encoding="utf-8"))
        pack = data.get("pack") if isinstance(data, dict) else None
        return pack if isinstance(pack, dict) else {}
    except (OSError, ValueError):
        return {}


def _records_assignment(results: Path) -> str | None:
    for path in sorted(results.glob("*.json")):
        if path.name in ("roster.json", "manifest.json"):
            continue
        try:
            return json.loads(path.read_text(encoding="utf-8"))["assignment"]["id"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return None
