"""Run computations in worker processes, so that a timeout really stops them.

A thread cannot be stopped, so a computation that outlives its limit would keep a
core busy; a process can be killed. `Computer.run` waits ``compute_timeout_s`` for
the result; past it, the workers are killed, a fresh pool takes their place, and the
caller gets a 504 JSON error. Identical calculator requests are answered from a
small LRU cache (the calculators are pure functions).
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from grader.service import work
from grader.service.errors import ApiError


class Computer:
    """A process pool with a timeout per call and a response cache."""

    def __init__(self, workers: int, timeout_s: float, cache_entries: int = 0) -> None:
        self.workers, self.timeout_s = max(1, workers), timeout_s
        self.cache_entries = cache_entries
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the workers and import the calculators in each (the first call pays nothing)."""
        pool = self._get_pool()
        for f in [pool.submit(work.ping) for _ in range(self.workers)]:
            f.result(timeout=120)

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            _kill(pool)

    def _get_pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn: the service holds threads (uvicorn, self-check), which fork would copy
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"))
            return self._pool

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is pool:
                self._pool = None
        _kill(pool)

    async def run(self, fn: Callable[..., dict[str, Any]], *args: Any,
                  cache: bool = False) -> dict[str, Any]:
        """``fn(*args)`` in a worker: its dict, or ApiError 504 past the time limit."""
        key = json.dumps([fn.__name__, args], sort_keys=True, default=str) if cache else ""
        if key and self.cache_entries:
            with self._lock:
                if key in self._cache:
                    self._cache.move_to_end(key)
                    return self._cache[key]
        pool = self._get_pool()
        try:
            future = pool.submit(fn, *args)
        except (BrokenProcessPool, RuntimeError):
            self._replace(pool)
            raise ApiError(503, "busy", "the compute workers restarted; retry",
                           headers={"Retry-After": "1"}) from None
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(future), self.timeout_s)
        except TimeoutError:
            self._replace(pool)
            raise ApiError(504, "timeout", f"the computation took longer than "
                           f"{self.timeout_s:g} s and was stopped") from None
        except BrokenProcessPool:
            self._replace(pool)
            raise ApiError(503, "busy", "the compute workers restarted; retry",
                           headers={"Retry-After": "1"}) from None
        if key and self.cache_entries and "error" not in result:
            with self._lock:
                self._cache[key] = result
                while len(self._cache) > self.cache_entries:
                    self._cache.popitem(last=False)
        return result


def _kill(pool: ProcessPoolExecutor) -> None:
    # the executor has no public kill; its worker processes are in ``_processes``
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        proc.kill()
    pool.shutdown(wait=False, cancel_futures=True)
