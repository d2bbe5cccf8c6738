"""The check-kind protocol: one kind, one module, one object the rest of the grader asks.

Why: a kind used to be spread over the pack loader (its keys), the grading loop (an
if-chain and the probe planning), the cache key, `pack validate` and the report
explainers, and a new kind had to touch all six. Now each module of `grader.checks`
that defines `KIND` (a `Kind`) is the whole of its kind; `grader.checks.registry`
finds them, and those places iterate over it. `docs/architecture.md` walks through a
small example kind.

A kind says:
- `Settings`: a pydantic model of its rubric keys (`extra="forbid"`: a misspelled key
  is an error naming the key and the nearest known one);
- `private`: settings that hold the answer key, dropped from a public pack;
- `probes()`: what it asks of the student's kernel (grade.py writes the inputs);
- `execution()`: the settings that change a run (they enter the cache key; the rest
  only change scoring, so a stored run is re-scored instead of re-executed);
- `score()`: the `CheckResult` of one submission;
- `explain()`: its evidence laid out for the report templates;
- `validate()`: what `grader pack validate` checks for its checks;
- `preflight()`: an author's slip found once, before any notebook runs (a batch's or
  `pack validate`'s), instead of once per student;
- `label`, `flags`, `noted`: how a student reads it, the `record.flags` it may raise,
  and which of those a self-check prints as notes;
- `needs_models`, `by_ta`, `evidence_of`: what other stages ask of it by capability
  (the model cache, a TA, the evidence similarity and `grader answers` read), so none of
  them names a kind;
- `printed_source()`, `run_facts()`, `student_modules()`: what it offers the printed
  cross-checks, `record.run` and the pack loader.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict

from grader.checks import CheckResult

if TYPE_CHECKING:
    from grader.pack import Check, Pack, Question
    from grader.record import QuestionResult
    from grader.run.result import ProbePayload, RunResult
    from grader.written import Reports


class Table(BaseModel):
    """A table of a rubric, typed: a misspelled key is refused, a default is declared once
    in the model and read as an attribute."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def written(self) -> dict[str, Any]:
        """The keys the rubric wrote, as JSON values (no defaults filled in)."""
        return self.model_dump(exclude_unset=True)


class Settings(Table):
    """A check's settings as the rubric writes them (`kind`, `gate`, `weight` aside).

    `Check.settings` is the kind's model itself (`check.settings.atol`); `written()` is
    what the rubric wrote, what enters a cache key."""


@dataclass(frozen=True)
class Probe:
    """One request to the kernel: run probe function `function` on `cases`.

    Requests with the same `id` are sent once (several checks can share a model's
    predictions); the payload comes back under that id.
    """

    id: str
    function: str
    cases: list[dict[str, Any]]


@dataclass
class Finding:
    """One line of `grader pack validate`."""

    name: str
    ok: bool
    detail: str


@dataclass
class Context:
    """What the checks of one submission share, while planning and while scoring.

    `run` is None while planning. `cache` holds what a kind computes once per
    submission (hidden cases and their expected outputs, a parsed notebook); `flags`
    collects what kinds mark for a TA (`record.flags[name]`).
    """

    pack: Pack
    mode: str  # grade | check
    seed: int
    run: RunResult | None = None
    notebook: Any = None
    """The executed (or saved) notebook, or None when a report alone was handed in."""
    executed: bool = True
    quick: bool = False
    reports: Reports | None = None
    logs: list[Path] = field(default_factory=list)
    hf_cache: Path | None = None
    gpus: tuple[str, ...] | None = None
    """The GPUs the run's kernels were given (`--gpus`): work the grader does for the run
    after it (Part 2's clean evaluator) gets the same; None: `CUDA_VISIBLE_DEVICES`."""
    cache: dict[Any, Any] = field(default_factory=dict)
    flags: dict[str, list[Any]] = field(default_factory=dict)

    def once(self, key: Any, make: Callable[[], Any]) -> Any:
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]


NOT_EXECUTED = "Not executed (--no-execute): this check calls your code, so it needs a run."


class Kind:
    """Base of every check kind; override what the kind has, keep the defaults elsewhere."""

    name: ClassVar[str]
    Settings: ClassVar[type[Settings]]
    private: ClassVar[tuple[str, ...]] = ()
    execution_keys: ClassVar[tuple[str, ...]] = ()
    """Settings that change what the kernel is asked; `execution()` returns them."""
    template: ClassVar[str | None] = None
    """The report template block its evidence uses (default: the kind's own name)."""
    templates: ClassVar[Path | None] = None
    """A folder of its own report partials (`report/kinds/<template>.html.j2`, `.md.j2`),
    for a kind that lives outside this repository; None: they are in `templates/`."""
    evidence_doc: ClassVar[str] = ""
    """What its evidence holds, for docs/records.md ("Evidence by check kind")."""
    label: ClassVar[str] = ""
    """The kind as a student reads it in a report ("your code's outputs"); empty: its name."""
    flags: ClassVar[tuple[str, ...]] = ()
    """The names under `record.flags` this kind may raise (`ctx.flags[name]`): a flag of a
    name no kind declares is an error, not silently dropped."""
    noted: ClassVar[tuple[str, ...]] = ()
    """Which of its `flags` a student's self-check prints as notes (each flag a dict with
    `question` and `message`): the ones that tell a student something to fix."""
    run_modules: ClassVar[tuple[str, ...]] = ()
    """Modules besides its own (dotted names) whose code shapes what the kernel is asked
    (a model's weights cut into shards for the probe channel): they enter the batch cache
    key's code digest with the kind's module."""
    needs_models: ClassVar[bool] = False
    """Its checks load the pack's `[models] required`: a run makes sure the model cache
    holds them before any kernel starts, and a self-check with tiny models says so."""
    by_ta: ClassVar[bool] = False
    """A TA grades its checks: a question of such checks alone awaits a TA, and the
    solution owes no points on it in `pack validate`."""
    students_seed: ClassVar[bool] = False
    """Its evidence's `seed` is the student's own (a training seed read from their logs),
    which their report shows; any other kind's `seed` is grading machinery and is
    scrubbed from a student's view (grader/report/visibility.py)."""
    evidence_of: ClassVar[str] = ""
    """What its evidence holds that stages outside the grading loop read, by capability
    rather than by kind name: "outputs" (per-case rows of probe outputs against the
    reference, read by similarity's behavioural pass), "answers" (one written answer
    judged against a key, read by `grader answers`, the service's self-check and
    similarity's written pass); "": nothing of that sort."""

    def probes(self, check: Check, question: Question, ctx: Context) -> list[Probe]:
        return []

    def probe_functions(self, check: Check) -> list[str]:
        """Names the pack's probe source must define for this check."""
        return []

    def execution(self, check: Check) -> dict[str, Any]:
        written = check.settings.written()
        return {k: written.get(k) for k in self.execution_keys}

    def score(self, check: Check, question: Question, ctx: Context) -> CheckResult:
        raise NotImplementedError(f"check kind {self.name!r} does not score")

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        return {"rows": generic_rows(check.get("evidence"))}

    def validate(self, pack: Pack, checks: list[tuple[Question, Check]]) -> list[Finding]:
        return []

    def preflight(self, ctx: Context, checks: list[tuple[Question, Check]]) -> None:
        """Compute once what every submission's grading would (hidden cases and their
        expected outputs, say), raising `PackError` for an author's slip: a batch calls it
        before any worker starts and `pack validate` before any notebook runs, so a slip
        is one error naming the case, not the same failure retried for every student."""

    def printed_source(self, check: Check, question: Question, ctx: Context
                       ) -> tuple[ProbePayload | None, dict[str, Any]] | None:
        """The probe payload and expected outputs that a question's printed values are
        cross-checked against (`grader.checks.printed`); None: this check offers none."""
        return None

    def run_facts(self, run: RunResult, questions: list[QuestionResult]) -> dict[str, Any]:
        """Keys of `record.run` this kind fills in from the run and the scored questions
        (the fine-tuned models side by side, the device they ran on); {}: none."""
        return {}

    def student_modules(self, check: Check) -> list[str]:
        """The student's modules (paths beside the notebook) a check reads: the pack's
        `[assignment] files` must take each, or the pack does not load."""
        return []

    def tolerances(self, question_id: str, check: Check) -> dict[str, float]:
        """Probe id -> the absolute tolerance its outputs are judged at, for a kind whose
        `evidence_of` is "outputs" (similarity weighs near-equal wrong outputs by it)."""
        return {}


def short(value: Any, limit: int = 160) -> str:
    """A one-line rendering of any JSON value, cut to `limit` characters."""
    if isinstance(value, float):
        text = f"{value:.4g}"
    elif isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(v, int) for v in value):
        text = "(" + ", ".join(map(str, value)) + ")"
    else:
        text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def generic_rows(data: Any, skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(key, value) rows of a dict's unknown keys; a non-dict is one row."""
    if isinstance(data, dict):
        return [(str(k), short(v)) for k, v in data.items() if k not in skip]
    if data in (None, [], {}):
        return []
    return [("evidence", short(data))]
