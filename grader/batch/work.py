"""One submission graded in a worker process (local pool or Ray): the unit of a batch.

A worker gets a `Task` (plain data, so it pickles to another process or machine),
grades with the same `grade_notebook` as everything else, and sends back the record
and the run's files; it writes nothing itself. The driver alone writes the output
folder, so two workers can never race on it and a lost worker loses nothing written.
"""

from __future__ import annotations

import contextlib
import os
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_PACKS: dict[tuple[str, tuple[tuple[str, str], ...]], Any] = {}


@dataclass(frozen=True)
class Task:
    key: str
    name: str
    notebook: str
    pack_root: str
    mode: str = "grade"
    seed: int | None = None
    quick: bool = False
    hf_cache: str | None = None
    sandbox: str = "auto"
    limits: tuple[tuple[str, Any], ...] = ()
    data: tuple[tuple[str, str], ...] = ()
    reports: tuple[str, ...] = ()
    """Reports handed in beside the notebook (written answers are read from them)."""
    gpus: tuple[str, ...] | None = None
    """None: the GPUs this worker was given (`CUDA_VISIBLE_DEVICES`, as Ray sets it)."""
    extra: dict[str, Any] = field(default_factory=dict)


def set_threads(threads: int) -> None:
    """Pin torch's thread pools in a worker so N workers do not fight over the cores."""
    os.environ["OMP_NUM_THREADS"] = str(threads)
    import torch

    torch.set_num_threads(threads)


_WARM: list[Any] = []
"""The worker's pool of warm kernels (`grader.run.pool.WarmPool`) when the batch asked for
them (`grader grade --warm`): empty, and every notebook starts a cold kernel, otherwise."""


def init_worker(threads: int, warm: int = 0, prime: Task | None = None,
                overlap: bool = True) -> None:
    """A local worker's start: torch's threads pinned and, with `warm`, a pool keeping that
    many warm kernels, so that the next notebook's kernel starts (and imports torch) while
    this worker runs, scores and reports the current one.

    `prime` (the batch's first task, whose pack, sandbox, limits and mode every task of
    the batch shares) starts the worker's first kernel now, before the worker takes its
    first submission, so the first notebook finds it warming too. A warm worker ends on
    SIGTERM or Ctrl-C, and when its driver dies, with its kernels destroyed first
    (`grader.run.pool.exit_now`): whatever it was doing, no kernel outlives it.
    `overlap`: see `grader.run.pool.WarmPool` (False: nothing warms beside a run)."""
    set_threads(threads)
    if not warm:
        return
    import signal

    from grader.run import pool

    def _stop(signum: int, _frame: Any) -> None:
        pool.exit_now(128 + signum)

    _WARM[:] = [pool.WarmPool(warm, overlap=overlap)]
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    pool.end_with_parent()
    if prime is not None and not prime.extra.get("problem"):
        # a fault here (a missing environment, say) is the first task's to meet and report
        with contextlib.suppress(Exception):
            prime_worker(_WARM[0], prime)


def prime_worker(warm_pool: Any, task: Task) -> None:
    """Start `warm_pool`'s kernels for `task`'s sandbox, as `grade_task` will ask for them."""
    from grader.grade import prime_kernels

    pack = _pack(task)
    box, limits = _sandbox(task, pack)
    prime_kernels(warm_pool, pack, box, quick=task.quick, hf_cache=task.hf_cache,
                  limits=limits)


def _sandbox(task: Task, pack: Any) -> tuple[Any, Any]:
    """The sandbox (before the pack's own additions) and limits a task's notebook runs
    with: shared by `grade_task` and `prime_worker`, so a primed kernel fits."""
    from grader.run.sandbox import Sandbox, gpus_from_env

    gpus = gpus_from_env() if task.gpus is None else task.gpus
    limits = pack.limits.merged(dict(task.limits)) if task.limits else None
    return Sandbox.create(task.sandbox, gpus=gpus), limits


def _pack(task: Task) -> Any:
    from grader.pack import load_pack

    cache_key = (task.pack_root, task.data)
    if cache_key not in _PACKS:
        pack = load_pack(task.pack_root)
        if task.data:
            pack = pack.with_data({role: Path(path) for role, path in task.data})
        _PACKS[cache_key] = pack
    return _PACKS[cache_key]


def grade_task(task: Task, files: Any | None = None) -> dict[str, Any]:
    """Grade one submission; {"key", "record", "run_files", "seconds"} or {"key", "error"}.

    The student's failures are records (a crash, a limit hit); only the grader's own
    failures come back as "error", and those are what the driver retries. `files`: the
    student's files (`StudentFiles`) when the caller took them already (a Ray task gets
    them shipped, grader.batch.ship); else those of `extra["folder"]`.
    """
    from grader.batch.store import run_to_files
    from grader.grade import grade_notebook

    started = time.perf_counter()
    try:
        pack = _pack(task)
        problem = task.extra.get("problem") or (
            notebook_problem(Path(task.notebook)) if task.notebook else None)
        if problem:  # the student's files, not the grader, are at fault
            record = unreadable_record(pack, Path(task.notebook) if task.notebook else None,
                                       problem, mode=task.mode, quick=task.quick,
                                       name=task.name)
            return {"key": task.key, "record": record.to_dict(), "run_files": {},
                    "seconds": round(time.perf_counter() - started, 3), "pid": os.getpid()}
        box, limits = _sandbox(task, pack)
        runs: list[Any] = []
        notebook = Path(task.notebook) if task.notebook else None  # a report alone
        record = grade_notebook(pack, notebook, mode=task.mode, seed=task.seed,
                                sandbox=box, limits=limits, quick=task.quick,
                                hf_cache=task.hf_cache, on_run=runs.append,
                                reports=[Path(r) for r in task.reports],
                                files=files if files is not None else (
                                    pack.student_files(Path(task.extra["folder"]), notebook)
                                    if task.extra.get("folder") and notebook else None),
                                kernels=_WARM[0] if _WARM else None)
        files = run_to_files(runs[0]) if runs else {}
        return {"key": task.key, "record": record.to_dict(), "run_files": files,
                "seconds": round(time.perf_counter() - started, 3), "pid": os.getpid()}
    except Exception as exc:  # noqa: BLE001 - the grader's own failure, reported to the driver
        return {"key": task.key, "error": f"{type(exc).__name__}: {exc}",
                "traceback": traceback.format_exc(limit=5), "pid": os.getpid(),
                "seconds": round(time.perf_counter() - started, 3)}


def notebook_problem(path: Path) -> str | None:
    """Why `path` cannot be run as a notebook (None when it can be read as one).

    A truncated upload, a stray text file or an empty file is the student's result
    (`unreadable_record`), never a grader failure to retry.
    """
    import json

    if path.suffix.lower() != ".ipynb":
        kind = f"a {path.suffix.lower()} file" if path.suffix else "a file without extension"
        return f"{path.name} is not a Jupyter notebook ({kind}, not .ipynb)"
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"{path.name} could not be read ({exc.strerror or exc})"
    if not data.strip():
        return f"{path.name} is empty"
    try:
        nb = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return f"{path.name} is not a Jupyter notebook (not UTF-8 text)"
    except json.JSONDecodeError as exc:
        ends_early = (exc.pos >= len(exc.doc.rstrip()) - 1
                      or exc.msg.startswith("Unterminated string"))
        what = exc.msg.removesuffix(" at").removesuffix(" starting")
        return (f"{path.name} is not valid notebook JSON ({what} at line {exc.lineno}, "
                f"column {exc.colno})" + ("; the file ends early, as a truncated upload does"
                                          if ends_early else ""))
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(nb, dict) or not isinstance(cells, list) or not all(
            isinstance(c, dict) and c.get("cell_type") in ("code", "markdown", "raw")
            for c in cells):
        return f"{path.name} is JSON but not a Jupyter notebook (no list of cells)"
    try:
        import nbformat

        nbformat.reads(data.decode("utf-8-sig"), as_version=4)
    except Exception as exc:  # noqa: BLE001 - whatever nbformat refuses is no notebook
        return f"{path.name} is not a notebook nbformat can read ({type(exc).__name__})"
    return None


UNREADABLE = ("Your submission could not be graded: {problem}. Nothing was run, so no "
              "question earned points. Hand in the .ipynb file Jupyter saves (File > Download) "
              "and ask your TA to grade it again.")


def unreadable_record(pack: Any, notebook: Path | None, problem: str, *, mode: str = "grade",
                      quick: bool = False, name: str = "") -> Any:
    """The record of a submission that is no readable notebook: every question `error`
    with 0 points and the reason, so the student keeps a record, a report and a
    gradebook row, and the TA sees "a question could not run"."""
    import hashlib

    from grader.record import Flags, GradeRecord, environment

    message = UNREADABLE.format(problem=problem)
    questions = [{"id": q.id, "title": q.title, "score": 0.0, "max": q.points,
                  "status": "error", "message": message, "hint": "", "checks": [],
                  "printed": []} for q in pack.questions]
    try:
        sha = hashlib.sha256(notebook.read_bytes()).hexdigest() if notebook else None
    except OSError:
        sha = None
    return GradeRecord(
        assignment={"id": pack.id, "title": pack.title, "version": pack.version,
                    "fingerprint": pack.fingerprint()},
        submission={"name": notebook.name if notebook else (name or "submission"),
                    "path": str(notebook) if notebook else None, "sha256": sha,
                    "evidence": "notebook"},
        mode=mode, score=0.0, max_score=pack.total, status="incomplete", questions=questions,
        run={"seconds": 0.0, "restarts": 0, "sandbox": "not executed", "executed": False,
             "quick": quick, "device": None, "models": [], "limits_hit": [], "cell_errors": [],
             "seed": None, "cells_executed": 0},
        flags={name: [] for name in Flags.names()},
        environment=environment())
