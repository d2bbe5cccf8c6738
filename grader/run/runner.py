"""Run one notebook in a sandboxed kernel, then the pack's probes in the same kernel.

One small client class in the manner of nbclient: explicit timeouts (per cell, per
probe, per notebook, see `grader.run.limits`), and every way a notebook can misbehave
turned into data on the `RunResult`: a cell that errors, one that times out, a
kernel that dies (the run restarts a fresh kernel, replays the cells that worked and
skips the fatal one, so an `os._exit` in a demo cell does not hide the functions
defined before it), an output flood, hooks the notebook installed.

Grader cells (the telemetry snapshots and the probes) are sent with the harness of
`grader.run.kernel_side`; their payloads come back as files in the run's io folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import nbformat
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import NotebookNode

from grader.run.kernel_side import HARNESS_SOURCE
from grader.run.limits import Limits, describe
from grader.run.result import CellReport, ProbePayload, ProbeRequest, RunResult
from grader.run.sandbox import Sandbox, SandboxPaths

MAX_PAYLOAD_BYTES = 256 << 20
"""A probe payload larger than this is refused unread (a student cannot flood the grader)."""
MAX_RESTARTS = 3
PING_TIMEOUT = 15.0


class _OneSpec(KernelSpecManager):
    """A kernel-spec manager that knows one spec: the sandboxed kernel of this run."""

    def __init__(self, spec: KernelSpec) -> None:
        super().__init__()
        self._spec = spec

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return self._spec


class _GuardedClient(NotebookClient):
    """nbclient with an output budget: a flood is cut, recorded, and its cell interrupted."""

    def __init__(self, nb: NotebookNode, km: AsyncKernelManager, budget: int) -> None:
        super().__init__(nb, km=km, allow_errors=True, interrupt_on_timeout=False,
                         shutdown_kernel="immediate", iopub_timeout=10,
                         raise_on_iopub_timeout=False, record_timing=False)
        self.budget = budget
        self.used = 0
        self.flooded_cell: int | None = None

    def output(self, outs: list[NotebookNode], msg: dict[str, Any], display_id: str | None,
               cell_index: int) -> NotebookNode | None:
        content = msg.get("content", {})
        size = len(content.get("text", "")) + sum(
            len(str(v)) for v in content.get("data", {}).values()) + sum(
            len(line) for line in content.get("traceback", []))
        if self.budget and self.used + size > self.budget and msg["msg_type"] != "error":
            if self.flooded_cell is None:
                self.flooded_cell = cell_index
                outs.append(nbformat.v4.new_output(
                    "stream", name="stderr",
                    text="\n[grader: output limit reached; the rest was dropped]\n"))
                asyncio.ensure_future(self.km.interrupt_kernel())  # type: ignore[union-attr]
            return None
        self.used += size
        return super().output(outs, msg, display_id, cell_index)


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
        root = Path(tempfile.mkdtemp(prefix="g-", dir=self.work_dir))
        try:
            return _Run(self, root, notebook, files, probes).execute()
        finally:
            self.sandbox.kill_leftovers()
            shutil.rmtree(root, ignore_errors=True)


class _Run:
    """The state of one notebook run (kept out of `Runner` so a runner is reusable)."""

    def __init__(self, runner: Runner, root: Path, notebook: Path,
                 files: Sequence[Path | tuple[Path, str]],
                 probes: Sequence[ProbeRequest]) -> None:
        self.box = runner.sandbox
        self.limits = runner.limits
        self.paths: SandboxPaths = self.box.prepare(root)
        shutil.copy2(notebook, self.paths.scratch / notebook.name)
        for item in files:
            extra, name = item if isinstance(item, tuple) else (item, item.name)
            target = self.paths.scratch / name
            if extra.is_dir():
                shutil.copytree(extra, target, dirs_exist_ok=True)
            else:
                shutil.copy2(extra, target)
        self.box.hand_over(self.paths)
        self.nb = nbformat.read(notebook, as_version=4)
        self.probes = probes
        self.cells = [CellReport(i, list(c.metadata.get("tags", [])), "skipped")
                      for i, c in enumerate(self.nb.cells)]
        self.limits_hit: list[dict[str, Any]] = []
        self.fatal: set[int] = set()
        self.restarts = 0
        self.client: _GuardedClient | None = None
        self.baseline: dict[str, Any] | None = None
        self.telemetry: dict[str, Any] = {}
        self.side_errors: list[str] = []
        """Errors raised in grader cells: evidence of tampering, or a pack's broken probe."""

    # -- kernel lifecycle ------------------------------------------------------------

    def _start(self) -> None:
        for stale in self.paths.runtime.iterdir():
            stale.unlink(missing_ok=True)
        spec = KernelSpec(argv=self.box.kernel_argv(self.paths, self.limits),
                          display_name="grader sandbox", language="python",
                          interrupt_mode="message")
        km = AsyncKernelManager(kernel_name="grader-sandbox", kernel_spec_manager=_OneSpec(spec),
                                transport="ipc", ip=str(self.paths.runtime / "k"),
                                connection_file=str(self.paths.runtime / "kernel.json"))
        km.write_connection_file()
        self.box.hand_over(self.paths)
        client = _GuardedClient(self.nb, km, self.limits.output_bytes)
        client.startup_timeout = int(math.ceil(self.limits.startup_timeout))
        if self.client is not None:
            client.used = self.client.used
            client.flooded_cell = self.client.flooded_cell
        # The kernel's own stdout/stderr (not the cells', which go to the notebook) land in
        # a file, never on the grader's terminal.
        with open(self.paths.runtime.parent / "kernel.log", "ab") as log:
            client.start_new_kernel(stdout=log, stderr=log)
        client.start_new_kernel_client()
        self.client = client

    def _stop(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):  # a dead kernel is already stopped
                self.client._cleanup_kernel()
        self.box.kill_leftovers()

    def _restart(self, upto: int) -> None:
        """A fresh kernel with the cells before `upto` replayed, the fatal ones skipped."""
        self._stop()
        self.restarts += 1
        self._start()
        self._grader_cell(f"snapshot({self.paths.io_mount!r}, 'baseline')", PING_TIMEOUT)
        for report in self.cells[:upto]:
            if report.index in self.fatal or report.status == "skipped":
                continue
            self._exec(self.nb.cells[report.index], report.index, self.limits.cell_timeout)

    # -- execution -----------------------------------------------------------------------

    def _exec(self, cell: NotebookNode, index: int, timeout: float) -> str:
        """Run one cell; returns ok | error | timeout | stuck | died."""
        assert self.client is not None
        self.client.timeout_func = lambda _cell: timeout
        start = time.perf_counter()
        try:
            self.client.execute_cell(cell, index, store_history=True)
        except CellTimeoutError:
            outcome = "timeout" if self._ping() else "stuck"
        except DeadKernelError:
            outcome = "died"
        else:
            errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
            outcome = "error" if errors else "ok"
        report = self.cells[index]
        report.seconds = round(time.perf_counter() - start, 3)
        report.status = {"stuck": "timeout", "died": "killed"}.get(outcome, outcome)
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if errors:
            report.ename, report.evalue = errors[-1].get("ename"), str(errors[-1].get("evalue"))[:300]
        return outcome

    def _ping(self) -> bool:
        """Interrupt the kernel and check it answers again (a loop may ignore SIGINT)."""
        assert self.client is not None and self.client.km is not None
        try:
            run_sync(self.client.km.interrupt_kernel)()
            # The timed-out cell's output task may still hold the iopub socket: reconnect,
            # so later cells' outputs are not swallowed by it.
            self.client.kc.stop_channels()  # type: ignore[union-attr]
            self.client.kc = None
            self.client.start_new_kernel_client()
            self.nb.cells.append(nbformat.v4.new_code_cell("pass"))
            self.client.timeout_func = lambda _cell: PING_TIMEOUT
            self.client.execute_cell(self.nb.cells[-1], len(self.nb.cells) - 1,
                                     store_history=False)
            return True
        except (CellTimeoutError, DeadKernelError, RuntimeError):
            return False
        finally:
            self.nb.cells.pop()

    def _grader_cell(self, call: str, timeout: float) -> str:
        cell = nbformat.v4.new_code_cell(HARNESS_SOURCE + "\n" + call + "\n")
        source = f"exec({cell.source!r}, {{'__name__': 'grader_harness'}})"
        cell.source = source
        return self._side_cell(cell, timeout)

    def _side_cell(self, cell: NotebookNode, timeout: float) -> str:
        """Run a cell that is not the student's: appended for the call, then removed, since
        nbclient writes each executed cell back into the notebook at its index."""
        assert self.client is not None
        self.client.timeout_func = lambda _cell: timeout
        self.nb.cells.append(cell)
        try:
            self.client.execute_cell(cell, len(self.nb.cells) - 1, store_history=False)
        except CellTimeoutError:
            return "timeout" if self._ping() else "stuck"
        except DeadKernelError:
            return "died"
        finally:
            self.nb.cells.pop()
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    self.side_errors.append(f"{out.get('ename')}: {str(out.get('evalue'))[:300]}")
        return "ok"

    def _hit(self, limit: str, cell: int | None = None, detail: str = "") -> None:
        if limit == "notebook_timeout" and any(h["limit"] == limit for h in self.limits_hit):
            return
        entry = {"limit": limit, "cell": cell, "message": describe(limit, self.limits)}
        if detail:
            entry["detail"] = detail
        if entry not in self.limits_hit:
            self.limits_hit.append(entry)

    def _read_json(self, name: str) -> Any:
        path = self.paths.io / "out" / name
        if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_PAYLOAD_BYTES:
            return None
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            return None

    def execute(self) -> RunResult:
        started = time.perf_counter()
        self._start()
        try:
            self._grader_cell(f"snapshot({self.paths.io_mount!r}, 'baseline')", PING_TIMEOUT)
            self.baseline = self._read_json("baseline.json")
            self._student_cells()
            self._after_cells()
            probes = {p.check_id: self._probe(p) for p in self.probes}
        finally:
            self._stop()
        return RunResult(
            executed=self.nb, cells=self.cells, probes=probes, telemetry=self.telemetry,
            limits_hit=self.limits_hit, seconds=round(time.perf_counter() - started, 3),
            restarts=self.restarts, sandbox=self.box.kind)

    def _student_cells(self) -> None:
        spent = 0.0
        for index, cell in enumerate(self.nb.cells):
            if cell.cell_type != "code" or not cell.source.strip():
                self.cells[index].status = "ok"
                continue
            remaining = self.limits.notebook_timeout - spent if self.limits.notebook_timeout else None
            if remaining is not None and remaining <= 0:
                self._hit("notebook_timeout", index)
                continue
            if self.restarts > MAX_RESTARTS:
                self._hit("kernel_died", index, "too many kernel restarts; later cells skipped")
                continue
            cell_limit = self.limits.cell_timeout_for(cell.metadata.get("tags", []))
            timeout = min(filter(None, (cell_limit, remaining)), default=None)
            outcome = self._exec(cell, index, timeout or 0)
            spent += self.cells[index].seconds
            assert self.client is not None
            if self.client.flooded_cell == index:
                self._hit("output_bytes", index)
            if outcome in ("timeout", "stuck"):
                cut_by_budget = remaining is not None and remaining < (cell_limit or float("inf"))
                self._hit("notebook_timeout" if cut_by_budget else "cell_timeout", index)
            if outcome != "ok" and self.box.kill_strays():
                self._hit("processes", index, "processes the cell left running were killed")
            if self.cells[index].ename == "MemoryError":
                self._hit("memory_bytes", index)
            if outcome in ("stuck", "died"):
                if outcome == "died":
                    self._hit("kernel_died", index)
                self.fatal.add(index)
                self._restart(index)

    def _after_cells(self) -> None:
        """Snapshot what the notebook patched, then remove its hooks before the probes."""
        io = self.paths.io_mount
        self._grader_cell(f"snapshot({io!r}, 'after')", PING_TIMEOUT)
        after = self._read_json("after.json")
        hooks = (self.baseline or {}).get("hooks", {})
        self._grader_cell(f"neutralise({io!r}, json.loads({json.dumps(hooks)!r}))", PING_TIMEOUT)
        removed = self._read_json("neutralised.json")
        self.telemetry = {"baseline": self.baseline, "after": after,
                          "removed": (removed or {}).get("removed")}

    def _probe(self, request: ProbeRequest) -> ProbePayload:
        inputs = self.paths.io / "in" / f"{request.check_id}.safetensors"
        shutil.copyfile(request.inputs, inputs)
        inputs.chmod(0o644)  # safetensors writes 0600; the kernel's user must read it
        call = (f"probe({self.paths.io_mount!r}, {request.check_id!r}, {request.target!r}, "
                f"{request.source!r})")
        outcome = self._grader_cell(call, self.limits.probe_timeout)
        if outcome == "died":
            self._hit("kernel_died", None, f"while probing {request.check_id}")
        elif outcome != "ok":
            self._hit("probe_timeout", None, request.check_id)
        data = self._read_json(f"{request.check_id}.json")
        if outcome in ("died", "stuck"):
            self._restart(len(self.cells))
        if not isinstance(data, dict) or not isinstance(data.get("cases"), dict):
            status = {"died": "died", "stuck": "timeout", "timeout": "timeout"}.get(outcome,
                                                                                   "missing")
            return ProbePayload(request.check_id, status, _PROBE_FAILED[status])
        return ProbePayload(request.check_id, "ok", cases=data["cases"],
                            tensors=self._read_tensors(request.check_id))

    def _read_tensors(self, check_id: str) -> dict[str, Any]:
        from safetensors.torch import load_file

        path = self.paths.io / "out" / f"{check_id}.safetensors"
        if not path.is_file() or path.is_symlink() or path.stat().st_size > MAX_PAYLOAD_BYTES:
            return {}
        try:
            return load_file(str(path))
        except Exception:  # noqa: BLE001 - a forged file is the student's loss
            return {}


_PROBE_FAILED = {
    "died": "The kernel died while the grader called your code.",
    "timeout": "Your code did not return within the probe's time limit.",
    "missing": "The grader's probe did not report back: the notebook interfered with cell "
               "execution, or the kernel could not run it (see the tamper evidence).",
}
