"""Where tasks run: a local pool of worker processes, or a Ray cluster.

Both take tasks and yield results in completion order; both turn a worker that died
(killed, out of memory, a lost Ray node) into an `{"error": ...}` result marked
`infrastructure`, which the driver retries once. Nothing here writes files.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from grader.batch.work import Task, grade_task, init_worker, set_threads


def threads_per_job(jobs: int) -> int:
    return max(1, (os.cpu_count() or 1) // max(1, jobs))


class LocalEngine:
    """`jobs` worker processes (spawned, so none inherits the driver's torch state)."""

    name = "local"

    def __init__(self, jobs: int, warm: int = 0) -> None:
        self.jobs = max(1, jobs)
        self.warm = max(0, warm)
        """Warm kernels each worker keeps ready (grader/run/pool.py); 0: cold kernels."""
        self._pool: ProcessPoolExecutor | None = None

    def _new_pool(self, first: Task | None = None) -> ProcessPoolExecutor:
        """Workers (spawned as tasks come); with `warm`, each primes its first kernel for
        `first` (every task of a batch shares its pack, sandbox and limits) as it starts."""
        return ProcessPoolExecutor(max_workers=self.jobs,
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=init_worker,
                                   initargs=(threads_per_job(self.jobs), self.warm,
                                             first if self.warm else None))

    def run(self, tasks: Sequence[Task]) -> Iterator[dict[str, Any]]:
        """Results in completion order; `{"key", "event": "started"}` as each task is
        handed to a free worker (at most `jobs` are in flight, so "started" means
        started, not queued)."""
        pending = list(tasks)
        futures: dict[Future[dict[str, Any]], Task] = {}
        while pending or futures:
            self._pool = self._pool or self._new_pool(pending[0] if pending else None)
            while pending and len(futures) < self.jobs:
                task = pending.pop(0)
                futures[self._pool.submit(grade_task, task)] = task
                yield {"key": task.key, "event": "started"}
            done, _ = wait(futures, return_when=FIRST_COMPLETED)
            for future in done:
                task = futures.pop(future)
                try:
                    yield future.result()
                except BrokenProcessPool:
                    # a worker died: this task and every other unfinished one lost
                    # their worker; report them once each and start a fresh pool
                    yield {"key": task.key, "error": "the worker process died",
                           "infrastructure": True}
                    for other in futures:
                        other.cancel()
                    lost = list(futures.values())
                    futures.clear()
                    self._pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = None
                    for other in lost:
                        yield {"key": other.key, "error": "the worker pool broke",
                               "infrastructure": True}
                    break

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def abort(self, grace: float = 1.5) -> None:
        """Stop now (Ctrl-C): cancel what has not started, give running workers `grace`
        seconds (a worker interrupted by the terminal's Ctrl-C cleans its sandbox up),
        then kill them; bubblewrap's --die-with-parent takes their kernels down."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + grace
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            if process.is_alive():
                process.kill()
                process.join(1)


class RayEngine:
    """Each task a Ray task with `num_cpus` / `num_gpus`; a local Ray unless an address.

    The grader package must be importable on the workers (installed, or shipped with
    `runtime_env`); pack folders and submissions must be at the same paths (a shared
    file system): see docs/batch.md.
    """

    name = "ray"

    def __init__(self, jobs: int, address: str | None = None, cpus_per_job: float = 1,
                 gpus_per_job: float = 0, runtime_env: dict[str, Any] | None = None) -> None:
        import ray

        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            if address:
                ray.init(address=address, runtime_env=runtime_env, log_to_driver=False)
            else:
                ray.init(num_cpus=max(1, jobs) * max(1, int(cpus_per_job)),
                         include_dashboard=False, log_to_driver=False,
                         runtime_env=runtime_env)
        self._refs: dict[Any, Task] = {}
        self.remote = ray.remote(num_cpus=cpus_per_job, num_gpus=gpus_per_job,
                                 max_retries=0)(_ray_grade)
        self.threads = max(1, int(cpus_per_job))

    def run(self, tasks: Sequence[Task]) -> Iterator[dict[str, Any]]:
        """Results in completion order; "started" as each task is handed to Ray (Ray
        schedules it on the cluster as resources allow)."""
        refs: dict[Any, Task] = {}
        self._refs = refs
        for t in tasks:
            refs[self.remote.remote(t, self.threads)] = t
            yield {"key": t.key, "event": "started"}
        while refs:
            done, _ = self.ray.wait(list(refs), num_returns=1)
            for ref in done:
                task = refs.pop(ref)
                try:
                    yield self.ray.get(ref)
                except self.ray.exceptions.RayError as exc:  # lost worker or node
                    yield {"key": task.key, "error": f"{type(exc).__name__}: {exc}"[:500],
                           "infrastructure": True}

    def close(self) -> None:
        if self.started and self.ray.is_initialized():
            self.ray.shutdown()

    def abort(self, grace: float = 1.5) -> None:
        """Stop now (Ctrl-C): cancel this batch's tasks, forcefully, then close."""
        for ref in list(self._refs):
            with contextlib.suppress(Exception):  # already finished or gone
                self.ray.cancel(ref, force=True)
        self.close()


def _ray_grade(task: Task, threads: int) -> dict[str, Any]:
    set_threads(threads)
    return grade_task(task)
