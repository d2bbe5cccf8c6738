"""The ``grader`` command: verbs that parse options and call the library.

Exit codes scripts can trust: 0 success, 1 a failure of the work itself,
2 bad usage or bad input (one line naming the field, never a traceback).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NamedTuple

import click
import typer
from typer.core import TyperGroup


class Verb(NamedTuple):
    module: str
    attribute: str
    help: str
    """The line `grader --help` shows (tests/grader/cli/test_cli_startup.py holds it to the
    command's own help, so the two cannot drift apart)."""


VERBS: dict[str, Verb] = {
    "grade": Verb("grader.cli.grading", "grade", "Grade submissions on hidden inputs; one "
                  "record each in --out, reports, a table."),
    "check": Verb("grader.cli.check", "check", "Self-check a notebook on the public demo "
                  "inputs (works from a public pack)."),
    "report": Verb("grader.cli.report", "report", "Render per-student reports, the class "
                   "summary and gradebooks from graded records."),
    "serve": Verb("grader.cli.serve", "serve", "Serve the calculators, answer checks and "
                  "notebook self-check over HTTP."),
    "similarity": Verb("grader.cli.similarity", "similarity", "Rank pairs of students by "
                       "evidence: the same wrong outputs on hidden cases, code beyond the "
                       "template, the same unusual wrong numbers and phrasing."),
    "calc": Verb("grader.cli.calc", "calc_app", "Exact Transformer arithmetic: parameters, "
                 "LoRA, memory, cross-entropy, FLOPs."),
    "answers": Verb("grader.cli.answers", "answers_app", "Read students' written answers: "
                    "check one against a value, lint a report's arithmetic."),
    "pack": Verb("grader.cli.pack", "pack_app", "Check an assignment pack, or export its "
                 "public part."),
    "models": Verb("grader.cli.models", "models_app", "The offline Hugging Face cache grading "
                   "uses (seed tiny models, fetch real ones)."),
    "env": Verb("grader.cli.env", "env_app", "Kernel environments of packs: the packages a "
                "pack's notebooks import beyond the grader's own."),
}
"""Every verb, found by name and imported only when it runs: `grader calc ...` never
imports torch, nbclient or the report templates, and `grader --help` imports none of the
verbs (a student checking ten answers from a script waits for sympy once per answer, not
for every subcommand's imports)."""


def load_verb(name: str) -> click.Command:
    """The click command of one verb, its module imported now."""
    verb = VERBS[name]
    target = getattr(importlib.import_module(verb.module), verb.attribute)
    if isinstance(target, typer.Typer):
        # mounted under the root, as `add_typer` would: the root offers no completion
        # install, so neither does a verb (typer reads this flag of the app it builds)
        target._add_completion = False
        command = typer.main.get_command(target)
    else:
        one = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
        one.command(name)(target)
        command = typer.main.get_command(one)
    command.name = name
    return command


class _Verbs(TyperGroup):
    """The root group: lists the verbs from `VERBS` and imports one when it is run."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(VERBS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        # what help listings ask for: the name and its line, nothing imported
        verb = VERBS.get(cmd_name)
        return None if verb is None else click.Command(cmd_name, help=verb.help,
                                                       short_help=verb.help)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[Any, ...]:
        name, _listed, rest = super().resolve_command(ctx, args)
        return name, load_verb(str(name)), rest


app = typer.Typer(
    cls=_Verbs,
    name="grader",
    help="Grade Transformer notebooks and compute exact Transformer arithmetic.",
    epilog=(
        "Examples: grader grade submissions/stat8021-a3/*.ipynb -a stat8021-a3 --out grades | "
        "grader check Transformer_practice.ipynb -a stat8021-a3 | "
        "grader calc params bert-base-uncased | "
        "grader calc memory attention --seq-len 16384 --heads 48 | "
        "grader calc ce --logits 0.5,0.1,3.0,0.2,1.0 --target 2 --json"
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from grader import __version__

        typer.echo(f"grader {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Grade Transformer notebooks and compute exact Transformer arithmetic."""


EXIT_USAGE = 2

INPUT_ERRORS = (("calculators.errors", "CalculatorError", "error: "),
                ("grader.pack", "PackError", "error: pack: "),
                ("grader.models.cache", "ModelCacheError", "error: models: "))
"""Errors of the user's input (exit 2, one line), by the module that defines each: an
exception can only be one of these if its module was imported, so none is imported here."""


def input_error_line(exc: BaseException) -> str | None:
    """The one line an input error prints (`error: pack: assignment.title: missing`), or
    None when `exc` is no input error. A pack error about the pack as a whole (its field
    is "pack") says "pack:" once, not twice."""
    for module, name, prefix in INPUT_ERRORS:
        kind = getattr(sys.modules.get(module), name, None)
        if isinstance(kind, type) and isinstance(exc, kind):
            text = str(exc)
            if prefix.endswith("pack: ") and text.startswith("pack: "):
                text = text[len("pack: "):]
            return f"{prefix}{text}"
    return None


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; turns input errors into exit code 2."""
    try:
        # with standalone_mode=False click returns (not raises) the code of `typer.Exit`
        code = app(args=argv, standalone_mode=False)
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        typer.echo("aborted", err=True)
        return 1
    except Exception as exc:
        line = input_error_line(exc)
        if line is not None:
            typer.echo(line, err=True)
            return EXIT_USAGE
        # click's usage errors (typer vendors its own click) carry their exit code
        if callable(getattr(exc, "show", None)) and isinstance(
            getattr(exc, "exit_code", None), int
        ):
            exc.show()
            return exc.exit_code
        raise
    return code if isinstance(code, int) else 0


def run() -> None:
    sys.exit(main())
