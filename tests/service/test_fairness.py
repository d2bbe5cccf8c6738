"""A flood of uploads from one client takes one worker's turn, not the queue (issue 25, attack 10).

Through the real uvicorn server (conftest.py) on loopback, each client on an address of
its own (127.0.0.2, .3, .4: the service tells clients apart by address). One worker, a
queue of 8 and a share of 3 s:

- the flooder's first sleeper runs; of its next seven uploads one waits and six are
  refused at once with 429 ``too_many_jobs`` and a ``Retry-After``;
- an honest client's upload is accepted, starts before the flooder's waiting job (which
  came first), and is done: the flooder's running sleeper was stopped after its share,
  with a message that says why;
- meanwhile a third client's calculator requests keep answering (each well under the
  share; the median and the slowest are printed: within a second on this machine).

Every step waits for a state (running, done, failed) under a generous bound, never for
a time; the sleeper sleeps 600 s, so nothing but the share can end it in the test.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from tests.service.conftest import BASE, assert_error, needs_bwrap, serve, wait_for_job
from tests.service.test_isolation import SLEEPER, TINY

pytestmark = pytest.mark.sandbox

FLOODER, HONEST, OTHER = "127.0.0.2", "127.0.0.3", "127.0.0.4"


@contextmanager
def _client(url: str, address: str) -> Iterator[httpx.Client]:
    """An HTTP client whose connections come from ``address`` (any of 127.0.0.0/8)."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(base_url=url, timeout=60, transport=transport) as c:
        yield c


def _upload(c: httpx.Client, data: bytes) -> httpx.Response:
    return c.post("/v1/selfcheck", data={"assignment": "stat8021-a3"},
                  files={"notebook": ("solution.ipynb", data, "application/x-ipynb+json")})


def _wait_state(c: httpx.Client, job_id: str, states: tuple[str, ...],
                timeout_s: float = 240) -> dict:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job = c.get(f"/v1/selfcheck/{job_id}").json()
        if job["status"] in states:
            return job
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} still {job['status']}, not {states}, after {timeout_s} s")


def test_a_flooding_client_gets_one_turn_and_an_honest_upload_runs(model_cache) -> None:
    needs_bwrap()
    settings = dataclasses.replace(BASE, selfcheck_workers=1, selfcheck_queue=8,
                                   selfcheck_share_s=3, cache_entries=0)
    calc = {"model": "bert-base-uncased"}

    def ask(c: httpx.Client) -> float:
        start = time.perf_counter()
        r = c.post("/v1/calc/params", json=calc)
        took = time.perf_counter() - start
        assert r.status_code == 200 and r.json()["total"] == 109_482_240, r.text
        return took

    with serve(settings) as url, _client(url, FLOODER) as flood, \
            _client(url, HONEST) as honest, _client(url, OTHER) as other:
        for _ in range(3):  # warm: connections, the compute worker's first call
            ask(other)
        idle = max(ask(other) for _ in range(5))
        answered: list[float] = []
        failures: list[str] = []
        stop = threading.Event()

        def third_client() -> None:
            with _client(url, OTHER) as mine:
                while not stop.is_set():
                    try:
                        answered.append(ask(mine))
                    except Exception as exc:  # noqa: BLE001 - reported below
                        failures.append(repr(exc))
                    time.sleep(0.05)

        thread = threading.Thread(target=third_client, daemon=True)
        thread.start()
        try:
            first = _upload(flood, SLEEPER)
            assert first.status_code == 202, first.text
            a1 = _wait_state(flood, first.json()["id"], ("running",))
            flooded = [_upload(flood, SLEEPER) for _ in range(7)]
            assert [r.status_code for r in flooded] == [202] + [429] * 6
            for refused in flooded[1:]:
                error = assert_error(refused, 429, "notebook", "too_many_jobs")
                assert "one of each" in error["message"]
                assert int(refused.headers["retry-after"]) > 0
            a2 = flooded[0].json()
            assert a2["status"] == "queued"

            r = _upload(honest, TINY)
            assert r.status_code == 202, r.text
            b = r.json()
            if b["status"] == "queued":  # ahead of the flooder's job, which came first
                assert b["position"] == 1, b
            b = wait_for_job(honest, b["id"], timeout_s=240)
            assert b["status"] == "done", (b["message"], b)
            a1 = flood.get(f"/v1/selfcheck/{a1['id']}").json()
            a2 = flood.get(f"/v1/selfcheck/{a2['id']}").json()
        finally:
            stop.set()
            thread.join(timeout=60)

    assert a1["status"] == "failed", a1
    assert "stopped after 3 s because other students were waiting" in a1["message"]
    assert a2["started"] is None or a2["started"] >= b["started"], (a2, b)
    took = sorted(answered)
    print(f"honest upload: queued {b['started'] - b['created']:.1f} s, "
          f"upload to report {b['finished'] - b['created']:.1f} s; third client: "
          f"{len(took)} counts, median {took[len(took) // 2]:.3f} s, max {took[-1]:.3f} s "
          f"(idle {idle:.3f} s)")
    assert not failures, failures
    assert len(took) >= 10, len(took)
    # A web process that waited on a check would hold a request for the whole check (the
    # sleeper's 600 s, or the share); the bound is far above any load's noise, far below that.
    limit = max(5.0, 20 * idle)
    slow = [t for t in took if t > limit]
    assert not slow, f"{len(slow)} of {len(took)} requests took over {limit:.2f} s " \
                     f"(idle: {idle:.3f} s): {slow[-5:]}"
