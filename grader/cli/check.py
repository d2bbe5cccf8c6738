"""`grader check`: a student's self-check of one notebook on the public demo inputs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from grader.cli.options import (
    STATUS_STYLE,
    AssignmentOpt,
    HfCacheOpt,
    PacksDirOpt,
    SandboxOpt,
    _sandbox,
)
from grader.models.cache import ModelCacheError, cache_dir
from grader.pack import resolve_pack


def check(
    notebook: Annotated[Path, typer.Argument(help="Your notebook.", exists=True, dir_okay=False,
                                             readable=True)],
    assignment: AssignmentOpt,
    packs_dir: PacksDirOpt = Path("reference"),
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

    Example: grader check Transformer_practice.ipynb -a ./stat8021-a3-public
    """
    from grader.grade import grade_notebook

    console = Console(stderr=True)
    pack = resolve_pack(assignment, packs_dir)
    box = _sandbox(sandbox, student=True, console=console)
    with console.status(f"running {notebook.name}"):
        try:
            record = grade_notebook(pack, notebook, mode="check", sandbox=box, quick=not full,
                                    hf_cache=cache_dir(hf_cache))
        except ModelCacheError as exc:
            raise typer.BadParameter(str(exc), param_hint="--hf-cache") from None
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
    for flag in record.flags.get("finetune", []):
        out.print(f"[yellow]note:[/] {flag['question']}: {flag['message']}")
    out.print("Demo inputs only: your grade comes from hidden inputs"
              + (" and a full fine-tuning run." if not full else "."))
