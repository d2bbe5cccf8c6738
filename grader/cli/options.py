"""Options and helpers the grading verbs (`grade`, `check`) share."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from grader.pack import Pack, PackError
from grader.run.sandbox import Sandbox, SandboxUnavailable, bwrap_works, gpus_from_env

STATUS_STYLE = {"passed": "green", "partial": "yellow", "failed": "red", "error": "red",
                "manual": "cyan", "not_graded": "cyan"}

AssignmentOpt = Annotated[str, typer.Option(
    "--assignment", "-a", help="Pack id (looked up under --packs-dir) or a pack folder.")]


def _packs_dir_given(ctx: typer.Context, param: typer.CallbackParam,
                     value: Path | None) -> Path | None:
    """The folder only when the user gave one: otherwise None, and `resolve_pack` walks
    the whole search path (grader.pack.pack_search_path) instead of a fixed ./reference."""
    source = ctx.get_parameter_source(param.name) if param.name else None
    if source is not None and source.name == "DEFAULT":  # typer may vendor its own click
        return None
    return value


PacksDirOpt = Annotated[Path | None, typer.Option(
    "--packs-dir", "--packs", callback=_packs_dir_given, show_default=False,
    help="Look pack ids up here first; then in $GRADER_PACKS (folders separated by ':'), "
    "./reference, and the example packs installed with the grader.")]
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
