"""A cgroup around the whole sandbox: memory and process limits that hold for all its
processes together, not for each one (rlimits are per process: four children of 2 GiB
each passed a 6 GiB address-space limit together).

Made directly in cgroupfs, no systemd needed: under the grader's own cgroup, one child
per run, `cgroup v2` (`memory.max`, `pids.max`) where /sys/fs/cgroup is the unified
hierarchy, else `cgroup v1` (`memory.limit_in_bytes` in the memory hierarchy, `pids.max`
in the pids one). The kernel's command joins it before anything else runs (`join_argv`:
a shell writes its pid to `cgroup.procs`, then execs prlimit, bwrap and the kernel, which
inherit it). Where cgroups cannot be written (no root, a read-only cgroupfs, v2 without
the controllers delegated), `create` says why and the run goes on with rlimits only; the
run's record says which held (`RunResult.limits_mechanism`).

The cgroup is also the sandbox's **CPU share** (`cpu.weight` in v2, `cpu.shares` in v1,
each written explicitly, and optionally a cap, `cpu.max` / `cpu.cfs_quota_us`). Without
it every thread of every sandbox competes alone: a notebook spinning 16 threads took 16
shares of the CPUs for its neighbour's one under `-j 2`, and pushed it past its cell
timeout. In a cgroup of its own a sandbox is one scheduling entity, so two runs side by
side get the CPU half and half when both want it, whatever their thread counts, and all
of it when the other is idle. Where the CPU controller is not to be had (v2 without it
delegated, no v1 `cpu` hierarchy) the memory and pids limits still hold and `Cgroup.cpu`
is None, with the reason in `Cgroup.cpu_note`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
PIDS_MARGIN = 8
"""Tasks beyond the process limit for what runs as root around the kernel (the joining
shell, prlimit, bwrap and its init)."""
CPU_WEIGHT = 100
"""A sandbox's CPU weight in v2 terms (1..10000; 100 is the kernel's default, the share of
one ordinary process): each sandbox weighs as much as one process of the grader, so two
sandboxes split the CPUs evenly and neither can starve the grader. v1 writes it as
`cpu.shares` (x 1024 / 100)."""
CFS_PERIOD_US = 100_000
"""The period of a CPU cap (`cpu.max` / `cpu.cfs_period_us`), the kernel's default."""


@dataclass
class Cgroup:
    """One run's cgroup (one folder per hierarchy) and how to put the kernel in it."""

    version: int
    folders: list[Path] = field(default_factory=list)
    memory: Path | None = None
    """The folder with the memory controller (its OOM-kill count says the limit bit)."""
    cpu: Path | None = None
    """The folder with the CPU controller (its weight, and cap if any), None without one."""
    cpu_note: str = ""
    """Why there is no CPU share, when `cpu` is None."""

    @property
    def mechanism(self) -> str:
        return f"cgroup v{self.version}"

    def join_argv(self) -> list[str]:
        """A command prefix that moves itself into this cgroup, then execs the rest."""
        files = " ".join(f"'{f / 'cgroup.procs'}'" for f in self.folders)
        script = (f'for f in {files}; do echo $$ > "$f" || exit 97; done; exec "$@"')
        return ["sh", "-c", script, "grader-cgroup"]

    def oom_kills(self) -> int:
        """How many processes the kernel's OOM killer ended in this cgroup so far."""
        if self.memory is None:
            return 0
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        try:
            text = (self.memory / name).read_text()
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit():
                return int(value)
        return 0

    def pids(self) -> list[int]:
        found: set[int] = set()
        for folder in self.folders:
            with contextlib.suppress(OSError, ValueError):
                found.update(int(p) for p in (folder / "cgroup.procs").read_text().split())
        return sorted(found)

    def remove(self) -> None:
        """Kill what is left in it and remove its folders."""
        for _round in range(50):
            left = self.pids()
            if not left:
                break
            for pid in left:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.02)
        for folder in self.folders:
            for _try in range(50):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)  # the last processes are still exiting


def _own_paths() -> dict[str, str]:
    """This process's cgroup path per hierarchy ("" for v2), from /proc/self/cgroup."""
    paths = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _id, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path
    return paths


def _cpu_v2(folder: Path, weight: int, cpus: float | None) -> None:
    (folder / "cpu.weight").write_text(str(weight))
    if cpus:
        (folder / "cpu.max").write_text(f"{round(cpus * CFS_PERIOD_US)} {CFS_PERIOD_US}")


def _cpu_v1(folder: Path, weight: int, cpus: float | None) -> None:
    (folder / "cpu.shares").write_text(str(max(2, round(weight * 1024 / 100))))
    if cpus:
        (folder / "cpu.cfs_period_us").write_text(str(CFS_PERIOD_US))
        (folder / "cpu.cfs_quota_us").write_text(str(round(cpus * CFS_PERIOD_US)))


def create(memory_bytes: int, processes: int, cpu_weight: int = CPU_WEIGHT,
           cpus: float | None = None) -> tuple[Cgroup | None, str]:
    """A fresh cgroup with these limits (0: none), or None and why there is none.

    `cpu_weight` (v2 units, 100 = one ordinary process) is the sandbox's CPU share;
    `cpus`, when given, caps it at that many CPUs' worth of time. Without a CPU controller
    the cgroup is still made, for memory and pids, and `Cgroup.cpu_note` says why it has
    no share."""
    if os.geteuid() != 0:
        return None, "not root, so no cgroup of its own"
    if not ROOT.is_dir():
        return None, "no /sys/fs/cgroup"
    try:
        own = _own_paths()
    except (OSError, ValueError) as exc:
        return None, f"cgroups unreadable ({exc})"
    name = f"grader-{secrets.token_hex(6)}"
    made: list[Path] = []
    try:
        if (ROOT / "cgroup.controllers").is_file():  # the unified hierarchy (v2)
            parent = ROOT / own.get("", "/").lstrip("/")
            enabled = (parent / "cgroup.subtree_control").read_text().split()
            missing = [c for c in ("memory", "pids") if c not in enabled]
            if missing:
                return None, (f"cgroup v2 without the {' and '.join(missing)} controller "
                              "delegated to the grader's cgroup")
            folder = parent / name
            folder.mkdir()
            made.append(folder)
            if memory_bytes:
                (folder / "memory.max").write_text(str(memory_bytes))
                with contextlib.suppress(OSError):
                    (folder / "memory.swap.max").write_text("0")
            if processes:
                (folder / "pids.max").write_text(str(processes + PIDS_MARGIN))
            group = Cgroup(2, made, folder)
            if "cpu" not in enabled:
                group.cpu_note = "cgroup v2 without the cpu controller delegated"
            else:
                try:
                    _cpu_v2(folder, cpu_weight, cpus)
                    group.cpu = folder
                except OSError as exc:  # the share is a bonus: memory and pids still hold
                    group.cpu_note = f"cpu.weight not writable ({exc.strerror or exc})"
            return group, ""
        if not (ROOT / "memory").is_dir() or not (ROOT / "pids").is_dir():
            return None, "cgroup v1 without the memory and pids hierarchies"
        memory = ROOT / "memory" / own.get("memory", "/").lstrip("/") / name
        pids = ROOT / "pids" / own.get("pids", "/").lstrip("/") / name
        memory.mkdir()
        made.append(memory)
        pids.mkdir()
        made.append(pids)
        if memory_bytes:
            (memory / "memory.limit_in_bytes").write_text(str(memory_bytes))
            with contextlib.suppress(OSError):  # without swap accounting there is no such file
                (memory / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
        if processes:
            (pids / "pids.max").write_text(str(processes + PIDS_MARGIN))
        group = Cgroup(1, made, memory)
        cpu_root = ROOT / "cpu"  # "cpu" or "cpu,cpuacct" (a link to it where co-mounted)
        if not (cpu_root / "cpu.shares").is_file() or "cpu" not in own:
            group.cpu_note = "cgroup v1 without the cpu hierarchy"
        else:
            cpu = cpu_root / own["cpu"].lstrip("/") / name
            try:
                cpu.mkdir()
                made.append(cpu)
                _cpu_v1(cpu, cpu_weight, cpus)
                group.cpu = cpu
            except OSError as exc:  # the share is a bonus: memory and pids still hold
                group.cpu_note = f"cpu cgroup not writable ({exc.strerror or exc})"
        return group, ""
    except OSError as exc:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        return None, f"cgroups not writable here ({exc.strerror or exc})"
