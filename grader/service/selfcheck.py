"""Self-check uploads: a bounded queue, a fixed number of runs at once, a status per job.

Each upload is run by the same code path as ``grader check`` (``grade_notebook`` in
``check`` mode, sandboxed): public demo inputs only, so the reference never loads.
The queue holds at most ``selfcheck_queue`` waiting notebooks; beyond that the upload
is refused with a 503 rather than letting the backlog grow. The line is fair
(`fairshare.FairLine`): each client has at most one job running and one waiting (a
further upload is a 429), a free worker takes the client served longest ago, and with
``selfcheck_share_s`` a job that has had its share while another client waits is
stopped. Job ids are random, so a student's report is reachable only through the link
they were given.

Nothing of a job runs in the web process. Each of the ``selfcheck_workers`` threads
owns one warm worker process (`procs.Worker`, ``spawn`` context; torch and the
packs loaded once) and only waits on its pipe, so a notebook whose checks hold the
GIL for minutes slows no other client. A job gets ``selfcheck_timeout_s`` of wall
clock in its worker; past it the worker, its sandboxed kernel and every process
under them are killed, the job ends ``failed`` with a message saying so, and the
thread starts a fresh worker before it takes the next job. Each job's sandbox has a
uid of its own (when the service runs as root), so killing one job's leftovers never
touches another's. `stop` asks every worker to end (SIGTERM: it kills its kernels and
removes their cgroups), then kills what is left.

With ``selfcheck_warm`` N (``grader serve --warm N``), each worker keeps N warm
sandboxed kernels per pack (`grader.run.pool`), started when the worker starts and
replaced while a job runs: a job runs on a kernel that has already imported torch, one
kernel per job, destroyed after it (docs/warm-kernels.md).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import secrets
import shutil
import signal
import tempfile
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grader.pack import Pack
from grader.run.sandbox import Sandbox, SandboxUnavailable
from grader.service.errors import ApiError
from grader.service.fairshare import FairLine
from grader.service.procs import CallFailed, CallTimeout, Worker, WorkerGone

if TYPE_CHECKING:
    from grader.record import GradeRecord
    from grader.run.pool import WarmPool

log = logging.getLogger("grader.service.selfcheck")

STATUSES = ("queued", "running", "done", "failed", "error")
"""``failed``: the check of this notebook was stopped (its time limit, or its process
died); ``error``: the grader itself failed. Both are final, as ``done`` is."""
FINISHED = ("done", "failed", "error")
RESTART_PAUSE_S = 5.0
"""Wait before trying again when a worker could not start (a broken install, no memory)."""
STOP_WAIT_S = 5.0
"""How long `stop` waits for a worker to end on SIGTERM before it kills its tree."""
REFEREE_TICK_S = 0.5
"""How often the referee looks for a job past its share while another client waits."""


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
    """The student's view of the finished run's record (`public_record`), not the record:
    the worker returns only what the student may read, so a dict, the view's own shape
    (grader/report/visibility.py says why a view is one)."""
    client: str = ""
    """Who uploaded it (the client's address): the key of the per-client quota."""
    seq: int = 0
    checking_since: float | None = None
    """`time.monotonic` when its worker was given it (the share counts from there)."""
    preempted: bool = False
    """Stopped by the referee so that another client's job could run."""
    worker: Worker | None = field(default=None, repr=False)

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


def public_record(record: GradeRecord, pack_raw: dict[str, Any] | None = None
                  ) -> dict[str, Any]:
    """What the student may read of a record: the reports' own student view (visibility
    rules of the rubric, no seed, no server paths)."""
    from grader.report import student_view

    out = student_view(record, pack_raw)
    out.get("submission", {}).pop("path", None)
    return out


class SelfCheckQueue:
    """``workers`` threads take jobs from a queue of at most ``size`` waiting notebooks.

    Each thread owns one worker process and runs its jobs there, ``timeout_s`` each.
    """

    def __init__(self, packs: dict[str, Pack], *, workers: int, size: int, keep: int,
                 sandbox: str, timeout_s: float = 300.0, warm: int = 0,
                 per_client: bool = True, share_s: float = 0.0) -> None:
        self.packs = packs
        self.warm = max(0, warm)
        self.workers, self.size, self.keep = max(1, workers), max(1, size), keep
        self.timeout_s = timeout_s
        self.sandbox_kind = sandbox
        self.box: Sandbox | None = None
        self.unavailable = ""
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._line = FairLine(self.size, per_client=per_client, share_s=share_s,
                              timeout_s=timeout_s)
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._threads: list[threading.Thread] = []
        self._workers: dict[int, Worker] = {}
        self._uids: set[int] = set()
        self._stopping = False
        self._tmp = Path(tempfile.gettempdir())  # a folder of its own from `start` on

    def start(self) -> None:
        """Check the sandbox, then start the threads; each starts its worker in the
        background (the service answers meanwhile; a job waits for a ready worker)."""
        try:
            self.box = Sandbox.create(self.sandbox_kind)
        except SandboxUnavailable as exc:
            self.unavailable = f"self-check is off on this server: {exc}"
            log.warning(self.unavailable)
            return
        # made here, not in __init__: an app built and never started leaves nothing behind
        self._tmp = Path(tempfile.mkdtemp(prefix="grader-selfcheck-"))
        for i in range(self.workers):
            thread = threading.Thread(target=self._work, args=(i,), name=f"selfcheck-{i}",
                                      daemon=True)
            thread.start()
            self._threads.append(thread)
        if per_client_share(self._line):
            referee = threading.Thread(target=self._referee, name="selfcheck-referee",
                                       daemon=True)
            referee.start()
            self._threads.append(referee)

    def stop(self) -> None:
        """Kill every worker (and so every kernel), fail what waits, end the threads."""
        with self._lock:
            self._stopping = True
            workers = list(self._workers.values())
            waiting = self._line.drain()
            self._cond.notify_all()
        for worker in workers:  # first asked: a worker's SIGTERM removes its kernels' cgroups
            with contextlib.suppress(OSError, TypeError):
                os.kill(worker.pid, signal.SIGTERM)  # type: ignore[arg-type]
        for worker in workers:
            if worker.process is not None:
                worker.process.join(timeout=STOP_WAIT_S)
            worker.kill()
        for job in waiting:
            self._finish(job, "failed", STOPPED)
        for thread in self._threads:
            thread.join(timeout=15)
        if self._threads:  # started: the folder is its own
            shutil.rmtree(self._tmp, ignore_errors=True)

    def submit(self, assignment: str, filename: str, data: bytes, client: str = "") -> Job:
        """Queue a notebook, or raise ApiError: unknown pack, not a notebook, ``client``
        over its quota (429), queue full (503)."""
        if self.unavailable:
            raise ApiError(503, "unavailable", self.unavailable)
        if self._stopping:
            raise ApiError(503, "unavailable", "the service is stopping; try again shortly")
        if assignment not in self.packs:
            raise ApiError(404, "not_found", f"no assignment {assignment!r} on this server; "
                           f"known: {', '.join(sorted(self.packs)) or 'none'}",
                           field="assignment")
        _validate_notebook(data)
        job_id = secrets.token_urlsafe(12)
        folder = self._tmp / "jobs" / job_id
        folder.mkdir(parents=True)
        path = folder / self.packs[assignment].notebook  # the name the pack expects
        path.write_bytes(data)
        name = Path(filename or path.name).name[:120] or path.name
        job = Job(job_id, assignment, name, path, client=client)
        with self._lock:
            refused = self._line.refusal(client, time.monotonic())
            if refused is None:
                self._line.add(job)
                self.jobs[job_id] = job
                self._forget_old()
                self._cond.notify_all()
        if refused is not None:
            shutil.rmtree(folder, ignore_errors=True)
            raise ApiError(refused.status, refused.code, refused.message, field="notebook",
                           headers={"Retry-After": str(refused.retry_after_s)})
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
            return self._line.position(job)

    def _forget_old(self) -> None:
        finished = [k for k, j in self.jobs.items() if j.status in FINISHED]
        for key in finished[: max(0, len(self.jobs) - self.keep)]:
            del self.jobs[key]

    # -- the threads and their workers ------------------------------------------------------

    def _take(self) -> Job | None:
        """The next job the line gives this thread (marked running), waiting for one;
        None when the service stops."""
        with self._cond:
            while not self._stopping:
                job = self._line.take(time.monotonic())
                if job is not None:
                    job.status, job.started = "running", time.time()
                    return job
                self._cond.wait()
        return None

    def _referee(self) -> None:
        """Stop a job past its share while another client's job waits for a worker; its
        thread sees the job `preempted`, ends it `failed` and starts a fresh worker."""
        while True:
            with self._cond:
                self._cond.wait(REFEREE_TICK_S)
                if self._stopping:
                    return
                job = self._line.to_stop(time.monotonic(), self.workers)
                worker = job.worker if job is not None else None
                if job is None or worker is None:
                    continue
                job.preempted = True
            log.info("self-check %s: stopped after its share (%g s) for a waiting client",
                     job.id, self._line.share_s)
            worker.kill()  # its thread's call raises WorkerGone

    def _work(self, slot: int) -> None:
        worker = self._fresh_worker(slot)
        while True:
            job = self._take()
            if job is None:
                break
            if worker is None or not worker.alive:
                worker = self._fresh_worker(slot)
            if worker is None:
                if self._stopping:
                    self._finish(job, "failed", STOPPED)
                else:
                    self._finish(job, "error", "the grader failed: its worker process could "
                                 "not start (the server's log says why)")
                continue
            self.run(job, worker)
            with self._lock:
                stopped = job.preempted  # the referee may be killing it: never reuse it
            if stopped:
                worker.kill()
            if not worker.alive:  # killed past the time limit: the next job finds a warm one
                worker = self._fresh_worker(slot)
        if worker is not None:
            worker.kill()

    def _fresh_worker(self, slot: int) -> Worker | None:
        """A started worker for this thread, in a clean temporary folder; None if stopping
        or if it could not start (logged; the next job tries again)."""
        tmp = self._tmp / f"worker-{slot}"
        shutil.rmtree(tmp, ignore_errors=True)  # what a killed worker's runs left
        tmp.mkdir(parents=True)
        roots = sorted({str(p.root) for p in self.packs.values()})
        from grader.models.cache import cache_dir

        worker = Worker(f"grader-selfcheck-{slot}", warm_worker,
                        (roots, str(tmp), self.warm, self.box, str(cache_dir())))
        with self._lock:
            if self._stopping:
                return None
            self._workers[slot] = worker
        try:
            return worker.start()
        except WorkerGone as exc:
            if not self._stopping:
                log.error("the self-check worker %d could not start: %s", slot, exc)
                time.sleep(RESTART_PAUSE_S)
            return None

    def _job_box(self) -> Sandbox:
        """The service's sandbox with a uid of this job's own (when the service is root)."""
        assert self.box is not None
        if self.box.uid is None:
            return self.box
        with self._lock:
            uid = self.box.uid
            while uid in self._uids:
                uid = 200_000 + secrets.randbelow(100_000)
            self._uids.add(uid)
        return dataclasses.replace(self.box, uid=uid)

    def run(self, job: Job, worker: Worker) -> None:
        """Self-check one notebook in ``worker``; any failure becomes the job's message and
        status, never a crash. Past ``timeout_s`` the worker is killed (with its kernel)."""
        from grader.models.cache import cache_dir

        job.status = "running"
        job.started = job.started or time.time()
        box = self._job_box()
        pack = self.packs[job.assignment]
        # exactly `grader check`: check mode, sandboxed; the model cache as the environment
        # names it now (a worker started earlier may have an older environment)
        args = (str(pack.root), str(job.path), box, str(cache_dir()))
        with self._lock:
            job.worker, job.checking_since = worker, time.monotonic()
        try:
            out = worker.call(check_notebook, args, self.timeout_s)
        except CallTimeout:
            self._finish(job, "failed", f"stopped: the self-check ran longer than "
                         f"{self.timeout_s:g} s, this server's limit for one notebook")
        except WorkerGone as exc:
            if self._stopping:
                self._finish(job, "failed", STOPPED)
            elif job.preempted:
                self._finish(job, "failed", preempted_message(self._line.share_s))
            else:
                log.error("self-check %s: its worker died: %s", job.id, exc)
                self._finish(job, "failed", "stopped: the process checking the notebook died "
                             "(it may have run out of memory)")
        except CallFailed as exc:  # a grader fault: recorded for the student, logged for us
            log.error("self-check %s failed:\n%s", job.id, exc.trace)
            self._finish(job, "error", f"the grader failed: {exc.type_name}")
        else:
            if "record" in out:
                job.record = out["record"]
                self._finish(job, "done", "checked on the public demo inputs")
            else:
                self._finish(job, "failed", out["failed"])
        finally:
            if not worker.alive:
                box.kill_leftovers()  # anything of the job's uid the tree kill missed
            with self._lock:
                self._uids.discard(box.uid)  # type: ignore[arg-type]

    def _finish(self, job: Job, status: str, message: str) -> None:
        job.message, job.finished = message, time.time()
        job.status = status  # last: a poller that sees the status sees the message too
        shutil.rmtree(job.path.parent, ignore_errors=True)
        with self._cond:
            job.worker = None
            self._line.finished(job)
            self._cond.notify_all()  # a client's waiting job may start now


STOPPED = "stopped: the service was shut down before the check finished; upload it again"


def preempted_message(share_s: float) -> str:
    return (f"stopped after {share_s:g} s because other students were waiting: while the "
            f"server is busy each check gets {share_s:g} s in turn. Upload it again (it "
            "runs to the full limit when nobody else waits)")


def per_client_share(line: FairLine) -> bool:
    """Whether the referee has work: the quota on and a share set."""
    return line.per_client and line.share_s > 0


def _validate_notebook(data: bytes) -> None:
    """A cheap look (C's JSON parser, no schema) that the upload is a notebook at all.

    The full read happens in the worker: nbformat's validation of a large notebook
    costs seconds of the GIL, which the web process must not spend.
    """
    if not data:
        raise ApiError(422, "invalid_input", "the file is empty", field="notebook")
    try:
        nb = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        nb = None
    if not isinstance(nb, dict) or not isinstance(nb.get("nbformat"), int) or not (
            isinstance(nb.get("cells"), list) or isinstance(nb.get("worksheets"), list)):
        raise ApiError(422, "invalid_input", "not a Jupyter notebook (.ipynb JSON)",
                       field="notebook")


# -- in the worker process ----------------------------------------------------------------

_PACKS: dict[str, Pack] = {}
_POOL: WarmPool | None = None
"""A worker's warm kernels (``selfcheck_warm``), or None: cold kernels."""


def _pack(root: str) -> Pack:
    from grader.pack import load_pack

    if root not in _PACKS:
        _PACKS[root] = load_pack(Path(root))
    return _PACKS[root]


def warm_worker(pack_roots: list[str], tmp: str, warm: int = 0, box: Sandbox | None = None,
                hf_cache: str = "") -> None:
    """A new worker's start: its own temporary folder (a killed run leaves its files
    there, and the service wipes it), grading's imports (torch), the packs, and with
    `warm` its pool of warm kernels, started now for each pack."""
    global _POOL
    tempfile.tempdir = tmp
    os.environ["TMPDIR"] = tmp
    import grader.grade  # noqa: F401 - paid once per worker, not once per job

    if warm and box is not None:
        from grader.run.pool import WarmPool

        _POOL = WarmPool(warm, work_dir=Path(tmp))
    for root in pack_roots:
        try:
            pack = _pack(root)
            if _POOL is not None and box is not None:
                _prime(_POOL, pack, box, hf_cache)
        except Exception as exc:  # noqa: BLE001 - loaded (and reported) when a job needs it
            print(f"grader self-check worker: cannot load the pack in {root}: {exc}")


def _prime(pool: WarmPool, pack: Pack, box: Sandbox, hf_cache: str) -> None:
    """Start a pack's warm kernels with the sandbox `check_notebook` will ask for (check
    mode: quick): `grader.grade.prime_kernels` builds it with the very `kernel_box` that
    `grade_notebook` uses, so the two cannot drift (a kernel is taken only by a run whose
    sandbox matches)."""
    from grader.grade import prime_kernels

    prime_kernels(pool, pack, box, quick=True, hf_cache=hf_cache)


def check_notebook(pack_root: str, notebook: str, box: Sandbox, hf_cache: str) -> dict[str, Any]:
    """In a worker: ``grader check`` of one notebook; ``{"record": ...}`` (the student's
    view of it) or ``{"failed": message}`` when the file is no notebook after all."""
    import nbformat

    from grader.grade import grade_notebook

    try:
        nbformat.read(notebook, as_version=4)
    except Exception:  # noqa: BLE001 - what nbformat cannot read is not a notebook
        return {"failed": "not a Jupyter notebook (.ipynb JSON)"}
    pack = _pack(pack_root)
    record = grade_notebook(pack, Path(notebook), mode="check", sandbox=box, hf_cache=hf_cache,
                            kernels=_POOL)
    return {"record": public_record(record, pack.raw)}
