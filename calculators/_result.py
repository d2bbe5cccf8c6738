"""The result type shared by the smaller calculators (memory, FFN, loss, FLOPs).

Like `ParameterCount`: an exact value, a breakdown that adds up to it, the
formula in named symbols, the symbols' values, and an explanation; renders as
a rich table, as JSON, as one readable line (``str``/``print``) and as an HTML
table in Jupyter (``_repr_html_``, from `_render.Shown`). FLOPs read in
scientific form (``8.4e+22 FLOPs``); the exact integer stays in ``.value``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy

from calculators import _render, units
from calculators.params._spec import symbol


@dataclass(frozen=True, repr=False)
class Result(_render.Shown):
    kind: str
    value: Any  # int or sympy.Rational (exact)
    unit: str
    formula: sympy.Expr
    symbols: dict[str, Any]
    breakdown: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    # the memory convention a figure was computed under (`calc.conventions("memory")`);
    # None where there is only one way to count
    convention: str | None = None

    @property
    def total(self) -> Any:
        return self.value

    def subs(self) -> dict[sympy.Symbol, Any]:
        return {symbol(k): sympy.nsimplify(v) for k, v in self.symbols.items()}

    def latex(self) -> str:
        return sympy.latex(self.formula)

    @property
    def title(self) -> str:
        return self.kind.replace("_", " ").replace("flops", "FLOPs").replace("gpu", "GPU")

    def _show(self, v: Any) -> str:
        """One value: FLOPs in scientific form, everything else exact or rounded."""
        if self.unit == "FLOPs" and abs(v) >= 10**6:
            return units.scientific(v)
        if self.unit.endswith("-hours"):
            return units.readable(v)
        return units.show(v)

    def _value_text(self) -> str:
        return f"{self._show(self.value)} {self.unit}"

    @property
    def scientific(self) -> str:
        """The value in scientific form, e.g. ``8.4e+22``."""
        return units.scientific(self.value)

    def summary(self) -> str:
        return f"{self.title}: {self._value_text()}"

    def explain(self) -> str:
        values = ", ".join(
            f"{k} = {units.show(sympy.nsimplify(v))}" for k, v in self.symbols.items()
        )
        lines = [f"{self.title}: {sympy.sstr(self.formula)}"]
        if values:
            lines.append(f"  with {values}")
        for comp, v in self.breakdown.items():
            lines.append(f"  {comp}: {self._show(v)}")
        lines.append(f"  = {self._value_text()}")
        if isinstance(self.value, int) and self._show(self.value) != units.show(self.value):
            lines.append(f"  exactly {units.show(self.value)} {self.unit}")
        lines.extend(f"  {n}" for n in self.notes)
        if self.convention is not None:
            lines.append(f"  convention: {self.convention} ({_convention_text(self.convention)})")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "value": self.value,
            "value_float": float(self.value),
            "value_scientific": units.scientific(self.value),
            "unit": self.unit,
            "breakdown": dict(self.breakdown),
            "symbols": dict(self.symbols),
            "formula": str(self.formula),
            "latex": self.latex(),
            "notes": list(self.notes),
            **({"convention": self.convention} if self.convention is not None else {}),
            "explanation": self.explain(),
        }

    def to_json(self) -> str:
        return _render.dumps(self.to_dict())

    def _table_parts(self):
        rows = [(k, self._show(v)) for k, v in self.breakdown.items()]
        rows.append(("total", self._value_text()))
        title = self.title if self.convention is None else f"{self.title} · {self.convention}"
        return title, rows, ("component", "value"), sympy.sstr(self.formula)


@dataclass(frozen=True, repr=False)
class Memory(Result):
    """A size in bytes (exact), shown in decimal (kB..TB) and binary (KiB..TiB) units."""

    @property
    def bytes(self) -> Any:
        return self.value

    def to(self, unit: str) -> units.Quantity:
        """The size in ``unit``: ``m.to("GB")`` reads ``25.77 GB``; ``float()`` of it is
        25.769803776 and ``.exact`` the exact rational. ``GB`` is 10^9 bytes, ``GiB`` 2^30."""
        return units.Quantity(units.to_unit(self.value, unit), unit)

    def _value_text(self) -> str:
        dec, binu = units.best_units(self.value)
        parts = [f"{units.show(self.value)} bytes"]
        if dec != "B":
            parts.append(
                f"{units.show(units.to_unit(self.value, dec))} {dec} "
                f"(10^{len(str(units.DECIMAL[dec])) - 1} bytes)"
            )
        if binu != "B":
            exp = units.BINARY[binu].bit_length() - 1
            parts.append(f"{units.show(units.to_unit(self.value, binu))} {binu} (2^{exp} bytes)")
        return " = ".join(parts)

    def summary(self) -> str:
        """The size alone, in bytes, decimal and binary units (as ``print`` shows it)."""
        return self._value_text()

    def __repr__(self) -> str:
        return f"<Memory {self.title}: {self._value_text()}>"

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["bytes"] = self.value
        out["in_units"] = {
            u: str(units.to_unit(self.value, u))
            for u in ("kB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB")
        }
        out["in_units_float"] = {u: float(units.to_unit(self.value, u)) for u in out["in_units"]}
        return out


def _convention_text(name: str) -> str:
    from calculators.scale import MEMORY_CONVENTIONS

    return MEMORY_CONVENTIONS.get(name, "")
