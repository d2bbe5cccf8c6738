"""A small recursive-descent parser from tokens to sympy objects, with hard limits.

Why not ``sympy.sympify`` or ``parse_latex``: both hand the text to Python's
``eval`` machinery, and a student's answer is untrusted. This parser only knows
numbers, the question's own symbols, ``e`` and ``pi``, the operators
``+ - * / ^`` (implicit multiplication included: ``24 d_{model}^2``, ``512(32000 + 258)``)
and five functions (ln/log, exp, sqrt, frac). Everything else is an error with a
reason a student can read.

Evaluation is bounded: every power is checked *before* sympy computes it (the
exponent and the size of the result), every exact result is size-checked, and
nesting depth and node count are capped, so ``9^9^9^9`` or ten thousand
parentheses fail in microseconds instead of hanging a grading run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import sympy
from sympy import Expr, Integer, Rational

from calculators.answers._lexer import FUNC, LP, NAME, NUM, OP, RP, Token
from calculators.answers._limits import MAX_DEPTH, MAX_EXPONENT, MAX_NODES, MAX_RESULT_DIGITS

Node = tuple

_CLOSING = {"(": ")", "[": "]", "{": "}"}
_MAX_BITS = int(MAX_RESULT_DIGITS * 3.33)

# How a student may name a function (after name normalisation) -> our function.
FUNCTION_NAMES = {
    "ln": "ln",
    "log": "ln",  # in this course log is the natural log (cross-entropy); log_{10} is explicit
    "exp": "exp",
    "sqrt": "sqrt",
    "log10": "log_10",
    "log_10": "log_10",
    "log2": "log_2",
    "log_2": "log_2",
    "frac": "frac",
    "dfrac": "frac",
    "tfrac": "frac",
}


class ReadError(Exception):
    """The text is not a readable answer; ``str(error)`` is the reason, for a student."""


def describe(token: Token | None) -> str:
    if token is None:
        return "the end of the answer"
    text = "".join(ch if ch.isprintable() else f"U+{ord(ch):04X}" for ch in token.text)
    return f"'{text}'"


class Parser:
    """Parse one expression from a token list; ``resolve`` maps a name to leaves or a function.

    ``resolve(name)`` returns ``("fn", function)`` or a list of leaf nodes (a name may
    stand for several symbols written together, ``hd_v`` = ``h * d_v``); it raises
    ``ReadError`` for a name it does not know.
    """

    def __init__(self, tokens: Sequence[Token], resolve: Callable[[str], object]) -> None:
        self.tokens = tokens
        self.i = 0
        self.depth = 0
        self.nodes = 0
        self.resolve = resolve
        self.decimal_sig_figs: list[int] = []
        self.literals = 0

    # -- helpers ---------------------------------------------------------------
    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> Token:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def node(self, *parts: object) -> Node:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise ReadError(f"the formula has more than {MAX_NODES} parts")
        return parts

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ReadError(f"the formula is nested more than {MAX_DEPTH} levels deep")

    def is_op(self, *ops: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == OP and tok.text in ops

    # -- grammar ---------------------------------------------------------------
    def parse(self) -> Node:
        if not self.tokens:
            raise ReadError("there is no number in it")
        tree = self.expression()
        if self.i != len(self.tokens):
            raise ReadError(f"it has {describe(self.peek())} where the formula should end")
        return tree

    def expression(self) -> Node:
        self.enter()
        left = self.term()
        while self.is_op("+", "-"):
            op = self.take().text
            left = self.node(op, left, self.term())
        self.depth -= 1
        return left

    def term(self) -> Node:
        left = self.unary()
        while True:
            if self.is_op("*", "/"):
                op = self.take().text
                left = self.node(op, left, self.unary())
                continue
            tok = self.peek()
            prev = self.tokens[self.i - 1]
            if tok is not None and tok.kind in (NAME, FUNC, LP) and prev.kind in (NUM, NAME, RP):
                left = self.node("*", left, self.power())
                continue
            return left

    def unary(self) -> Node:
        if self.is_op("-", "+"):
            op = self.take().text
            self.enter()
            inner = self.unary()
            self.depth -= 1
            return self.node("neg", inner) if op == "-" else inner
        return self.power()

    def power(self) -> Node:
        base = self.primary()
        if self.is_op("^"):
            self.take()
            self.enter()
            exponent = self.unary()
            self.depth -= 1
            if base[0] == "split":
                leaves = list(base[1])
                leaves[-1] = self.node("^", leaves[-1], exponent)
                return self._product(leaves)
            return self.node("^", base, exponent)
        if base[0] == "split":
            return self._product(list(base[1]))
        return base

    def _product(self, leaves: list[Node]) -> Node:
        out = leaves[0]
        for leaf in leaves[1:]:
            out = self.node("*", out, leaf)
        return out

    def primary(self) -> Node:
        tok = self.peek()
        if tok is None:
            raise ReadError("it ends where a number should follow")
        if tok.kind == NUM:
            self.take()
            self.literals += 1
            if tok.is_decimal and tok.sig_figs is not None:
                self.decimal_sig_figs.append(tok.sig_figs)
            return self.node("num", tok.value)
        if tok.kind == LP:
            return self.group()
        if tok.kind == FUNC:
            self.take()
            if tok.text == "lg":
                raise ReadError("'lg' is ambiguous; write ln, log_2 or log_10")
            name = FUNCTION_NAMES.get(tok.text, tok.text)
            if name.startswith("log_"):
                return self.call(name)
            if name not in FUNCTION_NAMES.values():
                raise ReadError(f"the function {tok.text} is not supported")
            return self.call(name)
        if tok.kind == NAME:
            self.take()
            resolved = self.resolve(tok.text)
            if isinstance(resolved, tuple) and resolved[0] == "fn":
                return self.call(str(resolved[1]))
            leaves = list(resolved)  # type: ignore[call-overload]
            if len(leaves) == 1:
                return self.node(*leaves[0])
            return ("split", tuple(self.node(*leaf) for leaf in leaves))
        raise ReadError(f"it has {describe(tok)} where a number should be")

    def group(self) -> Node:
        tok = self.peek()
        if tok is None or tok.kind != LP:
            raise ReadError(f"it has {describe(tok)} where a bracket should open")
        self.take()
        self.enter()
        inner = self.expression()
        close = self.peek()
        if close is None or close.kind != RP:
            raise ReadError(f"a bracket '{tok.text}' is not closed")
        if close.text != _CLOSING[tok.text]:
            raise ReadError(f"'{tok.text}' is closed by '{close.text}'")
        self.take()
        self.depth -= 1
        return inner

    def argument(self) -> Node:
        tok = self.peek()
        if tok is not None and tok.kind == LP:
            return self.group()
        self.enter()
        arg = self.unary()
        self.depth -= 1
        return arg

    def call(self, name: str) -> Node:
        if name == "frac":
            tok = self.peek()
            if tok is not None and tok.kind == NUM and len(tok.text) == 2 and tok.text.isdigit():
                self.take()  # \frac12
                return self.node("/", ("num", Integer(tok.text[0])), ("num", Integer(tok.text[1])))
            num = self.group()
            return self.node("/", num, self.group())
        if name == "sqrt":
            index = None
            tok = self.peek()
            if tok is not None and tok.kind == LP and tok.text == "[":
                index = self.group()
            return self.node("root", index, self.argument())
        if name.startswith("log_"):
            base = name[4:]
            if not base.isdigit() or int(base) < 2 or len(base) > 3:
                raise ReadError(f"a logarithm to base {base} is not supported")
            return self.node("log", Integer(int(base)), self.argument())
        return self.node("fn", name, self.argument())


# -- evaluation ------------------------------------------------------------------


def _digits_estimate(value: Expr) -> float:
    """log10 of |value| (for numbers only); used to refuse huge powers before computing them."""
    if value.is_Rational:
        p, q = abs(int(value.p)), int(value.q)
        return max(p.bit_length(), q.bit_length()) * 0.30103
    approx = abs(complex(value.evalf(15)))
    if approx == 0:
        return 0.0
    if not math.isfinite(approx):
        raise ReadError("a value in it is too large")
    return abs(math.log10(approx))


def _check_size(value: Expr) -> Expr:
    if value.is_Rational and (
        abs(int(value.p)).bit_length() > _MAX_BITS or int(value.q).bit_length() > _MAX_BITS
    ):
        raise ReadError(f"a value in it has more than {MAX_RESULT_DIGITS} digits")
    if value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        raise ReadError("it divides by zero")
    return value


def _power(base: Expr, exponent: Expr) -> Expr:
    if exponent.is_number:
        if not exponent.is_real:
            raise ReadError("it has a complex exponent")
        size = abs(float(exponent.evalf(15))) if not exponent.is_Rational else abs(exponent)
        if size > MAX_EXPONENT:
            raise ReadError(f"it raises a number to a power larger than {MAX_EXPONENT}")
        if exponent.is_Rational and exponent.q > 1000:
            raise ReadError("it takes a root of too high an order")
        if base.is_number:
            if base.is_zero and exponent.is_negative:
                raise ReadError("it divides by zero")
            if base.is_negative and not exponent.is_integer:
                raise ReadError("it takes a fractional power of a negative number")
            if _digits_estimate(base) * float(size) > MAX_RESULT_DIGITS:
                raise ReadError(f"a power in it has more than {MAX_RESULT_DIGITS} digits")
    elif base.is_number and not (base.is_zero or base == 1):
        pass  # symbolic exponent: left unevaluated; a value is computed only with limits
    return _check_size(base**exponent)


def evaluate(tree: Node, env: Callable[[str], Expr]) -> Expr:
    """Build the sympy value of ``tree``; ``env`` gives each symbol's value (or a Symbol)."""
    kind = tree[0]
    if kind == "num":
        return tree[1]
    if kind == "sym":
        return env(tree[1])
    if kind == "E":
        return sympy.E
    if kind == "pi":
        return sympy.pi
    if kind == "neg":
        return -evaluate(tree[1], env)
    if kind in ("+", "-", "*", "/"):
        a = evaluate(tree[1], env)
        b = evaluate(tree[2], env)
        if kind == "+":
            return _check_size(a + b)
        if kind == "-":
            return _check_size(a - b)
        if kind == "*":
            return _check_size(a * b)
        if b.is_zero:
            raise ReadError("it divides by zero")
        return _check_size(a / b)
    if kind == "^":
        return _power(evaluate(tree[1], env), evaluate(tree[2], env))
    if kind == "root":
        arg = evaluate(tree[2], env)
        order = Integer(2) if tree[1] is None else evaluate(tree[1], env)
        if not (order.is_Integer and 2 <= order <= 100):
            raise ReadError("only square roots and roots of order 2 to 100 are supported")
        if arg.is_number and arg.is_negative:
            raise ReadError("it takes the root of a negative number")
        return _power(arg, Rational(1, int(order)))
    if kind == "log":
        arg = evaluate(tree[2], env)
        _positive(arg, "logarithm")
        return sympy.log(arg, tree[1])
    if kind == "fn":
        name = tree[1]
        arg = evaluate(tree[2], env)
        if name == "ln":
            _positive(arg, "logarithm")
            return sympy.log(arg)
        if name == "exp":
            return _power(sympy.E, arg)
        if name == "sqrt":
            if arg.is_number and arg.is_negative:
                raise ReadError("it takes the root of a negative number")
            return _power(arg, Rational(1, 2))
    raise ReadError(f"it uses {kind}, which is not supported")  # pragma: no cover - parser prevents


def _positive(arg: Expr, what: str) -> None:
    if arg.is_number and not arg.is_positive:
        raise ReadError(f"it takes the {what} of a number that is not positive")
