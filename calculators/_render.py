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
        # long names wrap instead of being cut to a shared prefix ("lora/roberta.enc…")
        t.add_column(col, justify="left" if i == 0 else "right",
                     overflow="fold" if i == 0 else "ellipsis")
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


def html_table(
    title: str,
    rows: list[tuple[str, ...]],
    columns: tuple[str, ...],
    caption: str | None = None,
    summary: str | None = None,
    notes: tuple[str, ...] | list[str] = (),
) -> str:
    """The same table as `table`, as self-contained HTML (Jupyter's ``_repr_html_``)."""
    from html import escape

    head = "".join(
        f'<th style="text-align:{"left" if i == 0 else "right"}">{escape(c)}</th>'
        for i, c in enumerate(columns)
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td style="text-align:{"left" if i == 0 else "right"}">{escape(str(v))}</td>'
            for i, v in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    parts = [f"<div><strong>{escape(summary)}</strong>" if summary else "<div>"]
    parts.append(f"<table><caption>{escape(title)}</caption><thead><tr>{head}</tr></thead>"
                 f"<tbody>{body}</tbody></table>")
    if caption:
        parts.append(f"<p><code>{escape(caption)}</code></p>")
    parts.extend(f"<p>{escape(n)}</p>" for n in notes)
    parts.append("</div>")
    return "".join(parts)


class Shown:
    """What every result offers people: ``str`` is one readable line (`summary`), the
    repr names the type with that line, ``table()`` / ``__rich__`` a rich table, and
    ``_repr_html_`` the same table for Jupyter. A result defines `summary` and
    `_table_parts` (title, rows, columns, caption)."""

    def summary(self) -> str:
        raise NotImplementedError

    def _table_parts(self) -> tuple[str, list[tuple[str, ...]], tuple[str, ...], str | None]:
        raise NotImplementedError

    def _html_notes(self) -> tuple[str, ...]:
        return tuple(getattr(self, "notes", ()) or ())

    def table(self):
        return table(*self._table_parts())

    def __rich__(self):
        return self.table()

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.summary()}>"

    def _repr_html_(self) -> str:
        title, rows, columns, caption = self._table_parts()
        return html_table(title, rows, columns, caption, summary=self.summary(),
                          notes=self._html_notes())
