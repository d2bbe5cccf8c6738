"""Warm worker processes that run one call at a time, and are killed whole when it runs over.

Why processes: work on student material (a self-check's grading, an answer's parse)
can hold the GIL for as long as it likes, and a thread cannot be stopped. The web
process only sends a call down a pipe and waits on it (`Worker.call`), which takes no
GIL; past the call's limit the worker is killed together with every process under it
(a self-check's sandboxed kernel included) and the caller gets `CallTimeout`. The
owner then starts a fresh worker.

Workers are started with the ``spawn`` context, never ``fork``: the web process has
threads (uvicorn, the self-check queue), which a fork would copy mid-flight. A worker
pays its imports once (``init``) and then serves calls until its pipe closes, so it
also ends when the web process dies. It ignores SIGINT (Ctrl-C in a terminal reaches
the whole process group; the service stops its workers itself), and on SIGTERM it
kills the processes under it (warm kernels included, whose cgroups and folders it then
removes: `grader.run.pool.release_all`) before it exits.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

START_TIMEOUT_S = 120.0
"""How long a new worker may take to import what it needs and say it is ready."""


class WorkerGone(RuntimeError):
    """The worker died, or was killed, before the call returned."""


class CallTimeout(RuntimeError):
    """The call ran past its limit; the worker and everything under it were killed."""


class CallFailed(RuntimeError):
    """The called function raised in the worker: its type's name, message and traceback."""

    def __init__(self, type_name: str, message: str, trace: str) -> None:
        super().__init__(f"{type_name}: {message}")
        self.type_name, self.message, self.trace = type_name, message, trace


class Worker:
    """One warm process of the ``spawn`` context, fed calls through a pipe.

    `start` launches it and waits until ``init(*init_args)`` has run in it; `call`
    runs ``fn(*args)`` there (``fn`` a module-level function, everything picklable);
    `kill` ends it and its whole process tree. A worker that is gone stays gone: make
    a new one.
    """

    def __init__(self, name: str, init: Callable[..., Any] | None = None,
                 init_args: tuple[Any, ...] = ()) -> None:
        self.name, self.init, self.init_args = name, init, init_args
        self.process: multiprocessing.process.BaseProcess | None = None
        self.conn: Connection | None = None
        self.killed = False
        self._lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def alive(self) -> bool:
        return not self.killed and self.process is not None and self.process.is_alive()

    def launch(self) -> None:
        """Start the process (returns at once; `ready` waits for its imports)."""
        ctx = multiprocessing.get_context("spawn")
        with self._lock:
            if self.killed:
                raise WorkerGone(f"{self.name} was stopped before it started")
            parent, child = ctx.Pipe()
            process = ctx.Process(target=serve, args=(child, self.init, self.init_args),
                                  name=self.name, daemon=True)
            process.start()
            child.close()
            self.process, self.conn = process, parent

    def ready(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Wait for the worker's "ready"; kill it and raise WorkerGone if it does not come."""
        assert self.process is not None and self.conn is not None, "launch() first"
        ready = wait([self.conn, self.process.sentinel], timeout_s)
        try:
            message = self.conn.recv() if self.conn in ready else None
        except (EOFError, OSError):
            message = None
        if not message or message[0] != "ready":
            detail = message[1] if message else (
                f"exit code {self.process.exitcode}" if ready else
                f"not ready after {timeout_s:g} s")
            self.kill()
            raise WorkerGone(f"{self.name} did not start: {detail}")

    def start(self, timeout_s: float = START_TIMEOUT_S) -> Worker:
        self.launch()
        self.ready(timeout_s)
        return self

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...], timeout_s: float) -> Any:
        """``fn(*args)`` in the worker, waited for at most ``timeout_s`` seconds.

        Raises `CallTimeout` (the worker is killed), `WorkerGone` (it died, or was killed
        by `kill` from another thread) or `CallFailed` (``fn`` raised; the worker lives on).
        """
        process, conn = self.process, self.conn
        if self.killed or process is None or conn is None:
            raise WorkerGone(f"{self.name} is not running")
        try:
            conn.send((fn, args))
        except (OSError, ValueError):
            self.kill()
            raise WorkerGone(f"{self.name} is gone (exit code {process.exitcode})") from None
        ready = wait([conn, process.sentinel], timeout_s)
        if conn in ready:
            try:
                status, *value = conn.recv()
            except (EOFError, OSError):
                status, value = "gone", []
            if status == "ok":
                return value[0]
            if status == "raised":
                raise CallFailed(*value)
        if ready or self.killed:
            self.kill()
            raise WorkerGone(f"{self.name} stopped during the call "
                             f"(exit code {process.exitcode})")
        self.kill()
        raise CallTimeout(f"the call took longer than {timeout_s:g} s")

    def kill(self) -> None:
        """Kill the worker and every process under it, then reap it. Safe to call twice."""
        with self._lock:
            self.killed = True
            process = self.process
        if process is None:
            return
        if process.pid is not None:
            kill_tree(process.pid)
        process.join(timeout=10)
        # the pipe is left to the garbage collector: another thread may still be waiting on it


# -- process trees ---------------------------------------------------------------------


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process that /proc shows."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name is in parentheses and may hold spaces or parentheses itself
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1 and fields[0] != b"Z":
            out[int(entry)] = int(fields[1])
    return out


def descendants(pid: int) -> list[int]:
    """Every live process under ``pid`` (children, their children, ...), parents first."""
    children: dict[int, list[int]] = {}
    for child, parent in _parents().items():
        children.setdefault(parent, []).append(child)
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(0), []):
            out.append(child)
            todo.append(child)
    return out


def kill_tree(pid: int, *, include_root: bool = True) -> int:
    """SIGKILL ``pid`` and every process under it; returns how many were signalled.

    The tree is stopped first (SIGSTOP), top down and until no new process shows up,
    so that nothing in it can fork a replacement, or be orphaned out of sight, while it
    is being killed. (A sandboxed kernel also dies with its bubblewrap parent; a
    sandbox's own uid is swept by `Sandbox.kill_leftovers`.)
    """
    stopped: list[int] = []
    for _round in range(20):
        found = ([pid] if include_root else []) + descendants(pid)
        new = [p for p in found if p not in stopped]
        if not new:
            break
        for p in new:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(p, signal.SIGSTOP)
            stopped.append(p)
    for p in stopped:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p, signal.SIGKILL)
    return len(stopped)


# -- inside the worker -------------------------------------------------------------------


def _terminate(_signum: int, _frame: Any) -> None:
    kill_tree(os.getpid(), include_root=False)
    pool = sys.modules.get("grader.run.pool")
    if pool is not None:  # warm kernels: their processes are dead, their cgroups go too
        with contextlib.suppress(Exception):
            pool.release_all()
    os._exit(1)


def serve(conn: Connection, init: Callable[..., Any] | None, init_args: tuple[Any, ...]) -> None:
    """The worker's main loop: ("ready",), then one reply per call until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminate)
    try:
        if init is not None:
            init(*init_args)
    except BaseException as exc:  # noqa: BLE001 - told to the parent, which logs it
        conn.send(("failed", f"{type(exc).__name__}: {exc}"[:500]))
        return
    conn.send(("ready", os.getpid()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return  # the web process is gone or closed the pipe
        if message is None:
            return
        fn, args = message
        started = time.monotonic()
        try:
            reply: tuple[Any, ...] = ("ok", fn(*args))
        except Exception as exc:  # noqa: BLE001 - the caller decides what a failure means
            reply = ("raised", type(exc).__name__, str(exc)[:1000],
                     traceback.format_exc(limit=20))
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # noqa: BLE001 - an unpicklable result
            conn.send(("raised", type(exc).__name__, f"the result of {fn.__name__} could not "
                       f"be sent back after {time.monotonic() - started:.1f} s: {exc}"[:1000], ""))
