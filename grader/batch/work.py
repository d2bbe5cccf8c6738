"""One submission graded in a worker process (local pool or Ray): the unit of a batch.

A worker gets a `Task` (plain data, so it pickles to another process or machine),
grades with the same `grade_notebook` as everything else, and sends back the record
and the run's files; it writes nothing itself. The driver alone writes the output
folder, so two workers can never race on it and a lost worker loses nothing written.
"""

from __future__ import annotations

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


def _pack(task: Task) -> Any:
    from grader.pack import load_pack

    cache_key = (task.pack_root, task.data)
    if cache_key not in _PACKS:
        pack = load_pack(task.pack_root)
        if task.data:
            pack = pack.with_data({role: Path(path) for role, path in task.data})
        _PACKS[cache_key] = pack
    return _PACKS[cache_key]


def grade_task(task: Task) -> dict[str, Any]:
    """Grade one submission; {"key", "record", "run_files", "seconds"} or {"key", "error"}.

    The student's failures are records (a crash, a limit hit); only the grader's own
    failures come back as "error", and those are what the driver retries.
    """
    from grader.batch.store import run_to_files
    from grader.grade import grade_notebook
    from grader.run.sandbox import Sandbox, gpus_from_env

    started = time.perf_counter()
    try:
        pack = _pack(task)
        limits = pack.limits.merged(dict(task.limits)) if task.limits else None
        gpus = gpus_from_env() if task.gpus is None else task.gpus
        box = Sandbox.create(task.sandbox, gpus=gpus)
        runs: list[Any] = []
        notebook = Path(task.notebook) if task.notebook else None  # a report alone
        record = grade_notebook(pack, notebook, mode=task.mode, seed=task.seed,
                                sandbox=box, limits=limits, quick=task.quick,
                                hf_cache=task.hf_cache, on_run=runs.append,
                                reports=[Path(r) for r in task.reports])
        files = run_to_files(runs[0]) if runs else {}
        return {"key": task.key, "record": record.to_dict(), "run_files": files,
                "seconds": round(time.perf_counter() - started, 3), "pid": os.getpid()}
    except Exception as exc:  # noqa: BLE001 - the grader's own failure, reported to the driver
        return {"key": task.key, "error": f"{type(exc).__name__}: {exc}",
                "traceback": traceback.format_exc(limit=5), "pid": os.getpid(),
                "seconds": round(time.perf_counter() - started, 3)}
