"""``grader grade`` (a TA, hidden inputs) and ``grader check`` (a student, demo inputs).

Exit codes: 0 when every notebook was graded, whatever its score (a low grade is a
result, not a failure); 1 when the grader could not grade one (no sandbox, a crash of
the grader itself); 2 for bad usage or a broken pack.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from grader.pack import resolve_pack
from grader.record import GradeRecord, write_atomic
from grader.sandbox import Sandbox, SandboxUnavailable, bwrap_works

STATUS_STYLE = {"passed": "green", "partial": "yellow", "failed": "red", "error": "red",
                "manual": "cyan"}

AssignmentOpt = Annotated[str, typer.Option(
    "--assignment", "-a", help="Pack id (looked up under --packs-dir) or a pack folder.")]
PacksDirOpt = Annotated[Path, typer.Option(help="Where packs live.")]
SandboxOpt = Annotated[str, typer.Option(
    help="auto (bubblewrap, required for grading), bwrap, or none (no isolation).")]


def _sandbox(kind: str, *, student: bool, console: Console) -> Sandbox:
    if student and kind == "auto" and bwrap_works() is not None:
        console.print("[yellow]bubblewrap is not available: running your notebook without "
                      "isolation (fine for your own code).[/]")
        kind = "none"
    try:
        return Sandbox.create(kind)
    except SandboxUnavailable as exc:
        console.print(f"[red]error:[/] {exc}")
        raise typer.Exit(1) from None


def _table(records: list[GradeRecord], title: str) -> Table:
    table = Table(title=title)
    table.add_column("submission")
    ids = [q.id for q in records[0].questions] if records else []
    for qid in ids:
        table.add_column(qid, justify="right")
    table.add_column("score", justify="right")
    table.add_column("flags")
    for record in records:
        cells = []
        for q in record.questions:
            style = STATUS_STYLE.get(q.status, "")
            shown = "TA" if q.score is None else f"{q.score:g}/{q.max:g}"
            cells.append(f"[{style}]{shown}[/]")
        flags = []
        if record.flags.get("tamper"):
            flags.append("tamper")
        if record.flags.get("printed_mismatch"):
            flags.append("prints disagree")
        if record.run.get("limits_hit"):
            flags.append("limits: " + ",".join(sorted({h["limit"] for h in record.run["limits_hit"]})))
        table.add_row(record.submission["name"], *cells,
                      f"{record.score:g}/{record.max_score:g}", "; ".join(flags))
    return table


def grade(
    notebooks: Annotated[list[Path], typer.Argument(help="Notebooks to grade.", exists=True,
                                                    dir_okay=False, readable=True)],
    assignment: AssignmentOpt,
    out: Annotated[Path, typer.Option(help="Folder for the records (one JSON per notebook).")],
    packs_dir: PacksDirOpt = Path("reference"),
    seed: Annotated[int | None, typer.Option(
        help="Seed of the hidden inputs (default: a fresh random one, kept in the record).")] = None,
    sandbox: SandboxOpt = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print the records as JSON.")] = False,
) -> None:
    """Grade notebooks on hidden inputs; write one record each to --out and print a table.

    Example: grader grade submissions/stat8021-a3/*.ipynb -a stat8021-a3 --out grades/
    """
    from grader.grade import grade_notebook

    console = Console(stderr=True)
    pack = resolve_pack(assignment, packs_dir)
    if pack.is_public:
        raise typer.BadParameter(f"{pack.root} is a public pack: use `grader check`",
                                 param_hint="--assignment")
    box = _sandbox(sandbox, student=False, console=console)
    records = []
    with console.status("") as status:
        for i, notebook in enumerate(notebooks, 1):
            status.update(f"[{i}/{len(notebooks)}] grading {notebook.name}")
            record = grade_notebook(pack, notebook, mode="grade", seed=seed, sandbox=box)
            write_atomic(out / f"{notebook.stem}.json", record.to_json())
            records.append(record)
            console.print(f"[{i}/{len(notebooks)}] {notebook.name}: "
                          f"{record.score:g}/{record.max_score:g} ({record.run['seconds']:.1f} s)")
    if as_json:
        typer.echo(json.dumps([r.to_dict() for r in records], indent=2))
    else:
        Console().print(_table(records, f"{pack.id}: {len(records)} graded, records in {out}"))


def check(
    notebook: Annotated[Path, typer.Argument(help="Your notebook.", exists=True, dir_okay=False,
                                             readable=True)],
    assignment: AssignmentOpt,
    packs_dir: PacksDirOpt = Path("reference"),
    sandbox: SandboxOpt = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print the record as JSON.")] = False,
) -> None:
    """Self-check a notebook on the public demo inputs (works from a public pack).

    This is not your grade: grading uses hidden inputs. It tells you whether the grader
    can call your code and whether it agrees with the demo expectations.

    Example: grader check Transformer_practice.ipynb -a ./stat8021-a3-public
    """
    from grader.grade import grade_notebook

    console = Console(stderr=True)
    pack = resolve_pack(assignment, packs_dir)
    box = _sandbox(sandbox, student=True, console=console)
    with console.status(f"running {notebook.name}"):
        record = grade_notebook(pack, notebook, mode="check", sandbox=box)
    if as_json:
        typer.echo(record.to_json())
        return
    out = Console()
    table = Table(title=f"{pack.id}: self-check of {notebook.name} on the public demo inputs")
    for col in ("question", "result", "what the grader saw"):
        table.add_column(col)
    for q in record.questions:
        style = STATUS_STYLE.get(q.status, "")
        text = q.message + (f"\nHint: {q.hint}" if q.hint else "")
        table.add_row(f"{q.id} ({q.max:g} pts)", f"[{style}]{q.status}[/]", text)
    out.print(table)
    for row in record.flags.get("printed_mismatch", []):
        out.print(f"[yellow]note:[/] you printed {row['label']}: {row['printed']}, but your "
                  f"code computes {row['computed']}")
    for hit in record.run.get("limits_hit", []):
        out.print(f"[yellow]limit:[/] {hit['message']}" +
                  (f" (cell {hit['cell']})" if hit.get("cell") is not None else ""))
    out.print("Demo inputs only: your grade comes from hidden inputs.")
