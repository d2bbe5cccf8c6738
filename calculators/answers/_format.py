"""How exact values are shown to a student: separators for counts, a few figures otherwise.

Values stay exact everywhere else; this is the one place a float-like rounding
happens, and only for display.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, localcontext

from sympy import Expr, Rational

from calculators.answers import units


def _as_decimal(value: Expr, digits: int = 30) -> Decimal:
    if value.is_Rational:
        with localcontext() as ctx:
            ctx.prec = digits
            return Decimal(int(value.p)) / Decimal(int(value.q))
    return Decimal(str(value.evalf(digits)))


def format_value(value: Expr, sig: int = 4, *, exact_decimals: bool = True) -> str:
    """``21018401`` -> ``21,018,401``; ``2577/100`` -> ``25.77``; ``E**3/Z`` -> ``0.7497``.

    A short terminating decimal is shown exactly unless ``exact_decimals`` is off
    (memory sizes read better as "25.77 GB" than as "25.769803776 GB").
    """
    if value.is_Integer:
        return f"{int(value):,}"
    if value.is_Rational and exact_decimals:
        q = int(value.q)
        while q % 2 == 0:
            q //= 2
        while q % 5 == 0:
            q //= 5
        if q == 1:  # a terminating decimal: show it exactly when it is short
            text = format(_as_decimal(value, 60).normalize(), "f")
            if len(text.replace("-", "").replace(".", "").lstrip("0")) <= 12:
                return _group(text)
    dec = _as_decimal(value)
    if dec == 0:
        return "0"
    exponent = dec.adjusted()
    if exponent >= 15 or exponent < -5:
        mantissa = dec.scaleb(-exponent).quantize(Decimal(1).scaleb(1 - sig), ROUND_HALF_EVEN)
        return f"{_trim(format(mantissa, 'f'))} × 10^{exponent}"
    places = sig - 1 - exponent  # digits to keep after the point
    if places <= 0:
        return _group(format(dec.quantize(Decimal(1), ROUND_HALF_EVEN), "f"))
    rounded = dec.quantize(Decimal(1).scaleb(-places), ROUND_HALF_EVEN)
    return _group(_trim(format(rounded, "f")))


def _trim(text: str) -> str:
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _group(text: str) -> str:
    sign = "-" if text.startswith("-") else ""
    body = text.lstrip("-")
    whole, _, frac = body.partition(".")
    whole = f"{int(whole):,}"
    return sign + whole + ("." + frac if frac else "")


def format_quantity(value: Expr, unit: str | None, sig: int = 4) -> str:
    """A value in a unit as a student would write it: ``25.77 GB``, ``0.0651 %``, ``9,437,184``."""
    if unit == "percent":
        return f"{format_value(value * 100, sig)} %"
    if unit is None or unit == "times":
        return format_value(value, sig)
    return f"{format_value(value, sig)} {unit}"


def format_bytes_in(nbytes: Expr, unit: str, sig: int = 4) -> str:
    """Exact bytes shown in ``unit`` (``B`` is shown as ``bytes``)."""
    shown = units.from_bytes(nbytes, unit)
    label = "bytes" if unit == "B" else unit
    return f"{format_value(shown, sig, exact_decimals=False)} {label}"


def format_factor(exponent: int) -> str:
    """10^3 -> ``1,000``; 10^9 -> ``10^9`` (large factors read better as powers)."""
    if abs(exponent) <= 6:
        return f"{10 ** abs(exponent):,}"
    return f"10^{abs(exponent)}"


def format_percent(ratio: Rational) -> str:
    return f"{format_value(abs(ratio) * 100, 2)} %"


__all__ = [
    "format_bytes_in",
    "format_factor",
    "format_percent",
    "format_quantity",
    "format_value",
]
