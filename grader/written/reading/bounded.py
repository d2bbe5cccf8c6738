"""Reading a student's report in a bounded worker process.

Why: a report is hostile input to C parsers (MuPDF, lxml, zlib) and to the layout
passes after them. A crafted file that runs for an hour or inflates to gigabytes inside
the grader, the batch worker or the service stops every student behind it. So every
read (``read_document``) happens in a child process with

- a **CPU-time** limit per file (``RLIMIT_CPU``: the kernel ends the worker with SIGXCPU
  even inside C code, where no Python timeout can reach);
- an **address-space** limit (``RLIMIT_AS``: an allocation past it fails; MuPDF, lxml and
  Python raise, and the worker answers "too complex" and retires);
- a **wall-clock** limit, kept by the parent (the worker is killed when it passes), for a
  read that waits rather than computes.

A file that trips one raises ``ReportTooComplex`` ("too complex to read: sent to a TA"),
a ``ReportReadError``: the caller records it as that student's file for a TA, and goes on.

The worker is reused (spawning Python and importing PyMuPDF costs ~150-300 ms a file;
a reused worker ~1 ms, docs/benchmarks.md): a small pool of idle workers per process,
thread-safe, dropped in a forked child (its pipes are the parent's), each worker leaving
by itself after ``IDLE_EXIT_S`` without work or when its parent goes (stdin closes). A
worker that tripped a limit or raised ``MemoryError`` is never reused.

Only the standard library is used here, so ``calculators`` still imports with sympy
alone; the worker imports the readers (and their optional libraries) itself.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from grader.written.reading.document import (
    Document,
    ReportReadError,
    ReportTooComplex,
)

MiB = 1 << 20


@dataclass(frozen=True)
class ReadLimits:
    """The bounds of one report read. Defaults are many times what a real report needs:
    200 dense PDF pages (the page limit) read in ~2 s of CPU with ~140 MiB resident and
    ~180 MiB of address space in the worker (docs/reading-reports.md)."""

    cpu_seconds: float = 30.0
    """CPU seconds one file may use in the worker (RLIMIT_CPU, whole seconds: rounded up)."""
    memory_bytes: int = 1024 * MiB
    """Address space of the worker (RLIMIT_AS), set when it starts: Python, PyMuPDF and
    python-docx take ~150 MiB of it before any file is read."""
    wall_seconds: float = 120.0
    """Seconds the parent waits for one file, the worker's start included (a loaded machine
    makes a 2 s read take several)."""


DEFAULT_LIMITS = ReadLimits()
IDLE_EXIT_S = 120.0
"""A worker with no file to read for this long leaves (its memory is given back)."""
MAX_IDLE = 2
"""Idle workers kept per process (threads reading at once each take one)."""
SYS_PATH_ENV = "CALCULATORS_READER_SYS_PATH"
"""The parent's ``sys.path``, handed to the worker so it imports the same readers."""

_BOOT = (
    f"import json, os, sys; sys.path[:] = json.loads(os.environ[{SYS_PATH_ENV!r}]); "
    "from grader.written.reading.bounded import serve; serve()"
)

_lock = threading.Lock()
_idle: list[_Worker] = []


def _reset_after_fork() -> None:
    """A forked child must not use its parent's workers (the pipes are shared)."""
    global _lock
    _lock = threading.Lock()
    _idle.clear()


if hasattr(os, "register_at_fork"):  # POSIX; elsewhere reading is not bounded (read_bounded)
    os.register_at_fork(after_in_child=_reset_after_fork)


class _Worker:
    """One reader process, and the pipes to it."""

    def __init__(self, limits: ReadLimits) -> None:
        env = dict(os.environ)
        env[SYS_PATH_ENV] = json.dumps([p for p in sys.path if isinstance(p, str)])
        self.memory_bytes = limits.memory_bytes
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT, str(limits.memory_bytes)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            close_fds=True,
        )
        self.owner = os.getpid()

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.proc.poll() is None

    def kill(self) -> None:
        if self.owner != os.getpid():
            return
        with contextlib.suppress(OSError):
            self.proc.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)


def _take(limits: ReadLimits) -> _Worker:
    with _lock:
        while _idle:
            worker = _idle.pop()
            if worker.alive() and worker.memory_bytes == limits.memory_bytes:
                return worker
            worker.kill()
    return _Worker(limits)


def _give_back(worker: _Worker) -> None:
    with _lock:
        if worker.alive() and len(_idle) < MAX_IDLE:
            _idle.append(worker)
            return
    worker.kill()


def close_workers() -> None:
    """End this process's idle workers (tests, and a process about to exit)."""
    with _lock:
        workers = list(_idle)
        _idle.clear()
    for worker in workers:
        worker.kill()


def _readable(fd: int, seconds: float) -> bool:
    """Whether `fd` has data (or EOF) within `seconds`. poll, not select: select cannot
    watch a descriptor numbered 1024 or more, and a long process (a service, a test
    session with a Ray cluster and many kernels) holds that many."""
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    return bool(poller.poll(max(0, math.ceil(seconds * 1000))))


class _PastDeadline(Exception):
    """The worker sent nothing more before the wall-clock deadline."""


def _read_exact(stream: IO[bytes], n: int, deadline: float) -> bytes | None:
    """``n`` bytes from the worker before the deadline; None at EOF. Past the deadline it
    raises ``_PastDeadline``: the caller must not guess which of the two it was from the
    clock afterwards (poll's millisecond timeout can return a hair before the deadline,
    and a kill after it makes a timed-out read look like a crash)."""
    fd = stream.fileno()
    chunks: list[bytes] = []
    got = 0
    while got < n:
        left = deadline - time.monotonic()
        if left <= 0 or not _readable(fd, left):
            if time.monotonic() < deadline:
                continue  # poll woke early: wait out the rest
            raise _PastDeadline
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


class _Lost(Exception):
    """The worker ended or went silent before answering."""

    def __init__(self, why: str, idle_exit: bool = False) -> None:
        super().__init__(why)
        self.idle_exit = idle_exit


def _ask(worker: _Worker, path: Path, limits: ReadLimits, deadline: float) -> dict[str, Any]:
    request = json.dumps({"path": os.path.abspath(path), "cpu": limits.cpu_seconds}).encode()
    assert worker.proc.stdin is not None and worker.proc.stdout is not None
    try:
        worker.proc.stdin.write(struct.pack(">Q", len(request)) + request)
        worker.proc.stdin.flush()
    except (BrokenPipeError, OSError):
        worker.kill()
        raise _Lost("the worker had left", idle_exit=True) from None
    head = body = None
    timed_out = False
    try:
        head = _read_exact(worker.proc.stdout, 8, deadline)
        if head is not None:
            body = _read_exact(worker.proc.stdout, struct.unpack(">Q", head)[0], deadline)
    except _PastDeadline:
        timed_out = worker.proc.poll() is None  # still at work: the wall clock ended it
    if body is None:
        worker.kill()
        code = worker.proc.returncode
        if timed_out:
            raise _Lost(f"it took longer than {limits.wall_seconds:g} s")
        if code == -signal.SIGXCPU:
            raise _Lost(f"it used more than {math.ceil(limits.cpu_seconds)} s of CPU time")
        if code == 0 and head is None:
            raise _Lost("the worker had left", idle_exit=True)
        if code is not None and code < 0:
            name = signal.Signals(-code).name
            raise _Lost(f"the reader was ended by {name}")
        raise _Lost(f"the reader ended with code {code}")
    return json.loads(body)


def read_bounded(path: str | Path, limits: ReadLimits | None = None) -> Document:
    """Read one report in a bounded worker (see the module's docstring).

    Raises ``ReportReadError`` as the readers do, and ``ReportTooComplex`` when the file
    trips a limit: the worker is then killed, and the next file gets a fresh one.
    """
    limits = limits or DEFAULT_LIMITS
    p = Path(path)
    if not p.is_file():  # the one answer a worker is not needed for
        raise ReportReadError(f"{p}: no such file")
    if os.name != "posix":  # no rlimits, no select on pipes: read here, unbounded
        from grader.written.reading.document import read_here

        return read_here(p)
    deadline = time.monotonic() + limits.wall_seconds
    for attempt in range(2):
        worker = _take(limits)
        try:
            reply = _ask(worker, p, limits, deadline)
        except _Lost as lost:
            if lost.idle_exit and attempt == 0:
                continue  # it left idle just as the file was sent: once more, on a fresh one
            raise ReportTooComplex(f"{p.name}: {ReportTooComplex.prefix} ({lost})") from None
        if reply.get("retire"):
            worker.kill()
        else:
            _give_back(worker)
        if "document" in reply:
            fields = reply["document"]
            fields["notes"] = tuple(fields["notes"])
            fields["path"] = str(p)  # as the caller named it (the worker was given it absolute)
            if fields["line_pages"] is not None:
                fields["line_pages"] = tuple(fields["line_pages"])
            return Document(**fields)
        if reply.get("complex"):
            raise ReportTooComplex(reply["error"])
        raise ReportReadError(reply["error"])
    raise ReportTooComplex(f"{p.name}: {ReportTooComplex.prefix} (no reader could be started)")


# -- the worker's side ----------------------------------------------------------------------


def _memory_failure(error: BaseException) -> bool:
    """The read failed for want of memory (MemoryError anywhere in the chain, or MuPDF's
    allocator refusing under RLIMIT_AS)."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, MemoryError):
            return True
        text = str(seen).lower()
        if any(w in text for w in ("malloc", "out of memory", "cannot allocate",
                                   "memory allocation failed")):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _peak_address_space() -> int:
    """This process's peak address space in bytes (VmPeak), 0 where unknown."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmPeak:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _handle(request: dict[str, Any], memory: int) -> dict[str, Any]:
    """Read one file under its CPU budget; the reply says what happened. A failure once
    the address space came within a tenth of its limit is the limit's doing, whatever the
    library made of the failed allocation (lxml says "unknown error"), and a worker that
    came that close is retired after the file, so its peak never speaks for the next."""
    reply = _read_one(request)
    if memory and _peak_address_space() >= 0.9 * memory:
        if "document" not in reply:
            name = Path(request["path"]).name
            reply = {"error": f"{name}: {ReportTooComplex.prefix} (it needs more memory than "
                              "a report may)", "complex": True}
        reply["retire"] = True
    return reply


def _read_one(request: dict[str, Any]) -> dict[str, Any]:
    import resource

    from grader.written.reading.document import read_here

    # this file's CPU budget on top of what the worker has used so far (RLIMIT_CPU counts
    # the process's whole life); the hard limit stays where it is
    used = resource.getrusage(resource.RUSAGE_SELF)
    soft = math.ceil(used.ru_utime + used.ru_stime + float(request["cpu"]))
    _hard_soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    path = Path(request["path"])
    try:
        doc = read_here(path)
    except ReportTooComplex as error:
        return {"error": str(error), "complex": True}
    except ReportReadError as error:
        if _memory_failure(error):
            return {"error": f"{path.name}: {ReportTooComplex.prefix} (it needs more memory "
                             "than a report may)", "complex": True, "retire": True}
        return {"error": str(error)}
    except RecursionError:
        return {"error": f"{path.name}: {ReportTooComplex.prefix} (nested too deeply)",
                "complex": True, "retire": True}
    except MemoryError:
        return {"error": f"{path.name}: {ReportTooComplex.prefix} (it needs more memory than "
                         "a report may)", "complex": True, "retire": True}
    except Exception as error:  # a reader's bug must be this file's error, not the batch's
        if _memory_failure(error):
            return {"error": f"{path.name}: {ReportTooComplex.prefix} (it needs more memory "
                             "than a report may)", "complex": True, "retire": True}
        return {"error": f"{path.name}: could not be read ({type(error).__name__}: "
                         f"{str(error)[:200]})", "retire": True}
    return {"document": asdict(doc)}


def serve() -> None:
    """The worker's loop: one length-prefixed JSON request per file on stdin, one reply on
    stdout. Leaves at EOF (its parent is gone) or after ``IDLE_EXIT_S`` idle (exit 0)."""
    import resource

    memory = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_LIMITS.memory_bytes
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # SIGXCPU leaves no core file
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if memory and (hard == resource.RLIM_INFINITY or memory <= hard):
        resource.setrlimit(resource.RLIMIT_AS, (memory, hard))
    memory = resource.getrlimit(resource.RLIMIT_AS)[0]
    memory = 0 if memory == resource.RLIM_INFINITY else memory
    stdin = sys.stdin.buffer
    # replies go to a copy of fd 1; fd 1 itself goes where stderr goes, so that a print of
    # a library, in Python or in C, cannot corrupt them
    stdout = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    while True:
        if not _readable(stdin.fileno(), IDLE_EXIT_S):
            return
        head = stdin.read(8)
        if len(head) < 8:
            return
        request = json.loads(stdin.read(struct.unpack(">Q", head)[0]))
        reply = _handle(request, memory)
        try:
            out = json.dumps(reply).encode()
        except MemoryError:
            out = json.dumps({"error": f"{Path(request['path']).name}: "
                                       f"{ReportTooComplex.prefix} (its text is too large)",
                              "complex": True, "retire": True}).encode()
        stdout.write(struct.pack(">Q", len(out)) + out)
        stdout.flush()
        if reply.get("retire"):
            return
