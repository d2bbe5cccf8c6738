"""Formulas in the question's symbols on a line of a report section ("2rH", "8H^2 + 5H",
"\\frac{e^3}{26.78}"), for the answer picker (``candidates``).

Why apart: a formula answer is found by trying the pieces of a segment between "=", "≈"
and ":" against the answer parser, which is the slow part of picking; what counts as a
symbol's name and as its definition ("with L = 48") is decided here once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from calculators.answers._lexer import normalize_name
from calculators.answers.parse import ParsedAnswer, parse_answer

_MAX_SEGMENTS = 40
"""Segments (between "=", "≈", ":") of one line tried for a formula (bounded time)."""


def symbol_names(symbols: Mapping[str, Any] | None) -> list[str]:
    return sorted({normalize_name(n) for n in (symbols or {})}, key=len, reverse=True)


_SYMBOLISH = re.compile(r"[A-Za-z_][A-Za-z_0-9{}\\]*")


def mentions_symbol(text: str, names: Sequence[str]) -> bool:
    """Whether ``text`` names one of the question's symbols, alone or run together ("2rH")."""
    return any(_splits(normalize_name(tok), names) for tok in _SYMBOLISH.findall(text))


def _splits(token: str, names: Sequence[str]) -> bool:
    if token in names:
        return True
    return any(token.startswith(n) and _splits(token[len(n):], names) for n in names
               if n and len(n) < len(token))


_CLOSED_FORM = re.compile(r"\\[dt]?frac|/|\\exp|\\ln|\bln\b|\\sqrt")


def _closed_form(segment: str) -> bool:
    """A value written as a formula with no number after it ("\\frac{e^3}{...}")."""
    return bool(_CLOSED_FORM.search(segment)) and "=" not in segment and "≈" not in segment


_NAME_CHARS = "".join(chr(c) for c in range(128) if chr(c).isalnum()) + "_{}\\"
"""What a symbol's name is written with ("d_{model}", "\\alpha")."""


def word_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of non-space characters of ``text``."""
    out: list[tuple[int, int]] = []
    start = None
    for i, ch in enumerate(f"{text} "):
        if not ch.isspace():
            start = i if start is None else start
        elif start is not None:
            out.append((start, i))
            start = None
    return out


def defines(before: str, names: Sequence[str]) -> bool:
    """Whether ``before`` ends with "<one of the question's symbols> =" (a definition)."""
    head = before.rstrip()
    if not names or not head.endswith("=") or head.endswith(("==", "<=", ">=", "!=")):
        return False
    head = head[:-1].rstrip()
    name = head[len(head.rstrip(_NAME_CHARS)):]
    name = name[next((k for k, ch in enumerate(name) if ch.isascii() and ch.isalpha()),
                     len(name)):]  # a name starts with a letter
    return bool(name) and normalize_name(name) in names


def _formula_in(segment: str, symbols: Mapping[str, Any],
                closed: bool) -> tuple[int, int, ParsedAnswer] | None:
    """The longest formula in ``segment`` (prose cut from its start and end), if any."""
    words = word_spans(segment)
    for i in range(min(len(words), 12)):
        for j in range(len(words), max(i, len(words) - 4), -1):
            a, b = words[i][0], words[j - 1][1]
            piece = segment[a:b].rstrip(".,;")
            if not re.search(r"[-+*/×·⋅∙^²³(\\]|\d\s*[A-Za-z]", piece.strip("*")):
                continue  # a lone symbol ("and H = 6144") is no formula
            if piece.lstrip("*").lstrip()[:1] in tuple("+/×·⋅∙^"):
                continue  # "+ nlayers" of "emb + nlayers * layer": the tail of a longer one
            parsed = parse_answer(piece, symbols)
            head = piece.split(None, 1)
            if (len(head) == 2 and head[1][:1] == "(" and _plain_number(head[0])
                    and parsed.expr is not None and not parsed.expr.free_symbols):
                continue  # "0.288 (-ln(0.750))": a value, then how it was got, no product
            if parsed.ok and parsed.is_formula and parsed.expr is not None and (
                    parsed.expr.free_symbols or closed):
                for k in range(j - 1, i, -1):  # without trailing words ("parameters")
                    shorter = segment[a:words[k - 1][1]].rstrip(".,;")
                    again = parse_answer(shorter, symbols)
                    if not again.ok or again.expr != parsed.expr:
                        break
                    piece, parsed = shorter, again
                return a, a + len(piece), parsed
    return None


def formulas_in_line(text: str, symbols: Mapping[str, Any], names: Sequence[str]) -> list[tuple[int, int, ParsedAnswer, bool]]:
    """Formulas in the question's symbols on one line: (start, end, parsed, end of chain)."""
    out = []
    # a table row's cells are segments too, its last cell the line's end: "| **Answer** |
    # 1/1536 of the FFN memory |"
    row = text.lstrip().startswith("|")
    end = len(text.rstrip().removesuffix("|")) if row else len(text)
    cells = r"|\|" if row else ""
    marks = list(re.finditer(r"(?<![<>!])=|≈|\\approx|:" + cells, text[:end]))[:_MAX_SEGMENTS]
    cuts = [0] + [m.end() for m in marks]
    stops = [m.start() for m in marks] + [end]
    for k, (start, stop) in enumerate(zip(cuts, stops, strict=True)):
        segment = text[start:stop]
        last = k == len(cuts) - 1
        if not mentions_symbol(segment, names) and not (last and _closed_form(segment)):
            continue
        closed = last and _closed_form(segment)
        found = _formula_in(segment, symbols, closed)
        if found is not None:
            a, b, parsed = found
            out.append((start + a, start + b, parsed, last))
    return out


def _plain_number(word: str) -> bool:
    """A number as typed ("0.288", "14,496"), no symbol or operator in it."""
    return word.replace(",", "").replace(".", "", 1).isdecimal()
