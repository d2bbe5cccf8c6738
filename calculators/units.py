"""Byte units: powers of ten and powers of two are different constants, never confused.

``GB = 10**9`` and ``GiB = 2**30``; conversion happens only when a value is shown.
These tables are the one definition of the byte units; ``calculators.answers.units``
builds the units a student may write (bits too) from them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

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


def readable(value: Any, digits: int = 4) -> str:
    """A value for people: an exact integer with separators, else ``digits`` significant
    figures (``25.77``, ``0.0755``), scientific beyond 10^15 or below 10^-4."""
    value = sympy.Rational(value)
    if value.q == 1 and abs(value) < 10**15:
        return f"{int(value):,}"
    x = float(value)
    if x == 0:
        return "0"
    mag = math.floor(math.log10(abs(x)))
    if mag >= 15 or mag < -4:
        return scientific(value, digits)
    text = f"{x:,.{max(0, digits - 1 - mag)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def scientific(value: Any, digits: int = 4) -> str:
    """``8.4e+22``: ``digits`` significant figures, trailing zeros of the mantissa dropped."""
    mantissa, exponent = f"{float(sympy.Rational(value)):.{digits - 1}e}".split("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{exponent}"


@dataclass(frozen=True, eq=False)
class Quantity:
    """An exact amount in a unit, as ``Memory.to("GB")`` returns it.

    Reads as ``25.77 GB``; ``float(q)`` and ``int(q)`` convert, ``q.exact`` is the exact
    rational, ``q.to("GiB")`` converts between byte units. It compares equal to the
    number it holds (``kv.to("GiB") == 2``) and to the same amount in another byte unit.
    """

    exact: sympy.Rational
    unit: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "exact", sympy.Rational(self.exact))

    @property
    def value(self) -> float:
        return float(self.exact)

    def to(self, unit: str) -> Quantity:
        """The same amount in another byte unit (``bit`` included)."""
        if self.unit not in BYTE_UNITS or unit not in BYTE_UNITS:
            raise ValueError(f"cannot convert {self.unit} to {unit}")
        n_bytes = self.exact / 8 if self.unit == "bit" else self.exact * BYTE_UNITS[self.unit]
        return Quantity(to_unit(n_bytes, unit), unit)

    def _bytes(self) -> sympy.Rational | None:
        if self.unit not in BYTE_UNITS:
            return None
        return self.exact / 8 if self.unit == "bit" else self.exact * BYTE_UNITS[self.unit]

    def __str__(self) -> str:
        return f"{readable(self.exact)} {self.unit}"

    def __repr__(self) -> str:
        shown = str(self)
        if self.exact.q != 1:
            shown += f" = {self.exact} {self.unit}"
        return f"<Quantity {shown}>"

    def __format__(self, spec: str) -> str:
        return f"{format(float(self.exact), spec)} {self.unit}" if spec else str(self)

    def _repr_html_(self) -> str:
        return f"<code>{str(self)}</code>"

    def _sympy_(self) -> sympy.Rational:
        return self.exact

    def __float__(self) -> float:
        return float(self.exact)

    def __int__(self) -> int:
        return int(self.exact)

    def __round__(self, ndigits: int | None = None) -> Any:
        return round(float(self.exact), ndigits)

    def __bool__(self) -> bool:
        return self.exact != 0

    def _other(self, other: Any) -> Any:
        if isinstance(other, Quantity):
            if other.unit == self.unit:
                return other.exact
            mine, theirs = self._bytes(), other._bytes()
            if mine is None or theirs is None:
                return NotImplemented
            return theirs / (mine / self.exact) if self.exact else None
        if isinstance(other, bool):
            return NotImplemented
        if isinstance(other, int | float | sympy.Basic):
            return sympy.Rational(str(other)) if isinstance(other, float) else sympy.sympify(other)
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Quantity) and self.unit != other.unit:
            mine, theirs = self._bytes(), other._bytes()
            return mine is not None and theirs is not None and bool(mine == theirs)
        value = self._other(other)
        if value is NotImplemented:
            return NotImplemented
        return bool(self.exact == value)

    def __hash__(self) -> int:
        return hash(self.exact)

    def _compare(self, other: Any, op) -> bool:
        if isinstance(other, Quantity) and self.unit != other.unit:
            mine, theirs = self._bytes(), other._bytes()
            if mine is None or theirs is None:
                return NotImplemented
            return bool(op(mine, theirs))
        value = self._other(other)
        return NotImplemented if value is NotImplemented else bool(op(self.exact, value))

    def __lt__(self, other: Any) -> bool:
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other: Any) -> bool:
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self, other: Any) -> bool:
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other: Any) -> bool:
        return self._compare(other, lambda a, b: a >= b)

    def __add__(self, other: Any) -> Any:
        if isinstance(other, Quantity):
            if other.unit != self.unit:
                other = other.to(self.unit)
            return Quantity(self.exact + other.exact, self.unit)
        value = self._other(other)
        return NotImplemented if value is NotImplemented else self.exact + value

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        if isinstance(other, Quantity):
            if other.unit != self.unit:
                other = other.to(self.unit)
            return Quantity(self.exact - other.exact, self.unit)
        value = self._other(other)
        return NotImplemented if value is NotImplemented else self.exact - value

    def __rsub__(self, other: Any) -> Any:
        value = self._other(other)
        return NotImplemented if value is NotImplemented else value - self.exact

    def __mul__(self, other: Any) -> Any:
        value = self._other(other)
        if value is NotImplemented or isinstance(other, Quantity):
            return NotImplemented
        return Quantity(self.exact * value, self.unit)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        if isinstance(other, Quantity):  # a ratio of two amounts: a plain number
            if other.unit != self.unit:
                other = other.to(self.unit)
            return self.exact / other.exact
        value = self._other(other)
        return NotImplemented if value is NotImplemented else Quantity(self.exact / value,
                                                                       self.unit)

    def __rtruediv__(self, other: Any) -> Any:
        value = self._other(other)
        return NotImplemented if value is NotImplemented else value / self.exact

    def __neg__(self) -> Quantity:
        return Quantity(-self.exact, self.unit)

    def __abs__(self) -> Quantity:
        return Quantity(abs(self.exact), self.unit)
