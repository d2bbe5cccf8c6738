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
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import math
import re
import secrets
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from queue import Empty
from typing import Any

import nbformat
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import ensure_async, run_sync
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError
from nbformat import NotebookNode

from grader.run import cgroup
from grader.run import payload as checked
from grader.run.diagnose import describe_hang
from grader.run.kernel_side import HARNESS_SOURCE
from grader.run.limits import Limits, describe
from grader.run.payload import BadPayload
from grader.run.result import CellReport, ProbePayload, ProbeRequest, RunResult
from grader.run.sandbox import SCRATCH_MOUNT, Sandbox, SandboxPaths

REFUSED = "grader-refused: "
"""The start of the error a grader cell ends with when the harness will not vouch for its
own output (kernel_side/harness.py): the reason follows."""
MAX_RESTARTS = 3
PING_TIMEOUT = 15.0
"""Seconds an interrupted kernel has to run `pass` before it counts as stuck."""
IOPUB_TIMEOUT = 10
"""Seconds to wait, after a cell's reply (or its interrupt), for its last outputs."""
SIDE_IOPUB_TIMEOUT = 2
"""The same for grader cells, whose payloads are files, not outputs."""
STOP_SECONDS = 3.0
"""Added to a grader cell's time for stopping the notebook's threads and processes."""
INTERRUPT_WAIT = 5.0
"""Seconds to wait for the kernel to acknowledge the interrupt of a flood."""
FLOOD_GRACE = 0.5
"""Seconds a cell that went over the output budget has to finish before it is interrupted."""
TIMEOUT_ENAME = "CellTimeoutError"
OUTPUT_MESSAGES = frozenset(
    {"stream", "display_data", "execute_result", "update_display_data", "error"})
FLOOD_NOTE = "\n[grader: output limit reached; the rest was dropped]\n"
HANG_GRACE = 45.0
"""Seconds past a cell's limit after which the grader stops waiting for nbclient itself:
nbclient's own timeout, the interrupt, the wait for the last outputs (IOPUB_TIMEOUT) and
the interrupt's acknowledgement (INTERRUPT_WAIT) all fit well inside. Past it the client
is hung (seen on Python 3.12: a kernel that dropped a request it could not deserialize,
MemoryError, and a client that never timed out), and the run goes on with a new kernel."""


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


class _OneSpec(KernelSpecManager):
    """A kernel-spec manager that knows one spec: the sandboxed kernel of this run."""

    def __init__(self, spec: KernelSpec) -> None:
        super().__init__()
        self._spec = spec

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return self._spec


def _output_size(content: dict[str, Any]) -> int:
    return len(content.get("text", "")) + sum(
        len(str(v)) for v in content.get("data", {}).values()) + sum(
        len(line) for line in content.get("traceback", []))


class _GuardedClient(NotebookClient):
    """nbclient with a per-cell time limit and an output budget.

    The budget is the one override: nbclient has no hook on output messages (its
    `on_cell_*` hooks fire once per cell, after the outputs are stored), so this class
    overrides `process_message`, the public, documented method nbclient calls for each
    iopub message of a cell, and hands every message it keeps to nbclient's own. A flood
    is cut and noted in the cell; if the cell is still running `FLOOD_GRACE` seconds
    later (its idle status has not come), the kernel is interrupted. The grace matters:
    an interrupt that lands while the kernel finishes a cell that printed too much once
    (flushing its output, sending its reply) breaks ipykernel's own handler and loses the
    reply, while one that lands in an idle kernel is ignored. `on_cell_executed` waits
    for the kernel to acknowledge an interrupt, so that it cannot land in the next cell.
    """

    def __init__(self, nb: NotebookNode, km: AsyncKernelManager, *, budget: int,
                 iopub_timeout: int, marker: str, startup_timeout: int) -> None:
        super().__init__(
            nb, km=km, allow_errors=True, interrupt_on_timeout=True,
            error_on_timeout={"ename": TIMEOUT_ENAME, "evalue": marker, "traceback": []},
            shutdown_kernel="immediate", iopub_timeout=iopub_timeout,
            raise_on_iopub_timeout=False, record_timing=False,
            startup_timeout=startup_timeout)
        self.timeout_func = self._cell_limit
        self.on_cell_executed = self._cell_executed
        self.marker = marker
        self.budget = budget
        self.used = 0
        self.flooded_cell: int | None = None
        self.limit: float | None = None
        self.reply: dict[str, Any] | None = None
        self.idle = False
        self.last_message: dict[str, Any] | None = None
        """The kernel's last message to this client (type, state, when): a hang's evidence."""
        self._interrupt_id: str | None = None
        self._flood_timer: asyncio.TimerHandle | None = None

    def _cell_limit(self, _cell: NotebookNode) -> float | None:
        return self.limit

    async def _cell_executed(self, cell: NotebookNode, cell_index: int,
                             execute_reply: dict[str, Any]) -> None:
        self.reply = execute_reply
        if execute_reply:
            self.last_message = {"type": "execute_reply",
                                 "state": execute_reply.get("content", {}).get("status", ""),
                                 "at": time.monotonic()}
        self._cancel_flood_timer()
        if self._interrupt_id is not None:
            msg_id, self._interrupt_id = self._interrupt_id, None
            with contextlib.suppress(Exception):  # a kernel that died is seen by the next cell
                await self._acknowledged(msg_id)

    def process_message(self, msg: dict[str, Any], cell: NotebookNode,
                        cell_index: int) -> NotebookNode | None:
        msg_type, content = msg["msg_type"], msg.get("content", {})
        self.last_message = {"type": msg_type, "state": content.get("execution_state", ""),
                             "at": time.monotonic()}
        if msg_type == "status" and content.get("execution_state") == "idle":
            self.idle = True
        elif msg_type in OUTPUT_MESSAGES:
            size = _output_size(content)
            if self.budget and self.used + size > self.budget and msg_type != "error":
                if self.flooded_cell is None:
                    self.flooded_cell = cell_index
                    cell.outputs.append(
                        nbformat.v4.new_output("stream", name="stderr", text=FLOOD_NOTE))
                    self._flood_timer = asyncio.get_running_loop().call_later(
                        FLOOD_GRACE, self._interrupt_if_running)
                return None
            self.used += size
        return super().process_message(msg, cell, cell_index)

    async def _bounded(self, cell: NotebookNode, index: int, store_history: bool,
                       bound: float | None) -> bool:
        """nbclient's execution of one cell, waited for at most `bound` seconds; whether it
        returned. When it did not, everything it left waiting on this loop is cancelled, so
        that nothing of it reads the next cell's messages."""
        task = asyncio.ensure_future(
            self.async_execute_cell(cell, index, store_history=store_history))
        done, _pending = await asyncio.wait({task}, timeout=bound)
        if task in done:
            task.result()  # DeadKernelError and the like reach the caller
            return True
        me = asyncio.current_task()
        left = [t for t in asyncio.all_tasks() if t is not me]
        for waiting in left:
            waiting.cancel()
        if left:
            await asyncio.wait(left, timeout=5)
        return False

    def _interrupt_if_running(self) -> None:
        """Send the kernel an interrupt request, unless the flooding cell is done."""
        self._flood_timer = None
        if self.idle or self.kc is None:
            return
        request = self.kc.session.msg("interrupt_request", content={})
        self.kc.control_channel.send(request)
        self._interrupt_id = request["header"]["msg_id"]

    def _cancel_flood_timer(self) -> None:
        if self._flood_timer is not None:
            self._flood_timer.cancel()
            self._flood_timer = None

    async def _acknowledged(self, msg_id: str) -> None:
        """Wait for the kernel's reply to the interrupt: by then its SIGINT is delivered (a
        kernel ignores one that arrives between cells)."""
        assert self.kc is not None
        deadline = time.monotonic() + INTERRUPT_WAIT
        while (left := deadline - time.monotonic()) > 0:
            try:
                reply = await ensure_async(self.kc.control_channel.get_msg(timeout=left))
            except Empty:
                return
            if reply.get("parent_header", {}).get("msg_id") == msg_id:
                return

    def run_cell(self, cell: NotebookNode, index: int, limit: float | None, *,
                 store_history: bool) -> str:
        """Execute one cell; returns ok | error | timeout | died | hung (nbclient itself did
        not return within the limit and HANG_GRACE: the kernel is to be replaced)."""
        self.limit, self.reply, self.idle = limit or None, None, False
        bound = limit + HANG_GRACE if limit else None
        try:
            finished = run_sync(self._bounded)(cell, index, store_history, bound)
        except DeadKernelError:
            finished = True
            self._cancel_flood_timer()
            self._interrupt_id = None
            return "died"
        if not finished:
            self._cancel_flood_timer()
            self._interrupt_id = None
            return "hung"
        content = (self.reply or {}).get("content", {})
        if content.get("status") != "error":
            return "ok"
        if content.get("ename") == TIMEOUT_ENAME and content.get("evalue") == self.marker:
            return "timeout"
        return "error"


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


class _Run:
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
        self.client: _GuardedClient | None = None
        """Runs the student's cells, in place in `self.nb`."""
        self.side: _GuardedClient | None = None
        """Runs grader cells on the same kernel, in a notebook of its own."""
        self.kernel: contextlib.ExitStack | None = None
        self.baseline: dict[str, Any] | None = None
        self.telemetry: dict[str, Any] = {}
        self.side_errors: list[str] = []
        """Errors raised in grader cells: evidence of tampering, or a pack's broken probe."""
        self.bad_telemetry: list[str] = []
        """Why a snapshot the kernel wrote was refused (kept in the telemetry for the TA)."""

    # -- kernel lifecycle ------------------------------------------------------------

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
        client = _GuardedClient(self.nb, km, budget=self.limits.output_bytes,
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
        side = _GuardedClient(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("")]),
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

    def _restart(self, upto: int) -> bool:
        """A fresh kernel with the cells before `upto` replayed, the fatal ones skipped.

        False, with no kernel started, when the run has used its `MAX_RESTARTS` restarts.
        """
        self._stop()
        if self.restarts >= MAX_RESTARTS:
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

    # -- execution -----------------------------------------------------------------------

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

    def _snapshot(self, name: str) -> dict[str, Any] | None:
        """Take a telemetry snapshot in the kernel; what it wrote, checked, or None.

        The baseline lists the kernel's own threads (`self.threads`); every later snapshot
        first stops the notebook's other threads and processes (harness `_quiesce`)."""
        nonce = secrets.token_hex(8)
        extra = "" if name == "baseline" else f", {self.threads!r}, {self.sweep!r}"
        self._grader_cell(f"snapshot({self.paths.telemetry_mount!r}, {name!r}, {nonce!r}"
                          f"{extra})", PING_TIMEOUT + STOP_SECONDS, f"snapshot {name}")
        refused = len(self.bad_telemetry)
        snap = self._telemetry(f"{name}.json", lambda d: checked.check_snapshot(d, nonce))
        if name == "baseline":
            why = self.bad_telemetry[refused:]
            if snap is None:
                self.grader_failures.append(
                    "the grader's baseline snapshot, taken before the student's first cell, "
                    + (f"was refused ({why[0]})" if why else "did not come back")
                    + ": what the notebook changed in the kernel could not be checked")
            # Read apart from the snapshot: a baseline refused for a check of its own must
            # not leave the kernel's own threads unknown (and so stopped later).
            refused = len(self.bad_telemetry)
            self.threads = self._telemetry("threads.json",
                                           lambda d: checked.check_threads(d, nonce))
            if self.threads is None:
                why = self.bad_telemetry[refused:]
                self.grader_failures.append(
                    "the kernel's own threads could not be listed before the student's first "
                    "cell" + (f" ({why[0]})" if why else "") + ", so no thread the notebook "
                    "started was stopped before the probes")
        return snap

    def _telemetry(self, name: str, check: Any) -> Any:
        assert self.paths.telemetry is not None
        try:
            data = checked.load_json(self.paths.telemetry / "out" / name,
                                     checked.MAX_SNAPSHOT_JSON_BYTES)
            return None if data is None else check(data)
        except BadPayload as exc:
            self.bad_telemetry.append(str(exc))
            return None

    def _hit(self, limit: str, cell: int | None = None, detail: str = "") -> None:
        if limit == "notebook_timeout" and any(h["limit"] == limit for h in self.limits_hit):
            return
        entry = {"limit": limit, "cell": cell, "message": describe(limit, self.limits)}
        if detail:
            entry["detail"] = detail
        if entry not in self.limits_hit:
            self.limits_hit.append(entry)

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

    def _after_cells(self) -> None:
        """Stop what the notebook left running (its other processes, from outside; its
        threads, from the harness), snapshot what it patched, then remove its hooks, timers
        and scheduled callbacks before the probes."""
        killed = self.box.kill_strays()
        nonce, removed_nonce = secrets.token_hex(8), secrets.token_hex(8)
        hooks = (self.baseline or {}).get("hooks", {})
        self._grader_cell(
            f"after({self.paths.telemetry_mount!r}, {nonce!r}, {self.threads!r}, "
            f"{self.sweep!r}, json.loads({json.dumps(hooks)!r}), {removed_nonce!r})",
            PING_TIMEOUT + STOP_SECONDS, "after the student's cells")
        after = self._telemetry("after.json", lambda d: checked.check_snapshot(d, nonce))
        removed = self._telemetry("neutralised.json",
                                  lambda d: checked.check_removed(d, removed_nonce))
        stopped = dict((after or {}).pop("stopped", None) or {})
        stopped["killed"] = stopped.get("killed", 0) + killed
        self.running_threads = list(stopped.get("running", []))
        if stopped["killed"] or self.running_threads:
            # (a thread that ended when asked, tqdm's monitor say, is routine: telemetry only)
            running = ", ".join(self.running_threads)[:200]
            self._hit("processes", None, "the notebook left processes or threads running "
                      f"after its cells: {stopped['killed']} processes killed"
                      + (f"; threads that would not stop: {running}" if running else ""))
        self.telemetry = {"baseline": self.baseline, "after": after, "removed": removed}
        if killed or any(stopped.get(k) for k in ("stopped", "dormant", "running")):
            self.telemetry["stopped"] = stopped
        self._keep_failures()
        if after is None and self.hangs and self.hangs[-1]["outcome"] == "stuck":
            # the kernel no longer answers: a fresh one (the notebook replayed) for the probes
            self._after_probe_death()

    def _keep_failures(self) -> None:
        """What went wrong on the grader's side, in the telemetry the record is made from."""
        if self.bad_telemetry:
            self.telemetry["refused"] = self.bad_telemetry
        if self.grader_failures:
            self.telemetry["grader_failures"] = self.grader_failures
        if self.hangs:
            self.telemetry["hangs"] = self.hangs

    def _probe(self, request: ProbeRequest) -> ProbePayload:
        out = self.paths.io / "out"
        for stale in (f"{request.check_id}.json", f"{request.check_id}.safetensors"):
            (out / stale).unlink(missing_ok=True)  # only this probe's own writes count
        inputs = self.paths.io / "in" / f"{request.check_id}.safetensors"
        shutil.copyfile(request.inputs, inputs)
        inputs.chmod(0o644)  # safetensors writes 0600; the kernel's user must read it
        if self.running_threads:
            return ProbePayload(request.check_id, "invalid", _PROBE_FAILED["threads"].format(
                ", ".join(self.running_threads)[:200]))
        call = (f"probe({self.paths.io_mount!r}, {request.check_id!r}, {request.target!r}, "
                f"{request.source!r}, {self.threads!r}, {self.sweep!r})")
        outcome = self._grader_cell(call, self.limits.probe_timeout + STOP_SECONDS,
                                    f"probe {request.check_id}")
        inputs.unlink(missing_ok=True)  # later probes' code cannot read this one's inputs
        refused = self._refused()
        # Nothing of the notebook may run once the harness has written: a process still
        # there was started after the harness stopped the others.
        late = self.box.kill_strays()
        if outcome == "died":
            self._hit("kernel_died", None, f"while probing {request.check_id}")
        elif outcome not in ("ok", "error"):
            self._hit("probe_timeout", None, request.check_id)
        if refused or late:
            payload = ProbePayload(request.check_id, "invalid", _PROBE_FAILED["refused"].format(
                refused or f"{late} processes of the notebook were running after it"))
        else:
            payload = self._payload(request, outcome)
        if outcome in ("died", "stuck"):
            self._after_probe_death()
        return payload

    def _refused(self) -> str:
        """The harness's reason for refusing its own output (REFUSED in the cell's error
        reply), or ""."""
        assert self.side is not None
        content = (self.side.reply or {}).get("content", {})
        evalue = str(content.get("evalue", ""))
        if content.get("status") == "error" and evalue.startswith(REFUSED):
            return checked.clean_text(evalue[len(REFUSED):], 300)
        return ""

    def _after_probe_death(self) -> None:
        """A fresh kernel for the next probes, the notebook replayed, if the run has a restart
        and budget left; else the remaining probes are not run (`kernel_gone`)."""
        if self.limits.notebook_timeout and self.spent >= self.limits.notebook_timeout:
            self._stop()
            self.kernel_gone = ("the notebook's time budget was used up, so the kernel was "
                                "not started again after it died")
            return
        if not self._restart(len(self.cells)):
            self.kernel_gone = (f"the kernel died or hung {self.restarts + 1} times and was "
                                "not restarted again")
            return
        if self.limits.notebook_timeout and self.spent >= self.limits.notebook_timeout:
            self._hit("notebook_timeout", None, "the replay after a probe killed the kernel "
                      "used up the notebook's budget")
        # the replayed cells may have installed their hooks again
        hooks = (self.baseline or {}).get("hooks", {})
        self._grader_cell(f"neutralise({self.paths.telemetry_mount!r}, "
                          f"json.loads({json.dumps(hooks)!r}), 'replay')", PING_TIMEOUT)

    def _payload(self, request: ProbeRequest, outcome: str) -> ProbePayload:
        """What the probe wrote, checked against what the harness writes (`grader.run.payload`):
        a payload that does not fit is this probe's failure, with the reason."""
        cid = request.check_id
        sent, params = _sent(request.inputs)

        @functools.cache
        def hidden() -> str:  # read only if a message needs scrubbing
            # the run's own folders are no one's business either
            return "\0".join([checked.hidden_texts(params), self.paths.io_mount,
                              self.paths.telemetry_mount])

        try:
            data = checked.load_json(self.paths.io / "out" / f"{cid}.json",
                                     checked.MAX_PROBE_JSON_BYTES)
            if data is None:
                status = {"died": "died", "stuck": "timeout", "timeout": "timeout"}.get(
                    outcome, "missing")
                return ProbePayload(cid, status, _PROBE_FAILED[status])
            cases = checked.check_probe(data, cid, sent, hidden)
            tensors = checked.check_tensors(
                checked.load_tensors(self.paths.io / "out" / f"{cid}.safetensors"), cases)
        except BadPayload as exc:
            return ProbePayload(cid, "invalid", f"{_PROBE_FAILED['invalid']} ({exc}).")
        ops = {name: case.pop(checked.OPS_KEY) for name, case in cases.items()
               if checked.OPS_KEY in case}
        return ProbePayload(cid, "ok", cases=cases, tensors=tensors, ops=ops)


def _sent(inputs: Path) -> tuple[list[str], dict[str, Any]]:
    """The case names of a probe's inputs, and their parameters (whose texts are kept out
    of messages)."""
    from safetensors import safe_open

    with safe_open(str(inputs), framework="pt") as fh:
        params = json.loads((fh.metadata() or {}).get("params", "{}"))
    return list(params), params


_PROBE_FAILED = {
    "died": "The kernel died while the grader called your code.",
    "timeout": "Your code did not return within the probe's time limit.",
    "missing": "The grader's probe did not report back: the notebook interfered with cell "
               "execution, or the kernel could not run it (see the tamper evidence).",
    "invalid": "The grader refused what the probe sent back: it is not what the grader's "
               "harness writes, so the notebook interfered with it",
    "refused": "The grader did not use what the probe found: {}.",
    "threads": "Not run: threads the notebook started kept running after the grader stopped "
               "them ({}); the grader does not call your code while they run. Threads must "
               "end with the cell that starts them.",
}
