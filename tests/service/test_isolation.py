"""No upload can stall the service: self-checks run in worker processes, under a time limit.

Through the real uvicorn server (conftest.py), with the stat8021-a3 pack in bubblewrap:

- While a hostile notebook is checked, other clients' requests (the health probe, and a
  parameter count that a compute worker computes, the cache off) answer within a second
  each, or within ten times their idle time on a loaded machine. The notebook carries the
  issue's `Answer:` line of 150,000 spaces and a code cell (under `if 0:`, never run)
  holding one f-string of 60,000 `{x}` fields: CPython 3.11 parses that in quadratic
  time, so each `ast.parse` of it (the static check's) holds the GIL for about 2 s in
  one C call. Run in a thread of the web process, as self-checks were, it froze every
  endpoint for that long; in a worker process it freezes nothing.
- A job past a small configured limit ends `failed` with the limit in its message; no
  process of its worker (the worker, bubblewrap, the kernel) survives, and the next
  upload is checked by a fresh worker.
- `grader serve` stopped by SIGTERM in the middle of a check leaves no worker or kernel.
- The compute workers (calculators, answer checks): a computation past its limit is
  killed alone, and its limit does not count the wait for a free worker.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from grader.service import work
from grader.service.compute import Computer
from grader.service.errors import ApiError
from tests.service.conftest import BASE, ROOT, needs_bwrap, serve, wait_for_job

FINISHED = ("done", "failed", "error")


def _notebook(*cells: tuple[str, str, list[str]]) -> bytes:
    """A notebook of (cell type, source, tags) cells."""
    out = []
    for i, (kind, source, tags) in enumerate(cells):
        cell = {"cell_type": kind, "id": f"c{i}", "metadata": {"tags": tags}, "source": source}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        out.append(cell)
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": out}).encode()


HOSTILE = _notebook(
    ("markdown", "Answer: 1" + " " * 150_000 + "x", ["q3c"]),
    ("code", 'if 0:\n    f"' + "{x}" * 60_000 + '"\n', []),
)
SLEEPER = _notebook(("code", "import time\ntime.sleep(600)", []))
TINY = _notebook(("code", "print(1)", []))


def _upload(c: httpx.Client, data: bytes) -> dict:
    r = c.post("/v1/selfcheck", data={"assignment": "stat8021-a3"},
               files={"notebook": ("solution.ipynb", data, "application/x-ipynb+json")})
    assert r.status_code == 202, r.text
    return r.json()


# -- processes, from /proc ----------------------------------------------------------------


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, or None when there is none."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2:].split()
    return int(fields[1]), fields[0].decode(), int(fields[19])


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _tree(root: int) -> dict[int, int]:
    """pid -> start time of ``root`` and every live process under it."""
    live = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (st := _stat(int(entry))) and st[1] != "Z":
            live[int(entry)] = st
    out, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if pid in live:
            out[pid] = live[pid][2]
            todo.extend(p for p, st in live.items() if st[0] == pid)
    return out


def _kernels(tree: dict[int, int]) -> list[int]:
    return [p for p in tree if "ipykernel_launcher" in _cmdline(p)]


def _survivors(seen: dict[int, int]) -> list[str]:
    """The processes of ``seen`` still running (same pid and start time, not a zombie)."""
    alive = []
    for pid, started in seen.items():
        st = _stat(pid)
        if st is not None and st[2] == started and st[1] != "Z":
            alive.append(f"{pid} {_cmdline(pid)[:100]}")
    return alive


def _watch_job(c: httpx.Client, job_id: str, root: int, timeout_s: float = 180
               ) -> tuple[dict, dict[int, int], set[int]]:
    """Poll the job until it ends; meanwhile note every process under each child of ``root``
    that runs a kernel (the job's worker). Returns the job, those processes, the kernels."""
    seen: dict[int, int] = {}
    kernels: set[int] = set()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for child in _tree(root):
            if _stat(child) and _stat(child)[0] == root:  # type: ignore[index]
                tree = _tree(child)
                if found := _kernels(tree):
                    seen.update(tree)
                    kernels.update(found)
        job = c.get(f"/v1/selfcheck/{job_id}").json()
        if job["status"] in FINISHED:
            return job, seen, kernels
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} still {job['status']} after {timeout_s} s")


# -- the tests ----------------------------------------------------------------------------


@pytest.mark.sandbox
def test_other_clients_are_answered_while_a_hostile_notebook_is_checked(model_cache) -> None:
    needs_bwrap()
    settings = dataclasses.replace(BASE, cache_entries=0)  # every count goes to a worker
    requests = [("GET", "/healthz", None),
                ("POST", "/v1/calc/params", {"model": "bert-base-uncased"})]

    def ask(c: httpx.Client, method: str, path: str, body: dict | None) -> float:
        start = time.perf_counter()
        r = c.request(method, path, json=body)
        took = time.perf_counter() - start
        assert r.status_code == 200, r.text
        if body:
            assert r.json()["total"] == 109_482_240
        return took

    with serve(settings) as url, httpx.Client(base_url=url, timeout=60) as c:
        for _ in range(3):  # warm: connections, the compute worker's first call
            for req in requests:
                ask(c, *req)
        idle = max(ask(c, *req) for _ in range(5) for req in requests)
        limit = max(1.0, 10 * idle)

        answered: list[tuple[float, float]] = []  # (when asked, seconds taken)
        failures: list[str] = []
        stop = threading.Event()

        def other_client() -> None:
            with httpx.Client(base_url=url, timeout=60) as mine:
                while not stop.is_set():
                    for req in requests:
                        when = time.monotonic()
                        try:
                            answered.append((when, ask(mine, *req)))
                        except Exception as exc:  # noqa: BLE001 - reported below
                            failures.append(f"{req[1]}: {exc!r}")
                    time.sleep(0.05)

        thread = threading.Thread(target=other_client, daemon=True)
        thread.start()
        try:
            job = _upload(c, HOSTILE)
            running_from = None
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                job = c.get(f"/v1/selfcheck/{job['id']}").json()
                if job["status"] == "running" and running_from is None:
                    running_from = time.monotonic()
                if job["status"] in FINISHED:
                    break
                time.sleep(0.2)
            running_to = time.monotonic()
        finally:
            stop.set()
            thread.join(timeout=60)
    assert job["status"] == "done", job  # the hostile notebook gets its record
    assert not failures, failures
    assert running_from is not None
    during = [took for when, took in answered if running_from <= when <= running_to]
    assert len(during) >= 10, (len(during), running_to - running_from)
    slow = sorted(took for _when, took in answered if took > limit)
    assert not slow, f"{len(slow)} of {len(answered)} requests took over {limit:.2f} s " \
                     f"(idle: {idle:.3f} s): {slow[-5:]}"


@pytest.mark.sandbox
def test_a_self_check_past_its_limit_fails_and_leaves_no_process(model_cache) -> None:
    needs_bwrap()
    settings = dataclasses.replace(BASE, selfcheck_timeout_s=8)
    with serve(settings) as url, httpx.Client(base_url=url, timeout=60) as c:
        started = time.monotonic()
        job, seen, kernels = _watch_job(c, _upload(c, SLEEPER)["id"], os.getpid())
        assert job["status"] == "failed", job
        assert "longer than 8 s" in job["message"], job["message"]
        assert time.monotonic() - started < 60  # the cell's own 60 s limit never came
        assert kernels, "no kernel was seen under the self-check worker"
        time.sleep(0.5)  # killed processes are reaped by their new parents
        assert not _survivors(seen)
        assert c.get(f"/v1/selfcheck/{job['id']}/report").status_code == 409
        assert wait_for_job(c, _upload(c, TINY)["id"])["status"] == "done"  # a fresh worker


@pytest.mark.sandbox
@pytest.mark.server
def test_sigterm_in_the_middle_of_a_check_leaves_no_worker_or_kernel(model_cache) -> None:
    needs_bwrap()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "GRADER_SERVICE_COMPUTE_WORKERS": "1",
           "GRADER_SERVICE_SELFCHECK_WORKERS": "1", "GRADER_SERVICE_RATE_PER_MINUTE": "0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "grader", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--packs-dir", str(ROOT / "reference")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen: dict[int, int] = {}
    kernels: list[int] = []
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                httpx.get(f"{base}/healthz", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "grader serve did not start in 60 s"
                time.sleep(0.2)
        with httpx.Client(base_url=base, timeout=60) as c:
            job_id = _upload(c, SLEEPER)["id"]
            deadline = time.monotonic() + 120
            while not kernels:
                assert time.monotonic() < deadline, c.get(f"/v1/selfcheck/{job_id}").json()
                seen.update(_tree(proc.pid))
                kernels = _kernels(seen)
                time.sleep(0.1)
            seen.update(_tree(proc.pid))
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    # uvicorn shuts the app down, then re-raises the signal it caught
    assert proc.returncode in (0, -signal.SIGTERM), out
    assert "Application shutdown complete" in out, out
    time.sleep(0.5)
    assert len(seen) >= 4, seen  # the server, a compute worker, the self-check worker, ...
    assert not _survivors(seen)


def test_a_slow_computation_is_stopped_alone_and_a_wait_in_line_is_not_counted() -> None:
    """The compute workers: one request past its limit is killed with its own worker only
    (another client's computation, in the other worker, answers meanwhile), and the limit
    counts a computation's own time, not the time it waited for a free worker."""
    async def stopped_alone(computer: Computer) -> None:
        slow = asyncio.ensure_future(computer.run(time.sleep, 60))
        await asyncio.sleep(0.3)
        start = time.monotonic()
        verdict = await computer.run(work.compare_answer, "24 GiB", "25769803776 bytes")
        assert verdict["verdict"] == "correct" and time.monotonic() - start < 1.5
        with pytest.raises(ApiError) as info:
            await slow
        assert info.value.status == 504 and "2 s" in info.value.message
        verdict = await computer.run(work.compare_answer, "24 GiB", "25769803776 bytes")
        assert verdict["verdict"] == "correct"  # a fresh worker took the killed one's place

    async def in_line(computer: Computer) -> None:
        # one worker, two calls of 1.2 s each: the second waits 1.2 s, then runs its own 1.2 s
        assert await asyncio.gather(computer.run(time.sleep, 1.2),
                                    computer.run(time.sleep, 1.2)) == [None, None]

    for workers, timeout_s, scenario in ((2, 2.0, stopped_alone), (1, 2.0, in_line)):
        computer = Computer(workers, timeout_s)
        computer.start()
        try:
            asyncio.run(scenario(computer))
        finally:
            computer.close()
