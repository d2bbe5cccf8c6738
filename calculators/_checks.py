"""Argument checks that raise a `ConfigError` naming the argument."""

from __future__ import annotations

from typing import Any

import sympy

from calculators.errors import ConfigError


def positive_int(name: str, value: Any, *, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int | sympy.Integer):
        raise ConfigError(f"must be an integer, got {value!r}", field=name)
    if value < minimum:
        raise ConfigError(f"must be at least {minimum}, got {value}", field=name)
    return int(value)


def positive_number(name: str, value: Any) -> sympy.Rational:
    """An exact positive rational from an int, a decimal string or a float (read as written)."""
    if isinstance(value, bool):
        raise ConfigError(f"must be a number, got {value!r}", field=name)
    try:
        exact = (
            sympy.Rational(str(value)) if isinstance(value, float | str) else sympy.Rational(value)
        )
    except (TypeError, ValueError, sympy.SympifyError):
        raise ConfigError(f"must be a number, got {value!r}", field=name) from None
    if exact <= 0:
        raise ConfigError(f"must be positive, got {value!r}", field=name)
    return exact


def n_params_of(value: Any) -> int:
    """An int, or anything with an exact ``.total`` (a ParameterCount, a LoraCount)."""
    total = getattr(value, "total", value)
    return positive_int("n_params", total)
