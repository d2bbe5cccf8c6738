"""Overhead of grading one notebook against bare nbclient execution of the same notebook.

Run: .venv/bin/python benchmarks/bench_grading.py [REPEATS] [--against CHECKOUT]

Three ways to run the Part 1 solution (`submissions/stat8021-a3/solution.ipynb` with the
later parts put back as the template has them, so no model is fine-tuned: Part 2's
cost is the student's training, measured in docs/finetune.md), interleaved so that a
busy machine slows all of them alike, reported as medians and as ratios to the bare
run (ratios in one run are what to compare across machines):

- bare: `nbclient.NotebookClient(nb).execute()`, a plain local kernel (TCP), no probes,
  shut down immediately as the runner does;
- sandboxed: the grader's runner (bubblewrap + rlimits + telemetry cells), no probes;
- graded: `grade_notebook` end to end (sandbox, hidden cases drawn and run through the
  reference, four probes in the kernel, comparisons, static check, record).

`--against CHECKOUT` (another checkout of this project, e.g. `git worktree add /tmp/old
<commit>`) also grades the same notebook with that checkout's code and this one's, in
alternating fresh processes (warm medians of 3 after one warm-up each): the difference
is what the code between the two commits costs per notebook (the defences of issue 17,
measured against the commit before them).
"""

from __future__ import annotations

import os
import statistics
import subprocess
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
from grader.models.cache import cache_dir  # noqa: E402
from grader.pack import load_pack  # noqa: E402
from grader.run.runner import Runner  # noqa: E402
from grader.run.sandbox import Sandbox  # noqa: E402

SOLUTION = ROOT / "submissions" / "stat8021-a3" / "solution.ipynb"
TEMPLATE = ROOT / "reference" / "stat8021-a3" / "template" / "Transformer_practice.ipynb"
NOTEBOOK = Path(tempfile.mkdtemp(prefix="bench-grading-")) / "part1-solution.ipynb"


def part1_solution() -> None:
    """The solution with every cell tagged for a later part taken from the template."""
    nb = nbformat.read(SOLUTION, as_version=4)
    template = {c.get("id"): c for c in nbformat.read(TEMPLATE, as_version=4).cells}
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if any(t.startswith(("q2", "q3")) for t in tags) and cell.get("id") in template:
            cell.source = template[cell["id"]].source
    nbformat.write(nb, NOTEBOOK)


def bare(pack) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for src, name in pack.notebook_files():
            (Path(tmp) / name).write_bytes(src.read_bytes())
        nb = nbformat.read(NOTEBOOK, as_version=4)
        NotebookClient(nb, resources={"metadata": {"path": tmp}}, timeout=120,
                       allow_errors=True, shutdown_kernel="immediate").execute()


GRADE_HERE = """
import statistics, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import nbformat
from grader.grade import grade_notebook
from grader.models.cache import cache_dir
from grader.pack import load_pack
from grader.run.sandbox import Sandbox
pack = load_pack(Path(sys.argv[1]) / "reference" / "stat8021-a3")
box = Sandbox.create(hf_cache=str(cache_dir(None)))
times = []
for _ in range(4):
    start = time.perf_counter()
    grade_notebook(pack, Path(sys.argv[2]), sandbox=box)
    times.append(time.perf_counter() - start)
print(statistics.median(times[1:]))
"""


def against(other: Path, rounds: int) -> None:
    """This checkout's grading against another's, alternating fresh processes."""
    medians: dict[str, list[float]] = {"other": [], "this": []}
    for _ in range(rounds):
        for label, root in (("other", other), ("this", ROOT)):
            done = subprocess.run([sys.executable, "-c", GRADE_HERE, str(root), str(NOTEBOOK)],
                                  capture_output=True, text=True, check=True, cwd=root)
            medians[label].append(float(done.stdout.strip().splitlines()[-1]))
    a, b = statistics.median(medians["other"]), statistics.median(medians["this"])
    print(f"graded by {other}: {a:.2f} s, by this checkout: {b:.2f} s, "
          f"difference {b - a:+.2f} s (medians of {rounds} rounds)")


def main() -> None:
    args, other = sys.argv[1:], None
    if "--against" in args:
        at = args.index("--against")
        other = Path(args[at + 1]).resolve()
        del args[at:at + 2]
    repeats = int(args[0]) if args else 5
    pack = load_pack(ROOT / "reference" / "stat8021-a3")
    part1_solution()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the bare kernel: never the network
    os.environ.setdefault("HF_HUB_CACHE", str(cache_dir(None)))
    box = Sandbox.create(hf_cache=str(cache_dir(None)))
    runner = Runner(box, pack.limits)
    ways = {
        "bare nbclient": lambda: bare(pack),
        "sandboxed run": lambda: runner.run(NOTEBOOK, files=pack.notebook_files()),
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
    if other is not None:
        against(other, 3)


if __name__ == "__main__":
    main()
