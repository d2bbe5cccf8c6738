"""The ``grader`` command: verbs that parse options and call the library.

Exit codes scripts can trust: 0 success, 1 a failure of the work itself,
2 bad usage or bad input (one line naming the field, never a traceback).
"""

from __future__ import annotations

import sys

import typer

from calculators.errors import CalculatorError
from grader.cli.answers import answers_app
from grader.cli.calc import calc_app
from grader.cli.check import check
from grader.cli.env import env_app
from grader.cli.grading import grade
from grader.cli.models import models_app
from grader.cli.pack import pack_app
from grader.cli.report import report
from grader.cli.serve import serve
from grader.cli.similarity import similarity
from grader.models.cache import ModelCacheError
from grader.pack import PackError

app = typer.Typer(
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
app.add_typer(calc_app, name="calc")
app.add_typer(answers_app, name="answers")
app.add_typer(pack_app, name="pack")
app.add_typer(models_app, name="models")
app.add_typer(env_app, name="env")
app.command("grade")(grade)
app.command("check")(check)
app.command("report")(report)
app.command("serve")(serve)
app.command("similarity")(similarity)


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


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; turns input errors into exit code 2."""
    try:
        # with standalone_mode=False click returns (not raises) the code of `typer.Exit`
        code = app(args=argv, standalone_mode=False)
    except CalculatorError as exc:
        typer.echo(f"error: {exc}", err=True)
        return EXIT_USAGE
    except PackError as exc:
        typer.echo(f"error: pack: {exc}", err=True)
        return EXIT_USAGE
    except ModelCacheError as exc:
        typer.echo(f"error: models: {exc}", err=True)
        return EXIT_USAGE
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        typer.echo("aborted", err=True)
        return 1
    except Exception as exc:
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
