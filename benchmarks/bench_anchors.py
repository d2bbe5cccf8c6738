"""Anchors: `otter run` and `nbgrader autograde` on an equivalent small assignment, timed in
the same run as our grader, with the same columns as bench_batch.py.

Run: bash benchmarks/anchors/setup.sh      (once: two venvs outside the repository)
     .venv/bin/python benchmarks/bench_anchors.py [--copies 20 50] [--tools otter nbgrader ours]

Why this exists: a batch figure for our grader means little without the tools a course
would otherwise use, measured on the same machine at the same time (two cores, shared
with whatever else is running), so every row here comes from one invocation.

What is graded. The submission is the Part 1 of
`submissions/stat8021-a3/wrong-q1a-transposed-heads.ipynb` (Q1(a) wrong, Q1(b)-(d) right,
so every tool should give 24 of 30): its cells up to the Q1(d) demo, with
`part1_demo.safetensors` beside it. Each tool gets it in its own format:

- otter: the student's notebook as is; `benchmarks/anchors/otter/tests/q1*.py` are
  exception-based tests that `otter generate` packs into an autograder zip (built before
  the clock starts), and `otter run` grades one notebook per process, one after another.
- nbgrader: `benchmarks/anchors/nbgrader/` is a course; `nbgrader generate_assignment`
  (before the clock) makes the release notebook, each student's copy is that notebook
  with the student's four answers pasted into its solution cells, and a single
  `nbgrader autograde` grades all of them.
- ours: the whole notebook (Part 2 template included: it imports transformers and
  datasets), graded with the local engine and one job, as in bench_batch.py.

Both anchors run their tests inside the student's kernel after the notebook, on two
fixed seeded inputs per question with an in-kernel reference; ours runs probes on hidden
cases and compares outside the kernel, and also checks the printed demo values, the
conventions and Part 2/3 (which finish immediately on this template). The notebooks
differ in size, so "overhead/nb" is measured against bare nbclient execution of each
tool's own notebook in each tool's own environment: it is what the grading machinery
adds per notebook, and is the column to compare. Every row uses jobs=1 (`otter run` and
`nbgrader autograde` are sequential); OMP_NUM_THREADS=1 everywhere.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks" / "anchors"
SUBMISSION = ROOT / "submissions" / "stat8021-a3" / "wrong-q1a-transposed-heads.ipynb"
DEMO = ROOT / "reference" / "stat8021-a3" / "public" / "part1_demo.safetensors"
ANCHORS_HOME = Path(os.environ.get("ANCHORS_HOME",
                                   Path.home() / ".cache" / "transformer-grader" / "anchors"))
ASSIGNMENT = "stat8021-a3"
NOTEBOOK_NAME = "Transformer_practice.ipynb"
PART1_TAGS = ("q1a", "q1b", "q1c", "q1d")
PART1_POINTS = 30
EXPECTED_SCORE = 24  # Q1(a) wrong (6 points), the rest right

sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import nbformat  # noqa: E402

# Runs inside an anchor's venv, so that "bare" uses that venv's nbclient and torch.
BARE_SCRIPT = """
import json, sys, time, nbformat
from nbclient import NotebookClient
path, repeats = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(repeats):
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(nb, resources={"metadata": {"path": sys.argv[3]}}, timeout=300,
                   allow_errors=True, shutdown_kernel="immediate").execute()
    times.append(time.perf_counter() - start)
print(json.dumps(times))
"""


@dataclass
class Row:
    """One line of the table: a tool's batch over N copies."""

    tool: str
    copies: int
    wall: float
    bare: float
    scores: list[float]

    def line(self) -> str:
        overhead = self.wall / self.copies - self.bare  # jobs = 1
        score = f"{min(self.scores):g}-{max(self.scores):g}" if self.scores else "?"
        return (f"{self.tool:8s} {1:4d} {self.copies:6d} {self.wall:8.1f} "
                f"{self.copies / self.wall * 60:7.1f} {overhead:13.2f} {self.bare:7.2f} "
                f"{score:>9s}")


HEADER = (f"{'tool':8s} {'jobs':>4s} {'copies':>6s} {'wall s':>8s} {'nb/min':>7s} "
          f"{'overhead/nb s':>13s} {'bare s':>7s} {'score/30':>9s}")


def fail(message: str) -> None:
    """Stop with one clear line on stderr (what went wrong and what to run)."""
    sys.exit(f"bench_anchors: {message}")


def venv_bin(tool: str, program: str) -> Path:
    """A program of an anchor's venv, or a clear error telling to run setup.sh first."""
    path = ANCHORS_HOME / f"{tool}-venv" / "bin" / program
    if not path.exists():
        fail(f"{path} not found: run `bash benchmarks/anchors/setup.sh` first "
             f"(venvs under ANCHORS_HOME={ANCHORS_HOME})")
    return path


def tool_env(tool: str) -> dict[str, str]:
    """Environment for an anchor's subprocesses: its venv first on PATH, one torch thread,
    and Jupyter told to prefer the venv's own kernel spec over a user-wide `python3`."""
    env = dict(os.environ)
    env["PATH"] = f"{ANCHORS_HOME / f'{tool}-venv' / 'bin'}:{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(ANCHORS_HOME / f"{tool}-venv")
    env["JUPYTER_PREFER_ENV_PATH"] = "1"
    env["OMP_NUM_THREADS"] = "1"
    env.pop("PYTHONPATH", None)
    return env


def run(cmd: Sequence[str | Path], cwd: Path, env: dict[str, str]) -> str:
    """Run one command, returning its stdout; on failure show its output and stop."""
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True)
    if proc.returncode != 0:
        fail(f"`{' '.join(str(c) for c in cmd)}` exited {proc.returncode} in {cwd}:\n"
             f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc.stdout


def part1(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook up to and including the Q1(d) demo cell: the equivalent assignment."""
    for i, cell in enumerate(nb.cells):
        if "demo-q1d" in cell.metadata.get("tags", []):
            out = nbformat.from_dict(dict(nb))
            out.cells = nb.cells[: i + 1]
            return out
    fail(f"{SUBMISSION} has no cell tagged demo-q1d")
    raise AssertionError  # unreachable: fail() exits


def marked(nb: nbformat.NotebookNode, i: int) -> nbformat.NotebookNode:
    """A copy with one distinct cell, as in bench_batch.py, so no copy is byte-identical."""
    out = nbformat.from_dict(dict(nb))
    out.cells = [*nb.cells, nbformat.v4.new_markdown_cell(f"copy {i}", id=f"copy-{i}")]
    return out


def bare_seconds(tool: str, notebook: Path, repeats: int = 3) -> float:
    """Median seconds of plain nbclient on one of this tool's notebooks, in its venv."""
    python = venv_bin(tool, "python")
    out = run([python, "-c", BARE_SCRIPT, notebook, str(repeats), notebook.parent],
              notebook.parent, tool_env(tool))
    return statistics.median(json.loads(out.strip().splitlines()[-1]))


def bench_otter(n: int, tmp: Path) -> Row:
    """Build the autograder zip, then time `otter run` on every copy, one process each."""
    otter = venv_bin("otter", "otter")
    env = tool_env("otter")
    work = tmp / "otter"
    shutil.copytree(HERE / "otter", work)
    shutil.copy(DEMO, work / DEMO.name)
    run([otter, "generate", "-o", "autograder.zip", "--no-requirements", DEMO.name], work, env)
    student = part1(nbformat.read(SUBMISSION, as_version=4))
    subs = []
    for i in range(n):
        folder = work / "submissions" / f"student-{i:03d}"
        folder.mkdir(parents=True)
        nbformat.write(marked(student, i), folder / NOTEBOOK_NAME)
        subs.append(folder)
    bare_dir = work / "bare"
    bare_dir.mkdir()
    nbformat.write(student, bare_dir / NOTEBOOK_NAME)
    shutil.copy(DEMO, bare_dir / DEMO.name)
    bare = bare_seconds("otter", bare_dir / NOTEBOOK_NAME)

    start = time.perf_counter()
    for folder in subs:
        run([otter, "run", "-a", work / "autograder.zip", "-o", folder, "--no-logo",
             folder / NOTEBOOK_NAME], work, env)
    wall = time.perf_counter() - start

    scores = []
    for folder in subs:
        results = json.loads((folder / "results.json").read_text())
        scores.append(sum(t.get("score", 0) for t in results["tests"]))
    return Row("otter", n, wall, bare, scores)


def bench_nbgrader(n: int, tmp: Path) -> Row:
    """Release the assignment, fill N submissions, then time one `nbgrader autograde`."""
    nbgrader = venv_bin("nbgrader", "nbgrader")
    env = tool_env("nbgrader")
    course = tmp / "course"
    shutil.copytree(HERE / "nbgrader", course)
    shutil.copy(DEMO, course / "source" / ASSIGNMENT / DEMO.name)
    run([nbgrader, "generate_assignment", ASSIGNMENT, "--force"], course, env)
    release = nbformat.read(course / "release" / ASSIGNMENT / NOTEBOOK_NAME, as_version=4)
    answers = {c.metadata["tags"][0]: c.source
               for c in part1(nbformat.read(SUBMISSION, as_version=4)).cells
               if set(c.metadata.get("tags", [])) & set(PART1_TAGS)}
    for cell in release.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.metadata.get("nbgrader", {}).get("solution") and grade_id in answers:
            cell.source = answers[grade_id]
    for i in range(n):
        folder = course / "submitted" / f"student-{i:03d}" / ASSIGNMENT
        folder.mkdir(parents=True)
        nbformat.write(marked(release, i), folder / NOTEBOOK_NAME)
        shutil.copy(DEMO, folder / DEMO.name)
    bare_dir = tmp / "nbgrader-bare"
    bare_dir.mkdir()
    nbformat.write(release, bare_dir / NOTEBOOK_NAME)
    shutil.copy(DEMO, bare_dir / DEMO.name)
    bare = bare_seconds("nbgrader", bare_dir / NOTEBOOK_NAME)

    start = time.perf_counter()
    run([nbgrader, "autograde", ASSIGNMENT, "--create"], course, env)
    wall = time.perf_counter() - start

    run([nbgrader, "export", "--to", "grades.csv"], course, env)
    with (course / "grades.csv").open() as f:
        scores = [float(r["raw_score"]) for r in csv.DictReader(io.StringIO(f.read()))]
    return Row("nbgrader", n, wall, bare, scores)


def bench_ours(n: int, tmp: Path) -> Row:
    """Our grader, local engine, one job: the same as bench_batch.py's first row."""
    from bench_batch import bare_seconds as our_bare
    from bench_batch import copies as our_copies

    from grader.batch import BatchOptions, Item, LocalEngine, run_batch
    from grader.models.cache import cache_dir, cached_models
    from grader.pack import load_pack

    pack = load_pack(ROOT / "reference" / "stat8021-a3")
    hf_cache = cache_dir(None)
    if not cached_models(hf_cache):
        fail(f"no models in {hf_cache}: run `grader models seed --tiny` first")
    bare = our_bare(pack, hf_cache)
    folder = tmp / "ours"
    folder.mkdir()
    items = [Item(p.stem, p) for p in our_copies(folder, n)]
    start = time.perf_counter()
    result = run_batch(pack, items, BatchOptions(out=folder / "out", seed=1, hf_cache=hf_cache),
                       LocalEngine(1))
    wall = time.perf_counter() - start
    if result.failed or len(result.records) != n:
        fail(f"our batch failed for {sorted(result.failed)}")
    return Row("ours", n, wall, bare, [part1_score(r) for r in result.records.values()])


def part1_score(record: dict) -> float:
    """Our record's Q1 points, so the score column compares like with like."""
    questions = record.get("questions", [])
    return sum(float(q.get("score") or 0) for q in questions
               if str(q.get("id", "")).startswith("q1"))


BENCHES = {"otter": bench_otter, "nbgrader": bench_nbgrader, "ours": bench_ours}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, nargs="+", default=[20])
    parser.add_argument("--tools", nargs="+", choices=list(BENCHES), default=list(BENCHES))
    args = parser.parse_args()
    for tool in args.tools:  # fail before any timing, not halfway through
        if tool != "ours":
            venv_bin(tool, tool)
    if not DEMO.exists() or not SUBMISSION.exists():
        fail(f"missing {DEMO} or {SUBMISSION}")
    print(f"anchors from {ANCHORS_HOME}; {os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.2f} at start")
    print(HEADER, flush=True)
    for n in args.copies:
        for tool in args.tools:
            with tempfile.TemporaryDirectory(prefix=f"anchors-{tool}-") as tmp:
                row = BENCHES[tool](n, Path(tmp))
            print(row.line(), flush=True)
            if row.scores and any(s != EXPECTED_SCORE for s in row.scores):
                print(f"  note: {tool} scores differ from the expected "
                      f"{EXPECTED_SCORE}/{PART1_POINTS}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
