"""Softmax and cross-entropy, exactly: ``-log(e^3 / (e^0.5 + ...))`` as well as its float.

Logits are read as written (``0.5`` is 1/2, not a binary float), so the exact
form is the one a student writes by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy

from calculators import _render
from calculators.errors import ConfigError


def _logits(logits: Sequence[Any]) -> list[sympy.Rational]:
    if isinstance(logits, str):
        logits = [x for x in logits.replace(";", ",").split(",") if x.strip()]
    if not logits:
        raise ConfigError("give at least one logit", field="logits")
    out = []
    for i, x in enumerate(logits):
        if isinstance(x, bool):
            raise ConfigError(f"entry {i} is not a number: {x!r}", field="logits")
        try:
            out.append(sympy.Rational(str(x).strip()))
        except (TypeError, ValueError, sympy.SympifyError):
            raise ConfigError(f"entry {i} is not a number: {x!r}", field="logits") from None
    return out


@dataclass(frozen=True, repr=False)
class Softmax(_render.Shown):
    logits: tuple[sympy.Rational, ...]
    exact: tuple[sympy.Expr, ...]

    @property
    def probabilities(self) -> list[float]:
        return [float(p) for p in self.exact]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "softmax",
            "logits": [str(x) for x in self.logits],
            "probabilities": self.probabilities,
            "exact": [str(p) for p in self.exact],
            "latex": [sympy.latex(p) for p in self.exact],
        }

    def to_json(self) -> str:
        return _render.dumps(self.to_dict())

    def summary(self) -> str:
        return "softmax: " + ", ".join(f"{p:.6f}" for p in self.probabilities)

    def _table_parts(self):
        rows = [
            (str(i), str(x), f"{p:.6f}")
            for i, (x, p) in enumerate(zip(self.logits, self.probabilities, strict=True))
        ]
        return "softmax", rows, ("index", "logit", "probability"), None


def softmax(logits: Sequence[Any]) -> Softmax:
    """``e^{z_i} / sum_j e^{z_j}``, exact, for each logit."""
    z = _logits(logits)
    denom = sympy.Add(*(sympy.exp(x) for x in z))
    return Softmax(tuple(z), tuple(sympy.exp(x) / denom for x in z))


@dataclass(frozen=True, repr=False)
class CrossEntropy(_render.Shown):
    logits: tuple[sympy.Rational, ...]
    target: int
    base: Any
    probability: sympy.Expr  # exact p(target)
    exact: sympy.Expr  # exact loss

    @property
    def value(self) -> float:
        return float(self.exact)

    @property
    def total(self) -> sympy.Expr:
        return self.exact

    @property
    def unit(self) -> str:
        return (
            "nats"
            if self.base == sympy.E
            else "bits"
            if self.base == 2
            else f"log base {self.base}"
        )

    def latex(self) -> str:
        return sympy.latex(self.exact)

    def explain(self) -> str:
        return "\n".join(
            [
                f"p(target = {self.target}) = {sympy.sstr(self.probability)} = {float(self.probability):.6f}",
                f"cross-entropy = -log p = {sympy.sstr(self.exact)} = {self.value:.6f} {self.unit}",
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "cross_entropy",
            "logits": [str(x) for x in self.logits],
            "target": self.target,
            "probability": float(self.probability),
            "probability_exact": str(self.probability),
            "value": self.value,
            "exact": str(self.exact),
            "latex": self.latex(),
            "unit": self.unit,
            "explanation": self.explain(),
        }

    def to_json(self) -> str:
        return _render.dumps(self.to_dict())

    def summary(self) -> str:
        return (f"cross-entropy, target {self.target}: {self.value:.6f} {self.unit} "
                f"(p = {float(self.probability):.6f})")

    def _table_parts(self):
        rows = [
            ("p(target)", f"{float(self.probability):.6f}"),
            ("loss", f"{self.value:.6f} {self.unit}"),
        ]
        return f"cross-entropy, target {self.target}", rows, ("", "value"), sympy.sstr(self.exact)


def cross_entropy(logits: Sequence[Any], target: int, base: Any = None) -> CrossEntropy:
    """``-log softmax(logits)[target]``: natural log (nats) by default, ``base=2`` for bits."""
    z = _logits(logits)
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < len(z):
        raise ConfigError(
            f"must be an index from 0 to {len(z) - 1}, got {target!r}", field="target"
        )
    b = sympy.E if base is None or base == "e" else sympy.Integer(base)
    if b != sympy.E and b <= 1:
        raise ConfigError(f"must be greater than 1, got {base!r}", field="base")
    p = softmax(z).exact[target]
    loss = -sympy.log(p) if b == sympy.E else -sympy.log(p) / sympy.log(b)
    return CrossEntropy(tuple(z), target, b, p, loss)
