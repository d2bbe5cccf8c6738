"""Kernel lifecycle: start a sandboxed kernel with its two clients, stop it, and talk to it.

A run's kernel is started from the sandbox's command line (`Sandbox.kernel_argv`, in the
run's cgroup) with two `GuardedClient`s: one runs the student's cells in their notebook,
the other (the side client) runs the grader's cells in a throwaway notebook of its own,
so the student's ``nb.cells`` never changes. A grader cell carries the harness of
`grader.run.kernel_side`, sent as one cell; one that waits past its limit keeps what the
kernel was doing (`grader.run.diagnose`).
"""

from __future__ import annotations

import contextlib
import math

import nbformat
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbformat import NotebookNode

from grader.run.diagnose import describe_hang
from grader.run.guarded_client import GuardedClient
from grader.run.kernel_side import HARNESS_SOURCE
from grader.run.run_state import RunState

REFUSED = "grader-refused: "
"""The start of the error a grader cell ends with when the harness will not vouch for its
own output (kernel_side/harness.py): the reason follows."""
PING_TIMEOUT = 15.0
"""Seconds an interrupted kernel has to run `pass` before it counts as stuck."""
IOPUB_TIMEOUT = 10
"""Seconds to wait, after a cell's reply (or its interrupt), for its last outputs."""
SIDE_IOPUB_TIMEOUT = 2
"""The same for grader cells, whose payloads are files, not outputs."""
STOP_SECONDS = 3.0
"""Added to a grader cell's time for stopping the notebook's threads and processes."""


class _OneSpec(KernelSpecManager):
    """A kernel-spec manager that knows one spec: the sandboxed kernel of this run."""

    def __init__(self, spec: KernelSpec) -> None:
        super().__init__()
        self._spec = spec

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return self._spec


class KernelLifecycle(RunState):
    """Starting, stopping and pinging the run's kernel; the grader's cells in it."""

    def _start(self) -> None:
        for stale in self.paths.runtime.iterdir():
            stale.unlink(missing_ok=True)
        join = self.group.join_argv() if self.group is not None else None
        spec = KernelSpec(argv=self.box.kernel_argv(self.paths, self.limits, join),
                          display_name="grader sandbox", language="python",
                          interrupt_mode="message")
        km = AsyncKernelManager(kernel_name="grader-sandbox", kernel_spec_manager=_OneSpec(spec),
                                transport="ipc", ip=str(self.paths.runtime / "k"),
                                connection_file=str(self.paths.runtime / "kernel.json"))
        km.write_connection_file()
        self.box.hand_over(self.paths)
        startup = int(math.ceil(self.limits.startup_timeout))
        client = GuardedClient(self.nb, km, budget=self.limits.output_bytes,
                                iopub_timeout=IOPUB_TIMEOUT, marker=self.marker,
                                startup_timeout=startup)
        if self.client is not None:  # the budget is the notebook's, across restarts
            client.used = self.client.used
            client.flooded_cell = self.client.flooded_cell
        kernel = contextlib.ExitStack()
        # The kernel's own stdout/stderr (not the cells', which go to the notebook) land in
        # a file, never on the grader's terminal. We passed the kernel manager in, so
        # nbclient shuts the kernel down on exit only when asked (`cleanup_kc`).
        with open(self.paths.runtime.parent / "kernel.log", "ab") as log:
            kernel.enter_context(client.setup_kernel(stdout=log, stderr=log, cleanup_kc=True))
        self.kernel = kernel
        self.client = client
        side = GuardedClient(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("")]),
                              km, budget=self.limits.output_bytes,
                              iopub_timeout=SIDE_IOPUB_TIMEOUT, marker=self.marker,
                              startup_timeout=startup)
        side.kc = client.kc
        self.side = side

    def _stop(self) -> None:
        if self.kernel is not None:
            with contextlib.suppress(Exception):  # a dead kernel is already stopped
                self.kernel.close()
            self.kernel = None
        self.box.kill_leftovers()

    def _ping(self) -> bool:
        """After an interrupt the cell's kernel did not go idle: does it answer `pass`?
        (a loop may catch KeyboardInterrupt, or sit in C code that never checks signals)"""
        assert self.side is not None
        ping = nbformat.v4.new_code_cell("pass")
        return self.side.run_cell(ping, 0, PING_TIMEOUT, store_history=False) in ("ok", "error")

    def _grader_cell(self, call: str, timeout: float, label: str = "") -> str:
        """Run the harness and one call of it in a fresh namespace. The cell checks that
        `exec` and `compile` are the interpreter's own (a replaced `exec` would run any code
        in the harness's place) from objects no notebook can forge, and is an `if`
        statement, so that no display hook of the notebook runs after it."""
        source = HARNESS_SOURCE + "\n" + call + "\n"
        cell = (
            "if all(().__class__.__class__(f) is ().__class__.__class__([].append) and "
            "f.__name__ == n and f.__self__.__dict__.get('__name__') == 'builtins' "
            "for f, n in ((exec, 'exec'), (compile, 'compile'))):\n"
            f"    exec(compile({source!r}, '<grader-harness>', 'exec'), "
            "{'__name__': 'grader_harness'})\n"
            "else:\n"
            f"    raise RuntimeError({REFUSED!r} + 'the notebook replaced exec or compile')\n")
        outcome = self._side_cell(nbformat.v4.new_code_cell(cell), timeout)
        if outcome in ("timeout", "stuck"):
            self._diagnose(label or call.split("(", 1)[0], timeout, outcome)
        return outcome

    def _diagnose(self, label: str, timeout: float, outcome: str) -> None:
        """A grader cell waited past its limit: keep what the kernel was doing."""
        assert self.side is not None
        pid = self.box.kernel_pid()
        if pid is None and self.client is not None and self.client.km is not None:
            provisioner = getattr(self.client.km, "provisioner", None)
            process = getattr(provisioner, "process", None)
            pid = getattr(process, "pid", None)  # no pid namespace: the kernel is km's child
        last_stop = (self.telemetry.get("after") or {}).get("stopped") or \
            self.telemetry.get("stopped")
        self.hangs.append(describe_hang(
            cell=label, limit=timeout, outcome=outcome, pid=pid, kernel_threads=self.threads,
            last_message=self.side.last_message, refused=self.bad_telemetry,
            last_stop=last_stop))

    def _side_cell(self, cell: NotebookNode, timeout: float) -> str:
        """Run a cell that is not the student's, in the side client's own notebook (nbclient
        writes each executed cell back into its client's notebook at its index)."""
        assert self.side is not None
        self.side.used, self.side.flooded_cell = 0, None  # a budget per grader cell
        outcome = self.side.run_cell(cell, 0, timeout, store_history=False)
        if outcome == "hung":
            return "stuck"  # the client could not even time out: no kernel to ping
        if outcome == "timeout":
            return "timeout" if self.side.idle or self._ping() else "stuck"
        if outcome == "error":
            content = (self.side.reply or {}).get("content", {})
            self.side_errors.append(f"{content.get('ename')}: {str(content.get('evalue'))[:300]}")
            return "ok"
        return outcome
