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


SUFFIXES = {"k": 10**3, "m": 10**6, "b": 10**9, "t": 10**12}
"""Multipliers a count may carry: ``7B`` parameters, ``2T`` tokens, ``125M``."""


def whole_number(name: str, value: Any, *, minimum: int = 1) -> int:
    """A count written any way people write it: ``7000000000``, ``7e9`` (a float that is a
    whole number), ``"7e9"``, ``"7_000_000_000"``, ``"7,000,000,000"``, ``"7B"``
    (k, M, B, T). A fraction (``7.5``, ``"1e-3"``) is refused, never rounded."""
    if isinstance(value, bool):
        raise ConfigError(f"must be an integer, got {value!r}", field=name)
    if isinstance(value, float):  # read as written: 8.4e22 is 84 followed by 21 zeros
        if not value.is_integer():
            raise ConfigError(f"must be a whole number, got {value!r}", field=name)
        value = int(sympy.Rational(repr(value)))
    elif isinstance(value, str):
        exact = _number(value)
        if exact is None:
            raise ConfigError(f"must be a number such as 7e9 or 7B, got {value!r}", field=name)
        if exact.q != 1:
            raise ConfigError(f"must be a whole number, got {value!r}", field=name)
        value = int(exact)
    elif isinstance(value, sympy.Rational) and value.q == 1:
        value = int(value)
    return positive_int(name, value, minimum=minimum)


def _number(text: str) -> sympy.Rational | None:
    """The exact number a string writes (separators and a k/M/B/T suffix allowed)."""
    t = text.strip().replace("_", "").replace(",", "").replace(" ", "")
    scale = 1
    if t and t[-1].lower() in SUFFIXES and not t[-1].isdigit():
        scale, t = SUFFIXES[t[-1].lower()], t[:-1]
    if not t or not all(c.isdigit() or c in ".eE+-" for c in t):
        return None
    try:
        return sympy.Rational(t) * scale
    except (TypeError, ValueError, sympy.SympifyError):
        return None


def resolve_n_params(value: Any) -> tuple[int, str | None]:
    """A parameter count from what a user has at hand, and a note saying where it came from.

    An int or a float-like whole number (``7e9``, ``"7B"``); anything with an exact
    ``.total`` (a ParameterCount, a LoraCount); or a model: a registry name
    (``"Llama-2-7b"``), a config dict or a ``PretrainedConfig``, counted as the class its
    ``architectures`` names (``LlamaForCausalLM``: with the LM head, the figure model cards
    quote), else as ``AutoModel`` builds it.
    """
    if isinstance(value, str | int | float | sympy.Basic):
        if isinstance(value, str) and _number(value) is None:
            return _model_count(value)
        return whole_number("n_params", value), None
    total = getattr(value, "total", None)
    if total is not None:  # a count result
        return positive_int("n_params", total), None
    if isinstance(value, dict) or callable(getattr(value, "to_dict", None)):
        return _model_count(value)
    return whole_number("n_params", value), None


def _model_count(config: Any) -> tuple[int, str]:
    from calculators.errors import CalculatorError
    from calculators.params import registry
    from calculators.params.count import count_parameters, family_of, load_config

    if isinstance(config, str):
        try:
            registry.resolve_name(config)
        except CalculatorError:
            raise ConfigError(
                f"{config!r} is neither a number (7e9, 7B) nor a registry model; known: "
                f"{', '.join(registry.names())}",
                field="n_params",
            ) from None
    data, _ = load_config(config)
    archs = data.get("architectures") or []
    heads = family_of(data).heads
    head = next((h for h in ("causal-lm", "seq2seq-lm", "masked-lm") if heads.get(h) in archs),
                "base")
    count = count_parameters(config, head=head)
    name = count.name or count.model_type
    return count.total, f"n_params: {name} ({head}) has {count.total:,} parameters"


def n_params_of(value: Any) -> int:
    """The count of `resolve_n_params`, without the note."""
    return resolve_n_params(value)[0]
