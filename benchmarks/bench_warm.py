"""Warm kernels (issue 19): self-check upload-to-report time through the service, cold vs
warm, and batch notebooks per minute, cold vs warm at -j 1 and -j 2, beside bare nbclient
on the same notebooks, all in one run with the load average.

Run: .venv/bin/python benchmarks/bench_warm.py [--copies 20] [--uploads 3] [--parts service batch]
                                               [--warm-modules torch transformers datasets]

The notebook is `submissions/stat8021-a3/wrong-q1a-transposed-heads.ipynb` (Part 1
written, Part 2 left as the template), as in bench_batch.py.

- service: `grader serve` in its own process (rate limit off, one self-check worker),
  cold and then with `--warm 1`. One upload first, not timed (the worker's own start);
  then `--uploads` uploads one after another, each timed from the POST to the job's
  `done` (polled every 20 ms), with `--gap` seconds between them: students do not
  upload back to back, and the gap is what lets the replacement kernel warm up.
  By default the pack's own `[environment] warm` (stat8021-a3: torch, transformers,
  datasets); `--warm-modules` serves a copy of the pack whose list is replaced by them
  (`--warm-modules torch`: what a pack that declares none warms).
- batch: `--copies` copies (each with one distinct cell, its own cache key) graded by
  `run_batch` with the local engine, cold and warm (`LocalEngine(jobs, warm=1)`, as
  `grader grade -j N --warm`), each into a fresh folder; "bare" is plain nbclient on the
  same copies one after another (no sandbox, no probes, no checks).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import httpx  # noqa: E402
import nbformat  # noqa: E402

NOTEBOOK = ROOT / "submissions" / "stat8021-a3" / "wrong-q1a-transposed-heads.ipynb"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f})"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def upload_seconds(url: str, data: bytes) -> float:
    """POST the notebook, poll its job until done; seconds from the POST."""
    with httpx.Client(base_url=url, timeout=60) as c:
        start = time.perf_counter()
        r = c.post("/v1/selfcheck", data={"assignment": "stat8021-a3"},
                   files={"notebook": (NOTEBOOK.name, data, "application/x-ipynb+json")})
        r.raise_for_status()
        job = r.json()["id"]
        while True:
            status = c.get(f"/v1/selfcheck/{job}").json()["status"]
            if status in ("done", "failed", "error"):
                break
            time.sleep(0.02)
        seconds = time.perf_counter() - start
    if status != "done":
        raise SystemExit(f"a self-check ended {status}")
    return seconds


def bench_service(warm: int, uploads: int, gap: float, packs: Path | None = None) -> list[float]:
    port = free_port()
    env = {**os.environ, "GRADER_SERVICE_RATE_PER_MINUTE": "0",
           "GRADER_SERVICE_SELFCHECK_WORKERS": "1", "GRADER_SERVICE_COMPUTE_WORKERS": "1"}
    if packs is not None:
        env["GRADER_SERVICE_PACKS_DIR"] = str(packs)
    cmd = [sys.executable, "-m", "grader", "serve", "--port", str(port)]
    if warm:
        cmd += ["--warm", str(warm)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"{url}/healthz", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise SystemExit("the service did not start in 120 s") from None
                time.sleep(0.2)
        data = NOTEBOOK.read_bytes()
        upload_seconds(url, data)  # the worker's own start: not timed
        times = []
        for _ in range(uploads):
            time.sleep(gap)
            times.append(upload_seconds(url, data))
        return times
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def bench_batch(copies: int, jobs_list: list[int]) -> None:
    from bench_batch import copies as make_copies
    from nbclient import NotebookClient

    from grader.batch import BatchOptions, Item, LocalEngine, run_batch
    from grader.models.cache import cache_dir, cached_models
    from grader.pack import load_pack

    pack = load_pack(ROOT / "reference" / "stat8021-a3")
    hf_cache = cache_dir(None)
    if not cached_models(hf_cache):
        raise SystemExit(f"no models in {hf_cache}: run `grader models seed --tiny` first")
    with tempfile.TemporaryDirectory(prefix="bench-warm-") as tmp:
        folder = Path(tmp) / "copies"
        folder.mkdir()
        paths = make_copies(folder, copies)
        os.environ["HF_HUB_CACHE"] = str(hf_cache)
        bare_dir = Path(tmp) / "bare"
        bare_dir.mkdir()
        for src, name in pack.notebook_files():
            (bare_dir / name).write_bytes(src.read_bytes())
        start = time.perf_counter()
        for path in paths:
            nb = nbformat.read(path, as_version=4)
            NotebookClient(nb, resources={"metadata": {"path": str(bare_dir)}}, timeout=300,
                           allow_errors=True, shutdown_kernel="immediate").execute()
        bare = time.perf_counter() - start
        print(f"{'bare nbclient':16s} {1:4d} {copies:6d} {bare:8.1f} "
              f"{copies / bare * 60:7.1f}   ({load()})", flush=True)
        for jobs in jobs_list:
            for warm in (0, 1):
                out = Path(tmp) / f"out-{jobs}-{warm}"
                items = [Item(p.stem, p) for p in paths]
                engine = LocalEngine(jobs, warm=warm)
                start = time.perf_counter()
                try:
                    result = run_batch(pack, items, BatchOptions(out=out, seed=1,
                                                                 hf_cache=hf_cache), engine)
                finally:
                    engine.close()
                wall = time.perf_counter() - start
                if result.failed or len(result.records) != copies:
                    raise SystemExit(f"the batch failed for {sorted(result.failed)}")
                label = "grader warm" if warm else "grader cold"
                print(f"{label:16s} {jobs:4d} {copies:6d} {wall:8.1f} "
                      f"{copies / wall * 60:7.1f}   ({load()})", flush=True)
                shutil.rmtree(out, ignore_errors=True)


def set_warm(toml: Path, modules: list[str]) -> None:
    """Replace (or add) `[environment] warm` in a copy of a pack's TOML."""
    import tomlkit

    doc = tomlkit.parse(toml.read_text())
    doc.setdefault("environment", tomlkit.table())["warm"] = list(modules)
    toml.write_text(tomlkit.dumps(doc))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--uploads", type=int, default=3)
    parser.add_argument("--gap", type=float, default=8.0,
                        help="seconds between timed uploads")
    parser.add_argument("--parts", nargs="+", choices=["service", "batch"],
                        default=["service", "batch"])
    parser.add_argument("--warm-modules", nargs="+", default=None,
                        help="serve a copy of the pack whose [environment] warm is these")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; {load()} at start", flush=True)
    if "service" in args.parts:
        with tempfile.TemporaryDirectory(prefix="bench-warm-packs-") as tmp:
            packs = None
            if args.warm_modules:
                packs = Path(tmp)
                pack = packs / "stat8021-a3"
                shutil.copytree(ROOT / "reference" / "stat8021-a3", pack)
                set_warm(pack / "pack.toml", args.warm_modules)
            from grader.grade import warm_modules
            from grader.pack import load_pack

            modules = warm_modules(load_pack(packs / "stat8021-a3" if packs else
                                             ROOT / "reference" / "stat8021-a3"))
            print("self-check upload -> report, seconds (median, then each); warm modules: "
                  + ", ".join(modules))
            for warm in (0, 1):
                times = bench_service(warm, args.uploads, args.gap, packs)
                label = "warm (--warm 1)" if warm else "cold"
                print(f"  {label:16s} {statistics.median(times):6.2f}  "
                      f"[{', '.join(f'{t:.2f}' for t in times)}]   ({load()})", flush=True)
    if "batch" in args.parts:
        print(f"{'batch':16s} {'jobs':>4s} {'copies':>6s} {'wall s':>8s} {'nb/min':>7s}")
        bench_batch(args.copies, args.jobs)
    print(f"{load()} at end")


if __name__ == "__main__":
    main()
