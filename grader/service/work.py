"""What the compute processes run: one calculator or answer request in, a JSON dict out.

The payload is the library's own JSON (``result.to_dict()`` through
``calculators._render.jsonable``, exactly what ``grader calc ... --json`` prints)
plus the formula as presentation MathML, which browsers render without a script.
A calculator's `CalculatorError` comes back as data (``{"error": ...}``) so that the
service can name the field; this module imports only ``calculators``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import sympy
from sympy.printing.mathml import mathml as _mathml

import calculators as calc
from calculators import _render
from calculators.answers import check_answer, lint_arithmetic, parse_answer
from calculators.errors import CalculatorError, ConfigError
from calculators.params import registry

MATHML_NS = "http://www.w3.org/1998/Math/MathML"


def to_mathml(expr: Any) -> str:
    """A display ``<math>`` element for a sympy expression (presentation markup)."""
    inner = _mathml(sympy.sympify(expr), printer="presentation")
    return f'<math xmlns="{MATHML_NS}" display="block">{inner}</math>'


def _formula(result: Any) -> Any:
    return result.exact if isinstance(result, calc.CrossEntropy) else result.formula


def payload(result: Any) -> dict[str, Any]:
    """The library JSON of a result, plus ``mathml``; counts also get ``value`` and ``unit``."""
    data = _render.jsonable(result.to_dict())
    formula = _formula(result)
    data["mathml"] = to_mathml(formula)
    data.setdefault("formula", str(formula))
    if isinstance(result, calc.CrossEntropy):  # its two steps: the probability, then -log
        data.setdefault("breakdown", {"p(target)": str(result.probability),
                                      "-log p(target)": str(result.exact)})
    data.setdefault("breakdown", {})
    if "value" not in data:  # counts report ``total``; give every result the same two keys
        data["value"] = data["total"]
        data["unit"] = "parameters"
    return data


def _config(args: dict[str, Any]) -> Any:
    """A registry name (resolved here) or an inline config dict, never a file on the server.

    The library also reads a ``config.json`` path; over HTTP that would read a server
    file and tell whether a path exists, so a model that is not a registry name is
    refused with the same message whatever it names, without touching the disk.
    """
    model, config = args.pop("model", None), args.pop("config", None)
    if (model is None) == (config is None):
        raise ConfigError("give exactly one of model (a registry name) or config (a JSON object)",
                          field="model")
    if config is not None:
        if not isinstance(config, dict):
            raise ConfigError("must be a JSON object (a config.json's contents)", field="config")
        return config
    if not isinstance(model, str):
        raise ConfigError("must be a registry name", field="model")
    try:
        return registry.resolve_name(model)
    except ConfigError:
        raise ConfigError(
            f"{model[:80]!r} is not a model of the registry (GET /v1/calc/models lists them: "
            f"{', '.join(registry.names())}); for another model, send its config.json's "
            "contents as config", field="model") from None


def _params(a: dict[str, Any]) -> Any:
    return calc.count_parameters(_config(a), head=a["head"], num_labels=a.get("num_labels"),
                                 convention=a["convention"])


def _lora(a: dict[str, Any]) -> Any:
    return calc.lora_parameters(
        _config(a), a["head"], a.get("num_labels"), r=a["r"], target_modules=a["target_modules"],
        bias=a["bias"], task_type=a.get("task_type"), modules_to_save=a.get("modules_to_save"))


def _kv(a: dict[str, Any]) -> Any:
    return calc.kv_cache_memory(_config(a), a["seq_len"], a["batch_size"],
                                a["bytes_per_element"])


CALCULATORS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "params": _params,
    "lora": _lora,
    "memory/attention": lambda a: calc.attention_scores_memory(
        a["seq_len"], a["n_heads"], a["bytes_per_element"], a["batch_size"], a["n_layers"]),
    "memory/kv": _kv,
    "memory/optimizer": lambda a: calc.optimizer_state_memory(
        a["n_params"], a["optimizer"], a.get("bytes_per_state")),
    "memory/training": lambda a: calc.training_memory(a["n_params"], a["precision"],
                                                      a["optimizer"]),
    "cross-entropy": lambda a: calc.cross_entropy(a["logits"], a["target"], a.get("base")),
    "flops/training": lambda a: calc.training_flops(a["n_params"], a["n_tokens"]),
    "flops/forward": lambda a: calc.forward_flops_per_token(
        a["n_params"], a.get("n_layers"), a.get("seq_len"), a.get("d_model")),
}


def _error(exc: CalculatorError) -> dict[str, Any]:
    return {"error": {"field": exc.field, "message": exc.message}}


def run_calculator(kind: str, args: dict[str, Any]) -> dict[str, Any]:
    """One calculator request; a bad input comes back as ``{"error": {field, message}}``.

    Any other exception is a calculator bug that this input triggers: it comes back
    as an error too (the service answers 422 and logs it), never as a 500 with a trace.
    """
    try:
        return payload(CALCULATORS[kind](dict(args)))
    except CalculatorError as exc:
        return _error(exc)
    except Exception as exc:
        return {"error": {"field": None, "internal": f"{type(exc).__name__}: {exc}"[:300],
                          "message": "the calculators cannot compute this input "
                          f"({type(exc).__name__}); please report it with the request"}}


def compare_answer(answer: str, expected: str) -> dict[str, Any]:
    """``grader answers check``: one written answer against an expected value, both as text."""
    target = parse_answer(expected)
    if not target.ok:
        return _error(ConfigError(f"could not read {expected!r}: {target.reason}",
                                  field="expected"))
    value = (target.value, target.unit) if target.unit else target.value
    data = _render.jsonable(check_answer(answer, value).to_dict())
    data["convention_words"] = convention_words(data.get("convention"))
    return data


KEY_FREE = {
    "correct": "Your answer, {got}, is correct.",
    "close": "Your answer, {got}, is close, but not right to the figures you wrote.",
    "convention": "Your answer, {got}, follows a known convention ({convention}): "
                  "it earns part of the credit.",
    "wrong": "Your answer, {got}, is not right.",
}
VERDICT_ONLY = {
    True: "Your answer, {got}, is correct.",
    False: "Your answer, {got}, is not right. This question's self-check says right or "
           "not right only.",
}
CONVENTION_WORDS = {
    "gib_vs_gb": "GiB and GB confused: 1 GiB is 2^30 bytes, 1 GB is 10^9 bytes",
    "bits_vs_bytes": "bits and bytes confused: a byte is 8 bits",
}
"""The checker's own convention ids in words (a pack's conventions are worded by the pack)."""
OWN_NUMBER = re.compile(r"^Your answer, .*, (has no unit; as .* it would be correct|is a "
                        r"percentage without the % sign; as .* it would be correct)\.$")
"""Checker messages that name only the student's own number: safe to pass on as they are."""


def convention_words(name: str | None) -> str | None:
    """A convention as a student reads it: the checker's ids worded, a pack's by its name."""
    if not name:
        return None
    if name in CONVENTION_WORDS:
        return CONVENTION_WORDS[name]
    return name.replace("_", " ")


def _convention_message(name: str | None, alternatives: Any, got: str) -> str | None:
    """The pack's own message for a convention, when it names only what the student wrote."""
    for alt in alternatives or ():
        message = getattr(alt, "message", "")
        if getattr(alt, "name", None) == name and message and "{expected}" not in message \
                and "{value}" not in message:
            return message.replace("{got}", got)
    return None


def check_keyed(answer: str, expected: Any, tolerance: Any, alternatives: Any,
                symbols: Any, mode: str = "feedback") -> dict[str, Any]:
    """A pack question's answer against its key (computed by the caller from the rubric).

    The reply holds the verdict, the credit, the convention and a message that names
    only what the student wrote: the checker's own messages may state the right value
    ("in GB it is 25.77 GB"), so they are replaced, except when the answer is unreadable
    or the message is about the student's own number ("has no unit; as 25769803776
    bytes it would be correct"). In ``verdict`` mode the reply is right or not right
    only: ``correct`` (full credit) or ``incorrect``, or ``unreadable``; a message about
    the student's own number (a missing unit) is kept there too.
    """
    verdict = check_answer(answer, expected, tolerance=tolerance,
                           alternatives=tuple(alternatives), symbols=symbols)
    got = verdict.answer.display if verdict.answer is not None and verdict.answer.ok else answer
    if verdict.verdict == "unreadable":
        return {"verdict": "unreadable", "credit": "0", "message": verdict.message,
                "convention": None}
    if mode == "verdict":  # a missing unit or % sign is about the writing: said in both modes
        right = verdict.credit == 1
        own = OWN_NUMBER.match(verdict.message)
        return {"verdict": "correct" if right else "incorrect",
                "message": verdict.message if own else VERDICT_ONLY[right].format(got=got)}
    convention = convention_words(verdict.convention)
    if OWN_NUMBER.match(verdict.message):
        message = verdict.message
    elif verdict.verdict == "convention":
        message = _convention_message(verdict.convention, alternatives, got) or \
            KEY_FREE["convention"].format(got=got, convention=convention)
    else:
        template = KEY_FREE.get(verdict.verdict)
        message = template.format(got=got) if template else verdict.message
    return {"verdict": verdict.verdict, "credit": str(verdict.credit), "message": message,
            "convention": convention}


def lint_report(text: str) -> dict[str, Any]:
    """``grader answers lint`` on text: the written equations whose arithmetic is wrong."""
    return {"slips": [s.to_dict() for s in lint_arithmetic(text)]}


def ping() -> str:
    """Used at start-up so that the first real request does not pay the imports."""
    return "ok"
