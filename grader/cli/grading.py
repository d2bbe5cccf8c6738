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

from grader.models.cache import ModelCacheError, cache_dir
from grader.pack import Pack, PackError, resolve_pack
from grader.record import GradeRecord, write_atomic
from grader.sandbox import Sandbox, SandboxUnavailable, bwrap_works, gpus_from_env

STATUS_STYLE = {"passed": "green", "partial": "yellow", "failed": "red", "error": "red",
                "manual": "cyan", "not_graded": "cyan"}

AssignmentOpt = Annotated[str, typer.Option(
    "--assignment", "-a", help="Pack id (looked up under --packs-dir) or a pack folder.")]
PacksDirOpt = Annotated[Path, typer.Option(help="Where packs live.")]
SandboxOpt = Annotated[str, typer.Option(
    help="auto (bubblewrap, required for grading), bwrap, or none (no isolation).")]
HfCacheOpt = Annotated[str | None, typer.Option(
    "--hf-cache", help="Hugging Face model cache mounted read-only in the sandbox "
    "(default: $GRADER_HF_CACHE, else ~/.cache/transformer-grader/hub).")]
DataOpt = Annotated[list[str] | None, typer.Option(
    "--data", help="ROLE=PATH: read a data file from PATH instead of the pack's (roles: "
    "train, test, external, hidden), e.g. --data hidden=/srv/ag_news_hidden.jsonl.")]
GpusOpt = Annotated[str | None, typer.Option(
    "--gpus", help="GPU indices the kernel may use, e.g. 0 or 0,1 (default: "
    "$CUDA_VISIBLE_DEVICES; none when unset).")]


def _with_data(pack: Pack, data: list[str] | None) -> Pack:
    overrides = {}
    for item in data or []:
        role, sep, path = item.partition("=")
        if not sep or not path:
            raise typer.BadParameter(f"expected ROLE=PATH, got {item!r}", param_hint="--data")
        overrides[role.strip()] = Path(path)
    try:
        return pack.with_data(overrides) if overrides else pack
    except PackError as exc:
        raise typer.BadParameter(str(exc), param_hint="--data") from None


def _gpus(value: str | None) -> tuple[str, ...]:
    if value is None:
        return gpus_from_env()
    return tuple(g.strip() for g in value.split(",") if g.strip())


def _sandbox(kind: str, *, student: bool, console: Console,
             gpus: tuple[str, ...] = ()) -> Sandbox:
    if student and kind == "auto" and bwrap_works() is not None:
        console.print("[yellow]bubblewrap is not available: running your notebook without "
                      "isolation (fine for your own code).[/]")
        kind = "none"
    try:
        return Sandbox.create(kind, gpus=gpus)
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
        if record.flags.get("finetune"):
            flags.append("fine-tune: " + ",".join(f["kind"] for f in record.flags["finetune"]))
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
    quick: Annotated[bool, typer.Option(
        "--quick", help="Let the notebook fine-tune briefly (GRADER_QUICK=1); accuracy "
        "thresholds are then reported as not graded.")] = False,
    no_execute: Annotated[bool, typer.Option(
        "--no-execute", help="Grade the outputs saved in the notebooks; run and re-evaluate "
        "nothing (the record says so).")] = False,
    hf_cache: HfCacheOpt = None,
    data: DataOpt = None,
    gpus: GpusOpt = None,
    report: Annotated[bool, typer.Option(
        "--report/--no-report", help="Also write per-student reports and the class summary "
        "to OUT/reports (as `grader report` does).")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the records as JSON.")] = False,
) -> None:
    """Grade notebooks on hidden inputs; write one record each to --out and print a table.

    Examples: grader grade submissions/stat8021-a3/*.ipynb -a stat8021-a3 --out grades/ |
    grader grade run/*.ipynb -a stat8021-a3 --out grades --no-execute |
    grader grade sub/*.ipynb -a stat8021-a3 --out grades --data hidden=ag_hidden.jsonl --gpus 0
    """
    from grader.grade import grade_notebook

    console = Console(stderr=True)
    pack = _with_data(resolve_pack(assignment, packs_dir), data)
    if pack.is_public:
        raise typer.BadParameter(f"{pack.root} is a public pack: use `grader check`",
                                 param_hint="--assignment")
    box = None if no_execute else _sandbox(sandbox, student=False, console=console,
                                           gpus=_gpus(gpus))
    records = []
    with console.status("") as status:
        for i, notebook in enumerate(notebooks, 1):
            status.update(f"[{i}/{len(notebooks)}] grading {notebook.name}")
            try:
                record = grade_notebook(pack, notebook, mode="grade", seed=seed, sandbox=box,
                                        quick=quick, execute=not no_execute,
                                        hf_cache=cache_dir(hf_cache))
            except ModelCacheError as exc:
                raise typer.BadParameter(str(exc), param_hint="--hf-cache") from None
            write_atomic(out / f"{notebook.stem}.json", record.to_json())
            records.append(record)
            console.print(f"[{i}/{len(notebooks)}] {notebook.name}: "
                          f"{record.score:g}/{record.max_score:g} ({record.run['seconds']:.1f} s)")
    if report:
        from grader.report import render_batch

        batch = render_batch([r.to_dict() for r in records], out / "reports", pack=pack)
        console.print(f"reports and class summary in {out / 'reports'}"
                      + (f" ({len(batch.warnings)} warnings)" if batch.warnings else ""))
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
