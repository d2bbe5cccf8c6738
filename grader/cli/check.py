"""`grader check`: a student's self-check of one notebook on the public demo inputs.

Exit status, as ruff and pytest do it: 0 when every question passed, awaits a TA or
is not graded in a self-check; 1 when a question failed, is partly right or could
not run; 2 for bad usage or when the check itself could not run (an unknown pack, a
missing model cache, no sandbox, a grader failure).

Everything a student reads counts notebook cells from 1, as notebook editors do
(records keep the 0-based index).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from grader.checks.registry import needs_models, noted_flags
from grader.cli.options import (
    STATUS_STYLE,
    AssignmentOpt,
    HfCacheOpt,
    PacksDirOpt,
    SandboxOpt,
    _sandbox,
)
from grader.models.cache import ModelCacheError, cache_dir, cached_models
from grader.pack import Pack, PackError, resolve_pack
from grader.pack.expected import rules, why_expected

FAILING = ("failed", "partial", "error")
"""Question statuses that make `grader check` exit 1."""


def shown(record: Any, pack: Pack | None) -> list[Any]:
    """The record's questions a student sees: a question the pack keeps off (0 points, no
    visibility of its own: `grader.report.visibility.kept_off`) is neither printed nor
    counted, as the student's report leaves it out."""
    from grader.report.visibility import question_visibility

    raw = pack.raw if pack is not None else None
    return [q for q in record.questions if question_visibility(raw, q.id) != "hidden"]


def exit_code(record: Any, pack: Pack | None = None) -> int:
    """1 when a question the student sees failed, is partly right or could not run; else 0."""
    return 1 if any(q.status in FAILING for q in shown(record, pack)) else 0


def check(
    notebook: Annotated[Path, typer.Argument(help="Your notebook.", exists=True, dir_okay=False,
                                             readable=True)],
    assignment: AssignmentOpt,
    packs_dir: PacksDirOpt = None,
    sandbox: SandboxOpt = "auto",
    full: Annotated[bool, typer.Option(
        "--full", help="Fine-tune as long as the notebook says (default: quick mode, a short "
        "run on a subset, GRADER_QUICK=1).")] = False,
    hf_cache: HfCacheOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the record as JSON.")] = False,
) -> None:
    """Self-check a notebook on the public demo inputs (works from a public pack).

    This is not your grade: grading uses hidden inputs. It tells you whether the grader
    can call your code and whether it agrees with the demo expectations.

    Exit status: 0 when every question passed (or awaits a TA, or is not graded in a
    self-check), 1 when a question failed, 2 for bad usage or when the check could
    not run.

    Example: grader check Transformer_practice.ipynb -a ./stat8021-a3-public
    """
    from grader.grade import grade_notebook

    console = Console(stderr=True)
    pack = resolve_pack(assignment, packs_dir)
    try:
        box = _sandbox(sandbox, student=True, console=console)
    except typer.Exit:
        raise typer.Exit(2) from None  # the check could not run: not a failing question
    cache = cache_dir(hf_cache)
    # the student's own folder, whatever else it holds (their scratch notebooks too): the
    # files a batch takes from their upload (docs/submissions.md)
    files = pack.student_files(notebook.resolve().parent, notebook.resolve())
    with console.status(f"running {escape(notebook.name)}"):
        try:
            record = grade_notebook(pack, notebook, mode="check", sandbox=box, quick=not full,
                                    hf_cache=cache, files=files)
        except ModelCacheError as exc:
            raise typer.BadParameter(str(exc), param_hint="--hf-cache") from None
        except PackError:  # the pack as this machine has it (a missing environment names
            raise          # the command that builds it): one line and exit 2, as elsewhere
        except Exception as exc:  # noqa: BLE001 - a grader failure is not a failing question
            console.print(f"[red]error:[/] the grader itself failed on {escape(notebook.name)}: "
                          f"{escape(type(exc).__name__)}: {escape(str(exc))[:500]}")
            raise typer.Exit(2) from None
    if as_json:
        typer.echo(record.to_json())
        raise typer.Exit(exit_code(record, pack))
    print_check(record, pack, notebook.name, full=full, cache=cache, out=Console())
    raise typer.Exit(exit_code(record, pack))


def print_check(record: Any, pack: Pack, name: str, *, full: bool, cache: Path | None,
                out: Console) -> None:
    """The self-check's table and notes, every student-written text escaped for rich."""
    table = Table(title=escape(f"{pack.id}: self-check of {name} on the public demo inputs"))
    for col in ("question", "result", "what the grader saw"):
        table.add_column(col)
    tiny = tiny_models_note(record, pack, cache) if not full else ""
    for q in shown(record, pack):
        style = STATUS_STYLE.get(q.status, "")
        text = escape(q.message) + (f"\nHint: {escape(q.hint)}" if q.hint else "")
        if tiny and q.status == "not_graded" and any(needs_models(c.kind) for c in q.checks):
            text += f"\n{escape(tiny)}"
        status = escape(q.status.replace("_", " "))
        table.add_row(escape(f"{q.id} ({q.max:g} pts)"),
                      f"[{style}]{status}[/]" if style else status, text)
    out.print(table)
    taken = record.submission.get("files") or []
    if pack.files:
        out.print(f"files beside the notebook: {len(taken)} taken" + (
            f" ({escape(', '.join(str(f['path']) for f in taken[:8]))}"
            + (", ..." if len(taken) > 8 else "") + ")" if taken else
            f"; none matches {escape(', '.join(pack.files))}"))
    for row in record.submission.get("refused") or []:
        out.print(f"[yellow]not taken:[/] {escape(str(row['path']))}: {escape(str(row['why']))}")
    for row in record.flags.get("printed_mismatch", []):
        out.print(f"[yellow]note:[/] you printed {escape(str(row['label']))}: "
                  f"{escape(str(row['printed']))}, but your code computes "
                  f"{escape(str(row['computed']))}")
    for hit in record.run.get("limits_hit", []):
        out.print(f"[yellow]limit:[/] {escape(str(hit['message']))}" +
                  (f" (cell {hit['cell'] + 1})" if isinstance(hit.get("cell"), int) else ""))
    found = rules(pack)
    for error, line in zip(record.run.get("cell_errors") or [],
                           cell_error_lines(record.run.get("cell_errors") or []), strict=True):
        why = why_expected(error, found) if found else None
        if why:  # a cell the pack says needs what the grader lacks (docs/reports.md)
            out.print(f"[yellow]expected cell error:[/] {escape(line)}: {escape(why)}")
        else:
            out.print(f"[red]cell error:[/] {escape(line)}")
    for flag in (f for name in noted_flags() for f in record.flags.get(name, [])):
        out.print(f"[yellow]note:[/] {escape(str(flag['question']))}: "
                  f"{escape(str(flag['message']))}")
    failing = [q.id for q in shown(record, pack) if q.status in FAILING]
    if failing:
        out.print(f"[red]{len(failing)} question(s) to fix:[/] {escape(', '.join(failing))}")
    out.print("Demo inputs only: your grade comes from hidden inputs"
              + (" and a full fine-tuning run." if not full else "."))


def cell_error_lines(errors: list[dict[str, Any]], limit: int = 300) -> list[str]:
    """One line per cell that raised ("cell 15: AttributeError: ... 'Modle'"), cells
    counted from 1. A question's message says what is missing ("does not define the
    class PositionalEncoding"); the cell that crashed says why, and the web page already
    showed it: the CLI shows it too (issue 27 item 5)."""
    lines = []
    for e in errors:
        cell = e.get("cell")
        where = f"cell {cell + 1}" if isinstance(cell, int) else "a cell"
        value = " ".join(str(e.get("evalue") or "").split())
        value = value if len(value) <= limit else value[:limit - 1] + "…"
        tags = ", ".join(str(t) for t in e.get("tags") or [])
        lines.append(f"{where}: {e.get('ename') or 'error'}" + (f": {value}" if value else "")
                     + (f" (tags: {tags})" if tags else ""))
    return lines


def tiny_models_note(record: Any, pack: Pack, cache: Path | None) -> str:
    """What to say when quick mode fine-tuned the tiny seeded models; "" otherwise.

    The tiny models (`grader models seed --tiny`) are two-layer models trained from
    scratch, so a quick run's accuracy sits near chance (24.8 % on four labels) and
    means nothing about the grade. They are told apart from the real checkpoints by
    their size: a fraction of the registry's count for the same name.
    """
    run = record.get("run", {}) if isinstance(record, dict) else record.run  # a view, or a record
    if not run.get("quick") or cache is None or not pack.models:
        return ""
    if not any(_is_tiny(name, folder) for name, folder in cached_models(cache).items()
               if name in pack.models):
        return ""
    labels = len(pack.labels) if getattr(pack, "labels", None) else 0
    chance = f" (chance with {labels} labels is {100 / labels:.0f} %)" if labels else ""
    return ("Expected here: your model cache holds the tiny models of `grader models seed "
            f"--tiny`, trained from scratch for a moment, so a low accuracy{chance} is normal "
            "in quick mode and says nothing about your grade, which uses the real models "
            "and a full run.")


def _is_tiny(name: str, snapshot: Path) -> bool:
    import json

    import calculators as calc

    try:
        config = json.loads((snapshot / "config.json").read_text(encoding="utf-8"))
        return calc.count_parameters(config).total * 10 < calc.count_parameters(name).total
    except Exception:  # noqa: BLE001 - a model we cannot size is not called tiny
        return False
