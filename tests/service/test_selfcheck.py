"""Self-check uploads through HTTP: queued, run sandboxed like `grader check`, report at a URL.

The solution notebook of stat8021-a3 runs for real in bubblewrap on the public demo
inputs (about 2 s of kernel time, mostly torch's import).
"""

from __future__ import annotations

import dataclasses
import json

import httpx
import pytest

from tests.service.conftest import BASE, SOLUTION, assert_error, needs_bwrap, serve, wait_for_job

pytestmark = pytest.mark.sandbox


def _upload(c: httpx.Client, data: bytes, name: str = "solution.ipynb",
            assignment: str = "stat8021-a3") -> httpx.Response:
    return c.post("/v1/selfcheck", data={"assignment": assignment},
                  files={"notebook": (name, data, "application/x-ipynb+json")})


def test_the_solution_is_queued_run_and_reported(client: httpx.Client, model_cache) -> None:
    needs_bwrap()
    r = _upload(client, SOLUTION.read_bytes())
    assert r.status_code == 202, r.text
    job = r.json()
    assert r.headers["location"] == f"/v1/selfcheck/{job['id']}"
    assert job["status"] in ("queued", "running") and job["notebook"] == "solution.ipynb"
    early = client.get(f"/v1/selfcheck/{job['id']}/report")
    if early.status_code != 200:  # only a run finished within milliseconds could skip this
        assert_error(early, 409, "job_id", "not_ready")
    done = wait_for_job(client, job["id"])
    assert done["status"] == "done", done
    record = client.get(f"/v1/selfcheck/{job['id']}/report").json()
    assert record["mode"] == "check"
    assert record["run"]["sandbox"] == "bwrap"
    part1 = {q["id"]: q["status"] for q in record["questions"] if q["id"].startswith("q1")}
    assert part1 == {"q1a": "passed", "q1b": "passed", "q1c": "passed", "q1d": "passed"}
    assert done["score"] == record["score"] >= 30
    assert "path" not in record["submission"]
    assert "grader-selfcheck" not in json.dumps(record)  # no server paths leak
    assert record["run"].get("seed") is None
    page = client.get(f"/selfcheck/{job['id']}")
    assert page.status_code == 200 and 'id="report"' in page.text
    full = client.get(f"/selfcheck/{job['id']}/report.html")  # grader.report's student report
    assert full.status_code == 200 and full.headers["content-type"].startswith("text/html")
    assert "q1a" in full.text.lower() or "Q1(a)" in full.text


def test_an_upload_that_is_not_a_notebook_names_the_notebook(client: httpx.Client) -> None:
    needs_bwrap()
    assert_error(_upload(client, b"print('hi')", "x.py"), 422, "notebook", "invalid_input")
    assert_error(_upload(client, b""), 422, "notebook", "invalid_input")
    r = client.post("/v1/selfcheck", data={"assignment": "stat8021-a3"})
    assert_error(r, 422, "notebook", "invalid_input")


def test_an_unknown_assignment_or_job_is_a_404(client: httpx.Client) -> None:
    needs_bwrap()
    r = _upload(client, SOLUTION.read_bytes(), assignment="stat9999")
    assert_error(r, 404, "assignment", "not_found")
    assert_error(client.get("/v1/selfcheck/not-a-job"), 404, "job_id", "not_found")


def test_a_full_queue_refuses_with_503_and_runs_the_rest(model_cache) -> None:
    needs_bwrap()
    # every upload its own client (as behind a proxy): the bound across clients
    settings = dataclasses.replace(BASE, selfcheck_workers=1, selfcheck_queue=1,
                                   selfcheck_per_client=False)
    tiny = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "id": "a", "metadata": {}, "execution_count": None,
         "outputs": [], "source": "import time; time.sleep(1)"}]}).encode()
    with serve(settings) as url, httpx.Client(base_url=url, timeout=30) as c:
        responses = [_upload(c, tiny, f"nb{i}.ipynb") for i in range(3)]
        codes = [r.status_code for r in responses]
        assert codes[0] == 202 and 503 in codes, codes
        refused = next(r for r in responses if r.status_code == 503)
        assert_error(refused, 503, "notebook", "queue_full")
        assert refused.headers["retry-after"] == "60"
        for r in responses:
            if r.status_code == 202:
                assert wait_for_job(c, r.json()["id"])["status"] == "done"


def test_without_a_sandbox_the_upload_is_refused_rather_than_run_unisolated(
        monkeypatch) -> None:
    import grader.service.selfcheck as selfcheck
    from grader.run.sandbox import SandboxUnavailable

    def unavailable(kind: str = "auto", **_kw):
        raise SandboxUnavailable("bwrap is not installed")

    monkeypatch.setattr(selfcheck.Sandbox, "create", unavailable)
    with serve(BASE) as url, httpx.Client(base_url=url, timeout=30) as c:
        error = assert_error(_upload(c, SOLUTION.read_bytes()), 503, None, "unavailable")
        assert "bwrap is not installed" in error["message"]
        assert "self-check is off" in c.get("/selfcheck").text
