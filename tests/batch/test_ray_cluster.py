"""A real two-node Ray cluster on this machine, as docs/batch.md sets one up.

A head and a worker started as separate `ray start --block` processes, each in a folder
of its own, with token authentication (a token file of the test's, never ~/.ray), free
ports picked now and temp folders under the test's tmp folder, so no other Ray on the
machine is touched; both stopped at the end by their process ids (never `ray stop`).
The worker node runs in a mount namespace of its own where one folder, `hidden/`, is an
empty tmpfs: a path the driver has and that node lacks, as a model cache outside a
shared mount would be.

The driver (`grader grade --engine ray --ray-address`) runs in a third folder holding
`reference/stat8021-a3` and `subs/`, so the pack id and the submissions resolve to paths
relative to the driver's folder, which mean nothing in the nodes' folders (issue 32:
every task failed there). Its records must equal a local grading's; a missing shared
path must be named before any task; a node killed mid-batch must lose nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import PACK_DIR, SAMPLES, needs_bwrap

pytestmark = [pytest.mark.ray, pytest.mark.sandbox]

NAMES = ["wrong-q1a-transposed-heads", "wrong-q1c-missing-scale", "crash-pe-cell"]
SCORES = {"wrong-q1a-transposed-heads": 24, "wrong-q1c-missing-scale": 18, "crash-pe-cell": 24}
SEED = 8021
BIN = Path(sys.executable).parent
STARTUP = 600.0
"""Seconds a node, or the cluster, gets to come up on a loaded machine (polled)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Cluster:
    """Two `ray start --block` processes and what the driver needs to join them."""

    base: Path
    short: Path
    """Ray's temp folders: a short path, since its sockets' paths must fit in 107 bytes."""
    port: int = field(default_factory=free_port)
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)
    nodes: dict[str, str] = field(default_factory=dict)
    """"head" / "worker" -> node id."""

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        """Token authentication as docs/batch.md sets it, with the test's own token file."""
        return {**os.environ, "RAY_AUTH_MODE": "token",
                "RAY_AUTH_TOKEN_PATH": str(self.base / "auth_token"),
                "RAY_USAGE_STATS_ENABLED": "0", "PYTHONUNBUFFERED": "1"}

    def _ports(self) -> list[str]:
        return ["--dashboard-agent-listen-port", str(free_port()),
                "--dashboard-agent-grpc-port", str(free_port()),
                "--runtime-env-agent-port", str(free_port()),
                "--metrics-export-port", str(free_port()),
                "--worker-port-list", ",".join(str(free_port()) for _ in range(32))]

    def start(self, role: str, argv: list[str], prefix: list[str] | None = None) -> None:
        folder = self.base / f"{role}-node"
        folder.mkdir()
        log = (self.base / f"{role}.log").open("w")
        self.processes[role] = subprocess.Popen(
            [*(prefix or []), str(BIN / "ray"), "start", "--block", *argv,
             "--node-ip-address", "127.0.0.1", "--num-cpus", "1",
             "--temp-dir", str(self.short / role),
             "--object-store-memory", str(100 << 20), "--disable-usage-stats", *self._ports()],
            cwd=folder, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)

    def live_nodes(self) -> list[dict]:
        """The cluster's live nodes, asked by a driver of its own (a subprocess: the test
        process never joins a Ray)."""
        script = (f"import json, ray; ray.init(address={self.address!r}, log_to_driver=False)"
                  "; print(json.dumps([{'id': n['NodeID'], 'head': "
                  "'node:__internal_head__' in n['Resources']} for n in ray.nodes() "
                  "if n['Alive']]))")
        try:  # a join can hang while the head is still coming up: then ask again
            done = subprocess.run([sys.executable, "-c", script], env=self.env, cwd=self.base,
                                  capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            return []
        if done.returncode != 0:
            return []
        return json.loads(done.stdout.strip().splitlines()[-1])

    def wait_for(self, count: int) -> None:
        deadline = time.monotonic() + STARTUP
        while time.monotonic() < deadline:
            dead = {r: p.returncode for r, p in self.processes.items() if p.poll() is not None}
            assert not dead, f"ray start exited: {dead}; see {self.base}/*.log"
            with socket.socket() as sock:  # the head's GCS listens before anyone can join
                if sock.connect_ex(("127.0.0.1", self.port)) != 0:
                    time.sleep(1)
                    continue
            nodes = self.live_nodes()
            if len(nodes) == count:
                for node in nodes:
                    self.nodes.setdefault("head" if node["head"] else "worker", node["id"])
                return
            time.sleep(2)
        raise AssertionError(f"the cluster did not reach {count} nodes in {STARTUP:g} s")

    def stop(self) -> None:
        """SIGTERM each `ray start --block` (it stops the processes it started), then
        SIGKILL whatever of its process group is left: ours only, by id."""
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(60)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # its session: leftovers only


def descendants(pid: int) -> list[tuple[int, str]]:
    """(pid, command name) of every process under `pid`, read from /proc."""
    children: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
        names[int(entry.name)] = name
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append((child, names[child]))
            todo.append(child)
    return found


@pytest.fixture(scope="module")
def cluster(tmp_path_factory, hf_cache):
    """The two-node cluster, a driver folder (pack and class relative to it) and a copy
    of the model cache in `hidden/`, which the worker node does not see."""
    needs_bwrap()
    pytest.importorskip("ray")
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("hiding a folder from one node needs root and unshare(1)")
    base = tmp_path_factory.mktemp("ray-cluster")
    token = base / "auth_token"
    token.write_text(os.urandom(32).hex())
    token.chmod(0o600)
    hidden = base / "hidden"
    shutil.copytree(hf_cache, hidden / "hf")
    driver = base / "ta"
    shutil.copytree(PACK_DIR, driver / "reference" / PACK_DIR.name)
    (driver / "subs").mkdir()
    for name in NAMES:
        shutil.copy(SAMPLES / f"{name}.ipynb", driver / "subs")
    nodes = Cluster(base, Path(tempfile.mkdtemp(prefix="rt", dir="/tmp")))
    try:
        nodes.start("head", ["--head", "--port", str(nodes.port), "--include-dashboard",
                             "false", "--ray-client-server-port", str(free_port())])
        nodes.wait_for(1)
        hide = ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
                'mount -t tmpfs -o size=1m hidden "$0" && exec "$@"', str(hidden)]
        nodes.start("worker", ["--address", nodes.address], prefix=hide)
        nodes.wait_for(2)
        yield nodes, driver, hidden
    finally:
        nodes.stop()
        shutil.rmtree(nodes.short, ignore_errors=True)


def grade(cluster: Cluster, driver: Path, out: str, *extra: str, engine: str = "ray",
          hf: Path, wait: bool = True) -> subprocess.CompletedProcess | subprocess.Popen:
    argv = [str(BIN / "grader"), "grade", "subs/", "-a", "stat8021-a3", "--out", out,
            "--seed", str(SEED), "--hf-cache", str(hf), "--no-report", "--engine", engine,
            *(["--ray-address", cluster.address, "--cpus-per-job", "1"] if engine == "ray"
              else ["-j", "1"]), *extra]
    if not wait:
        return subprocess.Popen(argv, cwd=driver, env=cluster.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
    return subprocess.run(argv, cwd=driver, env=cluster.env, capture_output=True, text=True,
                          timeout=1800)


def essence(record: dict) -> dict:
    """A record without what differs between two gradings of the same work (times)."""
    return {"score": record["score"], "status": record["status"],
            "submission": {k: record["submission"].get(k) for k in ("name", "path", "sha256")},
            "questions": [(q["id"], q["score"], q["status"], q["message"])
                          for q in record["questions"]],
            "flags": record["flags"], "seed": record["run"]["seed"],
            "cells": record["run"]["cell_errors"], "key": record["run"]["cache_key"],
            "fingerprint": record["assignment"]["fingerprint"]}


def records(folder: Path) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in folder.glob("*.json")
            if p.name != "manifest.json"}


def events(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]


@pytest.fixture(scope="module")
def local(cluster, hf_cache):
    """The class graded by the local engine in the same driver folder: the reference."""
    nodes, driver, _ = cluster
    done = grade(nodes, driver, "local", engine="local", hf=hf_cache)
    assert done.returncode == 0, done.stderr
    found = records(driver / "local")
    assert {k: r["score"] for k, r in found.items()} == SCORES
    return {k: essence(r) for k, r in found.items()}


def test_two_nodes_grade_as_the_local_engine_does(cluster, local, hf_cache):
    nodes, driver, _ = cluster
    started = time.monotonic()
    done = grade(nodes, driver, "grades", hf=hf_cache)
    seconds = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert {k: essence(r) for k, r in records(driver / "grades").items()} == local
    graded_on = {e["node"] for e in events(driver / "grades") if e["event"] == "done"}
    assert graded_on == set(nodes.nodes.values()), "both nodes should have graded"
    assert not (driver / "grades" / "failed").exists()
    print(f"two-node batch of {len(NAMES)}: {seconds:.1f} s")


def test_a_path_missing_on_a_node_is_named_before_any_task(cluster, hf_cache):
    nodes, driver, hidden = cluster
    done = grade(nodes, driver, "hidden-out", hf=hidden / "hf")
    assert done.returncode == 2, done.stderr
    worker = nodes.nodes["worker"][:8]
    message = done.stderr
    assert f"node {worker}" in message and str(hidden / "hf") in message, message
    assert "model cache" in message and f"node {nodes.nodes['head'][:8]}" not in message
    assert records(driver / "hidden-out") == {}
    assert not [e for e in events(driver / "hidden-out") if e["event"] == "start"]


def test_a_driver_without_the_token_is_told_how_to_pass_it(cluster, hf_cache):
    """Ray 2.60 sends no token to an explicit address unless RAY_AUTH_MODE=token: the
    join fails after Ray's retries, and the grader says what to set (exit 2)."""
    nodes, driver, _ = cluster
    env = {k: v for k, v in nodes.env.items() if k != "RAY_AUTH_MODE"}
    done = subprocess.run(
        [str(BIN / "grader"), "grade", "subs/", "-a", "stat8021-a3", "--out", "no-token",
         "--hf-cache", str(hf_cache), "--engine", "ray", "--ray-address", nodes.address],
        cwd=driver, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "error: cluster: joining" in done.stderr and "RAY_AUTH_MODE=token" in done.stderr
    assert records(driver / "no-token") == {}


def test_a_node_killed_mid_batch_loses_nothing(cluster, local, hf_cache):
    """Kill the worker node's raylet while a notebook runs there: its submission is
    retried on the head and the batch ends with every record, as a local batch does."""
    nodes, driver, _ = cluster
    proc = grade(nodes, driver, "killed", hf=hf_cache, wait=False)
    worker = nodes.processes["worker"].pid
    raylet = kernel = None
    deadline = time.monotonic() + STARTUP
    while time.monotonic() < deadline and proc.poll() is None and kernel is None:
        below = descendants(worker)
        raylet = next((pid for pid, name in below if name == "raylet"), None)
        kernel = next((pid for pid, name in below if name == "bwrap"), None)
        time.sleep(0.2)
    assert raylet and kernel, "no notebook ran on the worker node"
    os.kill(raylet, signal.SIGKILL)
    killed = time.monotonic()
    out, err = proc.communicate(timeout=1800)
    print(f"batch ended {time.monotonic() - killed:.1f} s after the worker's raylet was killed")
    assert proc.returncode == 0, err
    assert {k: essence(r) for k, r in records(driver / "killed").items()} == local
    log = events(driver / "killed")
    retried = {e["submission"] for e in log if e["event"] == "retry"}
    assert retried, log  # what ran on the killed node, graded again on the head
    done_on = {e["submission"]: e.get("node") for e in log if e["event"] == "done"}
    assert {done_on[key] for key in retried} == {nodes.nodes["head"]}
    assert not (driver / "killed" / "failed").exists()
