"""Grade one submission against a pack: plan the probes, run, check, score, record.

Two modes share this path:

- `grade` (a TA, with the full pack): probes see the public demo cases plus hidden
  cases drawn from a fresh seed; only hidden cases score; the reference computes the
  expected outputs here, in the grader process.
- `check` (a student, possibly with only the public part): probes see the demo cases
  alone, compared with the expected outputs shipped in the public demo file. The
  reference is never loaded, so a public pack is enough.
"""

from __future__ import annotations

import hashlib
import secrets
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import nbformat
import torch

from grader.cases import Case, read_demo, write_inputs
from grader.checks import CheckResult
from grader.checks.answer import Context as AnswerContext
from grader.checks.answer import check_written, report_parts
from grader.checks.claims import check_series
from grader.checks.finetune import Context as FinetuneContext
from grader.checks.finetune import check_finetune
from grader.checks.finetune import info as finetune_info
from grader.checks.finetune import plan_requests as plan_finetune
from grader.checks.logs import check_logs
from grader.checks.printed import cross_check
from grader.checks.static import check_static
from grader.checks.tamper import diff_telemetry
from grader.checks.tensor import check_tensor
from grader.intake.runlogs import is_log
from grader.models.cache import cache_dir
from grader.models.cache import require as require_models
from grader.pack import Check, Pack, Question
from grader.record import GradeRecord, QuestionResult, environment
from grader.run.limits import Limits
from grader.run.result import ProbeRequest, RunResult, saved_run
from grader.run.runner import Runner
from grader.run.sandbox import Sandbox
from grader.written import Reports, report_section

HIDDEN_PREFIX = "hidden-"
QUICK_ENV = "GRADER_QUICK"
"""Set to "1" in the kernel in quick mode; the template trains briefly when it sees it."""


def check_id(question: Question, check: Check) -> str:
    return f"{question.id}-{check.target}"


class Plan:
    """The cases each tensor check runs, and the outputs they are held against."""

    def __init__(self, pack: Pack, mode: str, seed: int | None) -> None:
        self.pack, self.mode = pack, mode
        self.seed = seed if seed is not None else secrets.randbits(63)
        demo_file = pack.root / str(pack.raw["assignment"].get("demo", ""))
        if not demo_file.is_file():
            self.demo, self.demo_expected = {}, {}
        else:
            self.demo, self.demo_expected = read_demo(demo_file)
        self._hidden: dict[str, tuple[list[Case], dict[str, dict[str, torch.Tensor]]]] = {}

    def cases(self, target: str) -> tuple[list[Case], dict[str, dict[str, torch.Tensor]], list[str]]:
        """(all cases sent to the kernel, expected outputs by case, names of scored cases)."""
        demo = self.demo.get(target, [])
        expected = dict(self.demo_expected.get(target, {}))
        if self.mode == "check":
            return demo, expected, [c["name"] for c in demo]
        if target not in self._hidden:
            ref = self.pack.reference()
            gen = torch.Generator().manual_seed(
                int.from_bytes(hashlib.sha256(f"{self.seed}:{target}".encode()).digest()[:7]))
            hidden = []
            for case in ref.hidden_cases(target, gen):
                hidden.append({**case, "name": HIDDEN_PREFIX + case["name"]})
            run = getattr(ref, f"run_{target}")
            outs = {c["name"]: {k: v.detach() for k, v in run(c).items()} for c in hidden}
            self._hidden[target] = (hidden, outs)
        hidden, outs = self._hidden[target]
        expected.update(outs)
        return demo + hidden, expected, [c["name"] for c in hidden]


def _score_question(question: Question, results: list[CheckResult]) -> tuple[float, str, str]:
    gates = [r for r in results if r.gate]
    scored = [(c, r) for c, r in zip(question.checks, results, strict=True) if not r.gate]
    weight = sum(c.weight for c, _ in scored) or 1.0
    fraction = sum(c.weight * r.fraction for c, r in scored) / weight
    failed_gate = next((g for g in gates if g.fraction < 1), None)
    if failed_gate is not None:
        fraction = 0.0
    score = round(question.points * fraction, 6)
    if failed_gate is not None:
        return score, "failed", failed_gate.message
    statuses = {r.status for _, r in scored}
    if statuses == {"passed"}:
        status = "passed"
    elif "error" in statuses and not fraction:
        status = "error"
    else:
        status = "partial" if 0 < fraction < 1 else ("passed" if fraction == 1 else "failed")
    problems = [r.message for _, r in scored if r.status != "passed"]
    message = " ".join(problems) if problems else " ".join(r.message for _, r in scored)
    return score, status, message


def grade_notebook(pack: Pack, notebook: Path | None, *, mode: str = "grade",
                   seed: int | None = None,
                   sandbox: Sandbox | None = None, limits: Limits | None = None,
                   quick: bool | None = None, execute: bool = True,
                   hf_cache: str | Path | None = None,
                   on_event: Callable[[str], None] | None = None,
                   on_run: Callable[[RunResult], None] | None = None,
                   reports: Sequence[Path] = ()) -> GradeRecord:
    """Grade (or self-check) one notebook; a student's failure is a record, never an exception.

    `quick` (default: on for `check`, off for `grade`) tells the notebook, through
    `GRADER_QUICK=1`, to fine-tune briefly; accuracy thresholds are then not graded.
    `execute=False` grades the outputs saved in the notebook and re-evaluates nothing.
    `hf_cache` is the model cache mounted read-only in the sandbox (see grader.models).
    `reports` are the written reports handed in beside the notebook (.md, .txt, .pdf):
    `answer` checks read from them, manual questions quote them. `notebook=None` grades
    a report alone: nothing runs, and checks that need the notebook say so.
    """
    if mode not in ("grade", "check"):
        raise ValueError(f"mode must be grade or check, not {mode!r}")
    if mode == "grade" and pack.is_public:
        raise ValueError(f"{pack.root} is a public pack: it can self-check, not grade")
    quick = (mode == "check") if quick is None else quick
    emit = on_event or (lambda _msg: None)
    plan = Plan(pack, mode, seed)
    cache = cache_dir(hf_cache)
    tensor_checks: dict[str, tuple[Check, dict[str, Any], list[str]]] = {}
    if notebook is None:
        if not reports:
            raise ValueError("nothing to grade: no notebook and no report")
        emit(f"reading the report {Path(reports[0]).name}")
        return _record(pack, None, mode, plan, empty_run(), tensor_checks, quick=quick,
                       executed=False, hf_cache=cache, reports=reports)
    if not execute:
        emit(f"reading the saved outputs of {notebook.name}")
        run = saved_run(notebook)
        return _record(pack, notebook, mode, plan, run, tensor_checks,
                       quick=quick, executed=False, hf_cache=cache, reports=reports)
    if pack.models and any(c.kind == "finetune" for q in pack.questions for c in q.checks):
        require_models(cache, list(pack.models))
    box = sandbox or Sandbox.create()
    box = replace(box, hf_cache=str(cache) if cache.is_dir() else None,
                  env={**box.env, **({QUICK_ENV: "1"} if quick else {})})
    runner = Runner(box, limits or pack.limits)
    requests = []
    probe_source = pack.probe_source
    with tempfile.TemporaryDirectory(prefix="grader-plan-") as tmp:
        for question in pack.questions:
            for check in question.checks:
                if check.kind != "tensor":
                    continue
                cases, expected, scored = plan.cases(check.target)
                cid = check_id(question, check)
                inputs = Path(tmp) / f"{cid}.safetensors"
                write_inputs(inputs, cases)
                requests.append(ProbeRequest(cid, check.target, probe_source, inputs))
                tensor_checks[cid] = (check, expected, scored)
        for rid, (target, cases) in plan_finetune(pack, mode).items():
            inputs = Path(tmp) / f"{rid}.safetensors"
            write_inputs(inputs, cases)
            requests.append(ProbeRequest(rid, target, probe_source, inputs))
        emit(f"running {notebook.name}" + (" (quick)" if quick else ""))
        run = runner.run(notebook, files=pack.notebook_files(), probes=requests)
    if on_run is not None:
        on_run(run)  # the executed notebook and raw payloads, for tests and debugging
    emit(f"checking {notebook.name}")
    return _record(pack, notebook, mode, plan, run, tensor_checks,
                   quick=quick, executed=True, hf_cache=cache, reports=reports)


def empty_run() -> RunResult:
    """The run of a submission without a notebook: no cell, no probe."""
    return RunResult(executed=nbformat.v4.new_notebook(), cells=[], probes={}, telemetry={},
                     limits_hit=[], seconds=0.0, restarts=0, sandbox="no notebook")


def score_run(pack: Pack, notebook: Path | None, run: RunResult, *, mode: str, seed: int | None,
              quick: bool, executed: bool = True,
              hf_cache: str | Path | None = None, reports: Sequence[Path] = ()) -> GradeRecord:
    """Score a run again, without executing anything: after a rubric change (points,
    tolerances, credit tables), from a run stored by a batch. The hidden cases come back
    from the same seed, so the expected outputs are the ones the probes saw."""
    plan = Plan(pack, mode, seed)
    tensor_checks: dict[str, tuple[Check, dict[str, Any], list[str]]] = {}
    if executed:
        for question in pack.questions:
            for check in question.checks:
                if check.kind == "tensor":
                    _cases, expected, scored = plan.cases(check.target)
                    tensor_checks[check_id(question, check)] = (check, expected, scored)
    return _record(pack, notebook, mode, plan, run, tensor_checks, quick=quick,
                   executed=executed, hf_cache=cache_dir(hf_cache), reports=reports)


NOT_EXECUTED = "Not executed (--no-execute): this check calls your code, so it needs a run."


def _submission(notebook: Path | None, reports: Reports) -> dict[str, Any]:
    """Which files were handed in: the notebook (if any) and the reports beside it."""
    first = Path(reports.docs[0].path) if reports.docs else None
    shown = notebook or first
    out: dict[str, Any] = {
        "name": shown.name if shown else "submission", "path": str(notebook) if notebook else None,
        "sha256": hashlib.sha256(notebook.read_bytes()).hexdigest() if notebook else None,
        "evidence": "+".join(k for k, has in (("notebook", notebook is not None),
                                              ("report", bool(reports.docs))) if has)}
    if reports.docs or reports.errors:
        out["reports"] = reports.describe()
    return out


def _claim_text(check: Check, question: Question, run: RunResult, reports: Reports) -> str:
    """Where a student interprets curves: markdown cells tagged with the question, and the
    report's section under the rubric's `claim_from` headings."""
    tag = str(check.settings.get("claim_tag", question.id))
    cells = [c.source for c in run.executed.cells
             if c.cell_type == "markdown" and tag in c.metadata.get("tags", [])]
    headings = check.settings.get("claim_from") or []
    text = report_section(reports, question.id, headings) if headings and reports.docs else ""
    return "\n\n".join([*cells, text])


def _manual(check: Check, question: Question, reports: Reports) -> CheckResult:
    """A manual check; with `report` headings, the student's section is quoted for the TA."""
    headings = check.settings.get("report")
    text = report_section(reports, question.id, headings) if headings and reports.docs else ""
    evidence: dict[str, Any] = {"answer_text": text[:4000], "source": "report"} if text else {}
    return CheckResult("manual", 0.0, "manual", "Graded by a TA.", evidence)


def _record(pack: Pack, notebook: Path | None, mode: str, plan: Plan, run: RunResult,
            tensor_checks: dict[str, tuple[Check, dict[str, Any], list[str]]], *,
            quick: bool, executed: bool, hf_cache: Path | None,
            reports: Sequence[Path] = ()) -> GradeRecord:
    questions = []
    mismatches = []
    ft = FinetuneContext(pack=pack, run=run, mode=mode, quick=quick, executed=executed,
                         payloads=run.probes, hf_cache=hf_cache)
    # files handed in beside the notebook: reports to read, training logs to check
    logs = [Path(p) for p in reports if is_log(Path(p))]
    written = Reports.read([p for p in reports if not is_log(Path(p))])
    answers = AnswerContext(notebook=run.executed if notebook is not None else None,
                            reports=written, mode=mode,
                            reference=None if pack.is_public else pack.reference)
    for question in pack.questions:
        results = []
        for check in question.checks:
            if check.kind == "tensor" and not executed:
                result = CheckResult("tensor", 0.0, "not_graded", NOT_EXECUTED)
            elif check.kind == "tensor":
                _check, expected, scored = tensor_checks[check_id(question, check)]
                result = check_tensor(check, run.probes.get(check_id(question, check)), expected,
                                      scored, hidden=mode == "grade")
            elif check.kind == "static":
                result = check_static(check, run.executed)
            elif check.kind == "finetune":
                result = check_finetune(check, question.id, ft)
            elif check.kind == "answer":
                result = check_written(check, question.id, answers,
                                       report_parts(question.checks))
            elif check.kind == "logs":
                result = check_logs(check, logs, _claim_text(check, question, run, written))
            elif check.kind == "series":
                result = check_series(check, run.executed if notebook is not None else None,
                                      _claim_text(check, question, run, written))
            else:
                result = _manual(check, question, written)
            result.gate = check.gate
            results.append(result)
        printed = []
        for item in question.printed:
            owner = next((c for c in question.checks if c.kind == "tensor"), None)
            payload = run.probes.get(check_id(question, owner)) if owner else None
            expected = plan.demo_expected.get(owner.target, {}) if owner else {}
            row = cross_check(item, run, payload, expected)
            printed.append(row)
            if row.get("status") == "disagrees":
                mismatches.append({"question": question.id, **row})
        pending = next((r for r in results if r.status == "not_graded"), None)
        if all(c.kind == "manual" for c in question.checks):
            score, status, message = None, "manual", "Awaiting a TA."
        elif pending is not None:
            score, status, message = None, "not_graded", pending.message
        else:
            score, status, message = _score_question(question, results)
        questions.append(QuestionResult(
            id=question.id, title=question.title, score=score, max=question.points,
            status=status, message=message,
            hint=question.hint if status not in ("passed", "not_graded") else "",
            checks=[r.to_dict() for r in results], printed=printed))
    total = sum(q.score or 0.0 for q in questions)
    errors = [{"cell": c.index, "status": c.status, "ename": c.ename, "evalue": c.evalue,
               "tags": c.tags} for c in run.cells if c.status not in ("ok", "skipped")]
    devices = [finetune_info(p) for rid, p in run.probes.items() if rid.startswith("ft-predict")]
    device = next((d.get("device_name") or d.get("device") for d in devices if d), None)
    models = [{"question": q.id, **{k: m.get(k) for k in (
        "architecture", "reevaluated_accuracy", "train_seconds", "peak_memory_bytes",
        "parameters")}}
        for q in questions for c in q.checks
        if c["kind"] == "finetune" and isinstance(c["evidence"], dict)
        for m in c["evidence"].get("models", [])]
    return GradeRecord(
        assignment={"id": pack.id, "title": pack.title, "version": pack.version,
                    "fingerprint": pack.fingerprint()},
        submission={**_submission(notebook, written),
                    **({"logs": [p.name for p in logs]} if logs else {})},
        mode=mode, score=round(total, 6), max_score=pack.total,
        status="graded" if all(q.score is not None for q in questions) else "incomplete",
        questions=questions,
        run={"seconds": run.seconds, "restarts": run.restarts, "sandbox": run.sandbox,
             "executed": executed, "quick": quick, "device": device,
             "models": models,  # the fine-tuned models side by side (Q2(d) asks to compare)
             "limits_hit": run.limits_hit, "cell_errors": errors,
             "seed": plan.seed if mode == "grade" and executed else None,
             "cells_executed": sum(1 for c in run.cells if c.status != "skipped")},
        # no kernel ran (saved outputs, a report alone): there is no telemetry to compare
        flags={"tamper": diff_telemetry(run.telemetry) if executed and run.cells else [],
               "printed_mismatch": mismatches,
               "finetune": ft.flags},
        environment=environment())
