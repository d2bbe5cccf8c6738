"""`grader pack validate`: is this pack fit to grade a class?

A pack that loads is not yet a pack that grades fairly. This runs what a careful
author would: every tensor target has a probe, a reference and hidden cases; the
public demo file agrees with the reference; the solution notebook earns every
automatic point and the untouched template earns none.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from grader.checks.kind import Finding
from grader.checks.registry import kind, kinds
from grader.checks.static import parse_python
from grader.grade import grade_notebook
from grader.pack import Pack
from grader.run.sandbox import Sandbox

__all__ = ["Finding", "validate_pack"]


def _probe_names(pack: Pack) -> set[str]:
    tree = parse_python(pack.probe_source)
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def validate_pack(pack: Pack, *, sandbox: Sandbox | None = None, run_notebooks: bool = True,
                  on_event: Callable[[str], None] | None = None) -> list[Finding]:
    findings = [Finding("rubric", True, f"{len(pack.questions)} questions, {pack.total:g} points")]
    wanted = sorted({name for _, c in pack.checks() for name in kind(c.kind).probe_functions(c)})
    missing = [name for name in wanted if name not in _probe_names(pack)]
    findings.append(Finding("probes", not missing, f"missing probe(s): {missing}" if missing
                            else f"a probe for each of {len(wanted)} targets"))
    for name, each in kinds().items():
        checks = pack.checks(name)
        if checks:
            findings += each.validate(pack, checks)
    if pack.is_public:
        findings.append(Finding("reference", True, "public part: reference checks skipped"))
        return findings
    if not run_notebooks:
        return findings
    auto = sum(q.points for q in pack.questions if any(c.kind != "manual" for c in q.checks))
    if pack.solution is not None:
        if on_event:
            on_event("grading the solution notebook")
        record = grade_notebook(pack, pack.solution, sandbox=sandbox)
        lost = [f"{q.id}: {q.message}" for q in record.questions
                if q.score is not None and q.score < q.max]
        findings.append(Finding("solution", not lost and record.score == auto,
                                f"scores {record.score:g}/{auto:g}" +
                                (f" ({'; '.join(lost)})" if lost else "")))
    else:
        findings.append(Finding("solution", False, "no solution notebook in the rubric"))
    if on_event:
        on_event("grading the template notebook")
    record = grade_notebook(pack, pack.template, sandbox=sandbox)
    earned = [q.id for q in record.questions if q.score]
    findings.append(Finding("template", not earned, f"the untouched template scores "
                            f"{record.score:g}" + (f" (on {earned})" if earned else "")))
    return findings
