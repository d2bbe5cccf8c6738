"""``parse_answer``: one written answer -> an exact value with its unit, or a reason.

The reading is deliberately forgiving about *notation* (separators, scale words,
LaTeX, Markdown bold, a leading ``p =``, a trailing period) and strict about
*content*: anything that is not a number, a known symbol or an allowed function
makes the answer ``unreadable``, with a reason, rather than a guess.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy
from sympy import Expr, Integer, Rational

from calculators.answers import _vocabulary, units
from calculators.answers._format import format_value
from calculators.answers._lexer import (
    APPROX,
    COMMA,
    ELLIPSIS,
    EQ,
    ERROR,
    LP,
    NAME,
    NUM,
    OP,
    OTHER,
    PERCENT,
    RP,
    Token,
    integer_sig_figs,
    normalize_name,
    preprocess,
    tokenize,
)
from calculators.answers._limits import MAX_ANSWER_CHARS, MAX_TOKENS
from calculators.answers._locale import localise
from calculators.answers._parser import FUNCTION_NAMES, Parser, ReadError, evaluate
from calculators.answers._words import spelled_numbers

SymbolValue = int | Rational | Expr | None
SymbolTable = Mapping[str, SymbolValue]

_PERCENT_WORDS = {"percent", "pct", "percentage"}
# The words after (and, in Swahili and Hebrew, before) a number that say what it counts,
# scales it by or is a factor of, in every language students write: ``_vocabulary``.


@dataclass(frozen=True)
class ParsedAnswer:
    """What a student wrote, read exactly.

    ``value`` is ``number * scale`` in ``unit`` (for memory units the value stays in
    that unit; ``.bytes`` converts); a percentage is stored as the fraction it means
    (``0.065 %`` -> 65/100000, unit ``"percent"``). ``expr`` keeps the question's
    symbols when the answer is a formula. ``sig_figs`` and ``place`` record how
    precisely the number was written, so the checker can accept a correctly rounded
    answer and nothing looser.
    """

    text: str
    status: str  # "ok" or "unreadable"
    reason: str | None = None
    value: Expr | None = None
    expr: Expr | None = None
    unit: str | None = None
    number: Expr | None = None
    scale: Rational = Integer(1)
    approximate: bool = False
    sig_figs: int | None = None
    place: Rational | None = None
    is_formula: bool = False
    b_suffix: bool = False
    display: str = ""
    _tree: Any = field(default=None, repr=False, compare=False)
    _symbols: tuple[tuple[str, Any], ...] = field(default=(), repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def is_memory(self) -> bool:
        return units.is_memory_unit(self.unit)

    @property
    def bytes(self) -> Rational | None:
        """The answer in exact bytes, when it carries a memory unit."""
        if self.value is None or not self.is_memory:
            return None
        return units.to_bytes(self.value, self.unit)  # type: ignore[arg-type]

    def evaluate_at(self, point: Mapping[str, Expr]) -> Expr:
        """The formula's value with its symbols set to ``point`` (same limits as parsing)."""
        if self._tree is None:
            raise ValueError("an unreadable answer has no value")

        def env(name: str) -> Expr:
            return point[name] if name in point else sympy.Symbol(name)

        return evaluate(self._tree, env) * self.scale

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "status": self.status,
            "reason": self.reason,
            "value": None if self.value is None else str(self.value),
            "value_display": None if self.value is None else format_value(self.value),
            "expr": None if self.expr is None else str(self.expr),
            "unit": self.unit,
            "number": None if self.number is None else str(self.number),
            "scale": str(self.scale),
            "bytes": None if self.bytes is None else str(self.bytes),
            "approximate": self.approximate,
            "sig_figs": self.sig_figs,
            "is_formula": self.is_formula,
            "display": self.display,
        }


def unreadable(text: str, reason: str) -> ParsedAnswer:
    return ParsedAnswer(text=text[:200], status="unreadable", reason=reason, display=text[:60])


def normalize_symbols(symbols: SymbolTable | None) -> dict[str, SymbolValue]:
    """Key the table by the same spelling the tokenizer gives names (``n_{hid}`` -> ``n_hid``)."""
    out: dict[str, SymbolValue] = {}
    for name, value in (symbols or {}).items():
        out[normalize_name(str(name))] = None if value is None else exact(value)
    return out


def exact(value: object) -> Expr:
    """An exact sympy number from trusted config (int, Fraction, float, sympy); never parses text."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, int):
        return Integer(value)
    if isinstance(value, Fraction):
        return Rational(value.numerator, value.denominator)
    if isinstance(value, float):
        return Rational(repr(value))  # the shortest decimal that round-trips: 0.1 -> 1/10
    raise TypeError(f"expected a number, got {type(value).__name__}")


def make_resolver(known: Mapping[str, object], *, free: bool = False):
    """Name -> leaves: a known symbol, ``e``/``pi``, a function, or known symbols run together."""

    def resolve(name: str) -> object:
        if name in known:
            return [("sym", name)]
        if name in FUNCTION_NAMES:
            return ("fn", FUNCTION_NAMES[name])
        if name == "e":
            return [("E",)]
        if name in ("pi", "π"):
            return [("pi",)]
        split = _split_name(name, known)
        if split is not None:
            return [("sym", part) for part in split]
        if free:
            return [("sym", name)]
        if known:
            names = ", ".join(sorted(known)[:8])
            raise ReadError(f"'{name}' is not a number or one of the question's symbols ({names})")
        raise ReadError(f"'{name}' is not a number")

    return resolve


def _split_name(name: str, known: Mapping[str, object]) -> list[str] | None:
    """``hd_v`` -> ``[h, d_v]`` when every piece is a known symbol (implicit product)."""
    if not known:
        return None
    cut = next((i for i, ch in enumerate(name) if not ch.isalpha()), len(name))
    letters, rest = name[:cut], name[cut:]
    if len(letters) < 2 or len(letters) > 12:
        return None

    def search(start: int) -> list[str] | None:
        for end in range(len(letters), start, -1):
            piece = letters[start:end]
            if end == len(letters):
                if piece + rest in known:
                    return [piece + rest]
                continue
            if piece in known:
                tail = search(end)
                if tail is not None:
                    return [piece, *tail]
        return None

    return search(0)


def _strip_leading(tokens: list[Token]) -> tuple[list[Token], bool]:
    approximate = False
    while tokens:
        tok = tokens[0]
        if tok.kind == APPROX or (tok.kind == NAME and _vocabulary.is_approx(tok.text)):
            approximate = True
            tokens = tokens[1:]
            if tokens and tokens[0].kind == OTHER and tokens[0].text == ".":
                tokens = tokens[1:]
        elif tok.kind == EQ or (tok.kind == OTHER and tok.text in ":"):
            tokens = tokens[1:]
        else:
            break
    return tokens, approximate


def _split_unspaced(tokens: list[Token]) -> list[Token]:
    """Thai, Chinese, Japanese and Korean write a number's words onto what follows them
    ("14.50 พันล้านพารามิเตอร์", "145亿个参数"): a name in those scripts is cut into the
    vocabulary's words, so that the scale word is read and "parameters" dropped as it is
    after a space."""
    out: list[Token] = []
    for tok in tokens:
        if tok.kind != NAME or not _vocabulary.unspaced(tok.text[0]):
            out.append(tok)
            continue
        at = tok.start
        for k, piece in enumerate(_vocabulary.segment(tok.text)):
            out.append(Token(NAME, piece, at, at + len(piece), tok.space_before and not k))
            at += len(piece)
    return out


def _leading_word(
    tokens: list[Token], known: Mapping[str, object], clean: str
) -> tuple[list[Token], str | None, int]:
    """A factor or scale word written before its number: Swahili ``mara 1536`` (1536 times)
    and ``bilioni 14,5``, Hebrew ``פי 1536``, and ``×1536``. Only directly before a number:
    "mara" in a sentence is "once" or "time"."""
    if len(tokens) < 2 or tokens[1].kind != NUM:
        return tokens, None, 1
    tok = tokens[0]
    if tok.kind == NAME and tok.text not in known:
        if _vocabulary.is_leading_factor(tok.text):
            return tokens[1:], "times", 1
        if (factor := _vocabulary.leading_scale(tok.text)) is not None:
            return tokens[1:], None, factor
    if tok.kind == OP and clean[tok.start] == "×":
        return tokens[1:], "times", 1
    return tokens, None, 1


def _last_segment(tokens: list[Token]) -> tuple[list[Token], bool]:
    """``p = e^3/Z ≈ 0.75``: the answer is what the chain ends with."""
    depth = 0
    cut, approximate = -1, False
    for idx, tok in enumerate(tokens):
        if tok.kind == LP:
            depth += 1
        elif tok.kind == RP:
            depth -= 1
        elif depth == 0 and tok.kind in (EQ, APPROX) and idx > 0:
            cut, approximate = idx, tok.kind == APPROX
    if cut < 0:
        return tokens, False
    return tokens[cut + 1 :], approximate


def _strip_trailing(
    tokens: list[Token], known: Mapping[str, object]
) -> tuple[list[Token], str | None, int, bool, bool, Token | None]:
    """Peel off, from the end: punctuation, noise words, a unit, a scale word.

    Also returns the last token that still belongs to the answer (a unit or scale
    word), so that messages can quote "25.77 GB" rather than "25.77".
    """
    unit: str | None = None
    scale = 1
    b_suffix = False
    approximate = False
    last: Token | None = None
    while tokens:
        tok = tokens[-1]
        before = tokens[-2] if len(tokens) > 1 else None
        after_value = before is not None and before.kind in (NUM, RP, NAME)
        punctuation = tok.kind in (OTHER, COMMA) and tok.text in ".,;!"
        noise = tok.kind == NAME and _vocabulary.is_noise(tok.text) and len(tokens) > 1
        if punctuation or noise:
            tokens = tokens[:-1]
        elif tok.kind == APPROX and before is not None:
            tokens, approximate = tokens[:-1], True
        elif unit is None and scale == 1 and tok.kind == PERCENT and before is not None:
            unit, tokens, last = "percent", tokens[:-1], last or tok
        elif (
            unit is None
            and scale == 1
            and tok.kind == NAME
            and after_value
            and tok.text not in known
            and (tok.text.lower() in _PERCENT_WORDS
                 or (tok.text.lower() == "cent" and before is not None
                     and before.kind == NAME and before.text.lower() == "per"))
        ):  # "0.065 percent", "0.065 per cent"
            drop = 2 if tok.text.lower() == "cent" else 1
            unit, tokens, last = "percent", tokens[:-drop], last or tok
        elif (
            unit is None
            and scale == 1
            and tok.kind == NAME
            and after_value
            and tok.text not in known
            and (mem := units.memory_unit(tok.text)) is not None
        ):
            unit, tokens, last = mem, tokens[:-1], last or tok
        elif (
            unit is None
            and scale == 1
            and tok.kind == NAME
            and before is not None
            and before.kind == OP
            and before.text == "-"
            and before.end == tok.start
            and len(tokens) > 2
            and tokens[-3].kind == NUM
            and tokens[-3].end == before.start
            and tok.text not in known
            and len(tok.text) > 1
            and _vocabulary.is_factor(tok.text)
        ):  # "1536-fold": a factor word joined to its number by a hyphen ("2-x" is none)
            unit, tokens, last = "times", tokens[:-2], last or tok
        elif (
            unit is None
            and scale == 1
            and after_value
            and (
                (tok.kind == NAME and _vocabulary.is_factor(tok.text))
                or (tok.kind == OP and tok.text == "*")
            )
            and tok.text not in known
        ):
            unit, tokens, last = "times", tokens[:-1], last or tok
        elif (
            scale == 1
            and tok.kind == NAME
            and before is not None
            and before.kind in (NUM, RP)
            and tok.text not in known
            and (factor := units.scale_word(tok.text)) is not None
        ):
            scale, b_suffix, tokens = factor, tok.text == "B", tokens[:-1]
            last = last or tok
        elif (
            # two scale words, the larger last: "mil millones" (Spanish 10^9), "thousand
            # million" (British)
            scale == 1
            and tok.kind == NAME
            and before is not None
            and before.kind == NAME
            and len(tokens) > 2
            and tokens[-3].kind in (NUM, RP)
            and min(len(tok.text), len(before.text)) > 2
            and not {tok.text, before.text} & set(known)
            and (factor := units.scale_word(tok.text)) is not None
            and (first := units.scale_word(before.text)) is not None
            and first < factor
        ):
            scale, tokens, last = first * factor, tokens[:-2], last or tok
        else:
            break
    return tokens, unit, scale, b_suffix, approximate, last


def parse_answer(
    text: str, symbols: SymbolTable | None = None, *, decimal_comma: bool | None = None
) -> ParsedAnswer:
    """Read one answer. Never raises on student text; returns ``status="unreadable"`` instead.

    Numbers in English words are read as figures (``fourteen and a half billion``), and
    numbers in the convention of a decimal comma where the answer shows it (``25,77 GB``,
    ``21.018.401``, ``14,497 mil millones``); ``decimal_comma`` says what the caller knows
    of the report's convention (``_locale.shows_decimal_comma`` of its text), for forms
    that could be either (``14,497``).

    >>> parse_answer("≈ 25.77 GB").bytes
    25770000000
    >>> parse_answer("14.5 billion").value
    14500000000
    """
    if not isinstance(text, str):
        return unreadable(repr(text)[:60], "the answer is not text")
    if len(text) > MAX_ANSWER_CHARS:
        return unreadable(text[:60], f"it is longer than {MAX_ANSWER_CHARS} characters")
    if not text.strip():
        return unreadable(text, "it is empty")
    table = normalize_symbols(symbols)
    try:
        return _parse(text, table, decimal_comma)
    except ReadError as error:
        return unreadable(text, str(error))
    except RecursionError:
        return unreadable(text, "the formula is nested too deeply")


def _parse(
    text: str, table: dict[str, SymbolValue], decimal_comma: bool | None = None
) -> ParsedAnswer:
    clean = localise(spelled_numbers(preprocess(text)), decimal_comma)
    tokens = tokenize(clean)
    if len(tokens) > MAX_TOKENS:
        raise ReadError(f"it has more than {MAX_TOKENS} symbols")
    for tok in tokens:
        if tok.kind == ERROR:
            raise ReadError(tok.text)
        if tok.kind == ELLIPSIS:
            raise ReadError("it contains '...', so part of it is missing")
    tokens = _split_unspaced(tokens)
    tokens, approx_lead = _strip_leading(tokens)
    tokens, approx_chain = _last_segment(tokens)
    tokens, approx_mid = _strip_leading(tokens)
    start = tokens[0].start if tokens else 0
    tokens, lead_unit, lead_scale = _leading_word(tokens, table, clean)
    tokens, unit, scale_int, b_suffix, approx_tail, last = _strip_trailing(tokens, table)
    if not tokens:
        raise ReadError("there is no number in it")
    if lead_unit is not None or lead_scale != 1:
        if unit is not None or scale_int != 1:
            raise ReadError("it has a unit or scale word both before and after the number")
        unit, scale_int = lead_unit, lead_scale
    if (unit == "times" and len(tokens) > 1 and tokens[0].kind == NAME
            and tokens[1].kind == NUM and tokens[0].text not in table
            and _vocabulary.is_factor_preposition(tokens[0].text)):
        start, tokens = tokens[0].start, tokens[1:]  # "у 1536 разів": "in 1536 times"
    end = last.end if last is not None else tokens[-1].end
    display = " ".join(clean[start:end].split())
    parser = Parser(tokens, make_resolver(table))
    tree = parser.parse()

    def symbolic_env(name: str) -> Expr:
        return sympy.Symbol(name)

    def value_env(name: str) -> Expr:
        value = table.get(name)
        return sympy.Symbol(name) if value is None else value

    expr = evaluate(tree, symbolic_env)
    value = evaluate(tree, value_env) if expr.free_symbols else expr
    if value.free_symbols:
        value_out: Expr | None = None
    else:
        value_out = value
    scale: Rational = Integer(scale_int)
    if unit == "percent":
        scale = scale / 100
    single = tree[0] == "num" or (tree[0] == "neg" and tree[1][0] == "num")
    sig_figs: int | None
    place: Rational | None
    number_token = next(t for t in tokens if t.kind == NUM) if single else None
    if number_token is not None:
        sig_figs = number_token.sig_figs
        place = number_token.place
        if sig_figs is None and (unit not in (None, "times") or scale_int != 1):
            sig_figs = integer_sig_figs(number_token)  # "24 GiB", "14 billion" are rounded values
        elif sig_figs is None:
            place = None  # a bare integer is an exact count
    else:
        sig_figs = min(parser.decimal_sig_figs) if parser.decimal_sig_figs else None
        place = None
    scaled = None if value_out is None else value_out * scale
    return ParsedAnswer(
        text=text[:200],
        status="ok",
        value=scaled,
        expr=expr * scale,
        unit=unit,
        number=value_out,
        scale=scale,
        approximate=approx_lead or approx_chain or approx_mid or approx_tail,
        sig_figs=sig_figs,
        place=place,
        is_formula=not single,
        b_suffix=b_suffix,
        display=display[:80],
        _tree=tree,
        _symbols=tuple(table.items()),
    )
