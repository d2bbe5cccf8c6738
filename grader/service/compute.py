"""Run computations in worker processes, so that a timeout really stops them.

A thread cannot be stopped, so a computation that outlives its limit would keep a
core busy; a process can be killed. Each of the ``compute_workers`` processes is a
warm `procs.Worker` owned by one thread of a small thread pool: a request waits for a
free thread (no GIL held while it waits), its worker runs the computation, and
``compute_timeout_s`` counts from the moment the worker receives it, not from the
wait. Past it, that worker alone is killed (other clients' computations in the other
workers go on), the caller gets a 504 JSON error, and the thread starts a fresh
worker for the next request. When more than ``backlog`` requests are already waiting,
the next one gets a 503 at once rather than a place in a growing line. Identical
calculator requests are answered from a small LRU cache (the calculators are pure
functions).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from grader.service import work
from grader.service.errors import ApiError
from grader.service.procs import CallFailed, CallTimeout, Worker, WorkerGone

log = logging.getLogger("grader.service.compute")


def _busy(message: str = "the compute workers restarted; retry") -> ApiError:
    return ApiError(503, "busy", message, headers={"Retry-After": "1"})


class Computer:
    """Worker processes with a timeout per call, a bounded wait, and a response cache."""

    def __init__(self, workers: int, timeout_s: float, cache_entries: int = 0,
                 backlog: int | None = None) -> None:
        self.workers, self.timeout_s = max(1, workers), timeout_s
        self.cache_entries = cache_entries
        self.backlog = backlog if backlog is not None else 8 * self.workers
        self._cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self._spare: list[Worker] = []
        self._all: list[Worker] = []
        self._mine = threading.local()
        self._pending = 0
        self._closed = False
        self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="compute")

    def start(self) -> None:
        """Start the workers and import the calculators in each (the first call pays nothing)."""
        fresh = [self._new() for _ in range(self.workers)]
        for worker in fresh:
            worker.launch()
        for worker in fresh:
            worker.ready()
        with self._lock:
            self._spare.extend(fresh)

    def close(self) -> None:
        """Kill every worker (a computation in flight gets a 503) and stop the threads."""
        with self._lock:
            self._closed = True
            workers, self._all, self._spare = list(self._all), [], []
        for worker in workers:
            worker.kill()
        self._threads.shutdown(wait=False, cancel_futures=True)

    def _new(self) -> Worker:
        worker = Worker("grader-compute", work.ping)
        with self._lock:
            if self._closed:
                raise _busy("the service is stopping")
            self._all.append(worker)
        return worker

    def _worker(self) -> Worker:
        """This thread's worker: its own if alive, else a spare one, else a new one."""
        worker: Worker | None = getattr(self._mine, "worker", None)
        if worker is not None and worker.alive:
            return worker
        with self._lock:
            if worker is not None and worker in self._all:
                self._all.remove(worker)
            worker = self._spare.pop() if self._spare else None
        if worker is None:
            try:
                worker = self._new().start()
            except WorkerGone as exc:
                log.error("a compute worker could not start: %s", exc)
                raise _busy("no compute worker could start; retry") from None
        self._mine.worker = worker
        return worker

    def _call(self, fn: Callable[..., dict[str, Any]], args: tuple[Any, ...]) -> dict[str, Any]:
        """In a pool thread: ``fn(*args)`` in this thread's worker, within the time limit."""
        try:
            return self._worker().call(fn, args, self.timeout_s)
        except CallTimeout:
            raise ApiError(504, "timeout", f"the computation took longer than "
                           f"{self.timeout_s:g} s and was stopped") from None
        except WorkerGone:
            raise _busy() from None
        except CallFailed as exc:
            log.error("%s failed in a compute worker:\n%s", fn.__name__, exc.trace)
            raise RuntimeError(f"{fn.__name__} failed in a compute worker: {exc}") from None

    async def run(self, fn: Callable[..., dict[str, Any]], *args: Any,
                  cache: bool = False) -> dict[str, Any]:
        """``fn(*args)`` in a worker: its dict, or ApiError 504 past the time limit."""
        key = json.dumps([fn.__name__, args], sort_keys=True, default=str) if cache else ""
        if key and self.cache_entries:
            with self._lock:
                if key in self._cache:
                    self._cache.move_to_end(key)
                    return self._cache[key]
        with self._lock:
            if self._closed:
                raise _busy("the service is stopping")
            if self._pending >= self.workers + self.backlog:
                raise _busy("every compute worker is busy; retry")
            self._pending += 1
        try:
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self._threads, self._call, fn, args)
        except RuntimeError as exc:
            if "shutdown" in str(exc):  # the pool was closed under this request
                raise _busy("the service is stopping") from None
            raise
        finally:
            with self._lock:
                self._pending -= 1
        if key and self.cache_entries and "error" not in result:
            with self._lock:
                self._cache[key] = result
                while len(self._cache) > self.cache_entries:
                    self._cache.popitem(last=False)
        return result
