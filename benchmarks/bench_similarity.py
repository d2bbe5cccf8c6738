"""`grader similarity` on a class of 500: seconds, and precision/recall of the planted pairs.

Run: .venv/bin/python benchmarks/bench_similarity.py [--students 500] [--graded DIR] [--json]

The class is tests/fixtures/similarity/make_class.py's, grown to N students: the nine
planted pairs (verbatim, renamed, reordered, comments rewritten, an extra bug, a report
copied with synonyms, a group of three), three template-only students, seven with the
same common mistake, and honest students to N. Its behaviour comes from the four
behaviour notebooks graded once in the sandbox (`--graded DIR`: a batch of them, as
`grader grade` wrote it; without it they are graded here first, about two minutes), and
each student's written answers are judged without a kernel. So that the output index
has work to do, 40 % of the honest students also get a wrong Q1(d) output of their own
(the right one plus an offset of their own, 0.01 apart: distinct beyond the tolerance). What is timed is what `grader similarity` does: read the
records, stored runs and notebooks, fingerprint, index, compare, and write the HTML and
JSON. Setup (writing notebooks, grading, composing runs) is not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fixtures.similarity import make_class as mc  # noqa: E402

SEED = 4242


def grade_behaviour(out: Path) -> Path:
    from grader.batch import BatchOptions, Item, LocalEngine, run_batch
    from grader.models.tiny import read_texts, seed_tiny
    from grader.pack import load_pack

    cache = out / "hf-cache"
    seed_tiny(cache, read_texts(sorted((mc.PACK / "public").glob("*.jsonl"))))
    reps = mc.write_class(out / "behaviour", mc.behaviour_students(), part2=False)
    run_batch(load_pack(mc.PACK), [Item(k, p) for k, p in sorted(reps.items())],
              BatchOptions(out=out / "behaviour-grades", seed=SEED, hf_cache=cache),
              LocalEngine(2))
    return out / "behaviour-grades"


def perturb(grades: Path, keys: list[str]) -> None:
    """Give each of `keys` a wrong Q1(d) output of its own."""
    from safetensors.numpy import load_file, save_file

    probe = "q1d-PositionalEncoding"
    for i, key in enumerate(keys):
        record = json.loads((grades / f"{key}.json").read_text())
        run = grades / ".runs" / record["run"]["cache_key"]
        blob = run / "probes" / f"{probe}.safetensors"
        if not blob.is_file():
            continue
        tensors = load_file(str(blob))
        rng = random.Random(i)
        for name in tensors:
            if name.startswith("hidden-"):  # an offset of its own, 0.01 apart: > atol
                tensors[name] = tensors[name] + (0.01 * (1 + i) + 1e-4 * rng.random())
        save_file(tensors, str(blob))
        for q in record["questions"]:
            if q["id"] == "q1d":
                for check in q["checks"]:
                    for row in check["evidence"] if isinstance(check["evidence"], list) else []:
                        row["passed"] = False
        (grades / f"{key}.json").write_text(json.dumps(record))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--graded", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-similarity-"))
    setup = time.perf_counter()
    graded = args.graded or grade_behaviour(work)
    students = mc.make_students(args.students)
    notebooks = mc.write_class(work / "notebooks", students)
    records = mc.written_records(notebooks, SEED)
    grades = work / "grades"
    mc.compose_grades(graded, grades, students, notebooks, records)
    honest = [s.key for s in students if s.key.startswith("student-")]
    perturb(grades, honest[: int(0.4 * len(honest))])
    setup = time.perf_counter() - setup

    from grader.similarity import find_similar, load_class, load_settings
    from grader.similarity.render import write_report

    start = time.perf_counter()
    classroom = load_class(grades)
    loaded = time.perf_counter() - start
    result = find_similar(classroom, load_settings(mc.PACK))
    write_report(result, work / "report")
    total = time.perf_counter() - start

    planted = {tuple(sorted(p[:2])) for p in mc.PLANTED}
    negatives = {tuple(sorted(p[:2])) for p in mc.NOT_FLAGGED}
    k = len(planted)
    top = {(p.a, p.b) for p in result.pairs[:k]}
    flagged = {(p.a, p.b) for p in result.pairs if p.flagged}
    figures = {
        "students": len(students), "seconds": round(total, 2), "load_seconds": round(loaded, 2),
        "phases": result.seconds, "candidates": result.candidates,
        "precision_at_k": len(top & planted) / k, "recall_at_k": len(top & planted) / k,
        "flagged": len(flagged), "flagged_planted": len(flagged & planted),
        "flagged_negatives": len(flagged & negatives),
        "precision_flagged": len(flagged & planted) / len(flagged) if flagged else 0.0,
        "recall_flagged": len(flagged & planted) / k,
        "baselines": result.baselines, "setup_seconds": round(setup, 1),
        "load": os.getloadavg()[0], "cores": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print(f"{figures['students']} students: {total:.1f} s (reading {loaded:.1f} s; "
              f"phases {result.seconds}); {result.candidates} candidate pairs")
        print(f"top {k}: precision {figures['precision_at_k']:.2f}, recall "
              f"{figures['recall_at_k']:.2f}; flagged {len(flagged)} "
              f"(planted {len(flagged & planted)}, negatives {len(flagged & negatives)})")
        print(f"load {figures['load']:.1f} on {figures['cores']} cores; report in {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
