"""Holding a written answer to the conventions its student states, and naming what it misses.

Why: a count that is right "without biases and without LayerNorm", as the student says,
is a convention followed, not a count "close, off by 0.094 %"; and a count that is wrong
even under the student's own convention is best explained by what it still leaves out
("your count leaves out the feed-forward layers"). The pack's key is a calculator call
(`{calc = ...}` / `{reference = ...}`), so the key *under a convention* is the same call
with other arguments: `convention = "no_bias+no_layernorm"` for a parameter count,
`bias = false` for `ffn_parameters`, `bytes_per_element = 4` for fp32 scores,
`n_heads = 1`, `n_layers = 1`. A convention whose argument the call does not take is not
applied. The pack's own `[[questions.checks.conventions]]` give the credit: a
combination earns the product of its parts' credits, and one the pack does not list
earns nothing (the message still says what the answer is right under).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations
from typing import TYPE_CHECKING, Any, cast

from sympy import Integer, Rational

import calculators
from calculators.answers import Verdict, check_answer
from calculators.answers.compare import expected_display
from calculators.answers.stated import describe
from grader.pack import Check, PackError

STATED_ARGS: dict[str, tuple[tuple[str, Any], ...]] = {
    "no_bias": (("convention", "no_bias"), ("bias", False)),
    "no_layernorm": (("convention", "no_layernorm"),),
    "no_out_proj": (("convention", "no_out_proj"),),
    "no_embeddings": (("convention", "no_embeddings"),),
    "no_position_embeddings": (("convention", "no_position_embeddings"),),
    "weights_only": (("convention", "weights_only"),),
    "fp32": (("bytes_per_element", 4),),
    "one_head": (("n_heads", 1),),
    "per_layer": (("n_layers", 1),),
}
"""How each stated convention changes the key's calculator call (first argument it takes)."""

PACK_NAMES: dict[str, tuple[str, ...]] = {
    "no_bias": ("no_bias", "no_biases"),
    "no_layernorm": ("no_layernorm", "no_layernorms", "no_layer_norm", "no_norm"),
    "no_out_proj": ("no_out_proj",),
    "no_embeddings": ("no_embeddings",),
    "no_position_embeddings": ("no_position_embeddings",),
    "weights_only": ("weights_only",),
    "fp32": ("fp32",),
    "one_head": ("one_head", "per_head"),
    "per_layer": ("per_layer", "one_layer"),
}
"""The names a pack gives the same convention in `[[questions.checks.conventions]]`."""

IMPLIES: dict[str, tuple[str, ...]] = {
    "weights_only": ("no_bias", "no_layernorm"),
}
"""A stated convention in other conventions' terms, for a pack that lists those and not
it: counting only the weight matrices leaves out the biases and the norms' vectors (the
1-D parameters). Used only where the key under both is the same number."""

LEFT_OUT: dict[str, str] = {
    "no_bias": "the bias vectors",
    "no_layernorm": "the LayerNorm weights and biases",
    "no_out_proj": "the attention output projection",
    "no_embeddings": "the embedding tables",
    "no_position_embeddings": "the position embeddings",
}
"""What an extra convention leaves out, for a count wrong under the student's own."""

_COMPONENT_WORDS = [
    ("up projection weights", "one of the two feed-forward weight matrices"),
    ("down projection weights", "one of the two feed-forward weight matrices"),
    ("up projection biases", "the feed-forward up-projection biases"),
    ("down projection biases", "the feed-forward down-projection biases"),
    ("layers/mlp/up", "the feed-forward layers' first linear layer"),
    ("layers/mlp/down", "the feed-forward layers' second linear layer"),
    ("layers/mlp", "the feed-forward layers"),
    ("layers/attn/qkv", "the attention's query, key and value projections"),
    ("layers/attn/out", "the attention output projection"),
    ("layers/attn", "the attention sub-layers"),
    ("norm", "the LayerNorms"),
    ("embeddings/token", "the token embedding"),
    ("embeddings/position", "the position embeddings"),
    ("embeddings", "the embeddings"),
    ("head", "the output head"),
    ("weights", "the weight matrices"),
    ("biases", "the biases"),
]

Reference = Callable[[], Any] | None

if TYPE_CHECKING:
    from grader.checks.answer import AnswerSettings


def _function(spec: dict[str, Any], reference: Reference) -> Callable[..., Any] | None:
    if "calc" in spec:
        func = getattr(calculators, str(spec["calc"]), None)
    elif "reference" in spec and reference is not None:
        func = getattr(reference(), str(spec["reference"]), None)
    else:
        return None
    return func if callable(func) else None


def _takes(func: Callable[..., Any], name: str) -> bool:
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def restate(spec: Any, names: Sequence[str], reference: Reference
            ) -> tuple[dict[str, Any] | None, list[str]]:
    """The key's call with the arguments of ``names``, and the names it could apply."""
    if not isinstance(spec, dict):
        return None, []
    func = _function(spec, reference)
    if func is None:
        return None, []
    args = dict(spec.get("args", {}))
    applied = []
    for name in names:
        for arg, value in STATED_ARGS.get(name, ()):
            if not _takes(func, arg):
                continue
            if arg == "convention":
                before = [c for c in str(args.get("convention", "exact")).split("+")
                          if c and c != "exact"]
                if value in before:
                    break
                args["convention"] = "+".join([*before, value])
            else:
                args[arg] = value
            applied.append(name)
            break
    if not applied:
        return None, []
    return {**spec, "args": args}, applied


def _call(spec: dict[str, Any], reference: Reference) -> tuple[Any, Any]:
    """(the call's result, the result with `field` taken): the breakdown lives on the first."""
    from grader.checks.answer import resolve

    raw = resolve({k: v for k, v in spec.items() if k != "field"}, reference, "convention")
    return raw, (getattr(raw, str(spec["field"])) if "field" in spec else raw)


def _pack_credit(check: Check, names: Sequence[str]) -> tuple[Rational, list[str], list[str]]:
    """Product of the pack's credits for ``names``, the pack's names for them, and the names
    the pack does not list."""
    tables = cast("AnswerSettings", check.settings).convention_tables()
    by_name = {str(c.get("name")): c for c in tables}
    credit: Rational = Integer(1)
    missing, named = [], []
    for name in names:
        conv = next((by_name[n] for n in PACK_NAMES.get(name, (name,)) if n in by_name), None)
        if conv is None:
            missing.append(name)
            credit = Integer(0)
        else:
            named.append(str(conv.get("name")))
            credit *= Rational(str(conv.get("credit", 0)))
    return credit, named, missing


def _words(component: str) -> str:
    for key, words in _COMPONENT_WORDS:
        if key in component:
            return words
    return f"the {component.replace('/', ' ')}"


def _groups(breakdown: dict[str, int]) -> list[tuple[str, int]]:
    """Components and the groups a student leaves out together (all of layers/mlp, all norms)."""
    out: list[tuple[str, int]] = [(k, v) for k, v in breakdown.items()]
    prefixes: dict[str, int] = {}
    for key, value in breakdown.items():
        parts = key.split("/")
        if len(parts) >= 3:
            prefixes["/".join(parts[:2])] = prefixes.get("/".join(parts[:2]), 0) + value
        last = key.split()[-1] if " " in key else None
        if last:
            prefixes[last] = prefixes.get(last, 0) + value
    norms = [v for k, v in breakdown.items() if "norm" in k]
    if len(norms) > 1:
        prefixes["norm"] = sum(norms)
    out += [(k, v) for k, v in prefixes.items() if (k, v) not in out]
    return out


class Holder:
    """The key of one answer check under other conventions, computed on demand."""

    def __init__(self, check: Check, reference: Reference, key: Any,
                 expected_value: Callable[[Any, str | None], Any]) -> None:
        self.check = check
        self.settings = cast("AnswerSettings", check.settings)
        self.reference = reference
        self.key = key  # grader.checks.answer.Key
        self.tolerance = key.tolerance
        self.expected_value = expected_value
        self.unit = self.settings.unit
        self.symbols = self.settings.symbols

    def _verdict(self, text: str, value: Any) -> Verdict:
        return check_answer(text, self.expected_value(value, self.unit), tolerance=self.tolerance,
                            symbols=self.symbols)

    def hold(self, text: str, verdict: Verdict, stated: Sequence[str]) -> Verdict:
        """``verdict`` reconsidered under the student's stated conventions and their combinations."""
        if verdict.verdict in ("correct", "unreadable"):
            return verdict
        spec = self.settings.key_spec()
        try:
            if stated:
                held = self._stated(text, verdict, spec, list(stated))
                if held is not None:
                    return held
            if verdict.verdict in ("close", "wrong"):
                combined = self._combined(text, verdict)
                if combined is not None:
                    return combined
        except (PackError, TypeError, ValueError, ArithmeticError):
            return verdict  # a convention the calculators cannot apply here: keep the verdict
        return verdict

    def _stated(self, text: str, verdict: Verdict, spec: Any,
                stated: list[str]) -> Verdict | None:
        restated, applied = restate(spec, stated, self.reference)
        if restated is None:
            return None
        raw, value = _call(restated, self.reference)
        under = self._verdict(text, value)
        words = describe(applied)
        if under.verdict == "correct":
            if verdict.verdict == "convention" and verdict.convention in {
                    n for name in applied for n in PACK_NAMES.get(name, (name,))} \
                    and len(applied) == 1:
                return verdict  # the pack's own message for that convention
            if verdict.verdict == "convention" and self._pack_value(verdict.convention) == \
                    self.expected_value(value, self.unit):
                return verdict  # the pack lists this combination itself (5·nhid² per layer)
            credit, named, missing = _pack_credit(self.check, self._in_pack_terms(
                spec, applied, value))
            message = (f"Your answer, {under.answer.display if under.answer else text}, is right "
                       f"{words}, as you state; the question asks for "
                       f"{expected_display(self.key.expected, self.symbols)}.")
            if missing:  # right under a convention the question does not accept
                return replace(verdict, message=message + " The question gives no credit "
                               f"for an answer {describe(missing)}.")
            if credit == 0:  # the pack names it at no credit: a wrong answer, named
                if len(named) == 1 and self._pack_value(named[0]) == \
                        self.expected_value(value, self.unit):
                    return verdict  # check_answer matched it: the pack's own message
                return replace(verdict, message=message + " The question gives no credit "
                               "for it.")
            return replace(verdict, verdict="convention", credit=credit, message=message,
                           convention="+".join(named))
        if verdict.verdict == "convention":
            return verdict  # it follows one of the question's conventions, stated or not
        gap = self._gap(text, restated, raw, value, applied)
        message = verdict.message + f" Even {words}, as you state, it is not right"
        message += f": your count leaves out {gap}." if gap else "."
        return replace(verdict, message=message)

    def _pack_value(self, name: str | None) -> Any:
        """The value of the pack's convention `name` (as `check_answer` takes it), or None."""
        return next((alt.value for alt in self.key.alternatives if alt.name == name), None)

    def _in_pack_terms(self, spec: Any, applied: list[str], value: Any) -> list[str]:
        """`applied` with each convention the pack does not list replaced by the listed ones
        it amounts to (`IMPLIES`: "weight matrices only" is no biases and no LayerNorm),
        where the key under those is the same number; the others kept as they are."""
        listed = {c.name for c in self.settings.conventions}
        out: list[str] = []
        for name in applied:
            parts = IMPLIES.get(name, ())
            if parts and not listed & set(PACK_NAMES.get(name, (name,))) and all(
                    listed & set(PACK_NAMES.get(p, (p,))) for p in parts):
                rest = [n for n in applied if n != name and n not in parts]
                same, done = restate(spec, [*rest, *parts], self.reference)
                if same is not None and set(parts) <= set(done) \
                        and _call(same, self.reference)[1] == value:
                    out += [p for p in parts if p not in out]
                    continue
            if name not in out:
                out.append(name)
        return out

    def _gap(self, text: str, spec: dict[str, Any], raw: Any, value: Any,
             applied: list[str]) -> str | None:
        """What the answer leaves out beyond the stated conventions, if one thing accounts for it."""
        breakdown = getattr(raw, "breakdown", None)
        if isinstance(breakdown, dict) and isinstance(value, int) and breakdown:
            for key, count in _groups(breakdown):
                if self._verdict(text, value - count).verdict == "correct":
                    return _words(key)
        for extra, words in LEFT_OUT.items():
            if extra in applied:
                continue
            more, done = restate(self.settings.key_spec(), [*applied, extra], self.reference)
            if more is None or extra not in done:
                continue
            _, more_value = _call(more, self.reference)
            if more_value != value and self._verdict(text, more_value).verdict == "correct":
                return words
        return None

    def _combined(self, text: str, verdict: Verdict) -> Verdict | None:
        """Two of the pack's conventions at once (no biases *and* no LayerNorm)."""
        convs = [c for c in self.settings.convention_tables()
                 if isinstance(c.get("expected"), dict)]
        for a, b in combinations(convs, 2):
            merged = _merge(a["expected"], b["expected"])
            if merged is None:
                continue
            _, value = _call(merged, self.reference)
            under = self._verdict(text, value)
            if under.verdict != "correct":
                continue
            credit = Rational(str(a.get("credit", 0))) * Rational(str(b.get("credit", 0)))
            if credit == 0:
                continue  # worth nothing: the answer stays wrong
            names = [_canonical(str(a["name"])), _canonical(str(b["name"]))]
            message = (f"Your answer, {under.answer.display if under.answer else text}, is right "
                       f"{describe(names)}; the question asks for {expected_display(self.key.expected, self.symbols)}.")
            return replace(verdict, verdict="convention", credit=credit, message=message,
                           convention=f"{a['name']}+{b['name']}")
        return None


def _canonical(pack_name: str) -> str:
    return next((k for k, names in PACK_NAMES.items() if pack_name in names), pack_name)


def _merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any] | None:
    """One call holding both conventions, when both are the same call with other arguments."""
    if {k: v for k, v in a.items() if k != "args"} != {k: v for k, v in b.items() if k != "args"}:
        return None
    args_a, args_b = dict(a.get("args", {})), dict(b.get("args", {}))
    merged = dict(args_a)
    for key, value in args_b.items():
        if key == "convention" and "convention" in merged:
            parts = [c for c in f"{merged['convention']}+{value}".split("+") if c and c != "exact"]
            merged["convention"] = "+".join(dict.fromkeys(parts))
        elif key in merged and merged[key] != value:
            return None
        else:
            merged[key] = value
    if merged in (args_a, args_b):
        return None
    return {**a, "args": merged}
