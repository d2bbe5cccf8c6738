"""``grader grade`` (a TA, hidden inputs) and ``grader check`` (a student, demo inputs).

Exit codes: 0 when every submission has a record, whatever its score (a low grade is
a result, not a failure; so is a file that is no readable notebook, a truncated upload
or a stray .txt: its record says why, every question `error` with 0 points); 1 when
the grader could not grade one (no sandbox, a crash of the grader itself, after one
retry); 2 for bad usage or a broken pack; 130 after Ctrl-C (the records written stay;
the same command resumes).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from grader.cli.options import (
    STATUS_STYLE,
    AssignmentOpt,
    DataOpt,
    GpusOpt,
    HfCacheOpt,
    PacksDirOpt,
    SandboxOpt,
    _gpus,
    _with_data,
)
from grader.models.cache import ModelCacheError, cache_dir
from grader.pack import Pack, resolve_pack
from grader.pack.expected import mark_expected
from grader.record import GradeRecord, needs_a_ta, write_atomic
from grader.run.sandbox import bwrap_works

PREVIEW_NOTE = """This folder is the TA's preview of the batch, written by `grader grade`:
the class summary (summary.html) and draft reports, before any manual grading.
Do not hand it to students. What goes to students is what

    grader report {out} --out feedback [--manual feedback/manual-sheet.csv]

writes: feedback/students/ (one report per student) and, for Moodle,
feedback/moodle-feedback.zip. See docs/reports.md.
"""
EXIT_INTERRUPTED = 130
"""Ctrl-C, as shells report a process stopped by SIGINT (128 + 2)."""
WIDE_TABLE = 8
"""Up to this many questions get a column each; more would not fit a terminal."""


def _flags(record: GradeRecord, pack: Pack | None = None) -> str:
    # manual questions are not flags: they have their own column ("TA" cells when wide);
    # errors of cells the pack expects to fail (data the grader lacks) are none either
    return "; ".join(needs_a_ta(mark_expected(record.to_dict(), pack), manual=False))


def _table(records: list[GradeRecord], title: str, keys: list[str] | None = None,
           pack: Pack | None = None) -> Table:
    """Scores per question when they fit; else what each submission lost and what waits.

    `keys` label the rows (the record names, which intake makes the students' keys): a
    student who handed in only a report or a stray file is a student, not `report.md`."""
    table = Table(title=title)
    table.add_column("submission", overflow="fold")
    ids = [q.id for q in records[0].questions] if records else []
    wide = len(ids) <= WIDE_TABLE
    for qid in ids if wide else ():
        table.add_column(qid, justify="right")
    table.add_column("score", justify="right")
    if not wide:
        table.add_column("lost points on", overflow="fold")
        table.add_column("for a TA / not graded", overflow="fold")
    table.add_column("flags", overflow="fold")
    for n, record in enumerate(records):
        if wide:
            cells = []
            for q in record.questions:
                style = STATUS_STYLE.get(q.status, "")
                shown = "TA" if q.score is None else f"{q.score:g}/{q.max:g}"
                cells.append(f"[{style}]{shown}[/]")
        else:
            lost = [q.id for q in record.questions if q.score is not None and q.score < q.max]
            waiting = [q.id for q in record.questions if q.score is None]
            cells = [f"[red]{' '.join(lost)}[/]" if lost else "[green]none[/]",
                     f"[cyan]{' '.join(waiting)}[/]"]
        score = f"{record.score:g}/{record.max_score:g}"
        label = keys[n] if keys is not None else record.submission["name"]
        table.add_row(label, *(cells if wide else ()), score,
                      *(() if wide else cells), _flags(record, pack))
    return table


def _limits(items: list[str] | None) -> dict[str, float]:
    from grader.run.limits import Limits

    known = set(Limits().to_dict())
    out: dict[str, float] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or key not in known or key == "tag_timeouts":
            raise typer.BadParameter(f"expected NAME=NUMBER with NAME one of "
                                     f"{', '.join(sorted(known - {'tag_timeouts'}))}; "
                                     f"got {item!r}", param_hint="--limit")
        try:
            out[key] = int(value) if value.isdigit() else float(value)
        except ValueError:
            raise typer.BadParameter(f"{key}: {value!r} is not a number",
                                     param_hint="--limit") from None
    return out


def _engine(engine: str, jobs: int, ray_address: str | None, cpus: float, gpus: float,
            warm: bool = False):
    from grader.batch import LocalEngine, RayEngine

    if jobs < 1:
        raise typer.BadParameter("must be at least 1", param_hint="--jobs")
    if engine == "local":
        if gpus:
            raise typer.BadParameter("GPUs per job need --engine ray", param_hint="--gpus-per-job")
        return LocalEngine(jobs, warm=1 if warm else 0)
    if warm:
        raise typer.BadParameter("warm kernels need --engine local", param_hint="--warm")
    if engine == "ray":
        try:
            return RayEngine(jobs, ray_address, cpus_per_job=cpus, gpus_per_job=gpus)
        except ImportError:
            raise typer.BadParameter("Ray is not installed: pip install -e '.[ray]'",
                                     param_hint="--engine") from None
    raise typer.BadParameter(f"{engine!r}: use local or ray", param_hint="--engine")


def grade(
    submissions: Annotated[list[str], typer.Argument(
        help="Notebooks, folders of notebooks, globs, or an LMS download zip (Moodle, Canvas).")],
    assignment: AssignmentOpt,
    out: Annotated[Path, typer.Option(help="Folder for the records (one JSON per submission), "
                                           "the event log, the manifest and stored runs.")],
    packs_dir: PacksDirOpt = Path("reference"),
    seed: Annotated[int | None, typer.Option(
        help="Seed of the hidden inputs (default: the batch's earlier seed from --out, else a "
             "fresh random one, kept in the manifest and records).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Submissions graded at once.")] = 1,
    engine: Annotated[str, typer.Option(help="local (worker processes) or ray.")] = "local",
    ray_address: Annotated[str | None, typer.Option(
        help="An existing Ray cluster (default: start a local one).")] = None,
    cpus_per_job: Annotated[float, typer.Option(help="Ray: CPUs per submission.")] = 1,
    gpus_per_job: Annotated[float, typer.Option(help="Ray: GPUs per submission.")] = 0,
    sandbox: SandboxOpt = "auto",
    quick: Annotated[bool, typer.Option(
        "--quick", help="Let the notebook fine-tune briefly (GRADER_QUICK=1); accuracy "
        "thresholds are then reported as not graded.")] = False,
    no_execute: Annotated[bool, typer.Option(
        "--no-execute", help="Grade the outputs saved in the notebooks; run and re-evaluate "
        "nothing (the record says so).")] = False,
    hf_cache: HfCacheOpt = None,
    data: DataOpt = None,
    gpus: GpusOpt = None,
    limit: Annotated[list[str] | None, typer.Option(
        "--limit", help="NAME=NUMBER: override one of the pack's limits, e.g. "
        "--limit cell_timeout=300 (names: grader/run/limits.py).")] = None,
    report: Annotated[bool, typer.Option(
        "--report/--no-report", help="Also write per-student reports and the class summary "
        "to OUT/reports (as `grader report` does).")] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the records as JSON.")] = False,
    warm: Annotated[bool, typer.Option(
        "--warm", help="Each worker keeps a warm sandboxed kernel ready (the pack's warm "
        "modules imported), started as the worker starts and replaced while "
        "each notebook runs and is scored; one kernel per notebook (docs/warm-kernels.md).")
    ] = False,
) -> None:
    """Grade submissions on hidden inputs; one record each in --out, reports, a table.

    A batch resumes: run the same command again after a crash and only what is missing
    runs; after a rubric change (points, tolerances) records are re-scored from the
    stored runs without executing anything.

    Examples: grader grade submissions/stat8021-a3/*.ipynb -a stat8021-a3 --out grades/ |
    grader grade moodle-download.zip -a stat8021-a3 --out grades -j 2 |
    grader grade subs/ -a stat8021-a3 --out grades --engine ray --gpus-per-job 1 |
    grader grade run/*.ipynb -a stat8021-a3 --out grades --no-execute
    """
    from grader.batch import BatchOptions, SourceError, collect, run_batch
    from grader.batch.driver import BatchInterrupted

    console = Console(stderr=True)
    pack = _with_data(resolve_pack(assignment, packs_dir), data)
    if pack.is_public:
        raise typer.BadParameter(f"{pack.root} is a public pack: use `grader check`",
                                 param_hint="--assignment")
    overrides = _limits(limit)
    notes: list[str] = []
    try:
        items = collect(submissions, out, notebook_name=pack.notebook, notes=notes)
    except SourceError as exc:
        raise typer.BadParameter(str(exc), param_hint="SUBMISSIONS") from None
    for note in notes:
        console.print(f"[yellow]note:[/] {escape(note)}", highlight=False)
    cache = cache_dir(hf_cache)
    if no_execute:
        records = _grade_saved(pack, items, out, seed, quick, cache, console)
        failed: dict[str, dict] = {}
    else:
        if sandbox != "none" and (reason := bwrap_works()):
            console.print(f"[red]error:[/] {reason}. Install bubblewrap, or run without "
                          "isolation with --sandbox none (only for your own notebook)")
            raise typer.Exit(1)
        from grader.checks.registry import needs_models

        if pack.models and any(needs_models(c.kind) for _, c in pack.checks()):
            try:
                from grader.models.cache import require

                require(cache, list(pack.models))
            except ModelCacheError as exc:
                raise typer.BadParameter(str(exc), param_hint="--hf-cache") from None
        from grader.env import require as require_env

        require_env(pack)  # a pack environment not built here stops the run now (exit 2)
        options = BatchOptions(out=out, seed=seed, quick=quick, hf_cache=cache, sandbox=sandbox,
                               limits=overrides, data=dict(pack.data) if data else {},
                               gpus=_gpus(gpus) if gpus is not None else None)
        runner = _engine(engine, jobs, ray_address, cpus_per_job, gpus_per_job, warm)
        try:
            with _Progress(console, len(items)) as bar:
                result = run_batch(pack, items, options, runner, on_progress=bar.update)
        except BatchInterrupted as stop:
            done = stop.result
            console.print(
                f"[yellow]interrupted:[/] {len(done.records)} of {len(items)} graded "
                f"({len(done.executed)} executed now, {len(done.cached)} already done, "
                f"{len(done.rescored)} re-scored), {len(stop.left)} left; records in "
                f"{escape(str(out))}. Run the same command again to resume: only the "
                f"{len(stop.left)} left will run, with the same seed.", highlight=False)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        records, failed = result.records, result.failed
        console.print(f"{len(result.executed)} executed, {len(result.cached)} already done, "
                      f"{len(result.rescored)} re-scored, {len(failed)} failed "
                      f"in {result.seconds:.1f} s (seed {result.seed}); "
                      + _throughput(len(result.executed), len(result.cached) +
                                    len(result.rescored), result.seconds))
    if report and records:
        from grader.report import render_batch

        # sources taken in by the intake (LMS zips, student folders) left their rosters
        # under OUT/intake/<stem>/: render_batch reads them from the folder
        batch = render_batch(records, out / "reports", pack=pack, roster=out)
        write_atomic(out / "reports" / "README.txt", PREVIEW_NOTE.format(out=out))
        console.print(f"TA preview (class summary, draft reports) in {escape(str(out))}/reports"
                      + (f" ({len(batch.warnings)} warnings)" if batch.warnings else "")
                      + f"; for students: grader report {escape(str(out))} --out feedback",
                      highlight=False)
    if as_json:
        typer.echo(json.dumps(list(records.values()), indent=2))
    else:
        Console().print(_table([GradeRecord.from_dict(r) for r in records.values()],
                               f"{pack.id}: {len(records)} graded, records in {out}",
                               keys=list(records), pack=pack))
        for key, info in failed.items():
            console.print(f"[red]failed:[/] {key}: {info['error']} "
                          f"(after {info['retries']} retry)")
    if failed:
        raise typer.Exit(1)


def _grade_saved(pack: Pack, items, out: Path, seed: int | None, quick: bool, cache: Path,
                 console: Console) -> dict[str, dict]:
    """--no-execute: nothing runs, so no pool; each record from the saved outputs.

    The same items as an executed batch, the same records but for running: what the
    intake decided (a tie, nothing handed in) is the record's problem, and its notes
    (which notebook was graded, late work) are in `submission.reports`."""
    from grader.batch.driver import with_intake, write_manifest
    from grader.batch.work import notebook_problem, unreadable_record
    from grader.grade import grade_notebook

    write_manifest(out, pack, mode="grade", quick=quick, seed=seed, engine="no-execute",
                   jobs=1)
    records = {}
    for i, item in enumerate(items, 1):
        problem = item.problem or (notebook_problem(item.notebook) if item.notebook else None)
        if problem:  # the student's file: a record that says so
            record = unreadable_record(pack, item.notebook, problem, quick=quick, name=item.key)
        else:
            record = grade_notebook(pack, item.notebook, mode="grade", seed=seed, quick=quick,
                                    execute=False, hf_cache=cache, reports=list(item.reports))
        data = record.to_dict()
        with_intake(data, item.intake)
        write_atomic(out / f"{item.key}.json", json.dumps(data, indent=2))
        records[item.key] = data
        console.print(f"[{i}/{len(items)}] {item.key}: {record.score:g}/{record.max_score:g} "
                      "(saved outputs)")
    return records


def _throughput(executed: int, reused: int, seconds: float) -> str:
    """Notebooks executed per minute; reused records (cached, re-scored) do not count."""
    if executed == 0:
        return "nothing executed (all cached)" if reused else "nothing executed"
    return f"{executed / max(seconds, 1e-9) * 60:.1f} executed/min"


class _Progress:
    """A live bar: done / failed / remaining, throughput and ETA (rich)."""

    def __init__(self, console: Console, total: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("failed {task.fields[failed]}"), TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=False)
        self.total, self.failed, self.done, self.executed = total, 0, 0, 0
        self.started = 0.0
        self.first_start: float | None = None
        self.task = self.progress.add_task("grading", total=total, failed=0, rate="")

    def __enter__(self) -> _Progress:
        import time

        self.started = time.perf_counter()
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.__exit__(*exc)

    def update(self, kind: str, key: str, info: dict) -> None:
        import time

        if kind == "started":
            if self.first_start is None:
                self.first_start = time.perf_counter()
            return
        if kind == "retry":
            self.progress.console.print(f"[yellow]retry:[/] {escape(key)}: "
                                        f"{escape(str(info.get('error')))}")
            return
        self.done += 1
        self.failed += kind == "failed"
        self.executed += kind == "done"
        # only notebooks that ran count: records reused from a cache took no time
        if self.executed and self.first_start is not None:
            minutes = max(time.perf_counter() - self.first_start, 1e-9) / 60
            rate = f"{self.executed / minutes:.1f} executed/min"
        else:
            rate = "all cached" if self.done > self.failed else ""
        label = {"cached": "already done", "rescored": "re-scored"}.get(kind, kind)
        score = info.get("score")
        self.progress.console.print(f"{escape(key)}: {label}" + (
            f" {score:g}/{info.get('max_score', 0):g}" if isinstance(score, int | float) else ""))
        self.progress.update(self.task, advance=1, failed=self.failed, rate=rate)
