"""The CLI starts at once (issue 28): `grader --help` imports none of its verbs, and a verb
imports what it needs, nothing of grading (torch, nbclient, the templates) for the
calculators and answer checks a student or a script runs many times."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grader.cli import VERBS, load_verb

GRADING = ("torch", "nbclient", "nbformat", "jinja2", "transformers", "safetensors", "fitz",
           "docx", "pypdf", "ray", "fastapi", "uvicorn")
"""What only grading, reports or the service need."""


def _imported_after(*argv: str) -> set[str]:
    """The modules a fresh interpreter holds after `grader ARGV` (run in-process there)."""
    code = ("import sys, json, contextlib, io\n"
            "from grader.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    code = main({list(argv)!r})\n"
            "print(json.dumps([code, sorted(sys.modules)]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)
    code, modules = json.loads(done.stdout.splitlines()[-1])
    assert code == 0, done.stderr
    return set(modules)


def _top(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_help_imports_no_verb_and_no_calculator():
    modules = _imported_after("--help")
    assert not {m for m in modules if m.startswith("grader.cli.")}
    assert not _top(modules) & {"sympy", "calculators", "pydantic", *GRADING}


@pytest.mark.parametrize("argv", [
    ("calc", "params", "bert-base-uncased"),
    ("calc", "ce", "--logits", "0.5,0.1,3.0,0.2,1.0", "--target", "2", "--json"),
    ("answers", "check", "25.77 GB", "--question", "stat8021-a3:q3c"),
], ids=["calc-params", "calc-ce", "answers-check-pack-key"])
def test_calculators_and_answer_checks_import_nothing_of_grading(argv):
    modules = _imported_after(*argv)
    assert not _top(modules) & set(GRADING), sorted(_top(modules) & set(GRADING))
    assert not {m for m in modules if m.startswith("grader.cli.")} - {
        f"grader.cli.{argv[0]}", "grader.cli.options"}


@pytest.mark.parametrize("name", list(VERBS))
def test_the_listed_line_is_the_verbs_own_help(name):
    command = load_verb(name)
    assert command.name == name
    own = " ".join((command.help or "").split("\n\n")[0].split())
    assert VERBS[name].help == own


def test_an_unknown_verb_is_a_usage_error_naming_it(capsys):
    from grader.cli import main

    assert main(["grdae"]) == 2
    assert "No such command 'grdae'" in capsys.readouterr().err
