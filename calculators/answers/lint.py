"""``lint_arithmetic``: find written equations whose arithmetic is wrong.

A report's sums are evidence: "120,000 + 600 + 40,000 + 200 = 160,000" shows the
student dropped 800 parameters even when the final answer is right. The linter
looks only at the arithmetic *links* of an equation: the run of numbers and
operators right before an ``=`` and the run right after it. A side that touches a
symbol (``n_{hid} \\times n_{hid} + n_{hid}``, ``r = 16``, ``24 d_{model}^2``) is a
definition or algebra, not arithmetic, and is skipped; so is anything after ``≈``.

A false alarm costs a student as much as a missed slip, so every doubt resolves
to "not a slip": rounded results are accepted to one unit in their last written
digit, a percentage may be written with or without its factor of 100, memory
units may be read as GB or GiB, and a side that does not parse is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sympy import Expr, Integer, Rational

from calculators.answers import units
from calculators.answers._format import format_value
from calculators.answers._lexer import (
    _GREEK,
    EQ,
    FUNC,
    LP,
    NAME,
    NUM,
    OP,
    OTHER,
    PERCENT,
    RP,
    Token,
    preprocess,
    tokenize,
)
from calculators.answers._limits import MAX_LINT_CHARS, MAX_LINT_LINKS
from calculators.answers.parse import ParsedAnswer, parse_answer

_MAX_BLOCK_LINES = 30
_LOOSE = Rational(5, 1000)  # relative slack when a side holds a rounded decimal or e/ln/sqrt


@dataclass(frozen=True)
class Slip:
    """One written equation whose two sides differ: ``left`` is ``true_value``, not ``written``."""

    line: int  # 1-based line where the equation starts
    end_line: int  # last line it spans (the result may stand on the next line)
    text: str  # the line(s) as written
    left: str  # the computed side, as written (after clean-up of markup)
    written: str  # the result the student wrote
    true_value: Expr  # exact value of ``left``
    written_value: Expr  # exact value of ``written``

    @property
    def message(self) -> str:
        return (
            f"Line {self.line}: {self.left} is {format_value(self.true_value)}, not {self.written}."
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "end_line": self.end_line,
            "text": self.text,
            "left": self.left,
            "written": self.written,
            "true_value": str(self.true_value),
            "written_value": str(self.written_value),
            "message": self.message,
        }


def lint_arithmetic(text: str) -> list[Slip]:
    """Every arithmetic slip in a report's written equations, in line order."""
    lines = text.splitlines()
    slips: list[Slip] = []
    budget = [MAX_LINT_LINKS]
    for first, last, chunk in _equation_chunks(lines):
        if "=" not in chunk or len(chunk) > MAX_LINT_CHARS:
            continue
        quoted = "\n".join(lines[first - 1 : last])
        slips.extend(_lint_chunk(chunk, first, last, quoted, budget))
        if budget[0] <= 0:
            break
    return slips


def _equation_chunks(lines: list[str]) -> Iterator[tuple[int, int, str]]:
    """Logical lines: a ``$$`` block is one, and ``a + b =`` joins the result on the next line."""
    i, n = 0, len(lines)
    in_fence = False
    while i < n:
        line = lines[i]
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            i += 1
            continue
        if in_fence:
            i += 1
            continue
        j = i
        chunk = line
        if line.count("$$") % 2 == 1:  # a display block opened here and closed below
            k = i + 1
            while k < n and k - i <= _MAX_BLOCK_LINES and lines[k].count("$$") % 2 == 0:
                k += 1
            if k < n and k - i <= _MAX_BLOCK_LINES:
                chunk = " ".join(lines[i : k + 1])
                j = k
        if chunk.rstrip().rstrip("$").rstrip().endswith("="):
            k = j + 1
            while k < n and k - j <= 2 and not lines[k].strip():
                k += 1
            if k < n and k - j <= 2 and _starts_with_number(lines[k]):
                chunk = chunk + " " + lines[k]
                j = k
        yield i + 1, j + 1, chunk
        i = j + 1


def _starts_with_number(line: str) -> bool:
    head = line.strip().lstrip("*$ ")
    head = head.removeprefix("\\textbf{").removeprefix("\\mathbf{")
    return head[:1].isdigit()


def _is_unit_word(tokens: list[Token], k: int) -> bool:
    tok = tokens[k]
    if tok.kind != NAME or k == 0 or tokens[k - 1].kind not in (NUM, RP, PERCENT):
        return False
    if units.memory_unit(tok.text) is not None:
        return True
    factor = units.scale_word(tok.text)
    return factor is not None and (len(tok.text) > 2 or not tok.space_before)


def _arithmetic(tokens: list[Token], k: int) -> bool:
    tok = tokens[k]
    if tok.kind in (NUM, OP, LP, RP, FUNC):
        return True
    if tok.kind == PERCENT:
        return k > 0 and tokens[k - 1].kind in (NUM, RP)
    if tok.kind == NAME:
        if (
            tok.text == "e"
            and k + 1 < len(tokens)
            and tokens[k + 1].kind == OP
            and tokens[k + 1].text == "^"
        ):
            return True
        return _is_unit_word(tokens, k)
    return False


def _mathish(tok: Token) -> bool:
    """A name that reads as a symbol in a formula, not as a word of prose."""
    t = tok.text
    return len(t) <= 1 or "_" in t or t in _GREEK or any(ch.isdigit() for ch in t)


def _left_run(tokens: list[Token], eq: int, stop: int) -> tuple[int, int] | None:
    k = eq - 1
    while k > stop and _arithmetic(tokens, k):
        k -= 1
    start, end = k + 1, eq  # tokens[start:end]
    # drop closing brackets that belong to what came before, and cut at an unmatched opener
    while start < end and tokens[start].kind == RP:
        start += 1
    depth = 0
    for idx in range(end - 1, start - 1, -1):
        if tokens[idx].kind == RP:
            depth += 1
        elif tokens[idx].kind == LP:
            if depth == 0:
                start = idx + 1
                break
            depth -= 1
    if start >= end:
        return None
    first = tokens[start]
    prev = tokens[start - 1] if start > 0 else None
    if first.kind == OP and first.text != "-":
        return None
    if prev is not None:
        if prev.kind == OTHER and prev.text in ("_", "^"):
            return None  # "softmax(z)_2 = ...": a subscript, not a value
        if prev.kind == NAME and (_mathish(prev) or not first.space_before):
            return None
        if prev.kind == NAME and start >= 2 and tokens[start - 2].kind == OP:
            return None  # "a × b + LayerNorm 2 × c = ...": a word cuts the sum, a part only
        if first.kind == OP and prev.kind in (NAME, NUM, RP):
            return None
        if prev.kind == OTHER and prev.text.startswith("\\"):
            return None
        if (
            prev.kind == LP
            and start >= 2
            and tokens[start - 2].kind == NAME
            and not prev.space_before
        ):
            return None  # f(2 + 2 = 4): inside a function's argument list
    return start, end


def _right_run(tokens: list[Token], eq: int, stop: int) -> tuple[int, int] | None:
    k = eq + 1
    while k < stop and _arithmetic(tokens, k):
        k += 1
    start, end = eq + 1, k
    while end > start and tokens[end - 1].kind == LP:
        end -= 1
    depth = 0
    for idx in range(start, end):
        if tokens[idx].kind == LP:
            depth += 1
        elif tokens[idx].kind == RP:
            if depth == 0:
                end = idx
                break
            depth -= 1
    if start >= end:
        return None
    last = tokens[end - 1]
    nxt = tokens[end] if end < len(tokens) else None
    if last.kind == OP:
        return None
    if nxt is not None:
        if nxt.kind == NAME:
            if _mathish(nxt) or not nxt.space_before:
                return None  # "= 24 d_{model}^2", "= 2N": the side goes on with a symbol
            after = tokens[end + 1] if end + 1 < len(tokens) else None
            if after is not None and after.kind == OP:
                return None  # "= 2 nhid + 3"
        if nxt.kind in (FUNC, LP) or (nxt.kind == OTHER and nxt.text.startswith("\\")):
            return None
    return start, end


def _lint_chunk(chunk: str, first: int, last: int, quoted: str, budget: list[int]) -> list[Slip]:
    clean = preprocess(chunk)
    tokens = tokenize(clean)
    eqs = [k for k, tok in enumerate(tokens) if tok.kind == EQ]
    slips: list[Slip] = []
    for pos, eq in enumerate(eqs):
        stop_left = eqs[pos - 1] if pos > 0 else -1
        stop_right = eqs[pos + 1] if pos + 1 < len(eqs) else len(tokens)
        left = _left_run(tokens, eq, stop_left)
        right = _right_run(tokens, eq, stop_right)
        if left is None or right is None:
            continue
        budget[0] -= 1
        if budget[0] < 0:
            break
        left_text = " ".join(clean[tokens[left[0]].start : tokens[left[1] - 1].end].split())
        right_text = " ".join(clean[tokens[right[0]].start : tokens[right[1] - 1].end].split())
        slip = _check_link(left_text, right_text, first, last, quoted)
        if slip is not None:
            slips.append(slip)
    return slips


def _readings(side: ParsedAnswer) -> list[tuple[Expr, Rational | None, bool]]:
    """(value, tolerance, loose) for each fair reading of one side."""
    assert side.value is not None and side.number is not None
    out: list[tuple[Expr, Rational | None, bool]] = []
    place = side.place if side.place is not None and (side.sig_figs or side.place != 1) else None
    loose = side.sig_figs is not None and side.is_formula

    # one unit in the last written digit for a decimal (truncation is common and fair);
    # half a unit for a whole number, whose trailing zeros may not be significant
    unit_share = Rational(1, 2) if side.number.is_Integer else Integer(1)

    def add(value: Expr, factor: Rational) -> None:
        out.append((value, None if place is None else abs(place * factor) * unit_share, loose))

    add(side.value, side.scale)
    if side.is_memory:
        add(side.bytes, side.scale * units.BYTES_PER_UNIT[side.unit])  # type: ignore[arg-type, index]
        swap = units.DECIMAL_BINARY_PAIRS.get(side.unit or "")
        if swap:
            add(
                side.number * side.scale * units.BYTES_PER_UNIT[swap],
                side.scale * units.BYTES_PER_UNIT[swap],
            )
    if side.scale != 1:
        add(side.number, Integer(1))
    return out


def _agree(a: tuple[Expr, Rational | None, bool], b: tuple[Expr, Rational | None, bool]) -> bool:
    va, vb = a[0], b[0]
    exact_pair = va.is_Rational and vb.is_Rational
    diff = abs(va - vb) if exact_pair else abs(Rational((va - vb).evalf(40)))
    if diff == 0:
        return True
    slack = max(a[1] or 0, b[1] or 0)
    if slack and diff <= slack:
        return True
    if (a[2] or b[2] or not (va.is_Rational and vb.is_Rational)) and diff <= _LOOSE * abs(
        Rational(vb.evalf(40)) if not vb.is_Rational else vb
    ):
        return True
    # a whole number written for a non-integer result: rounding to units
    for written, true in ((vb, va), (va, vb)):
        if written.is_Integer and not (true.is_Rational and true.q == 1) and diff < 1:
            return True
    return False


_SCIENTIFIC = re.compile(r"\d+(?:\.\d+)?\s*(?:×|\\times|x|\*)\s*10\s*\^\s*\{?[-−]?\d+\}?")


def _check_link(left_text: str, right_text: str, first: int, last: int, quoted: str) -> Slip | None:
    slip = _check_one(left_text, right_text, first, last, quoted)
    if slip is not None and "/" in left_text and _SCIENTIFIC.search(left_text):
        # "7.55 × 10^7 / 1.16 × 10^11": each number in scientific notation is one value
        grouped = _SCIENTIFIC.sub(lambda m: f"({m.group(0)})", left_text)
        if _check_one(grouped, right_text, first, last, quoted) is None:
            return None
    return slip


def _check_one(left_text: str, right_text: str, first: int, last: int, quoted: str) -> Slip | None:
    left = parse_answer(left_text)
    right = parse_answer(right_text)
    if not (left.ok and right.ok) or left.value is None or right.value is None:
        return None
    if left.approximate or right.approximate:
        return None
    if not left.is_formula and not right.is_formula and left.unit is None and right.unit is None:
        return None  # "50,001 = 50,001", or a number restated: nothing to compute
    if left.unit is not None and right.unit is not None and left.is_memory != right.is_memory:
        return None
    lr, rr = _readings(left), _readings(right)
    if any(_agree(a, b) for a in lr for b in rr):
        return None
    computed, written, written_text = left, right, right_text
    if not left.is_formula and right.is_formula:
        computed, written, written_text = right, left, left_text
    true_value = computed.value
    if computed.is_memory and written.is_memory:
        true_value = units.from_bytes(computed.bytes, written.unit)  # type: ignore[arg-type]
    return Slip(
        line=first,
        end_line=last,
        text=quoted,
        left=right_text if computed is right else left_text,
        written=written_text,
        true_value=true_value,  # type: ignore[arg-type]
        written_value=written.value,  # type: ignore[arg-type]
    )
