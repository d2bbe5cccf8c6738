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
                                   "(default: the records' assignment id under --packs-dir).")
    ] = None,
    packs_dir: Annotated[Path, typer.Option(help="Where packs live.")] = Path("reference"),
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
    from grader.pack import PackError, resolve_pack
    from grader.report import BatchError, SheetError, render_batch
    from grader.report.lms import WorksheetError

    def bad(message: str) -> None:
        raise ReportInputError(message)

    wanted = tuple(f.strip() for f in formats.split(",") if f.strip())
    if not results.is_dir():
        bad(f"results: {results} is not a folder")
    pack = None
    try:
        if assignment is None:
            first = next(iter(sorted(results.glob("*.json"))), None)
            ident = None
            if first is not None and first.name != "roster.json":
                try:
                    ident = json.loads(first.read_text(encoding="utf-8"))["assignment"]["id"]
                except (ValueError, KeyError, TypeError):
                    ident = None
            if ident and (packs_dir / ident / "pack.toml").is_file():
                pack = resolve_pack(ident, packs_dir)
        else:
            pack = resolve_pack(assignment, packs_dir)
    except PackError as exc:
        bad(f"assignment: {exc}")
    try:
        result = render_batch(results, out, pack=pack, formats=wanted, roster=roster,
                              moodle_worksheet_csv=moodle_worksheet, canvas=canvas,
                              manual=manual)
    except (BatchError, IntakeError, SheetError, WorksheetError) as exc:
        bad(str(exc))
    except jinja2.TemplateError as exc:
        raise ReportFailed(f"template: {exc}") from None
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)
    if as_json:
        typer.echo(json.dumps({"written": [str(p) for p in result.written],
                               "warnings": result.warnings,
                               "students": len(result.students)}, indent=2))
    else:
        typer.echo(f"{len(result.students)} students: {len(result.written)} files in {out}"
                   + (f" (summary: {out / 'summary.html'})" if (out / "summary.html").exists()
                      else ""))
