"""What a kernel was doing when a grader cell waited past its limit, read from outside.

A grader cell that never answers used to leave nothing but a record that never came: the
next hang had to be found by attaching a profiler to the sandbox by hand. Everything here
is read from the grader's side, since the kernel is the thing that stopped answering: its
OS threads from /proc (what each is blocked in), how many Python threads it had at the
baseline, the last message it sent, and why the grader refused its last snapshot. The
result is plain data for the run's telemetry and the record (`run.hangs`).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

log = logging.getLogger("grader.run")

MAX_THREADS = 64
"""OS threads listed per hang (a kernel has about ten; a notebook may start hundreds)."""


def os_threads(pid: int | None, proc: Path = Path("/proc")) -> list[dict[str, str]]:
    """The process's threads as the OS sees them: name (`comm`), state (R running, S
    sleeping, D in the disk, Z, T stopped) and the kernel function a sleeper waits in."""
    if pid is None:
        return []
    found = []
    try:
        tids = sorted(int(t.name) for t in (proc / str(pid) / "task").iterdir()
                      if t.name.isdigit())
    except OSError:
        return []
    for tid in tids[:MAX_THREADS]:
        task = proc / str(pid) / "task" / str(tid)
        try:
            comm = (task / "comm").read_text(errors="replace").strip()
            state = (task / "stat").read_text(errors="replace").rsplit(")", 1)[-1].split()[0]
        except (OSError, IndexError):
            continue  # the thread ended while we looked
        try:
            wchan = (task / "wchan").read_text(errors="replace").strip()
        except OSError:
            wchan = ""
        found.append({"tid": str(tid), "name": comm[:40], "state": state,
                      "waits_in": wchan[:60] if wchan not in ("", "0") else ""})
    return found


def describe_hang(*, cell: str, limit: float, outcome: str, pid: int | None,
                  kernel_threads: list[int] | None, last_message: dict[str, Any] | None,
                  refused: list[str], last_stop: dict[str, Any] | None) -> dict[str, Any]:
    """One hang, for the record: which grader cell, its limit, and what the kernel was
    doing. Logged too, so a batch's log names it as it happens."""
    threads = os_threads(pid)
    message = None
    if last_message:
        message = {"type": str(last_message.get("type", ""))[:40],
                   "state": str(last_message.get("state", ""))[:20],
                   "seconds_ago": round(time.monotonic() - float(last_message["at"]), 1)}
    hang: dict[str, Any] = {
        "cell": cell[:80], "limit_seconds": round(limit, 1), "outcome": outcome,
        "kernel_alive": bool(threads) if pid is not None else None,
        "os_threads": threads,
        "baseline_python_threads": len(kernel_threads) if kernel_threads is not None else None,
        "last_message": message,
        "last_refusal": refused[-1][:300] if refused else None,
    }
    if last_stop:  # what the harness last stopped: the kernel's own threads must not be here
        hang["last_stop"] = {k: list(last_stop.get(k, []))[:20]
                             for k in ("stopped", "dormant", "running")}
    log.warning("grader cell %s waited past its %.0f s limit (%s): kernel threads %s; last "
                "message %s; last refusal %s", cell, limit, outcome,
                ", ".join(f"{t['name']}:{t['state']}" for t in threads) or "none seen",
                message or "none", hang["last_refusal"] or "none")
    return hang
