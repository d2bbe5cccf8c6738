"""Self-check uploads: a bounded queue, a fixed number of runs at once, a status per job.

Each upload is run by the same code path as ``grader check`` (``grade_notebook`` in
``check`` mode, sandboxed): public demo inputs only, so the reference never loads.
The queue holds at most ``selfcheck_queue`` waiting notebooks; beyond that the upload
is refused with a 503 rather than letting the backlog grow. Job ids are random, so
a student's report is reachable only through the link they were given.
"""

from __future__ import annotations

import logging
import queue
import secrets
import shutil
import tempfile
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.pack import Pack
from grader.run.sandbox import Sandbox, SandboxUnavailable
from grader.service.errors import ApiError

log = logging.getLogger("grader.service.selfcheck")

STATUSES = ("queued", "running", "done", "error")


@dataclass
class Job:
    id: str
    assignment: str
    notebook: str
    path: Path
    status: str = "queued"
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    message: str = ""
    record: dict[str, Any] | None = None

    def public(self, position: int | None = None) -> dict[str, Any]:
        """What the status endpoint shows; the record only once the run is over."""
        out: dict[str, Any] = {
            "id": self.id, "status": self.status, "assignment": self.assignment,
            "notebook": self.notebook, "created": self.created, "started": self.started,
            "finished": self.finished, "message": self.message, "position": position,
            "status_url": f"/v1/selfcheck/{self.id}", "page_url": f"/selfcheck/{self.id}"}
        if self.record is not None:
            out["score"] = self.record["score"]
            out["max_score"] = self.record["max_score"]
        return out


def public_record(record: dict[str, Any], pack_raw: dict[str, Any] | None = None
                  ) -> dict[str, Any]:
    """What the student may read of a record: the reports' own student view (visibility
    rules of the rubric, no seed, no server paths)."""
    from grader.report import student_view

    out = student_view(record, pack_raw)
    out.get("submission", {}).pop("path", None)
    return out


class SelfCheckQueue:
    """``workers`` threads take jobs from a queue of at most ``size`` waiting notebooks."""

    def __init__(self, packs: dict[str, Pack], *, workers: int, size: int, keep: int,
                 sandbox: str) -> None:
        self.packs = packs
        self.workers, self.size, self.keep = max(1, workers), max(1, size), keep
        self.sandbox_kind = sandbox
        self.box: Sandbox | None = None
        self.unavailable = ""
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._queue: queue.Queue[Job | None] = queue.Queue(maxsize=self.size)
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._tmp = Path(tempfile.mkdtemp(prefix="grader-selfcheck-"))

    def start(self) -> None:
        try:
            self.box = Sandbox.create(self.sandbox_kind)
        except SandboxUnavailable as exc:
            self.unavailable = f"self-check is off on this server: {exc}"
            log.warning(self.unavailable)
            return
        for i in range(self.workers):
            thread = threading.Thread(target=self._work, name=f"selfcheck-{i}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        for _ in self._threads:
            self._queue.put(None)
        for thread in self._threads:
            thread.join(timeout=5)
        shutil.rmtree(self._tmp, ignore_errors=True)

    def submit(self, assignment: str, filename: str, data: bytes) -> Job:
        """Queue a notebook, or raise ApiError: unknown pack, not a notebook, queue full."""
        if self.unavailable:
            raise ApiError(503, "unavailable", self.unavailable)
        if assignment not in self.packs:
            raise ApiError(404, "not_found", f"no assignment {assignment!r} on this server; "
                           f"known: {', '.join(sorted(self.packs)) or 'none'}",
                           field="assignment")
        _validate_notebook(data)
        job_id = secrets.token_urlsafe(12)
        folder = self._tmp / job_id
        folder.mkdir()
        path = folder / self.packs[assignment].notebook  # the name the pack expects
        path.write_bytes(data)
        name = Path(filename or path.name).name[:120] or path.name
        job = Job(job_id, assignment, name, path)
        with self._lock:
            try:
                self._queue.put_nowait(job)
            except queue.Full:
                shutil.rmtree(folder, ignore_errors=True)
                raise ApiError(503, "queue_full", f"{self.size} notebooks are already waiting; "
                               "try again in a minute", field="notebook",
                               headers={"Retry-After": "60"}) from None
            self.jobs[job_id] = job
            self._forget_old()
        return job

    def get(self, job_id: str) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise ApiError(404, "not_found", "no such self-check job (it may have expired)",
                           field="job_id")
        return job

    def position(self, job: Job) -> int | None:
        """1 for the next notebook to run; None once it runs."""
        if job.status != "queued":
            return None
        with self._lock:
            waiting = [j for j in self.jobs.values() if j.status == "queued"]
        return next((i for i, j in enumerate(waiting, 1) if j is job), None)

    def _forget_old(self) -> None:
        finished = [k for k, j in self.jobs.items() if j.status in ("done", "error")]
        for key in finished[: max(0, len(self.jobs) - self.keep)]:
            del self.jobs[key]

    def _work(self) -> None:
        while True:
            job = self._queue.get()
            if job is None:
                return
            self.run(job)

    def run(self, job: Job) -> None:
        """Self-check one notebook; any failure becomes the job's message, never a crash."""
        from grader.grade import grade_notebook

        job.status, job.started = "running", time.time()
        try:
            # exactly `grader check`: check mode (public demo inputs; quick fine-tuning is
            # its default), sandboxed; any option `check` gains is one more key here
            options: dict[str, Any] = {"mode": "check", "sandbox": self.box}
            pack = self.packs[job.assignment]
            record = grade_notebook(pack, job.path, **options)
            job.record = public_record(record.to_dict(), pack.raw)
            job.status, job.message = "done", "checked on the public demo inputs"
        except Exception as exc:  # a grader fault: recorded for the student, logged for us
            log.exception("self-check %s failed", job.id)
            job.status, job.message = "error", f"the grader failed: {type(exc).__name__}"
        finally:
            job.finished = time.time()
            shutil.rmtree(job.path.parent, ignore_errors=True)


def _validate_notebook(data: bytes) -> None:
    import nbformat

    if not data:
        raise ApiError(422, "invalid_input", "the file is empty", field="notebook")
    try:
        nbformat.reads(data.decode("utf-8"), as_version=4)
    except Exception:
        raise ApiError(422, "invalid_input", "not a Jupyter notebook (.ipynb JSON)",
                       field="notebook") from None
