"""Who runs next in the self-check queue: one running and one waiting job per client.

A shared first-come queue lets one client take every place in it: eight uploads of a
notebook that sleeps until its time limit kept an honest student waiting forty
minutes (issue 25, attack 10). The line here is fair instead:

- **A quota per client.** A client (its address, as the rate limit and the daily
  answer checks count it) has at most one job running and one waiting. A further
  upload is refused at once with 429 ``too_many_jobs`` and a ``Retry-After``; it never
  takes a place in the line.
- **Round robin.** A free worker takes the waiting job whose client was served longest
  ago (a client never served first), never a job of a client that already has one
  running. So a flooder's second job waits behind every other client's first.
- **A share of the worker for a newcomer.** With every worker busy, a job that has
  been checked for ``share_s`` while a new client's job waits is stopped (the job ends
  ``failed``, saying why), so the newcomer starts within ``share_s`` plus a worker's
  restart, not after the running job's whole time limit. Only a client new to the line
  (nothing of it running or waiting before this upload) asks for the share: a client
  that has been served and still has a job waiting (a flooder's second upload) waits
  for a worker to come free, so it can never stop the job that took its place. A
  client alone on the server is never stopped early.

The class holds only the bookkeeping, under the caller's lock; `selfcheck.SelfCheckQueue`
owns the threads, the workers and the killing.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.service.selfcheck import Job


@dataclass(frozen=True)
class Refusal:
    """Why an upload is not queued: the HTTP status, the error code, the message, and the
    seconds after which the client may try again."""

    status: int
    code: str
    message: str
    retry_after_s: int


class FairLine:
    """The waiting and running jobs, and the choice of the next one (not thread safe:
    `SelfCheckQueue` calls it under its lock).

    ``per_client`` False (a server behind a proxy that hides students' addresses) turns
    the quota and the share off: every job is its own client, first come first served.
    """

    def __init__(self, size: int, *, per_client: bool = True, share_s: float = 0.0,
                 timeout_s: float = 300.0) -> None:
        self.size = max(1, size)
        self.per_client, self.share_s, self.timeout_s = per_client, share_s, timeout_s
        self.waiting: list[Job] = []
        self.running: list[Job] = []
        self._last_start: dict[str, float] = {}
        self._order = itertools.count()

    def client(self, job: Job) -> str:
        """The key a job is counted under: its client's address, or the job alone."""
        return job.client if self.per_client and job.client else f"job:{job.id}"

    def refusal(self, client: str, now: float) -> Refusal | None:
        """Why an upload from ``client`` may not join the line now, or None."""
        key = client if self.per_client and client else ""
        if key and any(self.client(j) == key for j in self.waiting):
            mine = next((j for j in self.running if self.client(j) == key), None)
            retry = 60
            if mine is not None and mine.checking_since is not None:
                retry = max(1, math.ceil(self.timeout_s - (now - mine.checking_since)))
            return Refusal(429, "too_many_jobs", (
                "you already have a self-check running and another waiting: each client "
                "may have one of each on this server. Wait until one of them is finished "
                "(its page says when), then upload again"), retry)
        if len(self.waiting) >= self.size:
            return Refusal(503, "queue_full", f"{self.size} notebooks are already waiting; "
                           "try again in a minute", 60)
        return None

    def add(self, job: Job) -> None:
        job.seq = next(self._order)
        self.waiting.append(job)

    def _key(self, job: Job) -> tuple[float, int]:
        """Served longest ago first (never served: first of all), then first come."""
        return self._last_start.get(self.client(job), -math.inf), job.seq

    def eligible(self) -> list[Job]:
        """Waiting jobs whose client runs nothing now, in the order they will start."""
        busy = {self.client(j) for j in self.running}
        return sorted((j for j in self.waiting if self.client(j) not in busy), key=self._key)

    def take(self, now: float) -> Job | None:
        """The next job to run (moved to running), or None when none may start now."""
        ready = self.eligible()
        if not ready:
            return None
        job = ready[0]
        self.waiting.remove(job)
        self.running.append(job)
        self._last_start[self.client(job)] = now
        return job

    def finished(self, job: Job) -> None:
        """A running job ended; a client with nothing left is forgotten."""
        if job in self.running:
            self.running.remove(job)
        key = self.client(job)
        if not any(self.client(j) == key for j in (*self.waiting, *self.running)):
            self._last_start.pop(key, None)

    def position(self, job: Job) -> int | None:
        """1 for the next to start, as the line stands now; None once it runs."""
        if job not in self.waiting:
            return None
        ready = self.eligible()
        later = sorted((j for j in self.waiting if j not in ready), key=self._key)
        return [*ready, *later].index(job) + 1

    def to_stop(self, now: float, workers: int) -> Job | None:
        """The running job to stop so that a new client's waiting job can start, or None.

        Only with the share on, every worker busy, and a waiting job of a client not yet
        served (one served, with a job still waiting, waits for a free worker); the job
        stopped is the one checked longest, once it has had ``share_s``.
        A worker not running a job (idle, or restarting after one) and a job already being
        stopped count as free: they take a waiting job without another stop.
        """
        if not self.per_client or self.share_s <= 0:
            return None
        stopping = sum(1 for j in self.running if j.preempted)
        asking = [j for j in self.eligible() if self.client(j) not in self._last_start]
        if len(asking) <= workers - len(self.running) + stopping:
            return None
        over = [j for j in self.running if not j.preempted and j.checking_since is not None
                and now - j.checking_since >= self.share_s]
        return min(over, key=lambda j: j.checking_since or now, default=None)

    def drain(self) -> list[Job]:
        """Every waiting job, removed (the service is stopping)."""
        out, self.waiting = self.waiting, []
        return out
