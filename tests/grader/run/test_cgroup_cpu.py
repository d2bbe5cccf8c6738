"""A sandbox's cgroup is its CPU share (issue 25 item 5, CPU half).

The setting is read back from the cgroup a run creates (`cgroup.create`, the call the
runner and the warm pool make), and a process joined through `join_argv` (the prefix the
kernel's command starts with) is shown to be in it. Then fairness itself, made
deterministic by pinning every process to one CPU: eight spinning processes in one
sandbox's cgroup against one in another's share that CPU about evenly between the two
cgroups (what the scheduler guarantees between equal weights, whatever else runs on the
CPU), while the same processes without cgroups share it per process, eight to one. The
ratio, not a timeout, is what is asserted, so a loaded machine changes nothing.

The scheduling test needs root and a cgroup CPU controller (skipped, with the reason,
elsewhere).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence

import pytest

from grader.run import cgroup

SPIN = "import os, sys; os.sched_setaffinity(0, {int(sys.argv[1])}); exec('while True: pass')"
TICK = os.sysconf("SC_CLK_TCK")


@pytest.fixture
def group_factory():
    made: list[cgroup.Cgroup] = []

    def make(**kwargs) -> cgroup.Cgroup:
        group, why = cgroup.create(1 << 30, 64, **kwargs)
        if group is None:
            pytest.skip(f"no cgroup here: {why}")
        made.append(group)
        if group.cpu is None:
            pytest.skip(f"no CPU controller here: {group.cpu_note}")
        return group

    yield make
    for group in made:
        group.remove()


def _read(group: cgroup.Cgroup, v1: str, v2: str) -> str:
    assert group.cpu is not None
    return (group.cpu / (v1 if group.version == 1 else v2)).read_text().strip()


def test_a_run_cgroup_has_a_cpu_share(group_factory):
    group = group_factory()
    assert group.cpu in group.folders  # the kernel's command joins it with the others
    if group.version == 1:
        assert _read(group, "cpu.shares", "") == "1024"
        assert _read(group, "cpu.cfs_quota_us", "") == "-1"  # no cap unless asked
    else:
        assert _read(group, "", "cpu.weight") == str(cgroup.CPU_WEIGHT)
        assert _read(group, "", "cpu.max").startswith("max ")
    joined = subprocess.run([*group.join_argv(), "cat", "/proc/self/cgroup"],
                            capture_output=True, text=True, check=True).stdout
    name = group.cpu.name
    line = next(ln for ln in joined.splitlines()
                if (group.version == 1 and ":cpu:" in ln) or
                (group.version == 2 and ln.startswith("0::")))
    assert line.endswith(f"/{name}"), joined


def test_weight_and_cap_are_written_as_asked(group_factory):
    group = group_factory(cpu_weight=50, cpus=0.5)
    if group.version == 1:
        assert _read(group, "cpu.shares", "") == "512"
        assert _read(group, "cpu.cfs_quota_us", "") == "50000"
        assert _read(group, "cpu.cfs_period_us", "") == "100000"
    else:
        assert _read(group, "", "cpu.weight") == "50"
        assert _read(group, "", "cpu.max") == "50000 100000"


def _cpu_seconds(pids: Sequence[int]) -> float:
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def _spin(cpu: int, prefix: Sequence[str], n: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([*prefix, sys.executable, "-c", SPIN, str(cpu)])
            for _ in range(n)]


def _share(prefix_a: Sequence[str], prefix_b: Sequence[str], seconds: float = 2.0) -> float:
    """CPU time of 8 spinners started with prefix_a over that of 1 with prefix_b, all on
    one CPU, measured over `seconds` once all are running."""
    cpu = max(os.sched_getaffinity(0))
    procs = _spin(cpu, prefix_a, 8) + _spin(cpu, prefix_b, 1)
    try:
        time.sleep(1.0)  # all started and spinning (the joining shell has exec'd)
        a0, b0 = _cpu_seconds([p.pid for p in procs[:8]]), _cpu_seconds([procs[8].pid])
        time.sleep(seconds)
        a1, b1 = _cpu_seconds([p.pid for p in procs[:8]]), _cpu_seconds([procs[8].pid])
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.wait()
    return (a1 - a0) / max(b1 - b0, 1 / TICK)


def test_a_spinning_sandbox_takes_no_more_than_its_share(group_factory):
    spinning, neighbour = group_factory(), group_factory()
    # without cgroups: per process, 8 to 1 (this is what starved a neighbour under -j 2)
    alone = _share([], [])
    assert alone > 4, alone
    # each sandbox in its own cgroup: per sandbox, about 1 to 1
    shared = _share(spinning.join_argv(), neighbour.join_argv())
    assert shared < 2.5, shared
