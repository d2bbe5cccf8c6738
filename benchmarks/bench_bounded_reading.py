"""What reading reports in a bounded worker costs per file, and what hostile files cost.

Run: .venv/bin/python benchmarks/bench_bounded_reading.py [--rounds N]

Every PDF and .docx of tests/fixtures/report-corpus/reports and tests/fixtures/documents
is read three ways, `--rounds` times each (median per file, then the mean over files):

- in process (`read_here`): the readers alone, no bound;
- a reused worker (`read_document`, as the grader reads): a pipe round trip per file;
- a fresh worker per file (`close_workers()` before each read): Python's start and the
  readers' imports every time, the design not taken.

The overhead is each bounded way's time minus the in-process time. Then the hostile files
of tests/fixtures/hostile-files/make_hostile.py through `read_document`: wall time and
the outcome.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.written.reading import (  # noqa: E402
    ReportReadError,
    close_workers,
    read_document,
    read_here,
)


def _files() -> list[Path]:
    out: list[Path] = []
    for folder in (ROOT / "tests/fixtures/report-corpus/reports", ROOT / "tests/fixtures/documents"):
        out += sorted(p for p in folder.iterdir() if p.suffix in (".pdf", ".docx"))
    return out


def _time(read, path: Path, before=None) -> float:
    if before is not None:
        before()
    start = time.perf_counter()
    with contextlib.suppress(ReportReadError):
        read(path)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    files = _files()
    read_here(files[0])  # imports done once, as in a worker that has read a file
    read_document(files[0])
    ways = {"in process": (read_here, None), "reused worker": (read_document, None),
            "worker per file": (read_document, close_workers)}
    medians: dict[str, list[float]] = {name: [] for name in ways}
    for path in files:
        for name, (read, before) in ways.items():
            medians[name].append(statistics.median(
                _time(read, path, before) for _ in range(args.rounds)))
    close_workers()
    base = statistics.mean(medians["in process"])
    print(f"{len(files)} files (PDF and .docx), median of {args.rounds} rounds each")
    for name, values in medians.items():
        mean = statistics.mean(values)
        extra = "" if name == "in process" else f"  (+{(mean - base) * 1000:.1f} ms a file)"
        print(f"  {name:16s} {mean * 1000:8.1f} ms a file{extra}")

    spec = importlib.util.spec_from_file_location(
        "make_hostile", ROOT / "tests/fixtures/hostile-files/make_hostile.py")
    assert spec and spec.loader
    hostile = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hostile)
    with tempfile.TemporaryDirectory() as tmp:
        made = [hostile.tiny_blocks_pdf(Path(tmp) / "tiny-blocks.pdf"),
                hostile.docx_bomb(Path(tmp) / "bomb.docx")]
        for path in made:
            start = time.perf_counter()
            try:
                read_document(path)
                outcome = "read"
            except ReportReadError as error:
                outcome = str(error)
            print(f"  {path.name} ({path.stat().st_size:,} bytes): "
                  f"{time.perf_counter() - start:.2f} s: {outcome}")
    close_workers()


if __name__ == "__main__":
    main()
