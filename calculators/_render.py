"""Shared helpers to show results: thousands separators, rich tables, JSON-safe values."""

from __future__ import annotations

import json
from typing import Any

import sympy


def fmt_int(n: int) -> str:
    return f"{n:,}"


def jsonable(value: Any) -> Any:
    """Turn sympy numbers and expressions into JSON values without losing exactness.

    Integers stay ints; rationals become a string ``"p/q"`` beside a float where
    the caller wants one; expressions become their string form.
    """
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, sympy.Integer):
        return int(value)
    if isinstance(value, sympy.Rational):
        return str(value)
    if isinstance(value, sympy.Basic):
        return str(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return str(value)


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(jsonable(data), indent=2, ensure_ascii=False)


def table(
    title: str, rows: list[tuple[str, ...]], columns: tuple[str, ...], caption: str | None = None
):
    """A rich Table; imported lazily so `import calculators` stays light."""
    from rich.table import Table

    t = Table(title=title, caption=caption, caption_justify="left")
    for i, col in enumerate(columns):
        t.add_column(col, justify="left" if i == 0 else "right")
    for row in rows:
        t.add_row(*row)
    return t


def formula_rows(
    breakdown, formulas, total_label: str, total, total_formula
) -> list[tuple[str, ...]]:
    """Rows of (component, formula, count) ending with the total, for count results."""
    import sympy

    rows = [(comp, sympy.sstr(formulas[comp]), fmt_int(n)) for comp, n in breakdown.items()]
    rows.append((total_label, sympy.sstr(total_formula), fmt_int(total)))
    return rows
