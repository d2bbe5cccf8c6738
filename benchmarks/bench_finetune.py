"""What Part 2 costs: the solution graded in full and in quick mode, per model.

Run: .venv/bin/python benchmarks/bench_finetune.py [--hf-cache DIR] [--gpus 0]

Grades `submissions/stat8021-a3/solution.ipynb` twice in the sandbox (full, then
quick: `GRADER_QUICK=1`, 400 items, one epoch) and prints, for each fine-tuned model,
the training time (wall time of its cells), the accuracy the grader re-evaluated on
the hidden split, the peak memory (CUDA when a GPU was given, else the kernel's peak
RSS), and the whole grading's wall time. With tiny models from `grader models seed
--tiny` this is the CI/laptop cost; with `grader models fetch` checkpoints on a GPU
(`--gpus 0`) it is the official grading cost.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.grade import grade_notebook  # noqa: E402
from grader.models.cache import cache_dir  # noqa: E402
from grader.pack import load_pack  # noqa: E402
from grader.run.sandbox import Sandbox  # noqa: E402

NOTEBOOK = ROOT / "submissions" / "stat8021-a3" / "solution.ipynb"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hf-cache", default=None)
    parser.add_argument("--gpus", default="")
    args = parser.parse_args()
    pack = load_pack(ROOT / "reference" / "stat8021-a3")
    gpus = tuple(g for g in args.gpus.split(",") if g)
    box = Sandbox.create(gpus=gpus)
    cache = cache_dir(args.hf_cache)
    print(f"{'mode':5s} {'question':8s} {'model':36s} {'train s':>8s} {'hidden acc':>10s} "
          f"{'peak MiB':>9s} {'device':>8s}")
    for quick in (False, True):
        start = time.perf_counter()
        record = grade_notebook(pack, NOTEBOOK, seed=1, sandbox=box, quick=quick, hf_cache=cache)
        wall = time.perf_counter() - start
        mode = "quick" if quick else "full"
        for model in record.run["models"]:
            peak = model["peak_memory_bytes"]
            acc = model["reevaluated_accuracy"]
            print(f"{mode:5s} {model['question']:8s} {str(model['architecture']):36s} "
                  f"{model['train_seconds'] or 0:8.1f} {acc if acc is not None else 0:10.3f} "
                  f"{(peak or 0) / 2**20:9.0f} {str(record.run['device']):>8s}")
        print(f"{mode:5s} whole grading (kernel start, Part 1 probes, training, "
              f"re-evaluation): {wall:.1f} s", flush=True)


if __name__ == "__main__":
    main()
