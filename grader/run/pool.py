"""Warm sandboxed kernels: started and warmed before a submission comes, one per submission.

Why: a kernel with torch (and transformers, datasets) imported costs about 5 s before a
student's first line does real work; a self-check answered in seconds needs that paid
ahead. What stays the same as a cold run (`grader.run.runner.Runner.run`):

- each kernel is started exactly as a cold one: its own run folder, its own cgroup, its
  own throwaway uid (so that sweeping one run's leftovers never touches another kernel of
  the pool), fresh namespaces, an empty working folder;
- it then imports the pack's `[environment] warm` modules, in a namespace of their own
  (the student's namespace gets no `torch` name it did not import: only `sys.modules`
  is warm), and waits;
- a submission is handed over by copying its files into that kernel's scratch (into the
  seed folder bound read-only in the sandbox, then, by a grader cell, into the kernel's
  tmpfs working folder, as the cold start's `cp -a` does), and runs through the very
  `_Run.execute` of a cold run: the telemetry baseline (threads, modules, hooks) is
  taken after the warm-up, so nothing the warm-up did counts against the student;
- one kernel serves one submission and is then destroyed (its processes, cgroup and
  folders), never reused. A kernel that dies is restarted cold, as in any run.

Each kernel lives in a thread of its own from start to end: nbclient's clients and the
kernel manager are bound to the event loop of the thread that made them, and bwrap's
`--die-with-parent` fires when that thread ends, so a kernel never outlives its thread,
and never its process (SIGKILL included). `WarmPool.close` (also at exit, and on SIGTERM
or Ctrl-C where `handle_signals` was called, and when a multiprocessing worker ends) stops
every kernel and removes its cgroup.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import multiprocessing.connection
import multiprocessing.util
import os
import queue
import secrets
import shutil
import signal
import tempfile
import threading
import time
import weakref
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import nbformat

from grader.run import cgroup
from grader.run.limits import Limits
from grader.run.result import CellReport, ProbeRequest, RunResult
from grader.run.runner import Runner, _Run, seed_scratch
from grader.run.sandbox import SCRATCH_MOUNT, SEED_MOUNT, Sandbox

DEFAULT_WARM = ("torch",)
WARM_TIMEOUT = 300.0
"""Seconds the warm-up imports may take (torch on a loaded machine takes tens)."""
PLACEHOLDER = "grader-warm.ipynb"
STOP_SECONDS = 30.0
"""How long closing a pool waits for a kernel's thread to end (its kernel stopped, its
cgroup and folder removed); the kernels of a pool stop side by side."""

_LIVE: set[WarmPool] = set()
_LIVE_LOCK = threading.Lock()


class _WarmRun(_Run):
    """A `_Run` whose first kernel is started and warmed before its notebook is known."""

    def __init__(self, runner: Runner, root: Path, group: cgroup.Cgroup | None) -> None:
        placeholder = root / PLACEHOLDER
        nbformat.write(nbformat.v4.new_notebook(), placeholder)
        super().__init__(runner, root, placeholder, (), (), group)
        (self.paths.scratch / PLACEHOLDER).unlink()  # the working folder starts empty
        placeholder.unlink()
        self._warm_kernel = False
        self.warm_seconds = 0.0

    def warm_up(self, modules: Sequence[str]) -> None:
        """Start the kernel and import `modules` in a throwaway namespace (a module that
        will not import is skipped: the student's own import says so)."""
        started = time.perf_counter()
        super()._start()
        source = ("import importlib\n"
                  f"for _m in {list(modules)!r}:\n"
                  "    try:\n        importlib.import_module(_m)\n"
                  "    except Exception:\n        pass\n")
        cell = (f"exec(compile({source!r}, '<grader-warm>', 'exec'), "
                "{'__name__': 'grader_warm'})")
        outcome = self._side_cell(nbformat.v4.new_code_cell(cell), WARM_TIMEOUT)
        if outcome != "ok":
            raise RuntimeError(f"the warm-up of a kernel ended {outcome}")
        self.side_errors.clear()
        self._warm_kernel = True
        self.warm_seconds = round(time.perf_counter() - started, 3)

    def take(self, notebook: Path, files: Sequence[Path | tuple[Path, str]],
             probes: Sequence[ProbeRequest]) -> None:
        """Give this warm kernel its submission: the files into its scratch, the notebook
        to its client. Names are checked as a cold run checks them."""
        seed_scratch(self.paths.scratch, notebook, files)
        self.box.hand_over(self.paths)
        # The working folder is a tmpfs filled from the seed at start (sandbox._fill_scratch):
        # fill it now, as the kernel's user, in a namespace of its own.
        seeded = self.box.kind == "bwrap" and bool(self.limits.scratch_bytes)
        source = ("import importlib, shutil\n"
                  + (f"shutil.copytree({SEED_MOUNT!r}, {SCRATCH_MOUNT!r}, dirs_exist_ok=True)\n"
                     if seeded else "")
                  + "importlib.invalidate_caches()\n")
        cell = (f"exec(compile({source!r}, '<grader-take>', 'exec'), "
                "{'__name__': 'grader_take'})")
        outcome = self._side_cell(nbformat.v4.new_code_cell(cell), WARM_TIMEOUT)
        if outcome != "ok" or self.side_errors:
            raise RuntimeError(f"the submission could not be copied into the warm kernel: "
                               f"{outcome} {self.side_errors[:1]}")
        assert self.client is not None
        info = self.nb.metadata.get("language_info")
        self.nb = nbformat.read(notebook, as_version=4)
        if info is not None:
            self.nb.metadata["language_info"] = info
        self.client.nb = self.nb
        self.probes = probes
        self.cells = [CellReport(i, list(c.metadata.get("tags", [])), "skipped")
                      for i, c in enumerate(self.nb.cells)]

    def _start(self) -> None:
        if self._warm_kernel:  # `execute` starts with `_start`: the warm kernel is that start
            self._warm_kernel = False
            return
        super()._start()  # a restart after a death: a cold kernel, as in any run


@dataclasses.dataclass
class _Job:
    notebook: Path
    files: Sequence[Path | tuple[Path, str]]
    probes: Sequence[ProbeRequest]
    result: Future[RunResult]


class WarmKernel:
    """One kernel, in a thread of its own: started, warmed, handed one job, destroyed."""

    def __init__(self, runner: Runner, modules: Sequence[str]) -> None:
        self.runner, self.modules = runner, tuple(modules)
        self.ready = threading.Event()
        """Set when the kernel is warm, or failed (`failed` says why)."""
        self.failed = ""
        self.warm_seconds = 0.0
        self.uid = runner.sandbox.uid
        self.root: Path | None = None
        self.group: cgroup.Cgroup | None = None
        self._jobs: queue.Queue[_Job | None] = queue.Queue(maxsize=1)
        self.thread = threading.Thread(target=self._life, name="warm-kernel", daemon=True)
        self.thread.start()

    def run(self, notebook: Path, *, files: Sequence[Path | tuple[Path, str]] = (),
            probes: Sequence[ProbeRequest] = ()) -> RunResult:
        """Run the submission in this kernel (waits for it to be warm); the kernel is
        destroyed after."""
        job = _Job(notebook, files, probes, Future())
        self._jobs.put(job)
        return job.result.result()

    def stop(self) -> None:
        """Tell the kernel to end without a job (idempotent; does not wait)."""
        with contextlib.suppress(queue.Full):
            self._jobs.put_nowait(None)

    def discard(self) -> None:
        """Destroy the kernel without a job (idempotent; waits for its thread)."""
        self.stop()
        self.thread.join(timeout=STOP_SECONDS)

    def _life(self) -> None:
        limits, box = self.runner.limits, self.runner.sandbox
        root = self.root = Path(tempfile.mkdtemp(prefix="run-", dir=self.runner.work_dir))
        group, why = (cgroup.create(limits.memory_bytes, limits.processes)
                      if box.kind == "bwrap" else (None, ""))
        self.group = group
        run: _WarmRun | None = None
        job: _Job | None = None
        outcome: RunResult | BaseException | None = None
        try:
            try:
                run = _WarmRun(self.runner, root, group)
                run.warm_up(self.modules)
                self.warm_seconds = run.warm_seconds
            except Exception as exc:  # noqa: BLE001 - the pool falls back to a cold run
                self.failed = f"{type(exc).__name__}: {exc}"[:300]
            finally:
                self.ready.set()
            job = self._jobs.get()
            if job is None:
                if run is not None:
                    run._stop()
                return
            if self.failed or run is None:
                outcome = RuntimeError(self.failed or "no kernel")
                return
            try:
                run.take(job.notebook, job.files, job.probes)
                result = run.execute()
                # the run says it was warm (records and tests tell it from a cold fallback)
                result.telemetry["warm"] = {"modules": list(self.modules),
                                            "seconds": self.warm_seconds}
                result.limits_mechanism = box.limits_mechanism(
                    limits, f"{group.mechanism} (memory, pids)" if group else
                    (f"rlimits only for memory and processes: {why}" if why else ""))
                outcome = result
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                outcome = exc
        finally:
            if run is not None:
                run._stop()
            if group is not None:
                group.remove()
            box.kill_leftovers()
            shutil.rmtree(root, ignore_errors=True)
            # the result only once the kernel is gone: no kernel outlives its submission
            if job is not None:
                if isinstance(outcome, RunResult):
                    job.result.set_result(outcome)
                else:
                    job.result.set_exception(outcome or RuntimeError("the kernel ended"))


def _key(box: Sandbox, limits: Limits) -> str:
    """Kernels are interchangeable when their sandboxes differ only in the uid."""
    return repr((dataclasses.replace(box, uid=None), limits))


class WarmPool:
    """Keeps `size` warm kernels ready per sandbox configuration, starting replacements as
    kernels are taken; `runner(box, limits)` is used like `Runner(box, limits)`.

    The first submission of a configuration takes a kernel started for it then (so it
    waits for the warm-up, as a cold run waits for its start) unless `prime` started it
    ahead; the next ones find kernels warmed while the previous submissions ran.

    `overlap`: a taken kernel's replacement starts at once, and warms while the
    submission runs, is checked and reported (the default: the most overlap); with
    False it starts when the run has ended, and warms while the submission is checked
    and reported, so that nothing warms beside a running notebook (whose limits must
    then trip as they do alone, as the test suite's limit samples need).
    """

    def __init__(self, size: int = 1, warm: Sequence[str] = DEFAULT_WARM,
                 work_dir: Path | None = None, overlap: bool = True) -> None:
        if size < 1:
            raise ValueError("a warm pool keeps at least one kernel")
        self.size, self.warm, self.work_dir = size, tuple(warm), work_dir
        self.overlap = overlap
        self._ready: dict[str, list[WarmKernel]] = {}
        self._all: weakref.WeakSet[WarmKernel] = weakref.WeakSet()
        """Every kernel not yet destroyed, taken or not (for `release_all`)."""
        self._lock = threading.Lock()
        self._closed = False
        with _LIVE_LOCK:
            _LIVE.add(self)

    def __enter__(self) -> WarmPool:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def runner(self, box: Sandbox, limits: Limits | None = None,
               warm: Sequence[str] | None = None) -> PooledRunner:
        return PooledRunner(self, box, limits or Limits(), tuple(warm or self.warm))

    def prime(self, box: Sandbox, limits: Limits, warm: Sequence[str] | None = None) -> None:
        """Start this configuration's kernels now (before its first submission)."""
        with self._lock:
            self._fill(box, limits, tuple(warm or self.warm))

    def take(self, box: Sandbox, limits: Limits, warm: Sequence[str]) -> WarmKernel:
        """A kernel for one submission (the oldest, most likely warm), and, with `overlap`,
        a replacement started at once (else `refill` starts it after the run)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the warm pool is closed")
            kernels = self._fill(box, limits, tuple(warm))
            kernel = kernels.pop(0)
            if self.overlap:
                self._fill(box, limits, tuple(warm))
            return kernel

    def refill(self, box: Sandbox, limits: Limits, warm: Sequence[str]) -> None:
        """Start what this configuration lacks (after a run, without `overlap`); nothing
        once the pool is closed."""
        with self._lock:
            if not self._closed:
                self._fill(box, limits, tuple(warm))

    def _fill(self, box: Sandbox, limits: Limits, warm: tuple[str, ...]) -> list[WarmKernel]:
        kernels = self._ready.setdefault(_key(box, limits) + repr(warm), [])
        while len(kernels) < self.size:
            own = box if box.uid is None else dataclasses.replace(box, uid=self._fresh_uid(box))
            kernel = WarmKernel(Runner(own, limits, self.work_dir), warm)
            kernels.append(kernel)
            self._all.add(kernel)
        return kernels

    def _fresh_uid(self, box: Sandbox) -> int:
        """A throwaway uid no other live kernel of this pool, nor the caller's box, has."""
        taken = {k.uid for k in self._all} | {box.uid}
        while (uid := 200_000 + secrets.randbelow(100_000)) in taken:
            pass
        return uid

    def kernels(self) -> list[WarmKernel]:
        with self._lock:
            return [k for ks in self._ready.values() for k in ks]

    def close(self) -> None:
        """Destroy every kernel not yet taken (those running a submission end with it)."""
        with self._lock:
            self._closed = True
            kernels = [k for ks in self._ready.values() for k in ks]
            self._ready.clear()
        # all told first, then waited for: they stop side by side, so a loaded machine
        # costs one kernel's stop, not one per kernel (Ctrl-C must not hang on them)
        for kernel in kernels:
            kernel.stop()
        for kernel in kernels:
            kernel.discard()
        with _LIVE_LOCK:
            _LIVE.discard(self)


class PooledRunner:
    """`Runner`'s `run`, on a warm kernel of the pool (a cold run if warming failed)."""

    def __init__(self, pool: WarmPool, box: Sandbox, limits: Limits,
                 warm: tuple[str, ...]) -> None:
        self.pool, self.sandbox, self.limits, self.warm = pool, box, limits, warm

    def run(self, notebook: Path, *, files: Sequence[Path | tuple[Path, str]] = (),
            probes: Sequence[ProbeRequest] = ()) -> RunResult:
        kernel = self.pool.take(self.sandbox, self.limits, self.warm)
        try:
            kernel.ready.wait()
            if kernel.failed:
                kernel.discard()
                return Runner(kernel.runner.sandbox, self.limits, self.pool.work_dir).run(
                    notebook, files=files, probes=probes)
            return kernel.run(notebook, files=files, probes=probes)
        finally:  # the run is over (its kernel destroyed): the next one warms meanwhile
            if not self.pool.overlap:
                self.pool.refill(self.sandbox, self.limits, self.warm)


def close_all() -> None:
    """Close every pool of this process (at exit, and on a handled signal)."""
    with _LIVE_LOCK:
        pools = list(_LIVE)
    for pool in pools:
        pool.close()


def release_all() -> None:
    """After the process tree was killed from outside the pools (a worker's SIGTERM):
    remove every kernel's cgroup (killing what is left in it) and folder, without waiting
    on the kernels' threads. Safe in a signal handler: it waits at most a second for the
    pools' registry, which the interrupted thread may hold."""
    locked = _LIVE_LOCK.acquire(timeout=1)
    try:
        pools = list(_LIVE)
    finally:
        if locked:
            _LIVE_LOCK.release()
    for pool in pools:
        for kernel in list(pool._all):
            if kernel.group is not None:
                kernel.group.remove()
            kernel.runner.sandbox.kill_leftovers()
            if kernel.root is not None:
                shutil.rmtree(kernel.root, ignore_errors=True)


def exit_now(code: int = 1) -> None:
    """End this process at once, its kernels first: every kernel's cgroup removed (killing
    what is in it), its uid swept and its folder removed (`release_all`), whatever the
    kernels' threads were doing, then `os._exit`. For a process whose main thread may be
    anywhere (a batch worker inside a task) when it must stop."""
    try:
        release_all()
    finally:
        os._exit(code)


def end_with_parent() -> None:
    """In a multiprocessing child (a batch worker): when the parent dies without stopping
    it (SIGKILL, or SIGTERM, of the driver), end too, kernels first (`exit_now`). A
    worker of a dead driver would otherwise wait on its task queue for ever, and keep
    its warm kernels with it."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def _watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        exit_now(1)

    threading.Thread(target=_watch, name="warm-parent-watch", daemon=True).start()


def handle_signals() -> None:
    """Make SIGTERM end the process as Ctrl-C does (an exception in the main thread), so
    that `close_all` runs at exit. Call from the main thread of a process that owns pools."""
    def _term(signum: int, _frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _term)
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)


atexit.register(close_all)
# A multiprocessing worker (a batch's) leaves with os._exit, past atexit: its finalizers run.
multiprocessing.util.Finalize(None, close_all, exitpriority=100)
