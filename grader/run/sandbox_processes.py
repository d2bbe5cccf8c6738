"""The sandbox's processes, found by its uid in /proc, and killed.

Apart from `grader.run.sandbox` (which builds the kernel's command line) because
finding and killing processes is its own concern: a run's processes are those of the
sandbox's throwaway uid (the grader runs as root then), the kernel among them is pid 2
of the sandbox's pid namespace (bwrap's init is 1), and everything else of that uid is
a stray: a child the notebook started, a fork bomb's, a daemon reparented to bwrap's
init. Nothing here trusts what a process says about itself but its uid and its pid in
its namespace, which the kernel sets, not the process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

STRAY_ROUNDS = 5
"""Rounds of stop-then-kill over the uid's processes (a fork may land between two)."""
LET_GO_S = 1.0
"""How long `kill_strays` waits for the killed to go (freeing much memory takes a while)."""


def kill_uid(uid: int) -> int:
    """SIGKILL every process running as ``uid``; returns how many were signalled."""
    killed = 0
    for pid in pids_of_uid(uid):
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except ProcessLookupError:
            pass
    return killed


def kernel_pid(uid: int) -> int | None:
    """The kernel's pid as the grader sees it: the live process of ``uid`` that is pid 2 of
    its pid namespace, or None."""
    for pid in pids_of_uid(uid):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        if ns_pid(status) == 2 and "\nState:\tZ" not in status:
            return pid
    return None


def kill_strays(uid: int) -> int:
    """Kill every process of ``uid`` but the kernel; returns how many. Stopping before
    killing keeps a fork bomb from refilling the table while it is emptied."""
    killed: set[int] = set()
    for _round in range(STRAY_ROUNDS):
        strays = []
        for pid in pids_of_uid(uid):
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            if ns_pid(status) != 2 and "\nState:\tZ" not in status:  # zombies are dead
                strays.append(pid)
        if not strays:
            break
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in strays:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
        killed.update(strays)
    deadline = time.monotonic() + LET_GO_S
    while killed and time.monotonic() < deadline and any(alive(pid) for pid in killed):
        time.sleep(0.02)
    return len(killed)


def alive(pid: int) -> bool:
    """Whether a process still exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[:1] != ["Z"]


def ns_pid(status: str) -> int | None:
    """A process's pid in its innermost pid namespace, from /proc/<pid>/status."""
    for line in status.splitlines():
        if line.startswith("NSpid:"):
            return int(line.split()[-1])
    return None


def status_uid(status: str) -> int | None:
    """The real uid of a process, from /proc/<pid>/status."""
    for line in status.splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    return None


def pids_of_uid(uid: int) -> list[int]:
    """Every process whose real uid is ``uid``."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            if status_uid(status) == uid:
                pids.append(int(entry))
    return pids


def tasks_of_uid(uid: int) -> int:
    """Threads of every process of ``uid``: what RLIMIT_NPROC counts against it."""
    count = 0
    for pid in pids_of_uid(uid):
        try:
            count += len(os.listdir(f"/proc/{pid}/task"))
        except OSError:
            continue
    return count
