"""Byte units: powers of ten and powers of two are different constants, never confused.

``GB = 10**9`` and ``GiB = 2**30``; conversion happens only when a value is shown.
These tables are the one definition of the byte units; ``calculators.answers.units``
builds the units a student may write (bits too) from them.
"""

from __future__ import annotations

import sympy

DECIMAL = {"B": 1, "kB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12}
BINARY = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}
BYTE_UNITS: dict[str, int] = {**DECIMAL, **BINARY, "bit": 1}  # "bit" handled in to()

KB, MB, GB, TB = DECIMAL["kB"], DECIMAL["MB"], DECIMAL["GB"], DECIMAL["TB"]
KiB, MiB, GiB, TiB = BINARY["KiB"], BINARY["MiB"], BINARY["GiB"], BINARY["TiB"]


def to_unit(n_bytes: int | sympy.Rational, unit: str) -> sympy.Rational:
    """Exact value of ``n_bytes`` in ``unit`` (a rational; bits are 8 per byte)."""
    if unit == "bit":
        return sympy.Rational(n_bytes) * 8
    if unit not in BYTE_UNITS:
        raise ValueError(f"unknown byte unit {unit!r}; known: bit, {', '.join(BYTE_UNITS)}")
    return sympy.Rational(n_bytes) / BYTE_UNITS[unit]


def best_units(n_bytes: int | sympy.Rational) -> tuple[str, str]:
    """The largest decimal and binary units in which the value is at least 1."""
    dec = max((u for u, f in DECIMAL.items() if n_bytes >= f), key=DECIMAL.get, default="B")
    binu = max((u for u, f in BINARY.items() if n_bytes >= f), key=BINARY.get, default="B")
    return dec, binu


def show(value: sympy.Rational, digits: int = 4) -> str:
    """An exact rational for people: an integer with separators, else a rounded decimal."""
    value = sympy.Rational(value)
    if value.q == 1:
        return f"{int(value):,}"
    return (
        f"{float(value):,.{digits}g}"
        if abs(value) < 1
        else f"{float(value):,.{digits}f}".rstrip("0").rstrip(".")
    )
