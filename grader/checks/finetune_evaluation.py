"""Part 2's models judged from their exported weights, by the clean evaluator.

Once per submission: every model the pack's finetune checks name is put back together
from its probe shards (`finetune_export.collect`), and all of them go to one clean
evaluator process (`grader.evaluate.launch`) with the texts of every split the checks
need. The checks then read predictions by role (`test`, `hidden`, `external`) from here,
never from the student's kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from grader.checks import finetune_export
from grader.evaluate.launch import Job, ModelJob, ModelResult, Result, evaluator_box, run

if TYPE_CHECKING:
    from grader.checks.finetune import FinetuneSettings
    from grader.pack import Pack
    from grader.run.result import ProbePayload, RunResult

PREDICT_BATCH = 64


@dataclass
class Evaluated:
    """One model: what the probe said of it (`info`: names shown, never trusted), and what
    the clean evaluator found (`result`), or why it could not be evaluated (`why`)."""

    info: dict[str, Any] = field(default_factory=dict)
    result: ModelResult | None = None
    why: str = ""
    grader_failure: bool = False
    """The grader could not evaluate (no sandbox, evaluator crashed): not the student's loss
    to decide; the check says `error`."""
    run: dict[str, Any] = field(default_factory=dict)
    """The evaluator run's own facts (seconds, sandbox), for the record and benchmarks."""

    def predictions(self, role: str) -> tuple[list[int] | None, str]:
        """The predicted ids of one split, or None and why not."""
        if self.result is None:
            return None, self.why
        if self.result.status != "ok":
            return None, self.result.why
        found = self.result.predictions.get(role)
        if found is None:
            return None, f"no predictions for the {role} split"
        return found, ""


def roles(pack: Pack, mode: str) -> dict[str, str]:
    """Split role -> data role: the public test split always, the hidden split only when
    grading, the external items when the pack has them."""
    wanted = {"test": "test", "external": "external"}
    if mode == "grade":
        wanted["hidden"] = "hidden"
    return {role: data for role, data in wanted.items() if data in pack.data}


def models(pack: Pack) -> dict[str, FinetuneSettings]:
    """Model name -> the settings of its first finetune check that evaluates it."""
    from grader.checks.finetune import FinetuneSettings

    found: dict[str, FinetuneSettings] = {}
    for _question, check in pack.checks("finetune"):
        s = cast(FinetuneSettings, check.settings)
        if s.evaluate != "samples" and s.model:
            found.setdefault(s.model, s)
    return found


def _candidates(pack: Pack, hf_cache: Path | None, hint: object) -> list[str]:
    """The checkpoints a model may come from: the one its config names when the cache has
    it (a hint only: the weights must fit it, and the distance is taken from every
    checkpoint they fit), then the pack's, then the rest of the cache."""
    from grader.models.cache import cache_dir, cached_models

    cached = list(cached_models(cache_dir(hf_cache)))
    first = [str(hint)] if isinstance(hint, str) and hint in cached else []
    return list(dict.fromkeys([*first, *pack.models, *cached]))


def evaluate_all(pack: Pack, run_result: RunResult, payloads: dict[str, ProbePayload],
                 mode: str, hf_cache: Path | None, read_split: Any,
                 gpus: tuple[str, ...] | None = None) -> dict[str, Evaluated]:
    """Every model of the pack's checks, evaluated in one clean process (on `gpus`, the
    kernels' GPUs; None: those `CUDA_VISIBLE_DEVICES` names)."""
    wanted = models(pack)
    out: dict[str, Evaluated] = {}
    states: dict[str, dict[str, Any]] = {}
    jobs: dict[str, ModelJob] = {}
    for name, settings in wanted.items():
        exported = finetune_export.collect(name, payloads)
        out[name] = Evaluated(info=exported.info, why=exported.why)
        if exported.why:
            continue
        peft = {k: v for k, v in exported.info.items()
                if k.startswith(("lora_", "peft_"))} or None
        jobs[name] = ModelJob(
            model_type=str(exported.info.get("model_type") or ""),
            num_labels=len(pack.labels) or 2,
            candidates=_candidates(pack, hf_cache, exported.info.get("name_or_path")),
            batch_size=PREDICT_BATCH, max_length=settings.max_length,
            peft=peft)
        states[name] = exported.state
    if not jobs:
        return out
    texts = {role: read_split(pack.data[data])[0] for role, data in roles(pack, mode).items()}
    result = _run(pack, run_result, Job(models=jobs, texts=texts), states, hf_cache, gpus)
    facts = {"seconds": result.seconds, "sandbox": result.sandbox,
             "import_seconds": result.import_seconds}
    for name in jobs:
        found = result.models.get(name)
        if result.status != "ok" or found is None:
            out[name] = replace(out[name], why="the grader's evaluator failed: "
                                + (result.why or "no result"), grader_failure=True, run=facts)
        else:
            out[name] = replace(out[name], result=found, run=facts)
    return out


def _run(pack: Pack, run_result: RunResult, job: Job, states: dict[str, dict[str, Any]],
         hf_cache: Path | None, gpus: tuple[str, ...] | None = None) -> Result:
    """The evaluator in the sandbox the run's kernels had (bwrap or none), with the pack's
    interpreter; a sandbox or environment that cannot be had is a grader failure."""
    from grader.env import kernel_sandbox
    from grader.models.cache import cache_dir

    try:
        kind = "bwrap" if run_result.sandbox == "bwrap" else "none"
        box = kernel_sandbox(pack, evaluator_box(kind, _python(), cache_dir(hf_cache), gpus))
        return run(job, states, box, pack.limits)
    except Exception as exc:  # noqa: BLE001 - the grader's failure, said in the record
        return Result(status="error", why=f"{type(exc).__name__}: {str(exc)[:200]}")


def _python() -> str:
    import sys

    return sys.executable
