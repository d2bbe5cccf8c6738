"""What the clean evaluator found of a fine-tuned model, as the record shows it: the
evidence a TA reads (the library class and checkpoint the weights were loaded into, the
tokenizer used, the cost) and the flags raised (an encoder that never moved, weights the
library's class cannot take, a notebook's own model or tokenizer class).

Why apart from the kind: these read the evaluator's result only, never a check's
settings, and are what the threat model's Part 2 section points a reader to.
"""

from __future__ import annotations

from typing import Any

from grader.checks.finetune_evaluation import Evaluated
from grader.evaluate.launch import ModelResult
from grader.run.result import ProbePayload

UNMOVED = 1e-6
"""A relative weight change below this is no fine-tuning of the encoder (flagged)."""


def info(payload: ProbePayload | None) -> dict[str, Any]:
    """What the probe said of the model it found (name, class, device, memory): names the
    record shows, never what decides a score."""
    if payload is None or payload.status != "ok":
        return {}
    for result in payload.cases.values():
        found = result.get("outputs", {}).get("__info__")
        if found:
            return dict(found)
    return {}


def evaluated_evidence(evaluated: Evaluated) -> dict[str, Any]:
    """How the grader evaluated the model, for the TA: the library class and checkpoint it
    loaded the weights into, the pack's tokenizer it used, what the notebook's own objects
    were called, and the evaluator's cost."""
    found, said = evaluated.result, evaluated.info
    out: dict[str, Any] = {
        "student_class": said.get("class"), "student_tokenizer": said.get("tokenizer"),
        "student_tokenizer_size": said.get("tokenizer_size"),
        "config_name_or_path": said.get("name_or_path"), **evaluated.run}
    if found is not None:
        out.update(status=found.status, checkpoint=found.checkpoint,
                   architecture=found.architecture, tokenizer=found.tokenizer,
                   device=found.device_name or found.device, distances=found.distances,
                   peft_merged=found.peft_merged, load_seconds=found.load_seconds,
                   predict_seconds=found.predict_seconds)
        if found.status != "ok":
            out.update(why=found.why, tried=[t.model_dump() for t in found.tried])
    elif evaluated.why:
        out["why"] = evaluated.why
    return out


def _library_tokenizers(found: ModelResult) -> set[str]:
    """Tokenizer class names that are the library's own for the evaluated model."""
    names = set(found.library_tokenizers) | {"PreTrainedTokenizerFast", "TokenizersBackend"}
    for base in (found.tokenizer or "", (found.architecture or "").split("For")[0]
                 + "Tokenizer"):
        if base:
            stem = base.removesuffix("Fast")
            names |= {stem, stem + "Fast"}
    return names


def model_flags(question_id: str, name: str, evaluated: Evaluated) -> list[dict[str, Any]]:
    """What a TA should see of one model: an encoder that never moved, weights the library
    class cannot take, and a notebook whose own model or tokenizer class is not the
    library's (evaluated from the weights all the same: what its code does is not used)."""
    flags: list[dict[str, Any]] = []
    found, said = evaluated.result, evaluated.info

    def flag(kind: str, message: str) -> None:
        flags.append({"question": question_id, "kind": kind, "message": message})

    if found is None:
        if evaluated.why and not evaluated.grader_failure and said:
            flag("not_evaluated", f"`{name}` could not be evaluated: {evaluated.why}")
        return flags
    if found.status != "ok":
        named = "; ".join(f"{t.checkpoint}: " + ", ".join(
            [*(f"unknown {k}" for k in t.unknown[:3]), *(f"missing {k}" for k in t.missing[:3]),
             *t.shapes[:2], *(f"dtype {d}" for d in t.dtypes[:2])]) for t in found.tried[:2])
        flag("not_evaluated", f"`{name}` ({said.get('class')}) could not be evaluated as the "
             f"library's classifier: {found.why}" + (f" ({named})" if named else ""))
        return flags
    distance = found.weight_distance
    if isinstance(distance, int | float) and distance < UNMOVED:
        flag("weights_unchanged", f"The encoder's weights are those of the checkpoint "
             f"`{found.checkpoint}` (relative change {distance:.1e}): only the "
             "classification head was trained, or nothing was.")
    student_class = said.get("class")
    if student_class and student_class != found.architecture and not found.peft_merged:
        flag("model_class", f"`{name}` is a `{student_class}`, not the library's "
             f"`{found.architecture}`: the grader evaluated its weights in the library's "
             "class; what the notebook's own class does was not used.")
    tokenizer = said.get("tokenizer")
    if tokenizer and tokenizer not in _library_tokenizers(found):
        flag("tokenizer_class", f"The notebook's tokenizer is a `{tokenizer}`, not a "
             f"tokenizer of the library's: the grader tokenized with the pack's "
             f"`{found.checkpoint}` tokenizer (`{found.tokenizer}`) instead.")
    return flags
