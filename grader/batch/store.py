"""Runs kept on disk, so a rubric change re-scores without executing a notebook.

A run is what the sandbox produced: the executed notebook, each cell's status, the
probes' payloads (JSON + safetensors, never pickle) and the kernel telemetry. Saved
under `OUT/.runs/<cache key>/`, written to a temporary folder and renamed into place,
so a batch killed mid-write leaves either a whole run or none.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict
from pathlib import Path

import nbformat
from safetensors.torch import load as load_tensors
from safetensors.torch import save as save_tensors

from grader.run.result import CellReport, ProbePayload, RunResult

RUNS = ".runs"
DONE = "run.json"


def run_to_files(run: RunResult) -> dict[str, bytes]:
    """A run as files (name -> bytes): what a worker sends back to the driver."""
    meta = {
        "cells": [asdict(c) for c in run.cells], "telemetry": run.telemetry,
        "limits_hit": run.limits_hit, "seconds": run.seconds, "restarts": run.restarts,
        "sandbox": run.sandbox, "limits_mechanism": run.limits_mechanism,
        "probes": {cid: {"status": p.status, "message": p.message, "cases": p.cases,
                         "ops": p.ops}
                   for cid, p in run.probes.items()},
    }
    files = {"executed.ipynb": nbformat.writes(run.executed).encode("utf-8")}
    for cid, payload in run.probes.items():
        if payload.tensors:
            tensors = {k: v.contiguous() for k, v in payload.tensors.items()}
            files[f"probes/{cid}.safetensors"] = save_tensors(tensors)
    files[DONE] = json.dumps(meta).encode("utf-8")  # last: its presence marks a whole run
    return files


def run_from_files(folder: Path) -> RunResult:
    meta = json.loads((folder / DONE).read_text(encoding="utf-8"))
    probes = {}
    for cid, p in meta["probes"].items():
        blob = folder / "probes" / f"{cid}.safetensors"
        tensors = load_tensors(blob.read_bytes()) if blob.is_file() else {}
        # runs stored before operators were recorded have no "ops"
        probes[cid] = ProbePayload(cid, p["status"], p["message"], p["cases"], tensors,
                                   ops=p.get("ops") or {})
    return RunResult(
        executed=nbformat.reads((folder / "executed.ipynb").read_text(encoding="utf-8"),
                                as_version=4),
        cells=[CellReport(**c) for c in meta["cells"]], probes=probes,
        telemetry=meta["telemetry"], limits_hit=meta["limits_hit"], seconds=meta["seconds"],
        restarts=meta["restarts"], sandbox=meta["sandbox"],
        limits_mechanism=meta.get("limits_mechanism", ""))  # absent from older stored runs


def save_run(out: Path, key: str, files: dict[str, bytes]) -> Path:
    """Write a run's files under OUT/.runs/<key>/ atomically (temp folder + rename)."""
    final = out / RUNS / key
    if (final / DONE).is_file() or DONE not in files:
        return final  # already stored, or nothing ran (a report graded alone)
    tmp = out / RUNS / f".{key}.{os.getpid()}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    for name, data in files.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    shutil.rmtree(final, ignore_errors=True)  # a partial folder from another writer
    os.replace(tmp, final)
    return final


def load_run(out: Path, key: str) -> RunResult | None:
    folder = out / RUNS / key
    if not (folder / DONE).is_file():
        return None
    return run_from_files(folder)
