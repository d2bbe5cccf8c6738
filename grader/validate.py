"""`grader pack validate`: is this pack fit to grade a class?

A pack that loads is not yet a pack that grades fairly. This runs what a careful
author would: every tensor target has a probe, a reference and hidden cases; the
public demo file agrees with the reference; the solution notebook earns every
automatic point and the untouched template earns none.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

import torch

from grader.cases import read_demo
from grader.checks.answer import answer_key
from grader.checks.finetune import PROBES as FINETUNE_PROBES
from grader.checks.static import parse_python
from grader.grade import grade_notebook
from grader.pack import Check, Pack, Question
from grader.run.sandbox import Sandbox


@dataclass
class Finding:
    name: str
    ok: bool
    detail: str


def _probe_names(pack: Pack) -> set[str]:
    tree = parse_python(pack.probe_source)
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def _answer_keys(pack: Pack, answers: list[tuple[Question, Check]]) -> Finding:
    """Every `answer` check's key computes (a bad calculator call would fail every student)."""
    problems = []
    for question, check in answers:
        try:
            answer_key(check, question.id, pack.reference)
        except Exception as exc:  # noqa: BLE001 - any failure is a finding, named
            problems.append(f"{question.id}: {exc}")
    return Finding("answer keys", not problems, "; ".join(problems) or
                   f"the key of each of {len(answers)} answer checks computes")


def validate_pack(pack: Pack, *, sandbox: Sandbox | None = None, run_notebooks: bool = True,
                  on_event: Callable[[str], None] | None = None) -> list[Finding]:
    findings = [Finding("rubric", True, f"{len(pack.questions)} questions, {pack.total:g} points")]
    targets = sorted({c.target for q in pack.questions for c in q.checks if c.kind == "tensor"})
    finetune = sorted({FINETUNE_PROBES[c.settings["evaluate"]] for q in pack.questions
                       for c in q.checks if c.kind == "finetune"})
    probes = _probe_names(pack)
    missing = [t for t in targets + finetune if t not in probes]
    findings.append(Finding("probes", not missing, f"missing probe(s): {missing}" if missing
                            else f"a probe for each of {len(targets) + len(finetune)} targets"))
    demo_file = pack.root / str(pack.raw["assignment"].get("demo", ""))
    demo_cases, demo_expected = read_demo(demo_file) if demo_file.is_file() else ({}, {})
    no_demo = [t for t in targets if t not in demo_cases]
    findings.append(Finding("demo cases", not no_demo, f"no demo case for {no_demo}" if no_demo
                            else f"demo cases for every target in {demo_file.name}"))
    if pack.is_public:
        findings.append(Finding("reference", True, "public part: reference checks skipped"))
        return findings
    ref = pack.reference()
    problems = []
    for target in targets:
        run = getattr(ref, f"run_{target}", None)
        if run is None:
            problems.append(f"no run_{target}")
            continue
        hidden = ref.hidden_cases(target, torch.Generator().manual_seed(0))
        if not hidden:
            problems.append(f"no hidden cases for {target}")
        for case in demo_cases.get(target, []):
            for key, want in run(case).items():
                got = demo_expected[target][case["name"]].get(key)
                if got is None or got.shape != want.shape or not torch.allclose(got, want,
                                                                                atol=1e-6):
                    problems.append(f"demo file out of date: {target}/{case['name']}/{key}")
    findings.append(Finding("reference", not problems, "; ".join(problems) or
                            "reference runs every target; the demo file agrees with it"))
    answers = [(q, c) for q in pack.questions for c in q.checks if c.kind == "answer"]
    if answers:
        findings.append(_answer_keys(pack, answers))
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
