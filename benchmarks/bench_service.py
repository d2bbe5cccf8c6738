"""Load benchmark of the service: POST /v1/calc/params with a concurrent client on loopback.

Starts ``grader serve`` in its own process (rate limit off, default workers), then
sends requests from ``--concurrency`` concurrent httpx connections and reports
requests per second and p50/p99 latency for two mixes:

- repeated: the same request every time (what a class checking the same model does;
  answered from the response cache after the first);
- distinct: a different ``num_labels`` per request, so every request is computed in a
  worker process (count, formula, LaTeX, MathML, explanation).

    .venv/bin/python benchmarks/bench_service.py [--requests 1000] [--concurrency 1,4,16]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    env = {**os.environ, "GRADER_SERVICE_RATE_PER_MINUTE": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "grader", "serve", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the service did not start in 60 s")


async def load(url: str, bodies: list[dict], concurrency: int) -> tuple[float, list[float]]:
    """Send every body once from ``concurrency`` workers; (wall seconds, latencies in s)."""
    latencies: list[float] = []
    queue: asyncio.Queue[dict] = asyncio.Queue()
    for body in bodies:
        queue.put_nowait(body)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:

        async def worker() -> None:
            while not queue.empty():
                body = queue.get_nowait()
                t0 = time.perf_counter()
                r = await client.post("/v1/calc/params", json=body)
                latencies.append(time.perf_counter() - t0)
                if r.status_code != 200:
                    raise SystemExit(f"{r.status_code}: {r.text[:200]}")

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - start, latencies


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", default="1,4,16",
                        help="Concurrent connections, comma-separated levels.")
    args = parser.parse_args()
    port = free_port()
    proc = start_server(port)
    url = f"http://127.0.0.1:{port}"
    try:
        base = {"model": "distilbert-base-uncased", "head": "seq-cls"}
        asyncio.run(load(url, [{**base, "num_labels": 4}] * 50, 4))  # warm-up
        print(f"{args.requests} requests per mix and level, {os.cpu_count()} cores")
        print("| mix | concurrent | requests/s | p50 | p99 |")
        print("|---|---:|---:|---:|---:|")
        labels = iter(range(5, 10**6))  # never repeated across levels: every one computed
        for level in [int(c) for c in args.concurrency.split(",")]:
            mixes = {
                "repeated": [{**base, "num_labels": 4}] * args.requests,
                "distinct": [{**base, "num_labels": next(labels)} for _ in range(args.requests)],
            }
            for name, bodies in mixes.items():
                wall, lat = asyncio.run(load(url, bodies, level))
                print(f"| {name} | {level} | {len(bodies) / wall:,.0f} "
                      f"| {percentile(lat, 50) * 1e3:.1f} ms | {percentile(lat, 99) * 1e3:.1f} ms |")
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    main()
