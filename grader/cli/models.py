"""``grader models``: the offline model cache that grading mounts into the sandbox.

`seed --tiny` builds small real models under the real checkpoint names (tests,
laptops, CI); `fetch` downloads real checkpoints on a machine with internet (a TA's
grading server, once); `list` shows what a cache holds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from grader.models.cache import cache_dir, cached_models

models_app = typer.Typer(
    help="The offline Hugging Face cache grading uses (seed tiny models, fetch real ones).",
    no_args_is_help=True,
    epilog="Examples: grader models seed --tiny | grader models list --json | "
    "grader models fetch distilbert-base-uncased roberta-base --hf-cache /srv/hf",
)


@models_app.command("seed")
def seed(
    directory: Annotated[Path | None, typer.Argument(
        help="Cache folder (default: $GRADER_HF_CACHE, else ~/.cache/transformer-grader/hub).")]
    = None,
    tiny: Annotated[bool, typer.Option(
        "--tiny", help="Build small models from config (the only kind this command builds).")]
    = False,
    assignment: Annotated[str, typer.Option(
        "--assignment", "-a", help="Pack whose data trains the tokenizers.")] = "stat8021-a3",
    packs_dir: Annotated[Path, typer.Option(help="Where packs live.")] = Path("reference"),
    text: Annotated[list[Path] | None, typer.Option(
        "--text", help="Text files (.jsonl with a \"text\" field, or plain lines) to train the "
        "tokenizers on, instead of the pack's data.", exists=True, dir_okay=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was installed as JSON.")]
    = False,
) -> None:
    """Install tiny DistilBERT, BERT and RoBERTa models under their hub names.

    The unchanged `from_pretrained("distilbert-base-uncased")` then resolves offline.
    Weights are random (built from a 2-layer config); tokenizers are trained on the
    pack's text, so they know its words.

    Example: grader models seed --tiny
    """
    from grader.models.tiny import read_texts, seed_tiny
    from grader.pack import resolve_pack

    if not tiny:
        raise typer.BadParameter("only tiny models can be built here; real checkpoints come "
                                 "from `grader models fetch`", param_hint="--tiny")
    if text:
        files = list(text)
    else:
        pack = resolve_pack(assignment, packs_dir)
        files = [pack.data[r] for r in ("train", "test", "external") if r in pack.data]
        if not files:
            raise typer.BadParameter(f"pack {pack.id} has no [data] files; pass --text",
                                     param_hint="--assignment")
    cache = cache_dir(directory)
    console = Console(stderr=True)
    with console.status(f"building tiny models into {cache}"):
        installed = seed_tiny(cache, read_texts(files), on_event=console.print)
    if as_json:
        typer.echo(json.dumps({"cache": str(cache),
                               "models": {k: str(v) for k, v in installed.items()}}, indent=2))
    else:
        console.print(f"{len(installed)} model names ready in {cache}")


@models_app.command("list")
def list_models(
    hf_cache: Annotated[str | None, typer.Option("--hf-cache", help="Cache folder.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """Show the models a cache holds and the snapshot each resolves to."""
    cache = cache_dir(hf_cache)
    found = cached_models(cache)
    if as_json:
        typer.echo(json.dumps({"cache": str(cache),
                               "models": {k: str(v) for k, v in found.items()}}, indent=2))
        return
    if not found:
        typer.echo(f"{cache}: no models (run `grader models seed --tiny`)")
        return
    for name, snapshot in found.items():
        typer.echo(f"{name}  {snapshot.name[:12]}")


@models_app.command("fetch")
def fetch(
    names: Annotated[list[str], typer.Argument(help="Hub model ids, e.g. distilbert-base-uncased.")],
    hf_cache: Annotated[str | None, typer.Option("--hf-cache", help="Cache folder.")] = None,
) -> None:
    """Download real checkpoints into the cache (needs internet; run once on the server).

    Example: grader models fetch distilbert-base-uncased roberta-base --hf-cache /srv/hf
    """
    from grader.models.fetch import FetchError, fetch_models

    cache = cache_dir(hf_cache)
    try:
        fetched = fetch_models(cache, names, on_event=Console(stderr=True).print)
    except FetchError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"{len(fetched)} model(s) in {cache}")
