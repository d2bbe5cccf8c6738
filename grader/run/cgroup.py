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


@dataclass
class Cgroup:
    """One run's cgroup (one folder per hierarchy) and how to put the kernel in it."""

    version: int
    folders: list[Path] = field(default_factory=list)
    memory: Path | None = None
    """The folder with the memory controller (its OOM-kill count says the limit bit)."""

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


def create(memory_bytes: int, processes: int) -> tuple[Cgroup | None, str]:
    """A fresh cgroup with these limits (0: none), or None and why there is none."""
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
            return Cgroup(2, made, folder), ""
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
        return Cgroup(1, made, memory), ""
    except OSError as exc:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        return None, f"cgroups not writable here ({exc.strerror or exc})"
