"""How many answers of the report corpus the grader reads right, per format and per mistake.

Run: .venv/bin/python benchmarks/bench_reports.py [--misses] [--json]

Every file of tests/fixtures/report-corpus/reports goes through the grader's report-only
path (the same as tests/calculators/answers/test_report_corpus.py): read, then the
`answer`, `series` and `logs` checks. An item is "read right" when the grader gives it the
verdict manifest.toml wrote for it. Prints

    newest held-out batch (held-out-4): N/M from PDF, N/M from DOCX, N/M from text
    answers read right: N/M from PDF, N/M from DOCX, N/M from text

(and the same for each `batch` the manifest names, the newest, last in the manifest,
first of all: it was never tuned on; "held-out" reports were written
before and committed after the readers were tuned on the others), then one row per
family of mistake ("none" = right answers; "claim" = lab A's Q4 claim;
"per_seed" = a lab B report's six per-seed rows checked against its log), one row per
style the report was written in (latex: pandoc/pdfLaTeX two-column; word: a Docs page
printed by Chromium; docx: Word; md: Markdown; txt: plain text) and the seconds taken. `--misses` lists each item read wrong with what the grader made of it;
`--known-misses` prints them as entries for the test's KNOWN_MISSES list.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.calculators.answers.test_report_corpus import (  # noqa: E402
    Outcome,
    corpus_files,
    grade_file,
    manifest,
    style_of,
)

LABELS = {"pdf": "PDF", "docx": "DOCX", "text": "text"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list every item read wrong")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--known-misses", action="store_true",
                        help="print today's misses as KNOWN_MISSES entries (why = what was "
                             "read), to review and paste into test_report_corpus.py")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    outcomes: list[Outcome] = []
    for entry, path in corpus_files():
        outcomes.extend(grade_file(entry, path))
    seconds = time.perf_counter() - start
    total = Counter(o.format for o in outcomes)
    right = Counter(o.format for o in outcomes if o.ok)
    families = sorted({o.mistake for o in outcomes})
    per_family = {f: {fmt: (sum(o.ok for o in outcomes if o.mistake == f and o.format == fmt),
                            sum(1 for o in outcomes if o.mistake == f and o.format == fmt))
                      for fmt in LABELS} for f in families}
    if args.known_misses:
        for o in outcomes:
            if not o.ok:
                why = f"reads {o.read}; should read {o.want}"
                print(f"    ({o.report!r}, {o.item!r}, {o.format!r}):\n        {why!r},")
        return 0
    if args.json:
        print(json.dumps({"right": dict(right), "total": dict(total), "families": per_family,
                          "seconds": round(seconds, 2), "files": len(set(o.file for o in outcomes))}))
        return 0
    batches = {e["id"]: e.get("batch", "") for e in manifest()}
    named = list(dict.fromkeys(b for b in batches.values() if b))  # in the manifest's order

    def row(batch: str) -> str:
        part = [o for o in outcomes if batches[o.report] == batch]
        return ", ".join(f"{sum(o.ok for o in part if o.format == f)}/"
                         f"{sum(1 for o in part if o.format == f)} from {label}"
                         for f, label in LABELS.items())

    if named:  # the newest held-out batch first: the figure a course should expect
        print(f"newest held-out batch ({named[-1]}): {row(named[-1])}")
    print("answers read right: " + ", ".join(
        f"{right[fmt]}/{total[fmt]} from {label}" for fmt, label in LABELS.items()))
    for batch in named:
        print(f"  of which {batch} reports: {row(batch)}")
    print(f"\n{'family of mistake':26}" + "".join(f"{LABELS[f]:>10}" for f in LABELS))
    for family, cells in per_family.items():
        print(f"{family:26}" + "".join(
            f"{f'{n}/{m}' if m else '-':>10}" for n, m in cells.values()))
    styles = sorted({style_of(o.report) for o in outcomes})
    print(f"\n{'style the report was written in':32}" + "".join(f"{LABELS[f]:>10}" for f in LABELS))
    for style in styles:
        cells = [(sum(o.ok for o in outcomes if style_of(o.report) == style and o.format == f),
                  sum(1 for o in outcomes if style_of(o.report) == style and o.format == f))
                 for f in LABELS]
        print(f"{style:32}" + "".join(f"{f'{n}/{m}' if m else '-':>10}" for n, m in cells))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\n{len(set(o.file for o in outcomes))} files, {len(outcomes)} items in "
          f"{seconds:.1f} s (load average {load:.2f})")
    if args.misses:
        print()
        for o in outcomes:
            if not o.ok:
                print(f"{o.file:32} {o.item:10} [{o.mistake}] {o.got[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
