"""`grader serve --warm N`: self-checks run on warm kernels, one per job, and stopping the
service leaves no kernel, cgroup or folder behind.

The queue is the service's own (`SelfCheckQueue`, as `create_app` builds it), driven
directly so that the test can look at its worker's process tree between jobs.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from grader.service.procs import descendants
from grader.service.selfcheck import SelfCheckQueue
from tests.service.conftest import PACKS, needs_bwrap

pytestmark = pytest.mark.sandbox

SAMPLE = PACKS.parent / "submissions" / "stat8021-a3" / "wrong-q1c-missing-scale.ipynb"


def _kernels(pid: int) -> list[int]:
    """ipykernel processes under `pid` (sandboxed: bwrap's children)."""
    found = []
    for child in descendants(pid):
        try:
            cmd = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"ipykernel_launcher" in cmd and not cmd.startswith(b"bwrap"):
            found.append(child)
    return found


def _wait(queue: SelfCheckQueue, job_id: str, timeout_s: float = 240) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job = queue.get(job_id)
        if job.status in ("done", "failed", "error"):
            return job.status
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still {queue.get(job_id).status}")


def test_warm_selfcheck_runs_each_job_on_its_own_warm_kernel(model_cache) -> None:
    needs_bwrap()
    from grader.pack import load_pack

    pack = load_pack(PACKS / "stat8021-a3")
    queue = SelfCheckQueue({pack.id: pack}, workers=1, size=4, keep=10, sandbox="auto",
                           warm=1)
    queue.start()
    try:
        deadline = time.monotonic() + 180
        while not queue._workers or queue._workers[0].pid is None or not _kernels(
                queue._workers[0].pid):
            assert time.monotonic() < deadline, "no warm kernel was started"
            time.sleep(0.2)
        worker = queue._workers[0]
        assert worker.pid is not None
        ready = set(_kernels(worker.pid))
        assert len(ready) == 1  # one warm kernel waits before any upload
        records = []
        for _ in range(2):
            job = queue.submit(pack.id, SAMPLE.name, SAMPLE.read_bytes())
            assert _wait(queue, job.id) == "done", queue.get(job.id).message
            records.append(queue.get(job.id).record)
            left = set(_kernels(worker.pid))
            assert len(left) == 1 and not left & ready  # the used kernel is gone, a new one waits
            ready = left
        for record in records:
            part1 = {q["id"]: q["status"] for q in record["questions"]
                     if q["id"].startswith("q1")}
            assert part1["q1a"] == "passed" and part1["q1c"] != "passed", part1
        assert records[0]["score"] == records[1]["score"]
        pid = worker.pid
    finally:
        queue.stop()
    assert _kernels(pid) == []
    assert not Path(f"/proc/{pid}").exists() or b"Z" in Path(f"/proc/{pid}/stat").read_bytes()
    assert not queue._tmp.exists()
