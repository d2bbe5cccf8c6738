"""Where tasks run: a local pool of worker processes, or a Ray cluster.

Both take tasks and yield results in completion order; both turn a worker that died
(killed, out of memory, a lost Ray node) into an `{"error": ...}` result marked
`infrastructure`, which the driver retries once. Nothing here writes files.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from grader.batch.work import Task, grade_task, init_worker, set_threads


def threads_per_job(jobs: int) -> int:
    return max(1, (os.cpu_count() or 1) // max(1, jobs))


class LocalEngine:
    """`jobs` worker processes (spawned, so none inherits the driver's torch state)."""

    name = "local"

    def __init__(self, jobs: int, warm: int = 0) -> None:
        self.jobs = max(1, jobs)
        self.warm = max(0, warm)
        """Warm kernels each worker keeps ready (grader/run/pool.py); 0: cold kernels."""
        self._pool: ProcessPoolExecutor | None = None

    def _new_pool(self, first: Task | None = None) -> ProcessPoolExecutor:
        """Workers (spawned as tasks come); with `warm`, each primes its first kernel for
        `first` (every task of a batch shares its pack, sandbox and limits) as it starts."""
        return ProcessPoolExecutor(max_workers=self.jobs,
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=init_worker,
                                   initargs=(threads_per_job(self.jobs), self.warm,
                                             first if self.warm else None))

    def run(self, tasks: Sequence[Task]) -> Iterator[dict[str, Any]]:
        """Results in completion order; `{"key", "event": "started"}` as each task is
        handed to a free worker (at most `jobs` are in flight, so "started" means
        started, not queued)."""
        pending = list(tasks)
        futures: dict[Future[dict[str, Any]], Task] = {}
        while pending or futures:
            self._pool = self._pool or self._new_pool(pending[0] if pending else None)
            while pending and len(futures) < self.jobs:
                task = pending.pop(0)
                futures[self._pool.submit(grade_task, task)] = task
                yield {"key": task.key, "event": "started"}
            done, _ = wait(futures, return_when=FIRST_COMPLETED)
            for future in done:
                task = futures.pop(future)
                try:
                    yield future.result()
                except BrokenProcessPool:
                    # a worker died: this task and every other unfinished one lost
                    # their worker; report them once each and start a fresh pool
                    yield {"key": task.key, "error": "the worker process died",
                           "infrastructure": True}
                    for other in futures:
                        other.cancel()
                    lost = list(futures.values())
                    futures.clear()
                    self._pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = None
                    for other in lost:
                        yield {"key": other.key, "error": "the worker pool broke",
                               "infrastructure": True}
                    break

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def abort(self, grace: float = 1.5) -> None:
        """Stop now (Ctrl-C): cancel what has not started, give running workers `grace`
        seconds (a worker interrupted by the terminal's Ctrl-C cleans its sandbox up),
        then kill them; bubblewrap's --die-with-parent takes their kernels down."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + grace
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            if process.is_alive():
                process.kill()
                process.join(1)


class ClusterError(Exception):
    """The cluster cannot grade this batch as the driver would (a node lacks the model
    cache, the pack's environment, the sandbox or this grader; the token is missing):
    found before any task runs, each node named. `grader grade` prints it and exits 2,
    as for a broken pack: it is the setup, not a submission, that is wrong."""

    exit_code = 2

    def show(self) -> None:
        """How `grader.cli.main` prints an error that carries its own exit code."""
        import sys

        print(f"error: cluster: {self}", file=sys.stderr)


AUTH_HINT = (
    "the cluster uses token authentication and this process has no token for it. "
    "Export RAY_AUTH_MODE=token and make the cluster's token readable here, as on every "
    "node: ~/.ray/auth_token (what `ray get-auth-token --generate` wrote on the head), or "
    "RAY_AUTH_TOKEN_PATH=FILE, or RAY_AUTH_TOKEN=TOKEN (docs/batch.md, Token authentication)")
CHECK_TIMEOUT = 600.0
"""Seconds each node has to answer the start-up check (a worker process starts, imports
torch and the grader, unpacks the pack): generous, since a loaded node is slow, not
broken."""


class RayEngine:
    """Each task a Ray task with `num_cpus` / `num_gpus`; a local Ray unless an address.

    A task ships its pack and its submission as content (grader.batch.ship), so a worker
    never reads a path of the driver's; only the model cache and the pack's environment
    are paths, the same on every node. Before the first task, every node that can take
    one is checked (`node_facts`): a node without the model cache, the environment, the
    sandbox or the same grader is named in a `ClusterError` and nothing runs. The grader
    package must be importable on the workers (installed there): see docs/batch.md.
    """

    name = "ray"

    def __init__(self, jobs: int, address: str | None = None, cpus_per_job: float = 1,
                 gpus_per_job: float = 0, runtime_env: dict[str, Any] | None = None,
                 check_timeout: float = CHECK_TIMEOUT) -> None:
        import ray

        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            if address:
                try:
                    ray.init(address=address, runtime_env=runtime_env, log_to_driver=False)
                except Exception as exc:
                    if _refused_token(exc):
                        raise ClusterError(f"joining {address}: {AUTH_HINT}") from None
                    if isinstance(exc, ConnectionError):
                        raise ClusterError(
                            f"could not join the Ray cluster at {address} ({exc}): is the "
                            "head up there (`ray status --address ADDRESS`)?") from None
                    raise
            else:
                ray.init(num_cpus=max(1, jobs) * max(1, int(cpus_per_job)),
                         include_dashboard=False, log_to_driver=False,
                         runtime_env=runtime_env)
        self.cpus, self.gpus = cpus_per_job, gpus_per_job
        self.check_timeout = check_timeout
        self.checked: dict[str, dict[str, Any]] = {}
        """Node id -> the facts it reported at its check (each node is checked once)."""
        self._bundles: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[Any, Any]] = {}
        self._refs: dict[Any, Task] = {}
        self.remote = ray.remote(num_cpus=cpus_per_job, num_gpus=gpus_per_job,
                                 max_retries=0)(_ray_grade)
        self.check = ray.remote(num_cpus=0, max_retries=0)(_ray_node_facts)
        self.threads = max(1, int(cpus_per_job))

    def _bundle(self, task: Task) -> tuple[Any, Any]:
        """The task's pack as (`Bundle`, the archive's object ref), put once per batch."""
        from grader.batch.ship import pack_bundle

        key = (task.pack_root, task.data)
        if key not in self._bundles:
            archive, bundle = pack_bundle(task.pack_root, task.data)
            self._bundles[key] = (bundle, self.ray.put(archive))
        return self._bundles[key]

    def run(self, tasks: Sequence[Task]) -> Iterator[dict[str, Any]]:
        """Results in completion order; "started" as each task is handed to Ray (Ray
        schedules it on the cluster as resources allow). Nodes not seen before are
        checked first (`check_nodes`), so a `ClusterError` comes before any task."""
        from grader.batch.ship import make_parcel
        from grader.batch.work import _pack

        refs: dict[Any, Task] = {}
        self._refs = refs
        if not tasks:
            return
        self.check_nodes(tasks[0])
        for t in tasks:
            bundle, archive = self._bundle(t)
            folder = t.extra.get("folder")
            files = (_pack(t).student_files(Path(folder), Path(t.notebook))
                     if folder and t.notebook else None)
            refs[self.remote.remote(t, make_parcel(t, files), bundle, archive,
                                    self.threads)] = t
            yield {"key": t.key, "event": "started"}
        while refs:
            done, _ = self.ray.wait(list(refs), num_returns=1)
            for ref in done:
                task = refs.pop(ref)
                try:
                    yield self.ray.get(ref)
                except self.ray.exceptions.RayError as exc:  # lost worker or node
                    yield {"key": task.key, "error": f"{type(exc).__name__}: {exc}"[:500],
                           "infrastructure": True}

    def _nodes(self) -> list[dict[str, Any]]:
        """The live nodes that can take a task of `cpus` CPUs and `gpus` GPUs."""
        return [n for n in self.ray.nodes() if n.get("Alive")
                and n["Resources"].get("CPU", 0) >= self.cpus
                and n["Resources"].get("GPU", 0) >= self.gpus]

    def check_nodes(self, task: Task) -> None:
        """Ask every node not yet checked that can take a task what `node_facts` finds
        there, and compare with the driver's: raise `ClusterError` naming each node that
        would not grade as the driver expects (nothing has run yet)."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        from grader.batch.ship import node_facts

        nodes = self._nodes()
        if not nodes:  # Ray would hold the tasks forever, waiting for such a node
            raise ClusterError(
                f"no live node of the cluster has {self.cpus:g} CPU(s) and {self.gpus:g} "
                "GPU(s) for a submission (--cpus-per-job, --gpus-per-job; `ray status`)")
        todo = [n for n in nodes if n["NodeID"] not in self.checked]
        if not todo:
            return
        bundle, archive = self._bundle(task)
        expected = node_facts(task)
        refs = {}
        for node in todo:
            remote = self.check.options(scheduling_strategy=NodeAffinitySchedulingStrategy(
                node["NodeID"], soft=False))
            refs[remote.remote(task, bundle, archive)] = node
        ready, late = self.ray.wait(list(refs), num_returns=len(refs),
                                    timeout=self.check_timeout)
        problems: list[str] = []
        for ref in late:
            self.ray.cancel(ref, force=True)
            problems.append(f"{_node_name(refs[ref])}: did not answer the start-up check in "
                            f"{self.check_timeout:g} s")
        alive = {n["NodeID"] for n in self.ray.nodes() if n.get("Alive")}
        for ref in ready:
            node = refs[ref]
            try:
                facts = self.ray.get(ref)
            except self.ray.exceptions.RayTaskError as exc:  # it ran there and failed
                cause = str(exc).strip().splitlines()[-1] if str(exc).strip() else repr(exc)
                problems.append(f"{_node_name(node)}: the check failed there ({cause}); is "
                                "the same grader installed on that node?")
                continue
            except self.ray.exceptions.RayError as exc:
                if node["NodeID"] not in alive:
                    continue  # died since it was listed: it takes no task
                problems.append(f"{_node_name(node)}: the check could not run there "
                                f"({type(exc).__name__})")
                continue
            found = compare_facts(expected, facts)
            problems += [f"{_node_name(node, facts)}: {p}" for p in found]
            if not found:
                self.checked[node["NodeID"]] = facts
        if problems:
            raise ClusterError(
                f"{len(problems)} problem(s) on the cluster's nodes; nothing was graded "
                "(docs/batch.md says what each node needs):\n  - " + "\n  - ".join(problems))

    def close(self) -> None:
        if self.started and self.ray.is_initialized():
            self.ray.shutdown()

    def abort(self, grace: float = 1.5) -> None:
        """Stop now (Ctrl-C): cancel this batch's tasks, forcefully, then close."""
        for ref in list(self._refs):
            with contextlib.suppress(Exception):  # already finished or gone
                self.ray.cancel(ref, force=True)
        self.close()


def _refused_token(exc: BaseException) -> bool:
    """Whether joining failed on the token. Ray 2.60 retries for about 20 s, then raises
    a ConnectionError whose cause's message holds the GCS's `InvalidAuthToken`."""
    seen: BaseException | None = exc
    while seen is not None:
        if type(seen).__name__ == "AuthenticationError" or "InvalidAuthToken" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _node_name(node: dict[str, Any], facts: dict[str, Any] | None = None) -> str:
    host = f"host {facts['host']}, " if facts and facts.get("host") else ""
    return f"node {node['NodeID'][:8]} ({host}{node.get('NodeManagerAddress', '?')})"


def compare_facts(expected: dict[str, Any], facts: dict[str, Any]) -> list[str]:
    """What on a node differs from the driver in a way that changes a run, each said with
    the path or value to fix (an empty list: the node grades as the driver would)."""
    problems = list(facts.get("problems") or [])
    if facts.get("sandbox"):
        problems.append(f"the sandbox cannot run: {facts['sandbox']} (install bubblewrap there)")
    if (facts.get("grader"), facts.get("code")) != (expected.get("grader"), expected.get("code")):
        problems.append(f"it runs grader {facts.get('grader')} (code {facts.get('code')}), the "
                        f"driver {expected.get('grader')} (code {expected.get('code')}): install "
                        "the same grader on every node")
    cache = facts.get("hf_cache") or {}
    if (expected.get("hf_cache") or {}).get("exists") and not cache.get("exists"):
        problems.append(f"the model cache {cache.get('path')} is missing: it must be at that "
                        "path on every node (a shared mount, or `grader models fetch ... "
                        f"--hf-cache {cache.get('path')}` run there)")
    else:
        for model, revision in (expected.get("models") or {}).items():
            there = (facts.get("models") or {}).get(model)
            if there != revision:
                problems.append(
                    f"model {model} in {cache.get('path')}: "
                    + (f"revision {there}, the driver's {revision}" if there and revision
                       else "missing there" if revision else "missing on the driver"))
    if facts.get("environment") and facts.get("environment") != expected.get("environment"):
        problems.append(f"pack environment {facts.get('environment')}, the driver's "
                        f"{expected.get('environment')}: build both from the same lock")
    if not problems and facts.get("execution") != expected.get("execution"):
        problems.append("what a run depends on differs from the driver (execution digest "
                        f"{facts.get('execution', '')[:12]}, the driver's "
                        f"{expected.get('execution', '')[:12]}): the same grader, Python, "
                        "pack environment and model cache on every node")
    return problems


def _ray_node_facts(task: Task, bundle: Any, archive: bytes) -> dict[str, Any]:
    from grader.batch.ship import node_facts

    return node_facts(task, bundle, archive)


def _ray_grade(task: Task, parcel: Any, bundle: Any, archive: bytes,
               threads: int) -> dict[str, Any]:
    """Grade a shipped task: the pack unpacked once per process, the submission written
    to a private folder (removed after); the record names the driver's paths."""
    import shutil
    import tempfile

    from grader.batch.ship import scratch, shipped_task, unpack_bundle, unpack_parcel

    set_threads(threads)
    shipped = shipped_task(task, bundle, unpack_bundle(archive, bundle.digest))
    folder = Path(tempfile.mkdtemp(prefix="submission-", dir=scratch()))
    try:
        local, files = unpack_parcel(shipped, parcel, folder)
        result = grade_task(local, files=files)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    record = result.get("record")
    if record is not None:  # as a local grading names it, not the worker's copy
        record.setdefault("submission", {})["path"] = task.notebook or None
    import ray

    result["node"] = ray.get_runtime_context().get_node_id()  # the event log says where
    return result
