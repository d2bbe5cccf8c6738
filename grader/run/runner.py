"""Run one notebook in a sandboxed kernel, then the pack's probes in the same kernel.

Built on nbclient's public API: `setup_kernel` starts and stops each kernel, the
student's cells run with `execute_cell` in place in their own notebook, and every
way a notebook can misbehave is turned into data on the `RunResult`:

- explicit timeouts (per cell, per probe, per notebook, see `grader.run.limits`): a
  cell past its time is interrupted (nbclient's `interrupt_on_timeout`, with an
  `error_on_timeout` reply carrying a secret marker so a timeout cannot be faked);
- a kernel that dies, or one that does not answer after the interrupt, is replaced
  (at most `MAX_RESTARTS` times in a run, whether a cell or a probe killed it): a fresh
  kernel replays the cells that worked and skips the fatal one, so an `os._exit` in a
  demo cell does not hide the functions defined before it. A replay is the notebook's
  time: each cell gets its own limit (a question's time budget for a tagged training
  cell) and what is left of the notebook's budget, and its seconds count against that
  budget, so a function that kills the kernel at every probe costs at most
  `MAX_RESTARTS` replays, never one per probe;
- an output flood is cut at the notebook's output budget, recorded, and its cell
  interrupted;
- processes and threads the notebook left running are stopped before the probes (the
  processes from here, the threads by the harness; see kernel_side/harness.py for why we
  stop them rather than probe in a fresh interpreter), hooks it installed are recorded
  and removed; a thread that will not stop means no probe result is used;
- what the kernel writes back is checked before use (`grader.run.payload`): a payload
  that does not fit is that probe's failure, never the grader's;
- the kernel's own stdout/stderr (not the cells') go to a log file beside the run.

Grader cells (the telemetry snapshots and the probes) are sent with the harness of
`grader.run.kernel_side` through a second client that shares the kernel and has a
throwaway notebook of its own, so the student's `nb.cells` never changes. Their
payloads come back as files: snapshots in the telemetry folder, probe payloads in the
io folder, which is created only when the probes start (see `grader.run.sandbox`).

This module holds the entry point (`Runner.run`) and the order of a run (`_Run.execute`);
the rooms it is built from each have a module: `guarded_client` (nbclient with limits),
`kernel_lifecycle`, `cell_loop` (budgets, restarts, replays), `telemetry`, `probes`,
sharing `run_state`. The names other modules import from here stay importable here.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from grader.run import cgroup
from grader.run.cell_loop import MAX_RESTARTS, module_frame
from grader.run.guarded_client import (
    FLOOD_GRACE,
    FLOOD_NOTE,
    HANG_GRACE,
    INTERRUPT_WAIT,
    OUTPUT_MESSAGES,
    TIMEOUT_ENAME,
)
from grader.run.kernel_lifecycle import (
    IOPUB_TIMEOUT,
    PING_TIMEOUT,
    REFUSED,
    SIDE_IOPUB_TIMEOUT,
    STOP_SECONDS,
)
from grader.run.limits import Limits
from grader.run.probes import Probes
from grader.run.result import ProbePayload, ProbeRequest, RunResult
from grader.run.run_state import seed_scratch
from grader.run.sandbox import Sandbox

__all__ = [
    "FLOOD_GRACE", "FLOOD_NOTE", "HANG_GRACE", "INTERRUPT_WAIT", "IOPUB_TIMEOUT", "MAX_RESTARTS",
    "OUTPUT_MESSAGES", "PING_TIMEOUT", "REFUSED", "SIDE_IOPUB_TIMEOUT", "STOP_SECONDS",
    "TIMEOUT_ENAME", "ProbePayload", "ProbeRequest", "RunResult", "Runner", "module_frame",
    "seed_scratch",
]


class Runner:
    """Executes notebooks in the sandbox; one `run()` per submission, nothing shared."""

    def __init__(self, sandbox: Sandbox, limits: Limits | None = None,
                 work_dir: Path | None = None) -> None:
        self.sandbox = sandbox
        self.limits = limits or Limits()
        self.work_dir = work_dir

    def run(self, notebook: Path, *, files: Sequence[Path | tuple[Path, str]] = (),
            probes: Sequence[ProbeRequest] = ()) -> RunResult:
        """Execute `notebook` (with `files` beside it, each a path or (path, name to give it)),
        then `probes`; never raises for the student's behaviour, only for the grader's own
        failures (no sandbox, unreadable pack)."""
        root = Path(tempfile.mkdtemp(prefix="run-", dir=self.work_dir))
        group, why = (cgroup.create(self.limits.memory_bytes, self.limits.processes)
                      if self.sandbox.kind == "bwrap" else (None, ""))
        try:
            run = _Run(self, root, notebook, files, probes, group)
            result = run.execute()
            result.limits_mechanism = self.sandbox.limits_mechanism(
                self.limits, f"{group.mechanism} (memory, pids)" if group else
                (f"rlimits only for memory and processes: {why}" if why else ""))
            return result
        finally:
            if group is not None:
                group.remove()
            self.sandbox.kill_leftovers()
            shutil.rmtree(root, ignore_errors=True)


class _Run(Probes):
    """One notebook run: the rooms (`Probes` < `Telemetry` < `CellLoop` <
    `KernelLifecycle` < `RunState`) in the order `execute` calls them."""

    @property
    def max_restarts(self) -> int:  # type: ignore[override]
        """This module's `MAX_RESTARTS`, read when a restart is asked for (a test lowers it
        here, where it has always been set)."""
        return MAX_RESTARTS

    def execute(self) -> RunResult:
        started = time.perf_counter()
        self._start()
        try:
            self.baseline = self._snapshot("baseline")
            self._student_cells()
            self._after_cells()
            if self.probes:
                self.box.open_io(self.paths)
            probes = {}
            for request in self.probes:
                if self.kernel_gone:
                    probes[request.check_id] = ProbePayload(
                        request.check_id, "died", f"Not run: {self.kernel_gone}.")
                else:
                    probes[request.check_id] = self._probe(request)
            self._keep_failures()  # the probes' hangs too
        finally:
            self._stop()
        return RunResult(
            executed=self.nb, cells=self.cells, probes=probes, telemetry=self.telemetry,
            limits_hit=self.limits_hit, seconds=round(time.perf_counter() - started, 3),
            restarts=self.restarts, sandbox=self.box.kind)
