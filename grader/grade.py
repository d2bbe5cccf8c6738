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

from grader.cases import write_inputs
from grader.checks import CheckResult
from grader.checks.kind import Context, Probe
from grader.checks.printed import cross_check
from grader.checks.registry import by_ta, kind, needs_models
from grader.checks.tamper import diff_telemetry
from grader.env import env_record, kernel_evidence, kernel_sandbox, pack_benign
from grader.intake.files import StudentFiles, default_folder
from grader.intake.runlogs import is_log
from grader.models.cache import cache_dir
from grader.models.cache import require as require_models
from grader.pack import Pack, Question
from grader.record import Flags, GradeRecord, QuestionResult, environment
from grader.run.limits import Limits
from grader.run.pool import DEFAULT_WARM, WarmPool
from grader.run.result import ProbeRequest, RunResult, saved_run
from grader.run.runner import Runner
from grader.run.sandbox import Sandbox
from grader.written import Reports

QUICK_ENV = "GRADER_QUICK"
"""Set to "1" in the kernel in quick mode; the template trains briefly when it sees it."""


def plan_probes(ctx: Context) -> list[Probe]:
    """Every check's requests to the kernel; requests sharing an id are merged, each case
    once (the accuracy and the reported-accuracy checks of one model share its predictions)."""
    merged: dict[str, Probe] = {}
    for question in ctx.pack.questions:
        for check in question.checks:
            for probe in kind(check.kind).probes(check, question, ctx):
                have = merged.setdefault(probe.id, Probe(probe.id, probe.function, []))
                names = {c["name"] for c in have.cases}
                have.cases.extend(c for c in probe.cases if c["name"] not in names)
    return list(merged.values())


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
    parts = [m.strip() for m in (problems or [r.message for _, r in scored]) if m.strip()]
    # one sentence each: a message without a full stop must not run into the next one
    message = " ".join(m if m[-1] in ".!?" else m + "." for m in parts)
    return score, status, message


def grade_notebook(pack: Pack, notebook: Path | None, *, mode: str = "grade",
                   seed: int | None = None,
                   sandbox: Sandbox | None = None, limits: Limits | None = None,
                   quick: bool | None = None, execute: bool = True,
                   hf_cache: str | Path | None = None,
                   on_event: Callable[[str], None] | None = None,
                   on_run: Callable[[RunResult], None] | None = None,
                   reports: Sequence[Path] = (),
                   files: StudentFiles | None = None,
                   kernels: WarmPool | None = None) -> GradeRecord:
    """Grade (or self-check) one notebook; a student's failure is a record, never an exception.

    `quick` (default: on for `check`, off for `grade`) tells the notebook, through
    `GRADER_QUICK=1`, to fine-tune briefly; accuracy thresholds are then not graded.
    `execute=False` grades the outputs saved in the notebook and re-evaluates nothing.
    `hf_cache` is the model cache mounted read-only in the sandbox (see grader.models).
    `reports` are the written reports handed in beside the notebook (.md, .txt, .pdf):
    checks of written answers read from them, a TA's questions quote them. `notebook=None` grades
    a report alone: nothing runs, and checks that need the notebook say so.
    `files`: the student's files copied beside the notebook (`Pack.student_files`); by
    default those of the notebook's own folder, unless other notebooks share it.
    `kernels`: a pool of warm sandboxed kernels (grader.run.pool) to run the notebook in,
    warmed with the pack's `[environment] warm` modules; by default a cold kernel.
    """
    if mode not in ("grade", "check"):
        raise ValueError(f"mode must be grade or check, not {mode!r}")
    if mode == "grade" and pack.is_public:
        raise ValueError(f"{pack.root} is a public pack: it can self-check, not grade")
    quick = (mode == "check") if quick is None else quick
    emit = on_event or (lambda _msg: None)
    seed = seed if seed is not None else secrets.randbits(63)
    cache = cache_dir(hf_cache)
    if notebook is None:
        if not reports:
            raise ValueError("nothing to grade: no notebook and no report")
        emit(f"reading the report {Path(reports[0]).name}")
        return score_run(pack, None, empty_run(), mode=mode, seed=seed, quick=quick,
                         executed=False, hf_cache=cache, reports=reports)
    if not execute:
        emit(f"reading the saved outputs of {notebook.name}")
        return score_run(pack, notebook, saved_run(notebook), mode=mode, seed=seed, quick=quick,
                         executed=False, hf_cache=cache, reports=reports)
    if files is None:
        files = pack.student_files(default_folder(notebook), notebook)
    if pack.models and any(needs_models(c.kind) for _, c in pack.checks()):
        require_models(cache, list(pack.models))
    box = kernel_box(pack, sandbox or Sandbox.create(), quick=quick, hf_cache=cache)
    runner = (kernels.runner(box, limits or pack.limits, warm_modules(pack)) if kernels
              else Runner(box, limits or pack.limits))
    probe_source = pack.probe_source
    requests = []
    with tempfile.TemporaryDirectory(prefix="grader-plan-") as tmp:
        ctx = Context(pack=pack, mode=mode, seed=seed, hf_cache=cache,  # sizes shard plans
                      gpus=box.gpus)  # Part 2's evaluator gets the kernels' GPUs
        for probe in plan_probes(ctx):
            inputs = Path(tmp) / f"{probe.id}.safetensors"
            write_inputs(inputs, probe.cases)
            requests.append(ProbeRequest(probe.id, probe.function, probe_source, inputs))
        emit(f"running {notebook.name}" + (" (quick)" if quick else ""))
        # the pack's files last: a student file of the same name does not replace them
        run = runner.run(notebook, files=[*files.copies(), *pack.notebook_files()],
                         probes=requests)
    if on_run is not None:
        on_run(run)  # the executed notebook and raw payloads, for tests and debugging
    emit(f"checking {notebook.name}")
    return score_run(pack, notebook, run, mode=mode, seed=seed, quick=quick, hf_cache=cache,
                     reports=reports, context=ctx, files=files)


def kernel_box(pack: Pack, box: Sandbox, *, quick: bool,
               hf_cache: str | Path | None = None) -> Sandbox:
    """The sandbox this pack's kernels run in: `box` with the model cache bound read-only,
    quick mode's variable, the pack's kernel environment (EnvMissing names the command
    that builds it) and its shims.

    Why one function: warm kernels are started before their submission is known
    (`prime_kernels`: the service's workers, a batch's), and a pool hands a kernel only to
    a run whose sandbox equals the one the kernel was started with. A prime that built
    its sandbox apart from `grade_notebook` would drift from it and silently cost every
    warm start."""
    cache = cache_dir(hf_cache)
    box = replace(box, hf_cache=str(cache) if cache.is_dir() else None,
                  env={**box.env, **({QUICK_ENV: "1"} if quick else {})})
    return kernel_sandbox(pack, box)


def prime_kernels(pool: WarmPool, pack: Pack, box: Sandbox, *, quick: bool,
                  hf_cache: str | Path | None = None, limits: Limits | None = None) -> None:
    """Start `pool`'s warm kernels for this pack now, as `grade_notebook(..., quick=quick,
    sandbox=box, limits=limits, kernels=pool)` will ask for them."""
    pool.prime(kernel_box(pack, box, quick=quick, hf_cache=hf_cache), limits or pack.limits,
               warm_modules(pack))


def warm_modules(pack: Pack) -> tuple[str, ...]:
    """What a warm kernel imports for this pack: `[environment] warm`, default torch."""
    warm = (pack.raw.get("environment") or {}).get("warm")
    return tuple(warm) if warm is not None else DEFAULT_WARM


def empty_run() -> RunResult:
    """The run of a submission without a notebook: no cell, no probe."""
    return RunResult(executed=nbformat.v4.new_notebook(), cells=[], probes={}, telemetry={},
                     limits_hit=[], seconds=0.0, restarts=0, sandbox="no notebook")


def score_run(pack: Pack, notebook: Path | None, run: RunResult, *, mode: str, seed: int | None,
              quick: bool, executed: bool = True, hf_cache: str | Path | None = None,
              reports: Sequence[Path] = (), context: Context | None = None,
              files: StudentFiles | None = None) -> GradeRecord:
    """Score a run: right after it, or again without executing anything (after a rubric
    change, from a run stored by a batch). The hidden cases come back from the same seed,
    so the expected outputs are the ones the probes saw; `context` reuses what planning
    computed."""
    logs = [Path(p) for p in reports if is_log(Path(p))]
    written = Reports.read([p for p in reports if not is_log(Path(p))])
    ctx = context or Context(pack=pack, mode=mode, seed=seed if seed is not None else 0)
    ctx.run, ctx.executed, ctx.quick = run, executed, quick
    ctx.notebook = run.executed if notebook is not None else None
    ctx.reports, ctx.logs, ctx.hf_cache = written, logs, cache_dir(hf_cache)
    ctx.cache["student-files"] = files  # a static rule may read a module of the student's
    questions = [_question(question, ctx) for question in pack.questions]
    total = sum(q.score or 0.0 for q in questions)
    errors = [{"cell": c.index, "status": c.status, "ename": c.ename, "evalue": c.evalue,
               "tags": c.tags} for c in run.cells if c.status not in ("ok", "skipped")]
    facts: dict[str, Any] = {"device": None, "models": []}  # what the kinds fill in
    for name in dict.fromkeys(c.kind for _, c in pack.checks()):
        facts.update(kind(name).run_facts(run, questions))
    return GradeRecord(
        assignment={"id": pack.id, "title": pack.title, "version": pack.version,
                    "fingerprint": pack.fingerprint()},
        submission={**_submission(notebook, written),
                    **({"logs": [p.name for p in logs]} if logs else {}),
                    **(files.to_record() if files is not None else {})},
        mode=mode, score=round(total, 6), max_score=pack.total,
        status="graded" if all(q.score is not None for q in questions) else "incomplete",
        questions=questions,
        run={"seconds": run.seconds, "restarts": run.restarts, "sandbox": run.sandbox,
             "executed": executed, "quick": quick, **facts,
             "limits_hit": run.limits_hit, "cell_errors": errors,
             "seed": ctx.seed if mode == "grade" and executed else None,
             "cells_executed": sum(1 for c in run.cells if c.status != "skipped"),
             **({"hangs": run.telemetry["hangs"]} if run.telemetry.get("hangs") else {}),
             **kernel_evidence(pack, run, executed)},
        # no kernel ran (saved outputs, a report alone): there is no telemetry to compare
        flags=_flags(ctx, {"tamper": diff_telemetry(run.telemetry, pack_benign(pack)),
                           "grader": list(run.telemetry.get("grader_failures", []))}
                     if executed and run.cells else {}),
        environment={**environment(), **env_record(pack)})


def _flags(ctx: Context, kernel: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """The record's flags: what the kernel's telemetry showed, then what the checks raised
    (`ctx.flags`): every field of `Flags`, then each flag a kind declares (`Kind.flags`)
    that was raised. A flag no kind declares and the record has no field for is the
    grader's bug, said here, never dropped on the way to the TA."""
    names = Flags.names()
    unknown = set(ctx.flags) - set(names)
    if unknown:
        raise ValueError(f"checks raised flags no check kind declares: {sorted(unknown)}")
    return {name: [*kernel.get(name, []), *ctx.flags.get(name, [])] for name in names}


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


def _question(question: Question, ctx: Context) -> QuestionResult:
    """Every check of one question through its kind, the printed cross-checks, the score."""
    assert ctx.run is not None
    results = []
    for check in question.checks:
        result = kind(check.kind).score(check, question, ctx)
        result.gate = check.gate
        results.append(result)
    printed = []
    # what the printed values are checked against: the first check that offers a source
    source = next((found for c in question.checks if question.printed
                   and (found := kind(c.kind).printed_source(c, question, ctx)) is not None),
                  (None, {}))
    for item in question.printed:
        row = cross_check(item, ctx.run, *source)
        printed.append(row)
        if row.get("status") == "disagrees":
            ctx.flags.setdefault("printed_mismatch", []).append({"question": question.id, **row})
    pending = next((r for r in results if r.status == "not_graded"), None)
    # a check that cannot score this submission (a curve claim without a notebook, figures
    # without logs) hands the whole question to a TA: it reaches the TA sheet, and the
    # record stays incomplete until the TA's points are merged
    for_ta = next((r for r in results if r.status == "manual" and not by_ta(r.kind)), None)
    if all(by_ta(c.kind) for c in question.checks):
        score, status, message = None, "manual", "Awaiting a TA."
    elif pending is not None:
        score, status, message = None, "not_graded", pending.message
    elif for_ta is not None:
        score, status, message = None, "manual", for_ta.message
    else:
        score, status, message = _score_question(question, results)
    return QuestionResult(
        id=question.id, title=question.title, score=score, max=question.points,
        status=status, message=message,
        hint=question.hint if status not in ("passed", "not_graded") else "",
        checks=[r.to_dict() for r in results], printed=printed)
