"""``grader serve`` as a user runs it: a real process on a loopback port, stopped by signal."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

from tests.service.conftest import ROOT


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.server
def test_grader_serve_answers_on_the_port_it_was_given() -> None:
    port = _free_port()
    env = {**os.environ, "GRADER_SERVICE_COMPUTE_WORKERS": "1", "GRADER_SERVICE_SANDBOX": "none"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "grader", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--packs-dir", str(ROOT / "reference")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "grader serve did not start in 60 s"
                time.sleep(0.2)
        assert r.json()["status"] == "ok"
        r = httpx.post(f"http://127.0.0.1:{port}/v1/calc/params",
                       json={"model": "bert-base-uncased"}, timeout=30)
        assert r.json()["total"] == 109_482_240
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
    assert f"serving on http://127.0.0.1:{port}" in out
    assert proc.returncode == 0, out
