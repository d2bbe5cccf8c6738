"""`grader pack validate`: is this pack fit to grade a class?

A pack that loads is not yet a pack that grades fairly. This runs what a careful
author would: every probe a check asks for is defined; each kind's own checks and
preflight (a reference and hidden cases for every probed target, the public demo file
agreeing with the reference); the solution notebook earns every
automatic point and the untouched template earns none.

An author's slip is a `PackError` naming the key or the case (a probe file that does
not parse, a template that is no notebook, a reference whose `hidden_cases` raises or
returns something that is no case), never a traceback from inside the grader: the
author reads what to fix, not where the grader tripped on it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import nbformat

from grader.checks.kind import Context, Finding
from grader.checks.pysource import parse_python
from grader.checks.registry import by_ta, kind, kinds
from grader.grade import grade_notebook
from grader.pack import Pack, PackError
from grader.run.sandbox import Sandbox

__all__ = ["Finding", "validate_pack"]


def _probe_names(pack: Pack) -> set[str]:
    names = set()
    for path in pack.probes:
        try:
            tree = parse_python(path.read_text(encoding="utf-8"))
        except SyntaxError as exc:
            raise PackError("assignment.probes", f"{path.name}:{exc.lineno}: {exc.msg}"
                            ) from None
        except (UnicodeDecodeError, ValueError) as exc:
            raise PackError("assignment.probes", f"{path.name}: {exc}") from None
        names |= {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    return names


def _notebook_readable(key: str, path: Path | None) -> None:
    if path is None:
        return
    try:
        nbformat.read(path, as_version=4)
    except Exception as exc:  # noqa: BLE001 - whatever nbformat refuses is the author's slip
        raise PackError(f"assignment.{key}", f"{path.name} is not a notebook nbformat can "
                        f"read ({type(exc).__name__}: {str(exc)[:200]})") from None


def preflight(pack: Pack, seed: int = 0) -> None:
    """What every submission's grading computes from the pack alone (each kind's
    `preflight`: hidden cases and their reference outputs, say), once: an author's slip
    is one PackError naming the case before any notebook runs. A batch calls it with its
    seed before any worker starts."""
    ctx = Context(pack=pack, mode="grade", seed=seed)
    for name, each in kinds().items():
        checks = pack.checks(name)
        if checks:
            each.preflight(ctx, checks)


def validate_pack(pack: Pack, *, sandbox: Sandbox | None = None, run_notebooks: bool = True,
                  on_event: Callable[[str], None] | None = None) -> list[Finding]:
    findings = [Finding("rubric", True, f"{len(pack.questions)} questions, {pack.total:g} points")]
    wanted = sorted({name for _, c in pack.checks() for name in kind(c.kind).probe_functions(c)})
    missing = [name for name in wanted if name not in _probe_names(pack)]
    findings.append(Finding("probes", not missing, f"missing probe(s): {missing}" if missing
                            else f"a probe for each of {len(wanted)} targets"))
    _notebook_readable("template", pack.template)
    _notebook_readable("solution", pack.solution)
    if not pack.is_public:
        preflight(pack)
    for name, each in kinds().items():
        checks = pack.checks(name)
        if checks:
            try:
                findings += each.validate(pack, checks)
            except PackError:
                raise
            except Exception as exc:  # noqa: BLE001 - named by the check kind at fault
                raise PackError(f"checks (kind {name})", f"validating them raised "
                                f"{type(exc).__name__}: {str(exc)[:300]}") from None
    if pack.is_public:
        findings.append(Finding("reference", True, "public part: reference checks skipped"))
        return findings
    if not run_notebooks:
        return findings
    auto = sum(q.points for q in pack.questions if not all(by_ta(c.kind) for c in q.checks))
    if pack.solution is not None:
        if on_event:
            on_event("grading the solution notebook")
        record = grade_notebook(pack, pack.solution, sandbox=sandbox)
        lost = [f"{q.id}: {q.message}" for q in record.questions
                if q.score is not None and q.score < q.max]
        # a question the solution alone cannot have scored (per-seed figures with no
        # logs, a report-only claim) goes to a TA, as it would for a student: the
        # solution owes full marks on the others, and the TA's share is named
        for_ta = [q for q in record.questions if q.score is None and q.status == "manual"]
        owed = auto - sum(q.max for q in for_ta
                          if not all(by_ta(c.kind) for c in pack.question(q.id).checks))
        handed = [q.id for q in for_ta
                  if not all(by_ta(c.kind) for c in pack.question(q.id).checks)]
        verb = "awaits" if len(handed) == 1 else "await"
        findings.append(Finding("solution", not lost and record.score == owed,
                                f"scores {record.score:g}/{owed:g}" +
                                (f" ({'; '.join(lost)})" if lost else "") +
                                (f"; {', '.join(handed)} {verb} a TA (what would score "
                                 "them is not in the solution)" if handed else "")))
    else:
        findings.append(Finding("solution", False, "no solution notebook in the rubric"))
    if on_event:
        on_event("grading the template notebook")
    record = grade_notebook(pack, pack.template, sandbox=sandbox)
    earned = [q.id for q in record.questions if q.score]
    findings.append(Finding("template", not earned, f"the untouched template scores "
                            f"{record.score:g}" + (f" (on {earned})" if earned else "")))
    return findings
