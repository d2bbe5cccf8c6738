"""``grader answers``: check one written answer, or lint the arithmetic of a report.

Exit code 0 whatever the verdict (a wrong answer is a result, not a failure);
2 for bad usage or a file that cannot be read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from calculators import ConfigError, _render
from calculators.answers import check_answer, lint_arithmetic, parse_answer
from grader.checks.answer import Key, answer_key
from grader.checks.registry import with_evidence
from grader.pack import resolve_pack
from grader.written.reading import ReportReadError, read_report

answers_app = typer.Typer(
    help="Read students' written answers: check one against a value, lint a report's arithmetic.",
    no_args_is_help=True,
)


def pack_key(question: str, label: str | None, packs_dir: Path | None) -> tuple[str, Key]:
    """The `answer` check of `ASSIGNMENT:QUESTION` (its `label` line when several) and its key."""
    assignment, sep, qid = question.partition(":")
    if not sep or not assignment or not qid:
        raise ConfigError(f"{question!r} is not ASSIGNMENT:QUESTION (e.g. stat8021-a3:q3c)",
                          field="question")
    pack = resolve_pack(assignment, packs_dir)
    answering = with_evidence("answers")  # the kinds that judge one written answer
    checks = [c for c in pack.question(qid).checks if c.kind in answering]
    if label is not None:
        checks = [c for c in checks if getattr(c.settings, "label", None) == label]
    if not checks:
        raise ConfigError(f"{assignment}:{qid} has no answer check"
                          + (f" labelled {label!r}" if label else ""), field="question")
    reference = None if pack.is_public else pack.reference
    return f"{pack.id}:{qid}", answer_key(checks[0], qid, reference)


@answers_app.command("check")
def check(
    answer: Annotated[
        str, typer.Argument(help="The answer as the student wrote it, e.g. '25.77 GB'.")
    ],
    expected: Annotated[
        str | None,
        typer.Option(help="The right value, written the same way, e.g. '24 GiB' or '9437184'."),
    ] = None,
    question: Annotated[
        str | None,
        typer.Option(help="A pack question, ASSIGNMENT:QUESTION (e.g. stat8021-a3:q3c): use "
                     "its answer check (key, tolerance, conventions) instead of --expected."),
    ] = None,
    label: Annotated[
        str | None,
        typer.Option(help="With --question: which answer line when the question has several "
                     "(e.g. 'Loss' for stat8021-a3:q3a2)."),
    ] = None,
    packs_dir: Annotated[
        Path | None, typer.Option(help="Where pack ids are looked up (default ./reference).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Compare one answer with an expected value, or with a pack question's answer check.

    Examples:

      grader answers check "24 GB" --expected "25769803776 bytes"

      grader answers check "14.5 billion" --expected 14496989184 --json

      grader answers check "25.77 GB" --question stat8021-a3:q3c
    """
    if (expected is None) == (question is None):
        raise ConfigError("give exactly one of --expected and --question", field="expected")
    if question is not None:
        name, key = pack_key(question, label, packs_dir)
        verdict = key.check(answer)
        if as_json:
            typer.echo(_render.dumps({"question": name, **verdict.to_dict()}))
            return
        rows = [("answer", answer), ("verdict", verdict.verdict),
                ("credit", str(verdict.credit)), ("convention", verdict.convention or "-"),
                ("message", verdict.message)]
        Console().print(_render.table(f"{name}: {answer}", rows, ("", "")))
        return
    assert expected is not None
    target = parse_answer(expected)
    if not target.ok:
        raise ConfigError(f"could not read {expected!r}: {target.reason}", field="expected")
    value = (target.value, target.unit) if target.unit else target.value
    verdict = check_answer(answer, value)
    if as_json:
        typer.echo(_render.dumps(verdict.to_dict()))
        return
    typer.echo(f"{verdict.verdict} (credit {verdict.credit}): {verdict.message}")


@answers_app.command("lint")
def lint(
    report: Annotated[Path, typer.Argument(help="A report: .md, .txt, .pdf or .docx.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the slips as JSON.")] = False,
) -> None:
    """Find written equations whose arithmetic is wrong (a + b = c with c not a + b).

    Example: grader answers lint report.md
    """
    try:
        doc = read_report(report)
    except ReportReadError as exc:
        raise ConfigError(str(exc), field="report") from None
    slips = lint_arithmetic(doc.text)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "report": doc.to_dict(),
                    "slips": [
                        {
                            "line": s.line,
                            "end_line": s.end_line,
                            "left": s.left,
                            "written": s.written,
                            "true_value": str(s.true_value),
                            "message": s.message,
                        }
                        for s in slips
                    ],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    for note in doc.notes:
        typer.echo(f"note: {note}")
    if not slips:
        typer.echo(f"{report}: no arithmetic slips found")
        return
    rows = [(str(s.line), s.left, s.written, _render.jsonable(s.true_value)) for s in slips]
    table = _render.table(
        f"{report}: {len(slips)} arithmetic slip(s)",
        [tuple(map(str, r)) for r in rows],
        ("line", "computed side", "written", "true value"),
    )
    Console().print(table)
