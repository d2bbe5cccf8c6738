"""``check_answer``: compare a read answer with the exact expected value, and say why.

The verdict ladder, first match wins:

1. ``correct``: equal, within ``Tolerance.relative``/``absolute``, or a correct
   rounding of the expected value to the figures the student wrote.
2. ``convention``: equal (as in 1) to one of the question's ``Alternative`` values,
   or to the expected value read under a built-in unit convention (GB written for
   GiB, bits for bytes). An alternative worth no credit gives ``wrong`` with its own
   message: the mistake is named, and nothing is earned.
3. ``close``: within ``Tolerance.close_relative``, or right but with the unit missing.
4. ``convention`` again for an alternative matched only closely.
5. ``wrong``: with the power of ten named when that is the only difference.

Comparisons are exact on rationals; transcendental values (``e^3/Z``, ``-ln 0.75``)
are compared at 40 digits. Symbolic answers are compared at random rational points
of the question's symbols, evaluated under the same limits as parsing.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy
from sympy import Expr, Integer, Rational

from calculators.answers import units
from calculators.answers._format import (
    format_bytes_in,
    format_factor,
    format_percent,
    format_quantity,
    format_value,
)
from calculators.answers._lexer import normalize_name
from calculators.answers._parser import ReadError
from calculators.answers.parse import (
    ParsedAnswer,
    SymbolTable,
    exact,
    normalize_symbols,
    parse_answer,
)

VERDICTS = ("correct", "close", "convention", "wrong", "unreadable")
_CORRECT_LEVELS = ("exact", "rounded", "tolerance")
_LEVEL_RANK = {"exact": 4, "rounded": 3, "tolerance": 2, "close": 1, "overprecise": 1}
_RANDOM_POINTS = 6
_TINY = Rational(1, 10**30)


def _rational(value: Any) -> Rational:
    return value if isinstance(value, Rational) else exact(value)


@dataclass(frozen=True)
class Tolerance:
    """How far from the exact value an answer may be, and what each band is worth.

    * ``relative``/``absolute``: within either, an answer is ``correct`` (the default
      1e-9 only absorbs representation noise; exact answers are exact).
    * ``sig_figs``: an answer that is the expected value correctly rounded to the
      figures the student wrote is ``correct`` ("25.77 GB", "14.5 billion", "0.75"),
      provided at least ``min_sig_figs`` figures were written, so "3 GB" does not
      pass for 2.6 GB. ``significant`` (if set) accepts any answer that agrees with
      the expected value when both are rounded to that many figures.
    * ``close_relative``: within it, an answer is ``close`` and earns ``close_credit``.
    * ``convention_credit``: credit for the built-in unit conventions (GB/GiB, bits/bytes).
    * ``rough``: the question asks for a rough figure ("a rough percentage is enough"),
      so the precision the student wrote is what is judged: an answer that is the
      expected value rounded to its own significant figures is ``correct`` from one
      figure up ("about 0.07 %" for 0.0651 %), and one that is right only to fewer
      figures than it claims ("0.066 %": right to one figure, not to two) is ``close``,
      the message saying so. Significant figures, not decimal places: "0.1 %" is not
      a rounding of 0.0651 %. The precision written is judged before ``relative``,
      which still accepts what has no figures to judge closely enough.
    """

    relative: Rational = Rational(1, 10**9)
    absolute: Rational = Integer(0)
    sig_figs: bool = True
    min_sig_figs: int = 2
    significant: int | None = None
    close_relative: Rational = Rational(5, 1000)
    close_credit: Rational = Rational(3, 4)
    convention_credit: Rational = Rational(1, 2)
    rough: bool = False

    def __post_init__(self) -> None:
        for name in ("relative", "absolute", "close_relative", "close_credit", "convention_credit"):
            object.__setattr__(self, name, _rational(getattr(self, name)))

    @classmethod
    def exact(cls) -> Tolerance:
        """Only the exact value is correct; nothing is close (for counts that must be exact)."""
        return cls(relative=0, sig_figs=False, close_relative=0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "relative": str(self.relative),
            "absolute": str(self.absolute),
            "sig_figs": self.sig_figs,
            "min_sig_figs": self.min_sig_figs,
            "significant": self.significant,
            "close_relative": str(self.close_relative),
            "close_credit": str(self.close_credit),
            "convention_credit": str(self.convention_credit),
            "rough": self.rough,
        }


@dataclass(frozen=True)
class Alternative:
    """A recognised near-miss: the value a known convention or mistake gives.

    ``value`` takes the same forms as ``expected`` (usually a calculator result with
    other options). ``message`` may use ``{got}``, ``{expected}`` and ``{value}``.
    """

    name: str
    value: Any
    credit: Rational = Integer(0)
    message: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "credit", _rational(self.credit))


@dataclass(frozen=True)
class Verdict:
    """The outcome for one answer; ``expected`` and ``got`` are exact, in ``unit``."""

    verdict: str
    credit: Rational
    message: str
    convention: str | None = None
    expected: Expr | None = None
    got: Expr | None = None
    unit: str | None = None
    answer: ParsedAnswer | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "credit": str(self.credit),
            "message": self.message,
            "convention": self.convention,
            "expected": None if self.expected is None else str(self.expected),
            "got": None if self.got is None else str(self.got),
            "unit": self.unit,
            "answer": None if self.answer is None else self.answer.to_dict(),
        }


# -- expected values ---------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """An expected value normalised: exact, in base units (bytes for memory)."""

    value: Expr | None
    memory: bool = False
    unit: str | None = None  # the unit the question asks for: "GB", "percent", "billion"
    unit_factor: Rational = Integer(1)
    expr: Expr | None = None


def to_target(expected: Any, table: Mapping[str, Any] | None = None) -> Target:
    """Read any supported form of an expected value (see ``check_answer``)."""
    table = table or {}
    if isinstance(expected, Target):
        return expected
    if hasattr(expected, "bytes") and not isinstance(expected, (bytes, ParsedAnswer)):
        unit = getattr(expected, "unit", None)
        unit = unit if units.is_memory_unit(unit) else None
        factor = units.BYTES_PER_UNIT[unit] if unit else Integer(1)
        return Target(exact(expected.bytes), memory=True, unit=unit, unit_factor=factor)
    if hasattr(expected, "total"):
        return Target(exact(expected.total))
    if isinstance(expected, tuple) and len(expected) == 2 and isinstance(expected[1], str):
        inner = to_target(expected[0], table)
        kind, factor = units.normalize_expected_unit(expected[1])
        value = None if inner.value is None else inner.value * factor
        expr = None if inner.expr is None else inner.expr * factor
        if kind.startswith("memory:"):
            return Target(value, memory=True, unit=kind[7:], unit_factor=factor, expr=expr)
        if kind == "percent":
            return Target(value, unit="percent", unit_factor=factor, expr=expr)
        if kind.startswith("scale:"):
            return Target(value, unit=kind[6:], unit_factor=factor, expr=expr)
        return Target(value, expr=expr)
    value = exact(expected)
    if value.free_symbols:
        by_name = {normalize_name(s.name): s for s in value.free_symbols}
        known = {s: table[n] for n, s in by_name.items() if table.get(n) is not None}
        substituted = value.xreplace(known)
        return Target(None if substituted.free_symbols else substituted, expr=value)
    return Target(value)


# -- numeric comparison ------------------------------------------------------------


def _approx(value: Expr) -> Rational:
    if value.is_Rational:
        return value
    return Rational(value.evalf(40))


def _floor_log10(x: Rational) -> int:
    p, q = abs(int(x.p)), int(x.q)
    e = len(str(p)) - len(str(q))
    while Rational(10) ** e > abs(x):
        e -= 1
    while Rational(10) ** (e + 1) <= abs(x):
        e += 1
    return e


def round_sig(x: Rational, n: int) -> Rational:
    """``x`` rounded half-up to ``n`` significant figures, exactly."""
    if x == 0:
        return Integer(0)
    unit = Rational(10) ** (_floor_log10(x) - n + 1)
    m = sympy.floor(abs(x) / unit + Rational(1, 2))
    return sympy.sign(x) * m * unit


def _level(
    got: Expr, expected: Expr, answer: ParsedAnswer, factor: Rational, tol: Tolerance
) -> str | None:
    """How well ``got`` (= answer.number * factor) matches ``expected``; None if not at all."""
    g, e = _approx(got), _approx(expected)
    diff = abs(g - e)
    size = abs(e)
    if diff == 0 or (
        not (got.is_Rational and expected.is_Rational) and diff <= _TINY * max(size, 1)
    ):
        return "exact"
    if tol.rough:  # the precision written is judged before any band
        level = _rough_level(g, e, _rough_figures(answer), False)
        if level is not None:
            return level
    if diff <= tol.absolute or diff <= tol.relative * size:
        return "tolerance"
    if tol.significant and round_sig(g, tol.significant) == round_sig(e, tol.significant):
        return "rounded"
    if tol.rough:
        return "close" if diff <= tol.close_relative * size else None
    if tol.sig_figs and answer.sig_figs is not None and answer.sig_figs >= tol.min_sig_figs:
        if answer.place is not None:
            if diff <= abs(answer.place * factor) / 2:
                return "rounded"
        elif round_sig(g, answer.sig_figs) == round_sig(e, answer.sig_figs):
            return "rounded"
    if diff <= tol.close_relative * size:
        return "close"
    return None


ROUGH_EXACT_FIGURES = 3
"""The precision of a rough figure written exactly, as a formula ("1/1536"): three
significant figures."""


def _rough_figures(answer: ParsedAnswer) -> int:
    """The significant figures a rough figure is written to: a decimal's own, an integer's
    digits up to its trailing zeros ("1536 times": 4, "1500 times": 2), else
    ``ROUGH_EXACT_FIGURES``."""
    if answer.sig_figs:
        return answer.sig_figs
    number = answer.number
    if number is not None and getattr(number, "is_Integer", False) and not answer.is_formula:
        return max(1, len(str(abs(int(number))).rstrip("0")))
    return ROUGH_EXACT_FIGURES


def _rough_level(got: Rational, expected: Rational, figures: int, close: bool) -> str | None:
    """A rough figure judged at the precision written (``Tolerance.rough``): ``rounded``
    when it is the expected value to its own figures, ``overprecise`` when it is right
    only to fewer, ``close`` within the close band, else None."""
    if round_sig(got, figures) == round_sig(expected, figures):
        return "rounded"
    if any(round_sig(got, n) == round_sig(expected, n) for n in range(1, figures)):
        return "overprecise"
    return "close" if close else None


def right_to(got: Rational, expected: Rational, figures: int) -> int:
    """How many significant figures (fewer than ``figures``) of ``got`` are right."""
    return max((n for n in range(1, figures) if round_sig(got, n) == round_sig(expected, n)),
               default=0)


def _best(levels: Sequence[str | None]) -> str | None:
    found = [lv for lv in levels if lv is not None]
    return max(found, key=_LEVEL_RANK.__getitem__) if found else None


@dataclass(frozen=True)
class _Reading:
    """One way of reading the answer in the target's base units."""

    got: Expr
    factor: Rational  # base units per written unit of ``answer.number``
    unit: str | None = None  # memory unit used for this reading
    penalty: str | None = None  # why a match under this reading is only "close"


def _readings(answer: ParsedAnswer, target: Target) -> list[_Reading]:
    assert answer.value is not None and answer.number is not None
    if target.memory:
        if answer.is_memory:
            factor = answer.scale * units.BYTES_PER_UNIT[answer.unit]  # type: ignore[index]
            return [_Reading(answer.bytes, factor, answer.unit)]  # type: ignore[arg-type]
        if answer.b_suffix:  # "512 B": bytes, not billions, in a memory question
            return [_Reading(answer.number, Integer(1), "B")]
        return []
    if answer.is_memory:
        return [_Reading(answer.value, answer.scale, None, penalty="memory_unit")]
    out = [_Reading(answer.value, answer.scale)]
    if (
        answer.unit is None
        and answer.scale == 1
        and target.unit in ("percent", *units.SCALE_NAMES.values())
    ):
        out.append(_Reading(answer.value * target.unit_factor, target.unit_factor))
    return out


# -- messages ----------------------------------------------------------------------


def _got_text(answer: ParsedAnswer) -> str:
    return answer.display or answer.text.strip()


def _expected_text(target: Target, answer: ParsedAnswer | None = None) -> str:
    value = target.value
    if value is None:
        return str(target.expr)
    if target.memory:
        unit = target.unit
        if (
            unit is None
            and answer is not None
            and answer.is_memory
            and not units.is_bit_unit(answer.unit)
        ):
            unit = answer.unit
        return format_bytes_in(value, unit or "B")
    if target.unit == "percent" or (answer is not None and answer.unit == "percent"):
        return format_quantity(value, "percent")
    if target.unit in units.SCALE_NAMES.values():
        return f"{format_value(value / target.unit_factor)} {target.unit}"
    return format_value(value)


def expected_display(expected: Any, symbols: SymbolTable | None = None) -> str:
    """An expected value (any form ``check_answer`` takes) as messages quote it: "25.77 GB"."""
    return _expected_text(to_target(expected, normalize_symbols(symbols)))


def _fill(template: str, **fields: str) -> str:
    out = template
    for key, text in fields.items():
        out = out.replace("{" + key + "}", text)
    return out


# -- the checker -------------------------------------------------------------------


def check_answer(
    answer: str | ParsedAnswer,
    expected: Any,
    *,
    tolerance: Tolerance | None = None,
    alternatives: Sequence[Alternative] = (),
    symbols: SymbolTable | None = None,
) -> Verdict:
    """Grade one answer against an exact expected value.

    ``expected`` is a number (int, Rational, float, sympy expression, possibly in
    the question's symbols), an object with an exact ``.total`` (a parameter count)
    or ``.bytes`` (a memory size, with an optional ``.unit`` the question asks for),
    or a pair ``(value, unit)`` such as ``(25.77, "GB")``, ``(14.5, "billion")``.
    """
    tol = tolerance or Tolerance()
    table = normalize_symbols(symbols)
    parsed = answer if isinstance(answer, ParsedAnswer) else parse_answer(answer, symbols)
    target = to_target(expected, table)
    if not parsed.ok:
        return Verdict(
            "unreadable",
            Integer(0),
            f"We could not read your answer: {parsed.reason}.",
            expected=target.value,
            answer=parsed,
        )
    alts = [(alt, to_target(alt.value, table)) for alt in alternatives]
    if target.expr is not None and parsed.expr is not None and parsed.expr.free_symbols:
        return _check_symbolic(parsed, target, alts, tol)
    if parsed.value is None:
        names = ", ".join(sorted(s.name for s in parsed.expr.free_symbols)) if parsed.expr else ""
        return Verdict(
            "unreadable",
            Integer(0),
            f"We could not read your answer: it uses symbols with no value here ({names}).",
            expected=target.value,
            answer=parsed,
        )
    if target.value is None:
        raise ValueError("the expected value is a formula whose symbols have no values")
    return _check_numeric(parsed, target, alts, tol)


def _verdict(
    kind: str,
    credit: Rational,
    message: str,
    target: Target,
    parsed: ParsedAnswer,
    got: Expr | None,
    convention: str | None = None,
) -> Verdict:
    return Verdict(
        kind,
        credit,
        message,
        convention=convention,
        expected=target.value,
        got=got,
        unit="bytes" if target.memory else None,
        answer=parsed,
    )


def _check_numeric(
    parsed: ParsedAnswer, target: Target, alts: list[tuple[Alternative, Target]], tol: Tolerance
) -> Verdict:
    assert target.value is not None
    got_text = _got_text(parsed)
    exp_text = _expected_text(target, parsed)
    readings = _readings(parsed, target)
    primary_got = readings[0].got if readings else parsed.value

    # 1. correct
    scored = [(r, _level(r.got, target.value, parsed, r.factor, tol)) for r in readings]
    best = _best([lv for _, lv in scored])
    clean = [(r, lv) for r, lv in scored if r.penalty is None]
    clean_best = _best([lv for _, lv in clean])
    if clean_best in _CORRECT_LEVELS:
        reading = next(r for r, lv in clean if lv == clean_best)
        if clean_best == "rounded" and parsed.sig_figs:
            message = (
                f"Your answer, {got_text}, is correct to the {parsed.sig_figs} significant "
                f"figure{'s' if parsed.sig_figs > 1 else ''} you wrote."
            )
        else:
            message = f"Your answer, {got_text}, is correct."
        return _verdict("correct", Integer(1), message, target, parsed, reading.got)

    # 2. a listed alternative, matched as well as a correct answer would be
    close_alt: tuple[Alternative, Target, _Reading] | None = None
    for alt, alt_target in alts:
        if alt_target.value is None:
            continue
        alt_readings = (
            _readings(parsed, alt_target) if alt_target.memory != target.memory else readings
        )
        levels = [(r, _level(r.got, alt_target.value, parsed, r.factor, tol)) for r in alt_readings]
        alt_best = _best([lv for _, lv in levels])
        if alt_best in _CORRECT_LEVELS:
            reading = next(r for r, lv in levels if lv == alt_best)
            message = _fill(
                alt.message or f"Your answer, {{got}}, follows the convention '{alt.name}'.",
                got=got_text,
                expected=exp_text,
                value=_expected_text(alt_target, parsed),
            )
            return _convention(alt, message, target, parsed, reading.got)
        if alt_best in ("close", "overprecise") and close_alt is None:
            close_alt = (alt, alt_target, levels[0][0])

    # 3. built-in unit conventions
    unit_verdict = _unit_conventions(parsed, target, tol, got_text, exp_text)
    if unit_verdict is not None:
        return unit_verdict

    # 4. close, or right but with a penalty (a unit on a plain count)
    if best is not None:
        reading = next(r for r, lv in scored if lv == best)
        if reading.penalty == "memory_unit" and best in _CORRECT_LEVELS:
            message = (
                f"Your answer, {got_text}, has a memory unit ({parsed.unit}), but the question "
                "asks for a plain number."
            )
            return _verdict("close", tol.close_credit, message, target, parsed, reading.got)
        if best == "overprecise":
            figures = _rough_figures(parsed)
            right = right_to(_approx(reading.got), _approx(target.value), figures)
            message = (
                f"Your answer, {got_text}, is right to {right} significant figure"
                f"{'s' if right > 1 else ''}, not to the {figures} you wrote (the value is "
                f"{exp_text}); a rough figure is judged at the precision you write."
            )
            return _verdict("close", tol.close_credit, message, target, parsed, reading.got)
        if best == "close":
            off = format_percent(
                (_approx(reading.got) - _approx(target.value)) / _approx(target.value)
            )
            message = (
                f"Your answer, {got_text}, is close to {exp_text} but off by {off}, more than "
                "the rounding of what you wrote allows."
            )
            return _verdict("close", tol.close_credit, message, target, parsed, reading.got)
    if close_alt is not None:
        alt, alt_target, reading = close_alt
        message = _fill(
            alt.message or f"Your answer, {{got}}, is close to the convention '{alt.name}'.",
            got=got_text,
            expected=exp_text,
            value=_expected_text(alt_target, parsed),
        )
        if not alt.credit:
            return _convention(alt, message, target, parsed, reading.got)
        credit = alt.credit * tol.close_credit
        return _verdict("convention", credit, message, target, parsed, reading.got, alt.name)

    # 5. wrong, naming a power of ten when that is all that differs
    for reading in readings:
        factor_message = _power_of_ten(parsed, reading, target, tol, got_text, exp_text)
        if factor_message is not None:
            return _verdict("wrong", Integer(0), factor_message, target, parsed, reading.got)
    if target.memory and not parsed.is_memory and not parsed.b_suffix:
        message = (
            f"Your answer, {got_text}, has no unit and does not match {exp_text} in any "
            "memory unit."
        )
        return _verdict("wrong", Integer(0), message, target, parsed, primary_got)
    message = f"Your answer, {got_text}, does not match the expected {exp_text}."
    return _verdict("wrong", Integer(0), message, target, parsed, primary_got)


def _convention(
    alt: Alternative, message: str, target: Target, parsed: ParsedAnswer, got: Expr
) -> Verdict:
    """A listed alternative matched: a ``convention`` with its credit, or, for one the
    question gives nothing for (credit 0: fp32 scores where 2 bytes are asked, the
    probability of another index), a ``wrong`` answer whose mistake the message names."""
    if alt.credit:
        return _verdict("convention", alt.credit, message, target, parsed, got, alt.name)
    return _verdict("wrong", Integer(0), message, target, parsed, got)


_MISSING_UNIT_ORDER = ("B", "kB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB")


def _unit_conventions(
    parsed: ParsedAnswer, target: Target, tol: Tolerance, got_text: str, exp_text: str
) -> Verdict | None:
    assert target.value is not None and parsed.number is not None
    number = parsed.number
    if target.memory and parsed.is_memory:
        unit = parsed.unit
        assert unit is not None

        def matches(as_unit: str) -> tuple[bool, Expr]:
            factor = parsed.scale * units.BYTES_PER_UNIT[as_unit]
            got = number * factor
            return _level(got, target.value, parsed, factor, tol) in _CORRECT_LEVELS, got

        swap = units.DECIMAL_BINARY_PAIRS.get(unit)
        if swap is not None:
            ok, got = matches(swap)
            if ok:
                shown = format_bytes_in(target.value, unit)
                message = (
                    f"You wrote {got_text}, but {format_value(number * parsed.scale)} is the size "
                    f"in {swap} ({units.UNIT_POWER_TEXT[swap]}); in {unit} "
                    f"({units.UNIT_POWER_TEXT[unit]}) it is {shown}."
                )
                return _verdict(
                    "convention", tol.convention_credit, message, target, parsed, got, "gib_vs_gb"
                )
        if units.is_bit_unit(unit):
            as_bytes = units.BIT_BYTE_PAIRS[unit]
            ok, got = matches(as_bytes)
            if ok:
                message = (
                    f"You wrote {got_text} ({units.UNIT_LONG_NAMES[unit]}), but your number is the "
                    f"size in {units.UNIT_LONG_NAMES[as_bytes]}: write {format_value(number * parsed.scale)} "
                    f"{as_bytes}."
                )
                return _verdict(
                    "convention",
                    tol.convention_credit,
                    message,
                    target,
                    parsed,
                    got,
                    "bits_vs_bytes",
                )
        else:
            got = parsed.bytes
            assert got is not None
            factor = parsed.scale * units.BYTES_PER_UNIT[unit] / 8
            if _level(got / 8, target.value, parsed, factor, tol) in _CORRECT_LEVELS:
                message = (
                    f"Your answer, {got_text}, counts bits, not bytes: divide by 8 to get "
                    f"{format_bytes_in(target.value, unit)}."
                )
                return _verdict(
                    "convention",
                    tol.convention_credit,
                    message,
                    target,
                    parsed,
                    got,
                    "bits_vs_bytes",
                )
        return None
    if target.memory and parsed.unit is None and not parsed.b_suffix:
        order = ([target.unit] if target.unit else []) + list(_MISSING_UNIT_ORDER)
        for unit in order:
            factor = parsed.scale * units.BYTES_PER_UNIT[unit]
            got = number * factor
            if _level(got, target.value, parsed, factor, tol) in _CORRECT_LEVELS:
                label = "bytes" if unit == "B" else unit
                message = f"Your answer, {got_text}, has no unit; as {got_text} {label} it would be correct."
                return _verdict("close", tol.close_credit, message, target, parsed, got)
        return None
    if not target.memory and parsed.unit is None and target.unit != "percent":
        got = parsed.value / 100  # type: ignore[operator]
        if _level(got, target.value, parsed, parsed.scale / 100, tol) in _CORRECT_LEVELS:
            message = (
                f"Your answer, {got_text}, is a percentage without the % sign; as {got_text} % "
                "it would be correct."
            )
            return _verdict("close", tol.close_credit, message, target, parsed, got)
    return None


def _power_of_ten(
    parsed: ParsedAnswer,
    reading: _Reading,
    target: Target,
    tol: Tolerance,
    got_text: str,
    exp_text: str,
) -> str | None:
    assert target.value is not None
    got, expected = _approx(reading.got), _approx(target.value)
    if got == 0 or expected == 0 or (got > 0) != (expected > 0):
        return None
    k = round(math.log10(float(abs(got / expected))))
    if k == 0 or abs(k) > 15:
        return None
    shift = Rational(10) ** k
    if _level(reading.got / shift, target.value, parsed, reading.factor / shift, tol) is None:
        return None
    direction = "large" if k > 0 else "small"
    return (
        f"Your answer, {got_text}, is {format_factor(k)} times too {direction}; check the powers "
        f"of ten (expected {exp_text})."
    )


# -- symbolic answers ----------------------------------------------------------------


def equivalent(
    answer: ParsedAnswer, expr: Expr, *, points: int = _RANDOM_POINTS, seed: int = 8021
) -> bool:
    """Whether the answer's formula equals ``expr`` as a function of the symbols.

    Checked at random rational points, with the answer evaluated under the parser's
    limits (a student's ``2^{2^{H}}`` cannot hang it). No ``simplify``: its cost is
    unbounded, and agreement at several random points decides equality of the
    rational and elementary formulas students write, with negligible error.
    """
    if answer.expr is None:
        return False
    if sympy.Add(answer.expr, -expr, evaluate=True) == 0:
        return True
    names = {s.name for s in answer.expr.free_symbols}
    expected_syms = {normalize_name(s.name): s for s in expr.free_symbols}
    names |= set(expected_syms)
    rng = random.Random(seed)
    for _ in range(points):
        point = {name: Rational(rng.randint(2, 97), rng.randint(1, 9)) for name in sorted(names)}
        try:
            a = answer.evaluate_at(point)
        except (ReadError, RecursionError):
            return False
        b = expr.xreplace({sym: point[name] for name, sym in expected_syms.items()})
        if a.free_symbols or b.free_symbols:
            return False
        da, db = _approx(a), _approx(b)
        if abs(da - db) > Rational(1, 10**25) * max(abs(db), 1):
            return False
    return True


def _check_symbolic(
    parsed: ParsedAnswer, target: Target, alts: list[tuple[Alternative, Target]], tol: Tolerance
) -> Verdict:
    assert target.expr is not None
    got_text = _got_text(parsed)
    if equivalent(parsed, target.expr):
        message = f"Your formula, {got_text}, is correct."
        return _verdict("correct", Integer(1), message, target, parsed, parsed.value)
    for alt, alt_target in alts:
        alt_expr = alt_target.expr
        if alt_expr is not None and equivalent(parsed, alt_expr):
            message = _fill(
                alt.message or f"Your formula, {{got}}, follows the convention '{alt.name}'.",
                got=got_text,
                expected=str(target.expr),
                value=str(alt_expr),
            )
            return _verdict(
                "convention", alt.credit, message, target, parsed, parsed.value, alt.name
            )
    if target.value is not None and parsed.value is not None:
        level = _level(parsed.value, target.value, parsed, Integer(1), tol)
        if level in _CORRECT_LEVELS:
            message = (
                f"Your formula, {got_text}, gives the right number here, {format_value(parsed.value)}, "
                "but it is not the expected formula in general."
            )
            return _verdict("close", tol.close_credit, message, target, parsed, parsed.value)
    message = f"Your formula, {got_text}, is not equivalent to the expected one."
    return _verdict("wrong", Integer(0), message, target, parsed, parsed.value)
