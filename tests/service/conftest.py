"""A real uvicorn server on a loopback port per settings, shared where the settings agree.

Servers run in a thread of the test process on a socket bound to 127.0.0.1 port 0,
so tests talk HTTP over loopback exactly as a browser would, and nothing else can
reach them. Start-up waits (bounded) for uvicorn to report that it is serving.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn

from grader.pack import export_public, load_pack
from grader.service import Settings, create_app

ROOT = Path(__file__).resolve().parents[2]
PACKS = ROOT / "reference"
SOLUTION = ROOT / "submissions" / "stat8021-a3" / "solution.ipynb"

START_S = 300
"""How long a server may take to start: its compute workers import the calculators in
fresh processes, which on a loaded machine (other test runs, other agents) has taken
over a minute; a bound against a hang, not a speed check."""

BASE = Settings(packs_dir=PACKS, compute_workers=1, rate_per_minute=0, selfcheck_workers=1)
"""Settings of the shared server: one compute worker (the machine has two cores), no rate limit."""


def sandbox_reason() -> str | None:
    from grader.run.sandbox import bwrap_works

    return bwrap_works()


def needs_bwrap() -> None:
    from tests.conftest import needs_bwrap as needs_the_sandbox

    needs_the_sandbox()  # the same check of the test's `sandbox` mark
    reason = sandbox_reason()
    if reason:
        pytest.skip(f"the sandbox is unavailable here: {reason}")


@contextmanager
def serve(settings: Settings) -> Iterator[str]:
    """Run the app under uvicorn on a free loopback port; yields the base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(settings), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_S
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the service did not start within {START_S} s")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture(scope="session")
def base_url() -> Iterator[str]:
    with serve(BASE) as url:
        yield url


@pytest.fixture(scope="session")
def model_cache(request: pytest.FixtureRequest) -> str | None:
    """Point self-check runs at the suite's seeded tiny-model cache, where the suite has one.

    Packs whose notebooks fine-tune (Part 2) need their models in a local cache; the
    top-level tests/conftest.py seeds one with tiny models. The service reads it from
    ``GRADER_HF_CACHE`` at run time, as a course's server would.
    """
    try:
        cache = request.getfixturevalue("hf_cache")
    except pytest.FixtureLookupError:
        return None
    os.environ["GRADER_HF_CACHE"] = str(cache)
    return str(cache)


@pytest.fixture(scope="module")
def public_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A course's server holding only the exported public part of stat8021-a3."""
    packs = tmp_path_factory.mktemp("packs")
    export_public(load_pack(PACKS / "stat8021-a3"), packs / "stat8021-a3-public")
    with serve(Settings(packs_dir=packs, compute_workers=1, rate_per_minute=0,
                        selfcheck_workers=1, sandbox="none")) as url:
        yield url


@pytest.fixture
def client(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=30) as c:
        yield c


def wait_for_job(client: httpx.Client, job_id: str, timeout_s: float = 180) -> dict:
    """Poll a self-check job until it is done, failed or in error (bounded)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job = client.get(f"/v1/selfcheck/{job_id}").json()
        if job["status"] in ("done", "failed", "error"):
            return job
        time.sleep(0.5)
    raise AssertionError(f"job {job_id} still {job['status']} after {timeout_s} s")


def assert_error(response: httpx.Response, status: int, field: str | None, code: str) -> dict:
    """A JSON error with this status, naming this field, and no traceback anywhere."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert "Traceback" not in response.text and 'File "' not in response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    assert error["field"] == field, error
    assert error["message"]
    return error
