"""Overhead of grading one notebook against bare nbclient execution of the same notebook.

Run: .venv/bin/python benchmarks/bench_grading.py [REPEATS]

Three ways to run `submissions/stat8021-a3/solution.ipynb`, interleaved so that a
busy machine slows all of them alike, reported as medians and as ratios to the bare
run (ratios in one run are what to compare across machines):

- bare: `nbclient.NotebookClient(nb).execute()`, a plain local kernel (TCP), no probes,
  shut down immediately as the runner does;
- sandboxed: the grader's runner (bubblewrap + rlimits + telemetry cells), no probes;
- graded: `grade_notebook` end to end (sandbox, hidden cases drawn and run through the
  reference, four probes in the kernel, comparisons, static check, record).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")  # the same thread count as the sandboxed kernel

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402

from grader.grade import grade_notebook  # noqa: E402
from grader.pack import load_pack  # noqa: E402
from grader.runner import Runner  # noqa: E402
from grader.sandbox import Sandbox  # noqa: E402

NOTEBOOK = ROOT / "submissions" / "stat8021-a3" / "solution.ipynb"


def bare(pack) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for f in pack.public_files:
            (Path(tmp) / f.name).write_bytes(f.read_bytes())
        nb = nbformat.read(NOTEBOOK, as_version=4)
        NotebookClient(nb, resources={"metadata": {"path": tmp}}, timeout=120,
                       shutdown_kernel="immediate").execute()


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    pack = load_pack(ROOT / "reference" / "stat8021-a3")
    box = Sandbox.create()
    runner = Runner(box, pack.limits)
    ways = {
        "bare nbclient": lambda: bare(pack),
        "sandboxed run": lambda: runner.run(NOTEBOOK, files=pack.public_files),
        "graded (end to end)": lambda: grade_notebook(pack, NOTEBOOK, sandbox=box),
    }
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(repeats):
        for name, fn in ways.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    base = statistics.median(times["bare nbclient"])
    print(f"{NOTEBOOK.name}, {repeats} repeats, medians:")
    for name, values in times.items():
        med = statistics.median(values)
        print(f"  {name:22s} {med:6.2f} s  x{med / base:4.2f}  (+{med - base:5.2f} s)"
              f"  min {min(values):.2f} max {max(values):.2f}")


if __name__ == "__main__":
    main()
