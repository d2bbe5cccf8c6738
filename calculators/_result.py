"""The result type shared by the smaller calculators (memory, FFN, loss, FLOPs).

Like `ParameterCount`: an exact value, a breakdown that adds up to it, the
formula in named symbols, the symbols' values, and an explanation; renders as
a rich table and as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy

from calculators import _render, units
from calculators.params._spec import symbol


@dataclass(frozen=True)
class Result:
    kind: str
    value: Any  # int or sympy.Rational (exact)
    unit: str
    formula: sympy.Expr
    symbols: dict[str, Any]
    breakdown: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> Any:
        return self.value

    def subs(self) -> dict[sympy.Symbol, Any]:
        return {symbol(k): sympy.nsimplify(v) for k, v in self.symbols.items()}

    def latex(self) -> str:
        return sympy.latex(self.formula)

    def _value_text(self) -> str:
        return f"{units.show(self.value)} {self.unit}"

    def explain(self) -> str:
        values = ", ".join(
            f"{k} = {units.show(sympy.nsimplify(v))}" for k, v in self.symbols.items()
        )
        lines = [f"{self.kind.replace('_', ' ')}: {sympy.sstr(self.formula)}"]
        if values:
            lines.append(f"  with {values}")
        for comp, v in self.breakdown.items():
            lines.append(f"  {comp}: {units.show(v)}")
        lines.append(f"  = {self._value_text()}")
        lines.extend(f"  {n}" for n in self.notes)
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "value": self.value,
            "value_float": float(self.value),
            "unit": self.unit,
            "breakdown": dict(self.breakdown),
            "symbols": dict(self.symbols),
            "formula": str(self.formula),
            "latex": self.latex(),
            "notes": list(self.notes),
            "explanation": self.explain(),
        }

    def to_json(self) -> str:
        return _render.dumps(self.to_dict())

    def table(self):
        rows = [(k, units.show(v)) for k, v in self.breakdown.items()]
        rows.append(("total", self._value_text()))
        return _render.table(
            self.kind.replace("_", " "),
            rows,
            ("component", "value"),
            caption=sympy.sstr(self.formula),
        )

    def __rich__(self):
        return self.table()


@dataclass(frozen=True)
class Memory(Result):
    """A size in bytes (exact), shown in decimal (kB..TB) and binary (KiB..TiB) units."""

    @property
    def bytes(self) -> Any:
        return self.value

    def to(self, unit: str) -> sympy.Rational:
        """Exact value in ``unit``: ``q.to("GiB")``; ``GB`` is 10^9 bytes, ``GiB`` 2^30."""
        return units.to_unit(self.value, unit)

    def _value_text(self) -> str:
        dec, binu = units.best_units(self.value)
        parts = [f"{units.show(self.value)} bytes"]
        if dec != "B":
            parts.append(
                f"{units.show(self.to(dec))} {dec} (10^{len(str(units.DECIMAL[dec])) - 1} bytes)"
            )
        if binu != "B":
            exp = units.BINARY[binu].bit_length() - 1
            parts.append(f"{units.show(self.to(binu))} {binu} (2^{exp} bytes)")
        return " = ".join(parts)

    def __str__(self) -> str:
        return self._value_text()

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["bytes"] = self.value
        out["in_units"] = {
            u: str(self.to(u)) for u in ("kB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB")
        }
        out["in_units_float"] = {u: float(self.to(u)) for u in out["in_units"]}
        return out
