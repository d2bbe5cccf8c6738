"""Batch throughput: notebooks per minute for the local pool and Ray, jobs 1 and 2,
against bare sequential nbclient execution of the same notebooks.

Run: .venv/bin/python benchmarks/bench_batch.py [--copies 20 50] [--jobs 1 2]
                                                [--engines local ray]

The notebook is `submissions/stat8021-a3/wrong-q1a-transposed-heads.ipynb` (Part 1
written, Part 2 left as the template: imports torch, transformers and datasets, runs
the Part 1 code and demos, no fine-tuning), copied N times with one distinct comment
each so that every copy has its own cache key. Each configuration grades into a fresh
output folder. "Overhead per notebook" is the batch's wall time per notebook times
the jobs, minus the bare nbclient time per notebook: what grading (sandbox, probes,
hidden cases, reference, checks, records) adds to running the notebook.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import nbformat  # noqa: E402

NOTEBOOK = ROOT / "submissions" / "stat8021-a3" / "wrong-q1a-transposed-heads.ipynb"


def copies(folder: Path, n: int) -> list[Path]:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    paths = []
    for i in range(n):
        cell = nbformat.v4.new_markdown_cell(f"copy {i}", id=f"copy-{i}")
        nb.cells.append(cell)
        path = folder / f"student-{i:03d}.ipynb"
        nbformat.write(nb, path)
        nb.cells.pop()
        paths.append(path)
    return paths


def bare_seconds(pack, hf_cache: Path, repeats: int = 3) -> float:
    """Median seconds of plain nbclient execution (local kernel, no sandbox, no probes)."""
    from nbclient import NotebookClient

    os.environ["HF_HUB_CACHE"] = str(hf_cache)
    times = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            for src, name in pack.notebook_files():
                (Path(tmp) / name).write_bytes(src.read_bytes())
            nb = nbformat.read(NOTEBOOK, as_version=4)
            start = time.perf_counter()
            NotebookClient(nb, resources={"metadata": {"path": tmp}}, timeout=300,
                           allow_errors=True, shutdown_kernel="immediate").execute()
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    from grader.batch import BatchOptions, Item, LocalEngine, RayEngine, run_batch
    from grader.models.cache import cache_dir, cached_models
    from grader.pack import load_pack

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, nargs="+", default=[20, 50])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--engines", nargs="+", default=["local", "ray"])
    args = parser.parse_args()
    pack = load_pack(ROOT / "reference" / "stat8021-a3")
    hf_cache = cache_dir(None)
    if not cached_models(hf_cache):
        sys.exit(f"no models in {hf_cache}: run `grader models seed --tiny` first")
    bare = bare_seconds(pack, hf_cache)
    print(f"bare nbclient, one notebook: {bare:.2f} s (median of 3)")
    print(f"{'engine':6s} {'jobs':>4s} {'copies':>6s} {'wall s':>8s} {'nb/min':>7s} "
          f"{'overhead/nb s':>13s}")
    for n in args.copies:
        with tempfile.TemporaryDirectory() as tmp:
            notebooks = copies(Path(tmp), n)
            items = [Item(p.stem, p) for p in notebooks]
            for engine_name in args.engines:
                for jobs in args.jobs:
                    engine = LocalEngine(jobs) if engine_name == "local" else RayEngine(jobs)
                    out = Path(tmp) / f"out-{engine_name}-{jobs}"
                    start = time.perf_counter()
                    result = run_batch(pack, items, BatchOptions(out=out, seed=1,
                                                                 hf_cache=hf_cache), engine)
                    wall = time.perf_counter() - start
                    assert len(result.records) == n and not result.failed
                    overhead = wall * jobs / n - bare
                    print(f"{engine_name:6s} {jobs:4d} {n:6d} {wall:8.1f} {n / wall * 60:7.1f} "
                          f"{overhead:13.2f}", flush=True)


if __name__ == "__main__":
    main()
