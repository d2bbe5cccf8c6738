"""Limits of a public service: body sizes, per-client rate, computation timeouts, TA token.

Each limit gets a server of its own with that limit set low, so hitting it is cheap.
"""

from __future__ import annotations

import dataclasses

import httpx

from tests.service.conftest import BASE, SOLUTION, assert_error, serve


def test_a_body_over_the_limit_is_a_413_naming_the_body(client: httpx.Client) -> None:
    text = "1 + 1 = 3\n" * 10_000  # 100 kB, over the default 64 KiB JSON limit
    r = client.post("/v1/answers/lint", json={"text": text})
    assert_error(r, 413, "body", "too_large")


def test_a_chunked_body_over_the_limit_is_cut_off_too(client: httpx.Client) -> None:
    def chunks():
        for _ in range(100):
            yield b" " * 1024

    r = client.post("/v1/calc/params", content=chunks(),
                    headers={"content-type": "application/json"})
    assert "content-length" not in r.request.headers
    assert_error(r, 413, "body", "too_large")


def test_an_upload_over_the_configured_size_is_a_413_naming_the_notebook() -> None:
    settings = dataclasses.replace(BASE, max_upload_bytes=10_000)
    with serve(settings) as url, httpx.Client(base_url=url, timeout=30) as c:
        data = SOLUTION.read_bytes()
        assert len(data) > 10_000
        r = c.post("/v1/selfcheck", data={"assignment": "stat8021-a3"},
                   files={"notebook": ("solution.ipynb", data)})
        assert_error(r, 413, "notebook", "too_large")


def test_a_client_over_its_rate_gets_429_with_retry_after() -> None:
    settings = dataclasses.replace(BASE, rate_per_minute=6, rate_burst=3)
    with serve(settings) as url, httpx.Client(base_url=url, timeout=30) as c:
        codes = [c.get("/v1/calc/models").status_code for _ in range(3)]
        assert codes == [200, 200, 200]
        r = c.get("/v1/calc/models")
        assert_error(r, 429, None, "rate_limited")
        assert 1 <= int(r.headers["retry-after"]) <= 10
        assert c.get("/healthz").status_code == 200  # the health probe is never limited


def test_a_computation_past_its_time_limit_is_stopped_with_a_504() -> None:
    settings = dataclasses.replace(BASE, compute_timeout_s=0.001, cache_entries=0)
    with serve(settings) as url, httpx.Client(base_url=url, timeout=30) as c:
        for _ in range(2):  # the workers are replaced, and the service keeps answering
            r = c.post("/v1/calc/params", json={"model": "gpt2"})
            error = assert_error(r, 504, None, "timeout")
            assert "0.001 s" in error["message"]
        assert c.get("/healthz").json()["status"] == "ok"


def test_the_ta_job_list_needs_the_configured_token(client: httpx.Client) -> None:
    assert_error(client.get("/v1/selfcheck"), 403, "authorization", "forbidden")
    settings = dataclasses.replace(BASE, token="ta-secret-123")
    with serve(settings) as url, httpx.Client(base_url=url, timeout=30) as c:
        assert_error(c.get("/v1/selfcheck"), 401, "authorization", "unauthorized")
        r = c.get("/v1/selfcheck", headers={"Authorization": "Bearer wrong"})
        assert_error(r, 401, "authorization", "unauthorized")
        r = c.get("/v1/selfcheck", headers={"Authorization": "Bearer ta-secret-123"})
        assert r.status_code == 200 and r.json() == {"jobs": []}
