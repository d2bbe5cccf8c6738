"""nbclient's client with a time limit per cell, an output budget and a bound on itself.

One `GuardedClient` runs the student's cells of a run, in place in their notebook;
another, sharing the same kernel, runs the grader's own cells (`grader.run.kernel_lifecycle`).
Each cell ends as data: ``ok``, ``error``, ``timeout`` (nbclient's interrupt, recognised by
a secret marker so that a cell cannot fake one), ``died`` or ``hung`` (nbclient itself did
not return within the cell's limit and `HANG_GRACE`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from queue import Empty
from typing import Any

import nbformat
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import ensure_async, run_sync
from nbclient import NotebookClient
from nbclient.exceptions import DeadKernelError
from nbformat import NotebookNode

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



def _output_size(content: dict[str, Any]) -> int:
    return len(content.get("text", "")) + sum(
        len(str(v)) for v in content.get("data", {}).values()) + sum(
        len(line) for line in content.get("traceback", []))


class GuardedClient(NotebookClient):
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
