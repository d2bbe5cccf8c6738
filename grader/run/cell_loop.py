"""The cell loop: each student cell under its budget, and restarts with replays.

Every cell gets its own limit (a tag's time budget, else the cell timeout) and what is
left of the notebook's budget, whichever is smaller; what it hit (time, output, memory,
processes, scratch space) is recorded as data. A kernel that dies, or one that does not
answer after the interrupt, is replaced at most `MAX_RESTARTS` times in a run: a fresh
kernel replays the cells that worked and skips the fatal one, and the replay's seconds
count against the notebook's budget, so a function that kills the kernel at every probe
costs at most `MAX_RESTARTS` replays.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from nbformat import NotebookNode

from grader.run.kernel_lifecycle import KernelLifecycle
from grader.run.sandbox import SCRATCH_MOUNT

MAX_RESTARTS = 3
"""Kernels a run may start after its first (a cell's death or a probe's)."""

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_FRAME = re.compile(r'File "?(?P<file>[^",\n]+?\.py)"?(?::|, line )(?P<line>\d+)')


def module_frame(traceback: Sequence[str], homes: Sequence[str]) -> str:
    """`mycourse/layers.py:3`: the last frame of a cell's traceback in a file under the
    working folder (a student's module beside the notebook), relative to it; "" when the
    error was raised elsewhere (a cell, a library)."""
    found = ""
    for entry in traceback:
        for match in _FRAME.finditer(_ANSI.sub("", str(entry))):
            path = match["file"]
            for home in homes:
                prefix = home.rstrip("/") + "/"
                if path.startswith(prefix) and "site-packages" not in path:
                    found = f"{path[len(prefix):]}:{match['line']}"
    return found[:200]


class CellLoop(KernelLifecycle):
    """The student's cells in order, their budgets, and the replays after a restart."""

    max_restarts = MAX_RESTARTS

    def _student_cells(self) -> None:
        for index, cell in enumerate(self.nb.cells):
            if cell.cell_type != "code" or not cell.source.strip():
                self.cells[index].status = "ok"
                continue
            if self.kernel_gone:
                self._hit("kernel_died", index, "too many kernel restarts; later cells skipped")
                continue
            remaining = (self.limits.notebook_timeout - self.spent
                         if self.limits.notebook_timeout else None)
            if remaining is not None and remaining <= 0:
                self._hit("notebook_timeout", index)
                continue
            cell_limit = self.limits.cell_timeout_for(cell.metadata.get("tags", []))
            outcome = self._exec(cell, index, self._cell_time(cell) or 0)
            self.spent += self.cells[index].seconds
            assert self.client is not None
            if self.client.flooded_cell == index:
                self._hit("output_bytes", index)
            if outcome in ("timeout", "stuck"):
                cut_by_budget = remaining is not None and remaining < (cell_limit or float("inf"))
                self._hit("notebook_timeout" if cut_by_budget else "cell_timeout", index)
            if outcome != "ok" and self.box.kill_strays():
                self._hit("processes", index, "processes the cell left running were killed")
            if self.cells[index].ename == "MemoryError" or self._oom_killed():
                self._hit("memory_bytes", index, "" if self.cells[index].ename == "MemoryError"
                          else "processes of the sandbox were killed for using more memory "
                          "together than the sandbox has")
            if "[Errno 28]" in (self.cells[index].evalue or ""):
                self._hit("scratch_bytes", index)
            if outcome in ("stuck", "died"):
                if outcome == "died":
                    self._hit("kernel_died", index)
                self.fatal.add(index)
                if not self._restart(index):
                    self.kernel_gone = (f"the kernel died or hung {self.restarts + 1} times "
                                        "and was not restarted again")
                    self._start()  # a last kernel for the cells' telemetry; none replayed
                    self.baseline = self._snapshot("baseline")

    def _restart(self, upto: int) -> bool:
        """A fresh kernel with the cells before `upto` replayed, the fatal ones skipped.

        False, with no kernel started, when the run has used its `max_restarts` restarts.
        """
        self._stop()
        if self.restarts >= self.max_restarts:
            return False
        self.restarts += 1
        self._start()
        # The new kernel's own baseline: ids are addresses, another process has others.
        self.baseline = self._snapshot("baseline")
        for report in self.cells[:upto]:
            if report.index in self.fatal or report.status == "skipped":
                continue
            cell = self.nb.cells[report.index]
            timeout = self._cell_time(cell)
            if timeout is not None and timeout <= 0:
                self._hit("notebook_timeout", report.index, "while replaying the notebook "
                          "after a restart; later cells were not replayed")
                break
            self._exec(cell, report.index, timeout or 0)
            self.spent += self.cells[report.index].seconds
        return True

    def _oom_killed(self) -> bool:
        """Whether the cgroup's OOM killer ended a process since the last look."""
        if self.group is None:
            return False
        kills = self.group.oom_kills()
        new, self.oom_kills = kills > self.oom_kills, kills
        return new

    def _cell_time(self, cell: NotebookNode) -> float | None:
        """Seconds a cell may run now: its own limit (a tag's time budget, else the cell
        timeout) and what is left of the notebook's budget, whichever is smaller."""
        own = self.limits.cell_timeout_for(cell.metadata.get("tags", []))
        left = (self.limits.notebook_timeout - self.spent
                if self.limits.notebook_timeout else None)
        if left is not None and left <= 0:
            return 0.0
        return min(filter(None, (own, left)), default=None)

    def _exec(self, cell: NotebookNode, index: int, timeout: float) -> str:
        """Run one student cell; returns ok | error | timeout | stuck | died."""
        assert self.client is not None
        start = time.perf_counter()
        outcome = self.client.run_cell(cell, index, timeout, store_history=True)
        if outcome == "hung" or (outcome == "timeout" and not self.client.idle
                                 and not self._ping()):
            outcome = "stuck"
        report = self.cells[index]
        report.seconds = round(time.perf_counter() - start, 3)
        report.status = {"stuck": "timeout", "died": "killed"}.get(outcome, outcome)
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        content = (self.client.reply or {}).get("content", {})
        if errors:
            report.ename, report.evalue = errors[-1].get("ename"), str(errors[-1].get("evalue"))[:300]
            at = module_frame(errors[-1].get("traceback") or [], self._homes())
            if at:  # raised in the student's module: say where, relative to the notebook
                report.evalue = f"{report.evalue} (at {at})"
        elif outcome == "error":
            report.ename, report.evalue = content.get("ename"), str(content.get("evalue"))[:300]
        return outcome

    def _homes(self) -> tuple[str, ...]:
        """The working folder as the kernel sees it: `~` (IPython shortens $HOME, which is
        the working folder), the sandbox's mount, or the scratch folder itself."""
        return ("~", SCRATCH_MOUNT, str(self.paths.scratch), str(self.paths.scratch.resolve()))
