"""The state of one notebook run, shared by the rooms of the runner.

`grader.run.runner._Run` is built from rooms, each a module of its own: the kernel's
lifecycle (`kernel_lifecycle`), the cell loop with its budgets, restarts and replays
(`cell_loop`), the telemetry snapshots (`telemetry`) and the probes (`probes`). They
share this state, declared once here with why each part exists; a room calls another's
methods through ``self`` (a restart replays cells and takes a new baseline, a probe's
death restarts), which is why they are stacked as classes of one run rather than
objects that would have to pass the whole state around.
"""

from __future__ import annotations

import contextlib
import secrets
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import nbformat

from grader.run import cgroup
from grader.run.guarded_client import GuardedClient
from grader.run.limits import describe
from grader.run.result import CellReport, ProbeRequest
from grader.run.sandbox import SandboxPaths

if TYPE_CHECKING:
    from grader.run.runner import Runner


def seed_scratch(scratch: Path, notebook: Path,
                 files: Sequence[Path | tuple[Path, str]]) -> None:
    """Copy the notebook and the files beside it into a run's scratch folder, as a cold
    run and a warm kernel (grader/run/pool.py) both hand a submission over.

    A student's module keeps its place beside the notebook (`mycourse/layers.py`); names
    come from the pack or from `grader.intake.files`, never with `..`."""
    shutil.copy2(notebook, scratch / notebook.name)
    for item in files:
        extra, name = item if isinstance(item, tuple) else (item, item.name)
        if Path(name).is_absolute() or ".." in Path(name).parts:
            raise ValueError(f"{name}: a file beside the notebook must stay beside it")
        target = scratch / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if extra.is_dir():
            shutil.copytree(extra, target, dirs_exist_ok=True)
        else:
            shutil.copy2(extra, target)


class RunState:
    """The state of one notebook run (kept out of `Runner` so a runner is reusable)."""

    def __init__(self, runner: Runner, root: Path, notebook: Path,
                 files: Sequence[Path | tuple[Path, str]],
                 probes: Sequence[ProbeRequest], group: cgroup.Cgroup | None = None) -> None:
        self.box = runner.sandbox
        self.group = group
        """The cgroup the whole sandbox runs in, or None (rlimits only)."""
        self.oom_kills = 0
        self.limits = runner.limits
        self.paths: SandboxPaths = self.box.prepare(root)
        seed_scratch(self.paths.scratch, notebook, files)
        self.box.hand_over(self.paths)
        self.nb = nbformat.read(notebook, as_version=4)
        self.probes = probes
        self.cells = [CellReport(i, list(c.metadata.get("tags", [])), "skipped")
                      for i, c in enumerate(self.nb.cells)]
        self.limits_hit: list[dict[str, Any]] = []
        self.fatal: set[int] = set()
        self.restarts = 0
        self.threads: list[int] | None = None
        """The kernel's own Python threads (idents listed before the student's first cell):
        any other is stopped. None when they could not be read: then no thread is stopped
        (stopping the kernel's own would leave it deaf) and the record goes to a TA."""
        self.grader_failures: list[str] = []
        """What the grader could not check on this run through no fault of the notebook's
        (a baseline refused before the student's first cell): the record needs a TA."""
        self.hangs: list[dict[str, Any]] = []
        """Grader cells that waited past their limit, with what the kernel was doing."""
        self.sweep = self.box.kind == "bwrap"
        """Whether the harness may kill the other processes it sees (in the sandbox's pid
        namespace they are the notebook's; without one they would be the machine's)."""
        self.running_threads: list[str] = []
        """Threads of the notebook still running after the grader stopped them: no probe's
        output is used then."""
        self.spent = 0.0
        """Seconds of student cells so far, replays included (the notebook's budget)."""
        self.kernel_gone = ""
        """Why no kernel is left for the probes (restart limit or budget spent), or ""."""
        self.marker = secrets.token_hex(16)
        """The evalue of nbclient's timeout reply: no student cell can raise the same."""
        self.client: GuardedClient | None = None
        """Runs the student's cells, in place in `self.nb`."""
        self.side: GuardedClient | None = None
        """Runs grader cells on the same kernel, in a notebook of its own."""
        self.kernel: contextlib.ExitStack | None = None
        self.baseline: dict[str, Any] | None = None
        self.telemetry: dict[str, Any] = {}
        self.side_errors: list[str] = []
        """Errors raised in grader cells: evidence of tampering, or a pack's broken probe."""
        self.bad_telemetry: list[str] = []
        """Why a snapshot the kernel wrote was refused (kept in the telemetry for the TA)."""

    def _hit(self, limit: str, cell: int | None = None, detail: str = "") -> None:
        if limit == "notebook_timeout" and any(h["limit"] == limit for h in self.limits_hit):
            return
        entry = {"limit": limit, "cell": cell, "message": describe(limit, self.limits)}
        if detail:
            entry["detail"] = detail
        if entry not in self.limits_hit:
            self.limits_hit.append(entry)
