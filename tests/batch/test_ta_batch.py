"""The batch as a TA lives it: Ctrl-C, the event log, throughput when all is cached."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAMPLES, as_at_a_terminal, needs_bwrap

pytestmark = pytest.mark.sandbox

NAMES = ["wrong-q1d-sin-cos-swapped", "wrong-q1c-missing-scale"]


def events(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]


def _slow_copy(name: str, folder: Path) -> Path:
    """The sample with a last cell that sleeps 20 s: a notebook certainly still running
    half a second after it started, however fast or loaded the machine is (the plain
    sample may finish first, and Ctrl-C then finds nothing to stop)."""
    import nbformat

    nb = nbformat.read(SAMPLES / f"{name}.ipynb", as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("import time\ntime.sleep(20)"))
    folder.mkdir(exist_ok=True)
    nbformat.write(nb, folder / f"{name}.ipynb")
    return folder / f"{name}.ipynb"


def test_ctrl_c_stops_fast_says_how_to_resume_and_logs_it(tmp_path, hf_cache):
    needs_bwrap()
    out = tmp_path / "grades"
    notebooks = [str(SAMPLES / f"{NAMES[0]}.ipynb"), str(_slow_copy(NAMES[1], tmp_path / "in"))]
    argv = [sys.executable, "-m", "grader", "grade", *notebooks,
            "-a", "stat8021-a3", "--out", str(out), "--seed", "7", "-j", "1", "--no-report"]
    env = {**os.environ, "GRADER_HF_CACHE": str(hf_cache), "COLUMNS": "300"}
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True,
                            preexec_fn=as_at_a_terminal)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (
            (out / "events.jsonl").is_file()
            and [e["event"] for e in events(out)].count("start") == 2):
        time.sleep(0.1)
    time.sleep(0.5)  # the second notebook is running now (its last cell sleeps 20 s)
    pressed = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
    _, err = proc.communicate(timeout=60)
    took = time.monotonic() - pressed
    assert proc.returncode == 130, err
    assert "interrupted: 1 of 2 graded" in err and "Run the same command again to resume" in err
    log = events(out)
    # Ctrl-C stops the running notebook instead of waiting for it: it takes less time than
    # grading one notebook took in this same run (a ratio, not a wall clock: the machine
    # may be loaded, and then both are slower)
    first = [datetime.fromisoformat(e["time"]) for e in log if e["event"] in ("start", "done")]
    graded_one = (first[1] - first[0]).total_seconds()
    assert took < graded_one, (f"Ctrl-C took {took:.1f} s, longer than grading one notebook "
                               f"({graded_one:.1f} s): {err}")
    # -j 1: the second submission is logged as started only once the first is done
    assert [e["event"] for e in log] == ["batch-start", "start", "done", "start",
                                         "batch-interrupted"], (log, err)
    assert log[-1]["left"] == 1
    # the same command resumes: only the one left runs
    again = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert again.returncode == 0, again.stderr
    assert "1 executed, 1 already done" in again.stderr
    assert events(out)[-1]["event"] == "batch-end"
    # and once more: nothing runs, and no made-up throughput
    cached = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert cached.returncode == 0 and "0 executed, 2 already done" in cached.stderr
    assert "all cached" in cached.stderr and "/min" not in cached.stderr
