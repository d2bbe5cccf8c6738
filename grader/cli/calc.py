"""``grader calc``: the calculators from the command line (table, formula, or --json)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

import calculators as calc

calc_app = typer.Typer(
    help="Exact Transformer arithmetic: parameters, LoRA, memory, cross-entropy, FLOPs.",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON for machines.")]


def show(result, as_json: bool, *, explain: bool = True) -> None:
    """Print a result: JSON for machines, else its table then its explanation."""
    if as_json:
        typer.echo(result.to_json())
        return
    Console().print(result.table())
    if explain and hasattr(result, "explain"):
        typer.echo(result.explain())


@calc_app.command("params")
def params(
    model: Annotated[
        str, typer.Argument(help="Registry name (see `grader calc models`) or a config.json path.")
    ],
    head: Annotated[
        str, typer.Option(help="base | masked-lm | causal-lm | seq-cls | seq2seq-lm | encoder")
    ] = "base",
    num_labels: Annotated[
        int | None, typer.Option(help="Classes of a seq-cls head (default: the config's, else 2).")
    ] = None,
    convention: Annotated[
        str,
        typer.Option(help="exact, or conventions joined by '+' (see `grader calc conventions`)."),
    ] = "exact",
    as_json: JsonOpt = False,
) -> None:
    """Count a model's parameters exactly, with a breakdown and the formula.

    Examples:

      grader calc params bert-base-uncased

      grader calc params distilbert-base-uncased --head seq-cls --num-labels 4

      grader calc params gpt2 --head causal-lm --convention no_bias+untied --json

      grader calc params ./config.json
    """
    show(
        calc.count_parameters(model, head=head, num_labels=num_labels, convention=convention),
        as_json,
    )


@calc_app.command("conventions")
def conventions_cmd(as_json: JsonOpt = False) -> None:
    """List the counting conventions `params` accepts."""
    conv = calc.conventions()
    if as_json:
        import json

        typer.echo(json.dumps(conv, indent=2))
        return
    for name, text in conv.items():
        typer.echo(f"{name:24} {text}")


@calc_app.command("models")
def models_cmd(as_json: JsonOpt = False) -> None:
    """List the offline registry of real checkpoint configs."""
    from calculators.params import registry

    rows = {name: registry.hub_id(name) for name in registry.names()}
    if as_json:
        import json

        typer.echo(json.dumps(rows, indent=2))
        return
    for name, hub in rows.items():
        typer.echo(f"{name:26} {hub}")
