"""Builders for grades folders made without a kernel: real GradeRecords and real stored
runs (written by grader.batch.store, as a batch writes them), holding outputs the test
chooses. The sandbox-graded class is in test_graded_class.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACK_DIR = ROOT / "reference" / "stat8021-a3"


def record(key: str, questions: list[dict[str, Any]], seed: int = 7,
           notebook: Path | None = None) -> dict[str, Any]:
    """A GradeRecord as a batch writes it, validated by the record's model."""
    from grader.record import GradeRecord

    data = {
        "assignment": {"id": "stat8021-a3", "title": "A3", "version": "1", "fingerprint": "x"},
        "submission": {"name": f"{key}.ipynb", "path": str(notebook) if notebook else None,
                       "sha256": None, "evidence": "notebook"},
        "mode": "grade", "score": 0, "max_score": 10, "status": "graded",
        "questions": questions,
        "run": {"seconds": 1.0, "restarts": 0, "sandbox": "bwrap", "executed": True,
                "quick": False, "device": None, "seed": seed, "cells_executed": 1,
                "cache_key": f"run-{key}"},
        "flags": {}, "environment": {"python": "3.11", "platform": "linux", "grader": "0"},
    }
    return GradeRecord.from_dict(data).to_dict()


def tensor_question(qid: str, cases: dict[str, bool]) -> dict[str, Any]:
    """A tensor check's question result: which hidden cases passed."""
    passed = all(cases.values())
    return {"id": qid, "title": qid, "score": 6.0 if passed else 0.0, "max": 6,
            "status": "passed" if passed else "failed", "message": "",
            "checks": [{"kind": "tensor", "fraction": float(passed),
                        "status": "passed" if passed else "failed", "message": "",
                        "evidence": [{"case": c, "passed": ok, "problem": None, "outputs": [
                            {"output": "output", "max_abs_error": 0.0 if ok else 0.5,
                             "norm": 1.0}]} for c, ok in cases.items()]}]}


def store(out: Path, key: str, probes: dict[str, dict[str, Any]]) -> None:
    """A stored run under out/.runs/run-<key>/ through grader.batch.store: `probes` maps a
    probe id to {"cases": {...}, "tensors": {...}, "ops": {...}}."""
    from grader.batch.store import run_to_files, save_run
    from grader.run.result import ProbePayload, RunResult

    payloads = {pid: ProbePayload(pid, "ok", "", p["cases"], p.get("tensors", {}),
                                  ops=p.get("ops", {}))
                for pid, p in probes.items()}
    run = RunResult(executed=nbformat.v4.new_notebook(), cells=[], probes=payloads,
                    telemetry={}, limits_hit=[], seconds=1.0, restarts=0, sandbox="bwrap")
    save_run(out, f"run-{key}", run_to_files(run))


def write_record(out: Path, key: str, data: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{key}.json").write_text(json.dumps(data))


def manifest(out: Path, seed: int = 7) -> None:
    (out / "manifest.json").write_text(json.dumps(
        {"pack": {"id": "stat8021-a3", "root": str(PACK_DIR)}, "seed": seed}))


@pytest.fixture(scope="session")
def synthetic_class(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The planted class's notebooks (fast: text only) with its expected pairs."""
    from tests.fixtures.similarity import make_class as mc

    folder = tmp_path_factory.mktemp("class")
    students = mc.make_students()
    paths = mc.write_class(folder, students)
    return {"students": students, "paths": paths, "folder": folder, "module": mc}
