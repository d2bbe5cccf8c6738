"""Fine-tuning checks: the student's model, re-evaluated on data it never saw.

A notebook can print "test accuracy: 0.99" whatever its model does, and whatever runs in
its kernel can lie about itself (a tokenizer whose `__call__` classifies, a `forward`
compiled under the library's file name, a stand-in module in `sys.modules`). So the
probe only exports the model as data: its weights and a few names
(`grader.checks.finetune_export`). A clean evaluator in a fresh sandboxed process, which
never ran the student's code, builds the library's classifier from the pack's checkpoint,
loads those weights, tokenizes the texts (public test split, hidden split, external set)
with the pack's tokenizer and predicts (`grader.evaluate`); the labels stay here, and the
accuracy is computed here. What is printed is only compared with that:

- `samples` (Q2(a)): the first processed training samples are tensors of matching
  shapes, agree with the checkpoint's tokenizer on the same texts, and were printed.
- `accuracy` (Q2(b), Q2(d)): credit from the accuracy on the hidden split, by the
  rubric's table; a model that scores much better on the public test split than on
  the hidden one is flagged (it has seen the test split).
- `reported`: the per-epoch train and test accuracies were printed, and the last
  printed test accuracy is what the model really scores on the test split.
- `external` (Q2(c)): a prediction printed for every external item, each the one
  the model makes.

Weights the library's classifier cannot take (names, shapes or dtypes the checkpoint's
config does not have) are not evaluated, and the message names them. The encoder's
distance from every checkpoint its weights fit is measured in the evaluator, so a model
that was never trained is flagged whatever its config says of its origin.

Quick mode (a student's laptop) trains on a subset for one epoch: the threshold is
then "not graded", never failed. No-execute mode reads the saved outputs only.

The kind's other modules: `finetune_export` (the probe's shards), `finetune_evaluation`
(the clean evaluator's jobs), `finetune_flags` (what the evaluator found, as evidence
and flags) and `finetune_data` (the splits and what a notebook prints of them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from pydantic import Field, model_validator

from grader.checks import CheckResult, finetune_export
from grader.checks.finetune_data import (
    accuracy,
    printed_labels,
    read_split,
    training_seconds,
)
from grader.checks.finetune_evaluation import Evaluated, evaluate_all
from grader.checks.finetune_flags import evaluated_evidence, info, model_flags
from grader.checks.kind import Context as Submission
from grader.checks.kind import Kind, Probe, Settings, generic_rows
from grader.checks.series import parse_accuracy_series
from grader.pack import Check, Pack, Question
from grader.run.result import ProbePayload, RunResult

if TYPE_CHECKING:
    from grader.record import QuestionResult

PROBES = {"samples": "processed_samples", "accuracy": "export_model",
          "external": "export_model", "reported": "export_model"}
"""Which probe function each evaluation needs."""
MAX_LENGTH = 128
"""Tokens per text the evaluator keeps (truncation), unless the rubric says otherwise."""


def request_id(check: Check) -> str:
    """The probe request of a dataset, or the first of a model's export requests: the
    checks of one model share its export (and the evaluator's predictions)."""
    s = cast(FinetuneSettings, check.settings)
    if s.evaluate == "samples":
        return f"ft-samples-{s.dataset}"
    return f"ft-predict-{s.model}"


def request(check: Check, pack: Pack, mode: str, hf_cache: Path | None = None) -> list[Probe]:
    """The probe requests of one finetune check (checks of one model share their ids): the
    samples of a dataset, or the model's weights in as many shards as the pack's
    checkpoints need (`finetune_export.requests`). No text goes into the kernel: the
    evaluator outside it predicts."""
    s = cast(FinetuneSettings, check.settings)
    if s.evaluate == "samples":
        return [Probe(request_id(check), PROBES["samples"], [{"name": "head", "tensors": {},
                      "params": {"dataset": s.dataset, "count": s.count}}])]
    return finetune_export.requests(s, pack, hf_cache)


# ----------------------------------------------------------------------------------------
# helpers


def credit(table: list[list[float]], threshold: float, value: float) -> float:
    """The rubric's fraction for an accuracy: the first row (highest first) it reaches."""
    rows = sorted(table or [[threshold, 1.0]], key=lambda row: -row[0])
    for minimum, fraction in rows:
        if value + 1e-12 >= minimum:
            return float(fraction)
    return 0.0


def _status(fraction: float) -> str:
    return "passed" if fraction >= 1 else ("partial" if fraction > 0 else "failed")


# ----------------------------------------------------------------------------------------
# the checks


@dataclass
class Context:
    """What every finetune check reads: the pack, the run, the mode and its payloads."""

    pack: Pack
    run: RunResult
    mode: str  # grade | check
    quick: bool
    executed: bool
    payloads: dict[str, ProbePayload]
    hf_cache: Path | None = None
    gpus: tuple[str, ...] | None = None  # the kernels' GPUs, for the evaluator
    flags: list[dict[str, Any]] = field(default_factory=list)
    evaluated: dict[str, Evaluated] | None = None

    def model(self, name: str) -> Evaluated:
        """The clean evaluator's verdict on one model (all of them evaluated on first use)."""
        if self.evaluated is None:
            self.evaluated = evaluate_all(self.pack, self.run, self.payloads, self.mode,
                                          self.hf_cache, read_split, gpus=self.gpus)
        return self.evaluated.get(name) or Evaluated(why="the probe did not run")

    def labels(self, role: str) -> list[int | None] | None:
        if role not in self.pack.data:
            return None
        return read_split(self.pack.data[role])[1]

    def printed(self, tag: str | None) -> str:
        return "\n".join(text for _, text in self.run.printed(tag))


def check_finetune(check: Check, question_id: str, ctx: Context) -> CheckResult:
    evaluate = cast(FinetuneSettings, check.settings).evaluate
    payload = ctx.payloads.get(request_id(check))
    if evaluate == "samples":
        return _samples(check, payload, ctx)
    if evaluate == "accuracy":
        return _accuracy(check, question_id, payload, ctx)
    if evaluate == "reported":
        return _reported(check, question_id, payload, ctx)
    return _external(check, payload, ctx)


def _samples(check: Check, payload: ProbePayload | None, ctx: Context) -> CheckResult:
    s = cast(FinetuneSettings, check.settings)
    count, dataset = s.count, s.dataset
    text = ctx.printed(s.cell_tag)
    printed = text.count("input_ids") >= 1 and text.count("attention_mask") >= 1
    evidence: list[dict[str, Any]] = []
    if not ctx.executed:
        fraction = 0.25 if printed else 0.0
        return CheckResult("finetune", 0.0, "not_graded",
                           "Not executed (--no-execute): the processed samples were "
                           + ("printed" if printed else "not printed") + ", but only a run can "
                           "check them.", [{"printed": printed, "fraction_if_verified": fraction}])
    result = (payload.cases.get("head") if payload and payload.status == "ok" else None) or {}
    if result.get("status") != "ok":
        why = result.get("message") or (payload.message if payload else "the probe did not run")
        return CheckResult("finetune", 0.25 if printed else 0.0, "partial" if printed else "failed",
                           f"`{dataset}` could not be read as processed samples: {why}",
                           [{"printed": printed}])
    shapes_ok, agree = True, 0
    problems: list[str] = []
    reference = _reference_ids(s, ctx, count)
    for i in range(count):
        ids = payload.tensors.get(f"head/{i}/input_ids") if payload else None
        mask = payload.tensors.get(f"head/{i}/attention_mask") if payload else None
        row: dict[str, Any] = {"sample": i}
        if ids is None or mask is None:
            shapes_ok = False
            problems.append(f"sample {i} lacks input_ids or attention_mask")
            evidence.append(row)
            continue
        ids, mask = ids.reshape(-1), mask.reshape(-1)
        row.update(input_ids_shape=list(ids.shape), attention_mask_shape=list(mask.shape),
                   dtype=str(ids.dtype).replace("torch.", ""))
        if ids.shape != mask.shape or not set(mask.tolist()) <= {0, 1}:
            shapes_ok = False
            problems.append(f"sample {i}: input_ids {list(ids.shape)} and attention_mask "
                            f"{list(mask.shape)} do not match as a padded sequence")
        elif reference is not None:
            kept = [int(t) for t, m in zip(ids.tolist(), mask.tolist(), strict=True) if m]
            same = _same_tokens(kept, reference[i])
            row["agrees_with_tokenizer"] = same
            agree += same
            if not same:
                problems.append(f"sample {i} is not the tokenizer's encoding of training text {i} "
                                "(reordered or shuffled data, or another tokenizer?)")
        evidence.append(row)
    if reference is None:
        agree = count  # no tokenizer to compare with here: shapes and print only
    fraction = 0.5 * shapes_ok + 0.25 * (agree / count) + 0.25 * printed
    if not printed:
        problems.append("the samples were not printed")
    message = ("The first processed samples are tensors that match the tokenizer, and were "
               "printed." if not problems else " ".join(problems) + ".")
    evidence.append({"printed": printed})
    return CheckResult("finetune", fraction, _status(fraction), message, evidence)


def _reference_ids(s: FinetuneSettings, ctx: Context, count: int) -> list[list[int]] | None:
    """The checkpoint tokenizer's ids for the first training texts, from the model cache."""
    name = s.tokenizer_model
    if not name or ctx.hf_cache is None or "train" not in ctx.pack.data:
        return None
    try:
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(name, cache_dir=str(ctx.hf_cache),
                                                  local_files_only=True)
    except (OSError, ValueError, ImportError):
        return None
    texts, _ = read_split(ctx.pack.data["train"])
    return [list(tokenizer(t)["input_ids"]) for t in texts[:count]]


def _same_tokens(student: list[int], reference: list[int]) -> bool:
    """Equal, or the student's is a truncation of it (which keeps the final special token)."""
    if student == reference:
        return True
    if len(student) < 4 or len(student) > len(reference):
        return False
    return student[:-1] == reference[:len(student) - 1] and student[-1] == reference[-1]


def _accuracy(check: Check, question_id: str, payload: ProbePayload | None,
              ctx: Context) -> CheckResult:
    s = cast(FinetuneSettings, check.settings)
    threshold, tag = s.threshold, s.cell_tag
    series = parse_accuracy_series(ctx.printed(tag))
    evaluated = ctx.model(str(s.model)) if ctx.executed else Evaluated(info=info(payload))
    model_info = evaluated.info
    found = evaluated.result
    model: dict[str, Any] = {
        "name": model_info.get("model_name", str(s.model)),
        "architecture": (found.architecture if found is not None and found.architecture
                         else model_info.get("class")),
        "reported": series,
        "threshold": threshold, "train_seconds": training_seconds(ctx.run, tag),
        "peak_memory_bytes": model_info.get("cuda_peak_bytes")
        or model_info.get("kernel_peak_rss_bytes"),
        "memory_scope": "cuda" if model_info.get("cuda_peak_bytes") else "kernel",
        "device": model_info.get("device_name") or model_info.get("device"),
        "parameters": model_info.get("parameters"),
        # how far the encoder moved from the nearest checkpoint it fits (relative L2; head
        # aside), measured by the clean evaluator
        "weight_distance": found.weight_distance if found is not None else None}
    if ctx.executed:
        model["evaluated"] = evaluated_evidence(evaluated)
    evidence: dict[str, Any] = {"models": [model], "quick": ctx.quick, "executed": ctx.executed}
    if not ctx.quick:
        ctx.flags.extend(model_flags(question_id, str(s.model), evaluated))
    if not ctx.executed:
        last = series["test_accuracy"][-1] if series["test_accuracy"] else None
        model["reported_final_test_accuracy"] = last
        if last is None:
            return CheckResult("finetune", 0.0, "failed", "Not executed (--no-execute), and no "
                               "test accuracy was printed.", evidence)  # type: ignore[arg-type]
        fraction = credit(s.credit, threshold, last)
        return CheckResult("finetune", fraction, _status(fraction),
                           f"From the saved outputs (--no-execute; nothing re-evaluated): the last "
                           f"printed test accuracy is {last:.1%} against {threshold:.0%}.",
                           evidence)  # type: ignore[arg-type]
    public, why = evaluated.predictions("test")
    if public is None:
        return CheckResult("finetune", 0.0, "error" if evaluated.grader_failure else "failed",
                           f"Your fine-tuned model could not be evaluated: {why}",
                           evidence)  # type: ignore[arg-type]
    public_acc = accuracy(public, ctx.labels("test") or [])
    model["public_test_accuracy"] = public_acc
    scored_acc, split, fitted = public_acc, "the test split", ""
    if ctx.mode == "grade" and "hidden" in ctx.pack.data:
        hidden, why = evaluated.predictions("hidden")
        if hidden is None:
            return CheckResult("finetune", 0.0, "failed",
                               f"Your model could not be evaluated on the hidden split: {why}",
                               evidence)  # type: ignore[arg-type]
        scored_acc, split = accuracy(hidden, ctx.labels("hidden") or []), "unseen test data"
        gap = s.gap_tolerance
        if public_acc is not None and scored_acc is not None and public_acc - scored_acc > gap:
            fitted = (f"It scores {public_acc:.1%} on the public test split, far above what it "
                      f"does on unseen data: it has probably been trained or tuned on the test "
                      "split.")
            ctx.flags.append({"question": question_id, "kind": "test_split_fit",
                              "message": fitted})
    model["reevaluated_accuracy"] = scored_acc
    if scored_acc is None:
        return CheckResult("finetune", 0.0, "error", "The evaluation data has no labels.",
                           evidence)  # type: ignore[arg-type]
    if ctx.quick:
        return CheckResult("finetune", 0.0, "not_graded",
                           f"Quick mode (a short run on a subset): accuracy {scored_acc:.1%} on "
                           f"{split}; the {threshold:.0%} threshold is not graded in quick mode.",
                           evidence)  # type: ignore[arg-type]
    fraction = credit(s.credit, threshold, scored_acc)
    verdict = "reaches" if scored_acc + 1e-12 >= threshold else "is below"
    message = (f"Re-evaluated by the grader, your model's accuracy on {split} is "
               f"{scored_acc:.1%}, which {verdict} the {threshold:.0%} needed for full credit.")
    if fitted:
        kept = s.test_fit_credit
        fraction *= kept
        model["test_split_fit"] = True
        message += " " + fitted + (f" The rubric keeps {kept:.0%} of the credit for that."
                                   if kept < 1 else "")
    return CheckResult("finetune", fraction, _status(fraction), message,
                       evidence)  # type: ignore[arg-type]


def _reported(check: Check, question_id: str, payload: ProbePayload | None,
              ctx: Context) -> CheckResult:
    s = cast(FinetuneSettings, check.settings)
    series = parse_accuracy_series(ctx.printed(s.cell_tag))
    train, test = series["train_accuracy"], series["test_accuracy"]
    evidence: list[dict[str, Any]] = [{"reported": series}]
    fraction = 0.5 * bool(train) + 0.5 * bool(test)
    missing = [name for name, values in (("train", train), ("test", test)) if not values]
    message = (f"Printed {len(train)} train and {len(test)} test accuracies."
               if not missing else f"No {' or '.join(missing)} accuracy per epoch was printed.")
    if test and ctx.executed and not ctx.quick:
        public, _ = ctx.model(str(s.model)).predictions("test")
        actual = accuracy(public, ctx.labels("test") or []) if public is not None else None
        tolerance = s.reported_tolerance
        evidence[0].update(reported_final_test_accuracy=test[-1], reevaluated=actual)
        if actual is not None and abs(test[-1] - actual) > tolerance:
            fraction = 0.0
            message = (f"The last printed test accuracy, {test[-1]:.1%}, is not what your model "
                       f"scores on the test split ({actual:.1%}).")
            ctx.flags.append({"question": question_id, "kind": "reported_accuracy",
                              "message": f"printed test accuracy {test[-1]:.4f}, "
                              f"re-evaluated {actual:.4f}"})
    return CheckResult("finetune", fraction, _status(fraction), message, evidence)


def _external(check: Check, payload: ProbePayload | None, ctx: Context) -> CheckResult:
    s = cast(FinetuneSettings, check.settings)
    items = read_split(ctx.pack.data["external"])[0] if "external" in ctx.pack.data else []
    printed = printed_labels(ctx.printed(s.cell_tag), ctx.pack.labels, items)
    n = len(items)
    evidence: list[dict[str, Any]] = [{"items": n, "printed": len(printed)}]
    if not ctx.executed:
        fraction = min(len(printed), n) / n if n else 0.0
        return CheckResult("finetune", 0.0, "not_graded",
                           f"Not executed (--no-execute): {len(printed)} of {n} predictions "
                           "printed; only a run can check them against the model.",
                           [{**evidence[0], "fraction_if_verified": fraction}])
    evaluated = ctx.model(str(s.model))
    predicted, why = evaluated.predictions("external")
    if predicted is None:
        return CheckResult("finetune", 0.0, "error" if evaluated.grader_failure else "failed",
                           f"Your model could not be run on the external items: {why}", evidence)
    same = sum(p == q for p, q in zip(printed, predicted, strict=False))
    evidence[0].update(agree_with_model=same)
    fraction = same / n if n else 0.0
    if len(printed) != n:
        message = (f"{len(printed)} predictions were printed for the {n} external items; "
                   f"{same} are the ones your model makes.")
    elif same < n:
        message = f"{n - same} of the {n} printed predictions are not what your model predicts."
    else:
        message = f"A prediction was printed for each of the {n} items, as your model makes them."
    return CheckResult("finetune", fraction, _status(fraction), message, evidence)


# ----------------------------------------------------------------------------------------
# the kind

Fraction = Annotated[float, Field(ge=0, le=1)]


class FinetuneSettings(Settings):
    evaluate: Literal["samples", "accuracy", "external", "reported"]
    model: str | None = None
    """The notebook's name of the fine-tuned model (found by family and labels otherwise)."""
    tokenizer: str = ""
    tokenizer_model: str | None = None
    family: str = ""
    family_not: str = ""
    dataset: str | None = None
    count: int = Field(3, ge=1)
    max_length: int = Field(MAX_LENGTH, ge=1)
    threshold: Fraction = 0.85
    """The accuracy a model must reach (re-evaluated on the test split)."""
    credit: list[tuple[Fraction, Fraction]] = []
    """[accuracy, fraction of credit] rows; the highest row reached gives the credit."""
    reported_tolerance: Fraction = 0.03
    """How far a reported accuracy may be from the re-evaluated one."""
    gap_tolerance: Fraction = 0.06
    """How much better than on hidden data a model may do on the test split before it is
    flagged as fit to it."""
    test_fit_credit: Fraction = 1.0
    """The share of credit a model flagged as fit to the test split keeps."""
    cell_tag: str | None = None

    @model_validator(mode="after")
    def _needs(self) -> FinetuneSettings:
        if self.evaluate == "samples" and not self.dataset:
            raise ValueError("dataset: missing (evaluate = \"samples\" reads a dataset)")
        if self.evaluate != "samples" and not self.model:
            raise ValueError(f"model: missing (evaluate = \"{self.evaluate}\" needs the model)")
        return self


class Finetune(Kind):
    name = "finetune"
    evidence_doc = """an object: `models` (per model: `name`, `architecture`, `reported`
                    series, `reevaluated_accuracy`, `public_test_accuracy`, `threshold`, `train_seconds`,
                    `peak_memory_bytes`, `memory_scope`, `device`, `parameters`), `quick`, `executed`."""
    label = "fine-tuning"
    flags = ("finetune",)
    noted = ("finetune",)  # not evaluated, a reported accuracy off: a student can fix them
    needs_models = True
    run_modules = ("grader.checks.finetune_export",)  # the export's shards shape a run
    Settings = FinetuneSettings
    execution_keys = ("evaluate", "model", "tokenizer", "family", "family_not", "dataset",
                      "count", "max_length")

    def probes(self, check: Check, question: Question, ctx: Submission) -> list[Probe]:
        return request(check, ctx.pack, ctx.mode, ctx.hf_cache)

    def score(self, check: Check, question: Question, ctx: Submission) -> CheckResult:
        assert ctx.run is not None
        flags = ctx.flags.setdefault("finetune", [])
        ft = ctx.once("finetune", lambda: Context(
            pack=ctx.pack, run=ctx.run, mode=ctx.mode, quick=ctx.quick,  # type: ignore[arg-type]
            executed=ctx.executed, payloads=ctx.run.probes, hf_cache=ctx.hf_cache, gpus=ctx.gpus,
            flags=flags))
        return check_finetune(check, question.id, ft)

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        from grader.report.plots import line_chart

        ev = check.get("evidence") or {}
        models = []
        for m in ev.get("models") or [] if isinstance(ev, dict) else []:
            if not isinstance(m, dict):
                continue
            reported = m.get("reported") or {}
            curves = {k.replace("_", " "): v for k, v in reported.items()
                      if isinstance(v, list) and all(isinstance(x, int | float) for x in v)}
            threshold = m.get("threshold")
            reeval = m.get("reevaluated_accuracy")
            n = max((len(v) for v in curves.values()), default=1)
            chart = line_chart(
                curves, title=f"{m.get('name', 'model')}: accuracy per epoch",
                hlines={"threshold": threshold} if isinstance(threshold, int | float) else None,
                markers={"re-evaluated": (n, reeval)} if isinstance(reeval, int | float) else None,
            ) if curves else None
            numbers = isinstance(reeval, int | float) and isinstance(threshold, int | float)
            memory = m.get("peak_memory_bytes")
            models.append({
                "name": m.get("name", "model"), "architecture": m.get("architecture", ""),
                "chart": chart, "reevaluated": reeval, "threshold": threshold,
                "meets": (reeval >= threshold) if numbers else None,
                "train_seconds": m.get("train_seconds"), "device": m.get("device"),
                "peak_memory_mib": memory / 2**20 if isinstance(memory, int | float) else None,
                "extra": generic_rows(m, ("name", "architecture", "reported",
                                          "reevaluated_accuracy", "threshold", "train_seconds",
                                          "peak_memory_bytes", "device")),
            })
        extra = generic_rows(ev, ("models",)) if isinstance(ev, dict) else generic_rows(ev)
        return {"models": models,
                "quick": bool(ev.get("quick")) if isinstance(ev, dict) else False,
                "extra": [r for r in extra if r[0] != "quick"]}

    def run_facts(self, run: RunResult, questions: list[QuestionResult]) -> dict[str, Any]:
        """The device the models were evaluated on, and the fine-tuned models side by side
        (Q2(d) asks to compare them)."""
        devices = [info(p) for rid, p in run.probes.items() if rid.startswith("ft-predict")]
        device = next((d.get("device_name") or d.get("device") for d in devices if d), None)
        models = [{"question": q.id, **{k: m.get(k) for k in (
            "architecture", "reevaluated_accuracy", "train_seconds", "peak_memory_bytes",
            "parameters")}}
            for q in questions for c in q.checks
            if c["kind"] == self.name and isinstance(c["evidence"], dict)
            for m in c["evidence"].get("models", [])]
        return {"device": device, "models": models}

    def probe_functions(self, check: Check) -> list[str]:
        return [PROBES[cast(FinetuneSettings, check.settings).evaluate]]


KIND = Finetune()
