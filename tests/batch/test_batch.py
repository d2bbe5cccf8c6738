"""Batches for real: worker processes and a local Ray grading sample notebooks in the
sandbox; a driver killed with SIGKILL and resumed; a worker killed mid-task and retried;
a rubric change re-scored without starting a kernel."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import PACK_DIR, ROOT, SAMPLES, needs_bwrap

pytestmark = pytest.mark.sandbox

NAMES = ["wrong-q1a-transposed-heads", "wrong-q1c-missing-scale", "crash-pe-cell",
         "hostile-fake-prints", "hostile-os-exit"]
SEED = 1234


def items():
    from grader.batch import Item

    return [Item(name, SAMPLES / f"{name}.ipynb") for name in NAMES]


def essence(record: dict) -> dict:
    """A record without what differs between two runs of the same work (times, dates)."""
    return {"score": record["score"], "status": record["status"],
            "questions": [(q["id"], q["score"], q["status"], q["message"])
                          for q in record["questions"]],
            "flags": record["flags"], "seed": record["run"]["seed"],
            "limits": sorted(h["limit"] for h in record["run"]["limits_hit"]),
            "key": record["run"]["cache_key"]}


def records_in(out: Path) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in out.glob("*.json")
            if p.name != "manifest.json"}


def events(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]


def batch(out: Path, engine, hf_cache, pack=None):
    from grader.batch import BatchOptions, run_batch
    from grader.pack import load_pack

    return run_batch(pack or load_pack(PACK_DIR), items(),
                     BatchOptions(out=out, seed=SEED, hf_cache=hf_cache), engine)


@pytest.fixture(scope="module")
def local(tmp_path_factory, hf_cache):
    """The reference batch: local engine, two workers."""
    needs_bwrap()
    from grader.batch import LocalEngine

    out = tmp_path_factory.mktemp("local")
    result = batch(out, LocalEngine(2), hf_cache)
    return out, result


def test_local_pool_grades_every_submission_like_a_single_grading(local, graded):
    out, result = local
    assert sorted(result.executed) == sorted(NAMES) and not result.failed
    on_disk = records_in(out)
    assert sorted(on_disk) == sorted(NAMES)
    for name in NAMES:
        alone = graded[name].record  # the same notebook graded on its own, same seed
        assert [(q["id"], q["score"]) for q in on_disk[name]["questions"]] == [
            (q.id, q.score) for q in alone.questions]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == SEED and manifest["pack"]["id"] == "stat8021-a3"
    assert manifest["engine"] == "local" and manifest["environment"]["torch"].startswith("2.13")
    done = [e for e in events(out) if e["event"] == "done"]
    assert sorted(e["submission"] for e in done) == sorted(NAMES)


def test_a_second_run_executes_nothing(local, hf_cache):
    from grader.batch import LocalEngine

    out, first = local
    again = batch(out, LocalEngine(2), hf_cache)
    assert again.executed == [] and sorted(again.cached) == sorted(NAMES)
    assert {k: essence(r) for k, r in again.records.items()} == {
        k: essence(r) for k, r in first.records.items()}


@pytest.mark.ray
def test_ray_gives_the_same_records(local, tmp_path, hf_cache):
    pytest.importorskip("ray")
    from grader.batch import RayEngine

    out, first = local
    result = batch(tmp_path / "ray", RayEngine(2), hf_cache)
    assert sorted(result.executed) == sorted(NAMES) and not result.failed
    assert {k: essence(r) for k, r in result.records.items()} == {
        k: essence(r) for k, r in first.records.items()}
    assert json.loads((tmp_path / "ray" / "manifest.json").read_text())["engine"] == "ray"


def test_sigkill_of_the_driver_loses_nothing_done(local, tmp_path, hf_cache):
    out, first = local
    target = tmp_path / "killed"
    argv = [sys.executable, "-m", "grader", "grade", *[str(SAMPLES / f"{n}.ipynb") for n in NAMES],
            "-a", str(PACK_DIR), "--out", str(target), "--seed", str(SEED), "-j", "1",
            "--no-report", "--hf-cache", str(hf_cache)]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and len(records_in(target)) < 2:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)  # the driver and its workers, mid-batch
    proc.wait()
    survived = records_in(target)
    assert 2 <= len(survived) < len(NAMES), "the kill must land mid-batch"
    logged = len(events(target))
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    resumed = records_in(target)
    assert {k: essence(r) for k, r in resumed.items()} == {
        k: essence(r) for k, r in first.records.items()}
    second = events(target)[logged:]
    assert sorted(e["submission"] for e in second if e["event"] == "cached") == sorted(survived)
    ran_again = {e["submission"] for e in second if e["event"] == "done"}
    assert not ran_again & set(survived), "finished work must not run twice"


def test_a_worker_killed_mid_task_is_retried_once(tmp_path, hf_cache):
    needs_bwrap()
    psutil = pytest.importorskip("psutil")
    from grader.batch import BatchOptions, Item, LocalEngine, run_batch
    from grader.pack import load_pack

    out = tmp_path / "retry"
    one = [Item("wrong-q1a-transposed-heads", SAMPLES / "wrong-q1a-transposed-heads.ipynb")]
    killed: list[int] = []

    def kill_the_worker() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            for child in psutil.Process().children():
                if "spawn_main" in " ".join(child.cmdline()) and child.cpu_times().user > 1:
                    killed.append(child.pid)
                    child.kill()
                    return
            time.sleep(0.2)

    killer = threading.Thread(target=kill_the_worker)
    killer.start()
    result = run_batch(load_pack(PACK_DIR), one,
                       BatchOptions(out=out, seed=SEED, hf_cache=hf_cache), LocalEngine(1))
    killer.join()
    assert killed, "the worker was never seen running"
    log = [e["event"] for e in events(out) if e.get("submission") == one[0].key]
    assert log == ["start", "retry", "start", "done"]
    assert result.records[one[0].key]["run"]["retries"] == 1 and not result.failed


def test_a_rubric_change_rescores_without_a_kernel(local, tmp_path, hf_cache, monkeypatch):
    from grader import grade
    from grader.batch import LocalEngine
    from grader.pack import load_pack

    out, first = local
    copy = tmp_path / "pack"
    shutil.copytree(PACK_DIR, copy)
    rescored_out = tmp_path / "out"
    shutil.copytree(out, rescored_out)
    manifest = json.loads((rescored_out / "manifest.json").read_text())
    rubric = copy / "pack.toml"
    total = load_pack(copy).total
    text = rubric.read_text()
    assert f"total = {total:g}\n" in text and 'points = 6\nhint = "Project with' in text
    text = text.replace(f"total = {total:g}\n", f"total = {total + 4:g}\n", 1).replace(
        'points = 6\nhint = "Project with', 'points = 10\nhint = "Project with', 1)
    rubric.write_text(text)
    pack = load_pack(copy)
    assert pack.question("q1a").points == 10
    # same runs: the cache key ignores points, so the stored runs stand for the new pack

    def no_kernel(*args, **kwargs):
        raise AssertionError("re-scoring must not start a kernel")

    monkeypatch.setattr(grade, "Runner", no_kernel)
    result = batch(rescored_out, LocalEngine(1), hf_cache, pack=pack)
    assert result.executed == [] and sorted(result.rescored) == sorted(NAMES)
    assert manifest["pack"]["execution"] == json.loads(
        (rescored_out / "manifest.json").read_text())["pack"]["execution"]
    for name in NAMES:
        new = result.records[name]
        old = first.records[name]
        q1a_new = next(q for q in new["questions"] if q["id"] == "q1a")
        q1a_old = next(q for q in old["questions"] if q["id"] == "q1a")
        assert q1a_new["max"] == 10 and new["max_score"] == total + 4
        assert q1a_new["score"] == q1a_old["score"] / 6 * 10
    assert not [e for e in events(rescored_out)[len(events(out)):] if e["event"] == "start"]
