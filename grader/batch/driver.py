"""The batch driver: plan, reuse what is done, run the rest, write every result at once.

Output folder (`--out`):

- `<key>.json`: one GradeRecord per submission, written atomically (temp + rename);
- `failed/<key>.json`: submissions the grader itself could not grade after its retry;
- `events.jsonl`: an append-only log (one JSON object per line, flushed and synced);
- `manifest.json`: versions (grader, pack, environment), the seed, the engine;
- `.runs/<cache key>/`: each stored run, which a rubric change re-scores.

A `kill -9` of the driver loses at most the submissions in flight: on the next run,
whatever has a record and a stored run under the same key is skipped, a record
scored under an older rubric is re-scored from its stored run, and only the rest is
executed. The seed is kept in the manifest, so the rest sees the same hidden inputs.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from grader import __version__
from grader.batch.keys import (
    execution_digest,
    pack_file_digest,
    rubric_digest,
    submission_key,
)
from grader.batch.store import load_run, save_run
from grader.batch.work import Task
from grader.intake.item import Item, item_files
from grader.pack import Pack
from grader.record import environment, write_atomic

MANIFEST = "manifest.json"
EVENTS = "events.jsonl"
FAILED = "failed"
INFRA_RETRIES = 1
"""Automatic retries of a submission whose worker or grader failed; the student's own
errors are results, never retried."""


@dataclass
class BatchOptions:
    out: Path
    mode: str = "grade"
    seed: int | None = None
    quick: bool = False
    hf_cache: Path | None = None
    sandbox: str = "auto"
    limits: dict[str, Any] = field(default_factory=dict)
    data: dict[str, Path] = field(default_factory=dict)
    gpus: tuple[str, ...] | None = None


@dataclass
class BatchResult:
    records: dict[str, dict[str, Any]]
    failed: dict[str, dict[str, Any]]
    executed: list[str]
    cached: list[str]
    rescored: list[str]
    seed: int | None
    seconds: float


class BatchInterrupted(Exception):
    """Ctrl-C stopped the batch: `result` holds what was done, `left` the keys not graded.

    Every record written stays; running the same command again resumes (only `left`
    runs, with the seed kept in the manifest)."""

    def __init__(self, result: BatchResult, left: list[str]) -> None:
        super().__init__(f"interrupted with {len(left)} submissions left")
        self.result, self.left = result, left


class Log:
    """events.jsonl: appended, flushed and synced line by line, so a crash keeps it."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = path.open("a", encoding="utf-8")

    def __call__(self, event: str, **fields: Any) -> None:
        row = {"time": datetime.now(UTC).isoformat(timespec="milliseconds"), "event": event,
               **fields}
        self.fh.write(json.dumps(row, default=str) + "\n")
        self.fh.flush()
        os.fsync(self.fh.fileno())

    def close(self) -> None:
        self.fh.close()


def _batch_seed(options: BatchOptions) -> int | None:
    """The seed given, else the one an earlier run of this batch kept, else a fresh one."""
    if options.mode != "grade":
        return None
    if options.seed is not None:
        return options.seed
    manifest = options.out / MANIFEST
    if manifest.is_file():
        kept = json.loads(manifest.read_text(encoding="utf-8")).get("seed")
        if isinstance(kept, int):
            return kept
    return secrets.randbits(63)


def pack_manifest(pack: Pack, **digests: str) -> dict[str, Any]:
    """The manifest's `pack`: which pack graded the batch, where it was, which pack.toml.

    `root` (the pack folder, absolute) and `pack_toml_sha256` let `grader report` find
    that pack again and refuse another one of the same id (other visibility rules)."""
    return {"id": pack.id, "version": pack.version, "fingerprint": pack.fingerprint(),
            **digests, "root": str(Path(pack.root).resolve()),
            "pack_toml_sha256": pack_file_digest(pack)}


def write_manifest(out: Path, pack: Pack, *, mode: str, quick: bool, seed: int | None,
                   engine: str, jobs: int | None, **digests: str) -> None:
    write_atomic(out / MANIFEST, json.dumps({
        "schema": "transformer-grader/batch/1", "grader": __version__,
        "pack": pack_manifest(pack, **digests),
        "mode": mode, "quick": quick, "seed": seed, "engine": engine, "jobs": jobs,
        "environment": environment(),
        "written_at": datetime.now(UTC).isoformat(timespec="seconds")}, indent=2))


def intake_entries(intake: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The intake's decisions as `submission.reports` entries (marked `intake`): which
    notebook was graded and why, which were not, and a late mark."""
    if not intake:
        return []
    graded, why = intake.get("handed_in") or "", intake.get("picked") or ""
    late = ["handed in late (the LMS marked it late)"] if intake.get("late") else []
    entries = []
    if graded and (why or late):
        entries.append({"name": graded, "format": "notebook", "intake": True,
                        "notes": ([f"graded: {why}"] if why else ["graded"]) + late})
    elif late:
        entries.append({"name": "submission", "format": "", "intake": True, "notes": late})
    for name in intake.get("ignored") or []:
        note = (f"not graded: {graded} was ({why})" if graded
                else f"not graded: {intake.get('problem') or 'no notebook was picked'}")
        entries.append({"name": name, "format": "notebook", "intake": True, "notes": [note]})
    for unpacked in intake.get("unpacked") or []:  # "A3.zip: 5 files taken in"
        name, _, what = str(unpacked).rpartition(": ")
        entries.append({"name": name or str(unpacked), "format": "zip", "intake": True,
                        "notes": [f"the student's own zip, unpacked: {what}"]})
    for refused in intake.get("refused") or []:  # "name: why", from the zip's unpacking
        name, _, reason = str(refused).rpartition(": ")
        entries.append({"name": name or str(refused), "format": "", "intake": True,
                        "notes": [f"not taken in from the zip: {reason or 'refused'}"]})
    return entries


def with_intake(record: dict[str, Any], intake: dict[str, Any] | None) -> bool:
    """Put the intake's entries in `record` (replacing earlier ones); True if it changed."""
    sub = record.setdefault("submission", {})
    kept = [r for r in sub.get("reports") or [] if not r.get("intake")]
    new = kept + intake_entries(intake)
    if new == (sub.get("reports") or []):
        return False
    sub["reports"] = new or None
    if sub["reports"] is None:
        del sub["reports"]
    return True


def preflight(pack: Pack, mode: str, seed: int | None) -> None:
    """Each kind's preflight (`grader.validate.preflight`), here, before any worker
    starts: an author's slip is one PackError naming the case, not the same failure
    retried for every student of the class."""
    if mode != "grade" or pack.is_public:
        return
    from grader.validate import preflight as pack_preflight

    pack_preflight(pack, seed if seed is not None else 0)


def _existing(out: Path, key: str) -> dict[str, Any] | None:
    path = out / f"{key}.json"
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return None  # a torn file cannot exist (atomic writes), but never trust one


def run_batch(pack: Pack, items: Sequence[Item], options: BatchOptions, engine: Any, *,
              on_progress: Callable[[str, str, dict[str, Any]], None] | None = None,
              ) -> BatchResult:
    """Grade `items` into `options.out` with `engine`, reusing what is already there."""
    from grader.grade import score_run
    from grader.models.cache import cache_dir

    started = time.perf_counter()
    out = options.out
    out.mkdir(parents=True, exist_ok=True)
    progress = on_progress or (lambda _kind, _key, _info: None)
    seed = _batch_seed(options)
    hf_cache = cache_dir(options.hf_cache)
    execution = execution_digest(pack, hf_cache)
    rubric = rubric_digest(pack)
    write_manifest(out, pack, mode=options.mode, quick=options.quick, seed=seed,
                   engine=getattr(engine, "name", "?"), jobs=getattr(engine, "jobs", None),
                   rubric=rubric, execution=execution)
    log = Log(out / EVENTS)
    log("batch-start", submissions=len(items), seed=seed, engine=getattr(engine, "name", "?"))
    taken = {item.key: item_files(pack, item) for item in items}
    keys = {item.key: submission_key(execution, item.notebook, item.reports, mode=options.mode,
                                     seed=seed, quick=options.quick,
                                     files=taken[item.key].digest() if taken[item.key].taken
                                     else "") for item in items}
    records: dict[str, dict[str, Any]] = {}
    failed: dict[str, dict[str, Any]] = {}
    cached, rescored, to_run = [], [], []
    by_key = {item.key: item for item in items}

    def finish(key: str, record: dict[str, Any], retries: int) -> None:
        with_intake(record, by_key[key].intake)
        record["assignment"]["rubric"] = rubric
        record["run"]["cache_key"] = keys[key]
        record["run"]["retries"] = retries
        write_atomic(out / f"{key}.json", json.dumps(record, indent=2))
        (out / FAILED / f"{key}.json").unlink(missing_ok=True)
        records[key] = record

    def task(item: Item) -> Task:
        shown = item.notebook or (item.reports[0] if item.reports else None)
        return Task(key=item.key, name=shown.name if shown else item.key,
                    notebook=str(item.notebook) if item.notebook else "",
                    pack_root=os.path.abspath(pack.root), mode=options.mode, seed=seed,
                    quick=options.quick, hf_cache=str(hf_cache), sandbox=options.sandbox,
                    limits=tuple(sorted(options.limits.items())),
                    data=tuple(sorted((k, os.path.abspath(v)) for k, v in options.data.items())),
                    reports=tuple(str(r) for r in item.reports),
                    gpus=options.gpus, extra={
                        **({"problem": item.problem} if item.problem else {}),
                        **({"folder": str(taken[item.key].folder)}
                           if taken[item.key].folder is not None else {})})

    attempts: dict[str, int] = {}
    executed: list[str] = []
    try:
        for item in items:
            key = keys[item.key]
            record = _existing(out, item.key)
            current = (record is not None and record.get("run", {}).get("cache_key") == key
                       and record.get("assignment", {}).get("rubric") == rubric)
            stored = None if current else load_run(out, key)
            if current:
                assert record is not None
                if with_intake(record, item.intake):  # the download changed, not the notebook
                    write_atomic(out / f"{item.key}.json", json.dumps(record, indent=2))
                records[item.key] = record
                cached.append(item.key)
                log("cached", submission=item.key, score=record.get("score"))
                progress("cached", item.key, record)
            elif stored is not None:
                quick = options.quick or options.mode == "check"
                fresh = score_run(pack, item.notebook, stored, mode=options.mode, seed=seed,
                                  quick=quick, hf_cache=hf_cache, reports=item.reports,
                                  files=taken[item.key]).to_dict()
                finish(item.key, fresh, record.get("run", {}).get("retries", 0) if record else 0)
                rescored.append(item.key)
                log("rescored", submission=item.key, score=fresh["score"])
                progress("rescored", item.key, fresh)
            else:
                to_run.append(item)

        if to_run:
            preflight(pack, options.mode, seed)
        queue = [task(item) for item in to_run]
        while queue:
            retry: list[Task] = []
            tasks = {t.key: t for t in queue}
            for result in engine.run(queue):
                key = result["key"]
                tries = attempts.get(key, 0)
                if result.get("event") == "started":  # a worker took it: it runs now
                    log("start", submission=key, attempt=tries)
                    progress("started", key, {})
                    continue
                if "error" in result:
                    if tries < INFRA_RETRIES:
                        attempts[key] = tries + 1
                        retry.append(tasks[key])
                        log("retry", submission=key, error=result["error"])
                        progress("retry", key, result)
                        continue
                    info = {"submission": key, "status": "failed", "error": result["error"],
                            "retries": tries, "notebook": str(by_key[key].notebook)}
                    write_atomic(out / FAILED / f"{key}.json", json.dumps(info, indent=2))
                    failed[key] = info
                    log("failed", submission=key, error=result["error"], retries=tries)
                    progress("failed", key, info)
                    continue
                save_run(out, keys[key], result["run_files"])
                finish(key, result["record"], tries)
                executed.append(key)
                log("done", submission=key, score=result["record"]["score"],
                    seconds=result["seconds"],
                    **({"node": result["node"]} if result.get("node") else {}))
                progress("done", key, result["record"])
            queue = retry
    except KeyboardInterrupt:
        # Ctrl-C: stop the workers now, keep every record written, say what is left
        abort = getattr(engine, "abort", None)
        if abort is not None:
            abort()
        else:
            engine.close()
        left = [item.key for item in items if item.key not in records and item.key not in failed]
        seconds = round(time.perf_counter() - started, 3)
        log("batch-interrupted", graded=len(records), failed=len(failed), left=len(left),
            seconds=seconds)
        log.close()
        ordered = {item.key: records[item.key] for item in items if item.key in records}
        raise BatchInterrupted(BatchResult(ordered, failed, executed, cached, rescored, seed,
                                           seconds), left) from None
    except BaseException as exc:  # the grader's own failure: close, log it, raise
        engine.close()
        log("batch-end", graded=len(records), failed=len(failed), error=type(exc).__name__,
            seconds=round(time.perf_counter() - started, 3))
        log.close()
        raise
    engine.close()
    log("batch-end", graded=len(records), failed=len(failed),
        seconds=round(time.perf_counter() - started, 3))
    log.close()
    ordered = {item.key: records[item.key] for item in items if item.key in records}
    return BatchResult(ordered, failed, executed, cached, rescored, seed,
                       round(time.perf_counter() - started, 3))
