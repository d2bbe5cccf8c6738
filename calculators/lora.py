"""LoRA sizes: what peft's ``get_nb_trainable_parameters()`` reports, and the plain formula.

A LoRA adapter of rank r on a weight that maps d_in -> d_out adds A (r x d_in)
and B (d_out x r): r (d_in + d_out) parameters, for Linear, GPT-2's Conv1D and
Embedding alike. The base model is frozen; what else trains depends on peft's
rules, reproduced here because students and TAs are surprised by them:

- ``target_modules`` as a list matches a module whose name equals an entry or
  ends with ``"." + entry``; as a string it is a regular expression that must
  match the whole name.
- ``bias="all"`` trains every parameter named ``bias`` or ``*.bias`` (LayerNorm
  biases included); ``"lora_only"`` trains the biases of the adapted layers.
- ``task_type="SEQ_CLS"`` adds ``classifier`` and ``score`` to
  ``modules_to_save``; a module is saved when its name *ends with* an entry
  (plain suffix, so DistilBERT's ``pre_classifier`` trains too), and its
  parameters count once. Modules inside a saved module never get LoRA.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import sympy

from calculators import _render
from calculators.errors import ConfigError, UnsupportedConfig
from calculators.params._spec import CONV1D, EMBED, LINEAR, Param, symbol
from calculators.params.count import count_parameters

BIAS_MODES = ("none", "all", "lora_only")
SEQ_CLS_MODULES = ("classifier", "score")
R = symbol("r")


@dataclass(frozen=True, repr=False)
class LoraCount(_render.Shown):
    """Trainable parameters of a LoRA setup, exact, with where they come from."""

    total: int
    breakdown: dict[str, int]
    r: int
    matched: tuple[str, ...]
    symbols: dict[str, int]
    base_total: int | None = None
    _terms: tuple[tuple[str, Any], ...] = field(default=(), repr=False, compare=False)

    @cached_property
    def component_formulas(self) -> dict[str, sympy.Expr]:
        out: dict[str, sympy.Expr] = {}
        for comp, expr in self._terms:
            out[comp] = out.get(comp, sympy.Integer(0)) + sympy.sympify(expr)
        return out

    @cached_property
    def formula(self) -> sympy.Expr:
        return sympy.Add(*self.component_formulas.values())

    def subs(self) -> dict[sympy.Symbol, int]:
        return {symbol(k): v for k, v in self.symbols.items()}

    def latex(self) -> str:
        return sympy.latex(self.formula)

    @property
    def trainable_fraction(self) -> sympy.Rational | None:
        """Trainable / all parameters of the wrapped model, as peft prints it (exact)."""
        if not self.base_total:
            return None
        return sympy.Rational(self.total, self.base_total + self._added())

    def _added(self) -> int:
        # parameters the wrapper adds: the adapters and the trainable copies of saved modules
        return sum(
            v for k, v in self.breakdown.items() if k.startswith(("lora/", "modules_to_save/"))
        )

    def explain(self) -> str:
        lines = [f"LoRA rank r = {self.r} on {len(self.matched)} module(s)"]
        for comp, n in self.breakdown.items():
            lines.append(f"  {comp}: {sympy.sstr(self.component_formulas[comp])} = {n:,}")
        lines.append(f"  trainable: {self.total:,}")
        frac = self.trainable_fraction
        if frac is not None:
            lines.append(
                f"  of all parameters after wrapping ({self.base_total + self._added():,}): "
                f"{float(frac) * 100:.4f} %"
            )
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        frac = self.trainable_fraction
        return {
            "kind": "lora_count",
            "r": self.r,
            "total": self.total,
            "breakdown": dict(self.breakdown),
            "breakdown_formulas": {k: str(v) for k, v in self.component_formulas.items()},
            "matched_modules": list(self.matched),
            "symbols": dict(self.symbols),
            "formula": str(self.formula),
            "latex": self.latex(),
            "base_total": self.base_total,
            "trainable_fraction": None if frac is None else str(frac),
            "explanation": self.explain(),
        }

    def to_json(self) -> str:
        return _render.dumps(self.to_dict())

    def summary(self) -> str:
        """``LoRA r=8: 887,042 trainable parameters (0.7066 % of 125,534,212)``."""
        text = f"LoRA r={self.r}: {self.total:,} trainable parameters"
        frac = self.trainable_fraction
        if frac is not None:
            text += f" ({float(frac) * 100:.4f} % of {self.base_total + self._added():,})"
        return text

    def _table_parts(self):
        """Rows name each source by what tells it apart: the module path the LoRA rows
        share (``roberta.encoder.layer.*.attention.self.``) moves to the caption, so the
        rows read ``lora/….query`` and ``lora/….value`` instead of two cut-off copies of
        the same prefix."""
        lora = [k for k in self.breakdown if k.startswith("lora/")]
        prefix = _shared_module_prefix([k.removeprefix("lora/") for k in lora])
        shown = {k: (f"lora/…{k.removeprefix('lora/' + prefix)}" if k in lora and prefix else k)
                 for k in self.breakdown}
        rows = _render.formula_rows(
            {shown[k]: v for k, v in self.breakdown.items()},
            {shown[k]: f for k, f in self.component_formulas.items()},
            "trainable", self.total, self.formula,
        )
        caption = f"… = {prefix}" if prefix else None
        return f"LoRA r={self.r}", rows, ("source", "formula", "parameters"), caption

    def _html_notes(self) -> tuple[str, ...]:
        return (f"adapted: {len(self.matched)} module(s)",)


def _shared_module_prefix(names: list[str]) -> str:
    """The dotted module path several names share, up to and including its last dot
    (``"roberta.encoder.layer.*.attention.self."``); empty for fewer than two names."""
    if len(names) < 2:
        return ""
    parts = [n.split(".") for n in names]
    shared: list[str] = []
    for column in zip(*parts, strict=False):
        if len(set(column)) != 1:
            break
        shared.append(column[0])
    if any(len(p) <= len(shared) for p in parts):  # a name would vanish entirely
        shared = shared[:-1]
    return ".".join(shared) + "." if shared else ""


@dataclass(frozen=True)
class _Module:
    name: str  # expanded, e.g. "encoder.layer.3.attention.self.query"
    pattern: str  # with {i}
    kind: str
    weight: tuple[Param, Param] | None  # (int param, symbolic param)
    bias: tuple[Param, Param] | None


def _modules(int_params: list[Param], sym_params: list[Param]) -> dict[str, _Module]:
    """Leaf modules (those owning parameters), expanded over layers, in model order."""
    grouped: dict[str, dict[str, Any]] = {}
    for p, s in zip(int_params, sym_params, strict=True):
        slot = grouped.setdefault(p.module, {"kind": p.kind, "weight": None, "bias": None})
        if p.leaf == "weight":
            slot["weight"] = (p, s)
            slot["kind"] = p.kind
        elif p.leaf == "bias":
            slot["bias"] = (p, s)
    out: dict[str, _Module] = {}
    for pattern, slot in grouped.items():
        repeat = slot["weight"][0].repeat if slot["weight"] else 1
        names = (
            [pattern.replace("{i}", str(i)) for i in range(repeat)]
            if "{i}" in pattern
            else [pattern]
        )
        for name in names:
            out[name] = _Module(name, pattern, slot["kind"], slot["weight"], slot["bias"])
    return out


def _is_target(key: str, targets: str | Sequence[str]) -> bool:
    if isinstance(targets, str):
        return re.fullmatch(targets, key) is not None
    return key in targets or any(key.endswith(f".{t}") for t in targets)


def _under_saved(key: str, saved: Sequence[str]) -> bool:
    return any(re.match(rf"(^|.*\.){re.escape(m)}($|\..*)", key) for m in saved)


def lora_parameters(
    config: Any,
    head: str = "base",
    num_labels: int | None = None,
    *,
    r: int = 8,
    target_modules: str | Sequence[str] = ("query", "value"),
    bias: str = "none",
    task_type: str | None = None,
    modules_to_save: Iterable[str] | None = None,
) -> LoraCount:
    """The trainable count ``get_peft_model(model, LoraConfig(...))`` reports for this model.

    ``config``/``head``/``num_labels`` as `count_parameters`; the rest as peft's
    ``LoraConfig``. Example: ``lora_parameters("roberta-base", "seq-cls", 2, r=8,
    target_modules=["query", "value"], task_type="SEQ_CLS")``.
    """
    if isinstance(r, bool) or not isinstance(r, int) or r < 1:
        raise ConfigError(f"must be a positive integer, got {r!r}", field="r")
    if bias not in BIAS_MODES:
        raise ConfigError(f"must be one of {', '.join(BIAS_MODES)}, got {bias!r}", field="bias")
    if not target_modules:
        raise ConfigError("name at least one module to adapt", field="target_modules")
    count = count_parameters(config, head=head, num_labels=num_labels, convention="untied")
    base = count_parameters(config, head=head, num_labels=num_labels)
    int_params = list(count.params)
    sym_params = count._symbolic
    modules = _modules(int_params, sym_params)

    saved = list(modules_to_save or [])
    if task_type == "SEQ_CLS":
        saved += [m for m in SEQ_CLS_MODULES if m not in saved]

    targets = target_modules if isinstance(target_modules, str) else list(target_modules)
    breakdown: dict[str, int] = {}
    terms: list[tuple[str, Any]] = []
    matched: list[str] = []
    trainable_names: dict[str, tuple[Param, Param]] = {}  # base params made trainable
    by_pattern: dict[str, list[_Module]] = {}
    for key, mod in modules.items():
        if not _is_target(key, targets) or _under_saved(key, saved):
            continue
        if mod.kind not in (LINEAR, CONV1D, EMBED) or mod.weight is None:
            raise UnsupportedConfig(
                f"{key} is a {mod.kind} module; LoRA adapts Linear, Conv1D and Embedding layers",
                field="target_modules",
            )
        matched.append(key)
        by_pattern.setdefault(mod.pattern, []).append(mod)
        if bias == "lora_only" and mod.bias is not None:
            trainable_names[key + ".bias"] = mod.bias
    if not matched:
        raise ConfigError(
            f"{target_modules!r} matches no Linear, Conv1D or Embedding module of this model",
            field="target_modules",
        )
    for pattern, mods in by_pattern.items():
        wi, ws = mods[0].weight
        a, b = wi.shape
        n_inst = len(mods)
        comp = "lora/" + pattern.replace("{i}", "*")
        breakdown[comp] = n_inst * r * (a + b)
        mult = ws.repeat if n_inst == wi.repeat and wi.repeat != 1 else n_inst
        terms.append((comp, mult * R * (ws.shape[0] + ws.shape[1])))

    if bias == "all":
        for p, s in zip(int_params, sym_params, strict=True):
            if p.tied_to is None and p.leaf == "bias":
                for name in p.names():
                    trainable_names[name] = (p, s)

    saved_modules = _saved_module_prefixes(int_params, saved)
    for prefix in saved_modules:
        comp = f"modules_to_save/{prefix}"
        for p, s in zip(int_params, sym_params, strict=True):
            if p.tied_to is None and (p.name.startswith(prefix + ".")):
                for name in p.names():
                    trainable_names.pop(name, None)  # the frozen original is not counted
                breakdown[comp] = breakdown.get(comp, 0) + p.count()
                terms.append((comp, s.count()))

    if trainable_names:
        comp = f"bias/{bias}"
        groups: dict[str, list[Any]] = {}
        for p, sym in trainable_names.values():
            groups.setdefault(p.name, [p, sym, 0])[2] += 1
        for p, sym, n_inst in groups.values():
            breakdown[comp] = breakdown.get(comp, 0) + n_inst * p.size()
            mult = sym.repeat if p.repeat != 1 and n_inst == p.repeat else n_inst
            terms.append((comp, mult * sym.size()))

    return LoraCount(
        total=sum(breakdown.values()),
        breakdown=breakdown,
        r=r,
        matched=tuple(matched),
        symbols={"r": r, **count.symbols},
        base_total=base.total,
        _terms=tuple(terms),
    )


def _saved_module_prefixes(params: list[Param], saved: Sequence[str]) -> list[str]:
    """Module names that end with a modules_to_save entry (peft's plain suffix rule)."""
    if not saved:
        return []
    prefixes: list[str] = []
    for p in params:
        if "{i}" in p.name:
            continue  # heads and classifiers are never inside the repeated layers
        parts = p.module.split(".") if p.module else []
        for k in range(1, len(parts) + 1):
            key = ".".join(parts[:k])
            if key not in prefixes and any(key.endswith(m) for m in saved):
                prefixes.append(key)
    # a saved module inside another saved module is already counted by the outer one
    return [k for k in prefixes if not any(k != o and k.startswith(o + ".") for o in prefixes)]


def lora_matrices(shapes: Sequence[tuple[int, int]], r: int, n_layers: int = 1) -> LoraCount:
    """The plain formula: ``n_layers * sum(r * (d_in + d_out))`` over adapted matrices.

    ``lora_matrices([(6144, 6144), (6144, 6144)], r=8, n_layers=48)`` is STAT8021 Q3(e)(I).
    """
    if isinstance(r, bool) or not isinstance(r, int) or r < 1:
        raise ConfigError(f"must be a positive integer, got {r!r}", field="r")
    if isinstance(n_layers, bool) or not isinstance(n_layers, int) or n_layers < 1:
        raise ConfigError(f"must be a positive integer, got {n_layers!r}", field="n_layers")
    if not shapes:
        raise ConfigError("give at least one (d_in, d_out) pair", field="shapes")
    breakdown: dict[str, int] = {}
    terms: list[tuple[str, Any]] = []
    L = symbol("n_layers")
    for k, shape in enumerate(shapes):
        if len(shape) != 2 or any(
            isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in shape
        ):
            raise ConfigError(
                f"entry {k} must be two positive integers, got {shape!r}", field="shapes"
            )
        d_in, d_out = shape
        comp = f"matrix {k + 1} ({d_in} -> {d_out})"
        breakdown[comp] = n_layers * r * (d_in + d_out)
        terms.append((comp, L * R * (symbol(f"d_in{k + 1}") + symbol(f"d_out{k + 1}"))))
    symbols = {"r": r, "n_layers": n_layers}
    for k, (d_in, d_out) in enumerate(shapes):
        symbols[f"d_in{k + 1}"] = d_in
        symbols[f"d_out{k + 1}"] = d_out
    return LoraCount(
        total=sum(breakdown.values()),
        breakdown=breakdown,
        r=r,
        matched=tuple(breakdown),
        symbols=symbols,
        _terms=tuple(terms),
    )
