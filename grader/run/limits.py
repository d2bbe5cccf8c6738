"""Every limit a graded notebook runs under, declared once with its unit.

A student's runaway cell is a result to record, not a crash of the grader, so each
limit here has a name that the record uses when it trips (`Limits.NAMES`). Kernel
limits are enforced by the operating system (rlimits set before the sandbox starts);
time and output limits are enforced by the runner, which owns the clock and the
output stream.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

GiB = 1 << 30
MiB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """Resource limits of one notebook run; 0 or None means "no limit"."""

    memory_bytes: int = 6 * GiB
    """Memory of the whole sandbox: its processes together, its /tmp and scratch included
    (a cgroup, where the machine lets the grader make one), and the address space of each
    kernel process (RLIMIT_AS: a bigger allocation raises MemoryError)."""
    processes: int = 128
    """Processes and threads of the sandbox (its cgroup's pids.max, and RLIMIT_NPROC of its
    user): stops fork bombs."""
    open_files: int = 256
    """Open file descriptors per process (RLIMIT_NOFILE)."""
    file_bytes: int = 256 * MiB
    """Largest file the notebook may write (RLIMIT_FSIZE)."""
    cpu_seconds: int = 900
    """CPU seconds per kernel process (RLIMIT_CPU); the kernel is killed when it is spent."""
    cell_timeout: float = 120.0
    """Seconds one student cell may run before it is interrupted."""
    probe_timeout: float = 60.0
    """Seconds one probe (all cases of one check) may run in the student's kernel."""
    notebook_timeout: float = 600.0
    """Seconds for all student cells together; cells past the budget are skipped."""
    output_bytes: int = 2 * MiB
    """Bytes of cell output kept for the whole notebook; the rest is dropped and the cell stopped."""
    startup_timeout: float = 60.0
    """Seconds to wait for a kernel to start."""
    tmp_bytes: int = 512 * MiB
    """Size of the sandbox's private /tmp (held in memory)."""
    scratch_bytes: int = 1 * GiB
    """Size of the working folder (`/home/student`, a tmpfs holding a copy of the submission
    and the pack's files): what the notebook may write there, saved models included."""
    tag_timeouts: dict[str, float] = field(default_factory=dict)
    """Seconds for cells carrying a tag, instead of `cell_timeout`: a question's time
    budget (`time_budget` in the rubric), e.g. the cell that fine-tunes a model."""

    def cell_timeout_for(self, tags: Iterable[str]) -> float:
        """The timeout of a cell with these tags: the largest budget among them, if any."""
        budgets = [self.tag_timeouts[t] for t in tags if t in self.tag_timeouts]
        return max(budgets) if budgets else self.cell_timeout

    def merged(self, overrides: dict[str, Any] | None) -> Limits:
        """These limits with a pack's or a command line's overrides applied (unknown keys refused)."""
        if not overrides:
            return self
        known = {f.name: f.type for f in fields(self)}
        unknown = sorted(set(overrides) - set(known))
        if unknown:
            raise ValueError(f"unknown limit(s) {', '.join(unknown)}; known: {', '.join(known)}")
        return replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


LIMIT_MESSAGES = {
    "cell_timeout": "a cell ran longer than {value:g} s and was interrupted",
    "notebook_timeout": "the notebook used up its {value:g} s budget; later cells were skipped",
    "probe_timeout": "a probe ran longer than {value:g} s (the student's code did not return)",
    "output_bytes": "the notebook printed more than {value} bytes; the rest was dropped",
    "memory_bytes": "the kernel ran out of its {value} bytes of memory",
    "scratch_bytes": "the notebook filled its {value} bytes of disk space (the working "
                     "folder, or /tmp)",
    "processes": "the notebook hit the limit of {value} processes",
    "cpu_seconds": "the kernel used its {value} s of CPU time and was stopped",
    "kernel_died": "the kernel died (the notebook exited, crashed or was killed)",
}


def describe(name: str, limits: Limits) -> str:
    """One sentence a TA understands for a limit that tripped."""
    value = getattr(limits, name, "")
    return LIMIT_MESSAGES.get(name, name).format(value=value)
