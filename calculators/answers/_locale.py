"""Numbers as other locales write them: a decimal comma, dots grouping the thousands.

Why: most of Europe and Latin America write ``25,77 GB`` for 25.77 GB and
``21.018.401`` for 21,018,401; a Spanish report says ``14,497 mil millones`` for 14.497
billion. Read the English way, these are 25 and 77, an unreadable 21.018.401 and
14,497 thousand million. Some forms say which convention they follow whatever the
locale (dots between groups of three digits twice over, ``1.234,5``, a comma before one
or two digits or four and more, ``9,437,184``, ``0.7500``); ``14,497`` and ``1.500`` do not, and are read
as the rest of the answer (or the caller, who knows the report's other numbers) says:
by the English convention unless something shows a decimal comma. A lone
``9,437,184`` stays nine million.

Pure string operations, linear in the text, run before the lexer (which then sees
``25.77`` and ``21,018,401``); the answer's words are untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

from calculators.answers._vocabulary import COMMA_SIGNS, is_comma_sign

_DIGITS = frozenset("0123456789")

COMMA_LOCALE_SCALES = COMMA_SIGNS
"""Scale words of languages that write a decimal comma (German, Spanish, French, Italian,
Portuguese, Dutch, Polish, Swedish, Greek, Russian, Ukrainian, ...; the table is
``_vocabulary``'s): one after a number says the number's comma is a decimal one
("14,497 Mrd.", "14,5 Md", "14,497 млрд"). A word English shares (``million``) says nothing
of the locale and is not among them."""


@dataclass(frozen=True, slots=True)
class _Chunk:
    start: int
    end: int
    groups: tuple[str, ...]  # the digit runs
    seps: tuple[str, ...]  # the '.' and ',' between them


def _chunks(text: str) -> list[_Chunk]:
    """Runs of digits joined by single '.' or ',' (no space), not after a '.' or ','."""
    out: list[_Chunk] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] not in _DIGITS or (i > 0 and text[i - 1] in ".,_" + "".join(_DIGITS)):
            i += 1
            continue
        groups, seps, j, start = [], [], i, i
        while j < n:
            k = j
            while k < n and text[k] in _DIGITS:
                k += 1
            groups.append(text[j:k])
            if k + 1 < n and text[k] in ".," and text[k + 1] in _DIGITS:
                seps.append(text[k])
                j = k + 1
            else:
                j = k
                break
        out.append(_Chunk(start, j, tuple(groups), tuple(seps)))
        i = j
    return out


def _reading(chunk: _Chunk) -> tuple[str | None, str | None]:
    """(the convention the chunk shows alone: "comma", "point" or None; its text read
    with a decimal comma, or None where that reading is no number)."""
    g, s = chunk.groups, chunk.seps
    threes = all(len(x) == 3 for x in g[1:])
    lead = 1 <= len(g[0]) <= 3
    if not s:
        return None, None
    if len(s) >= 2 and set(s[:-1]) == {"."} and lead and all(len(x) == 3 for x in g[1:-1]):
        if s[-1] == "." and threes:  # 21.018.401
            return "comma", "".join(g)
        if s[-1] == ",":  # 1.234,5
            return "comma", "".join(g[:-1]) + "." + g[-1]
    if (len(s) >= 2 and set(s[:-1]) == {","} and lead and all(len(x) == 3 for x in g[1:-1])
            and ((s[-1] == "," and threes) or s[-1] == ".")):  # 9,437,184 or 1,234.5
        return "point", None
    if (len(s) >= 2 and set(s) == {","} and 1 <= len(g[0]) <= 2 and len(g[-1]) == 3
            and all(len(x) == 2 for x in g[1:-1])):  # 94,37,184: Indian grouping (lakh)
        return "point", "".join(g)
    if len(s) != 1:
        return None, None
    sep, after = s[0], g[1]
    if sep == ",":
        if g[0] == "0" or len(after) != 3:  # 0,7500, 25,77, 2,7876: no thousands group
            return "comma", f"{g[0]}.{after}"
        return None, f"{g[0]}.{after}"  # 14,497: either
    if g[0] == "0" or len(after) != 3:  # 0.288, 25.77
        return "point", None
    return None, "".join(g)  # 1.500: 1.5, or 1500 with a decimal comma


def shows_decimal_comma(text: str) -> bool | None:
    """True when the text writes numbers with a decimal comma (``25,77``, ``0,7500``,
    ``21.018.401``, a scale word of a comma locale), False when it writes a decimal point
    (``0.7500``, ``9,437,184``), None when it shows neither or both.

    A caller reading one answer of a report may pass the report's own reading as
    ``decimal_comma`` to ``parse_answer``: the report's other numbers say what
    ``14,497`` means."""
    signs = {_reading(c)[0] for c in _chunks(text)} - {None}
    if any(is_comma_sign(w.strip(".,;:()")) for w in text.split()):
        signs.add("comma")
    if signs == {"comma"}:
        return True
    if signs == {"point"}:
        return False
    return None


def localise(text: str, decimal_comma: bool | None = None) -> str:
    """The text with its numbers in the English convention the lexer reads.

    Forms that show a decimal comma are rewritten always (``25,77`` -> ``25.77``,
    ``21.018.401`` -> ``21018401``); forms that could be either (``14,497``, ``1.500``)
    only where ``decimal_comma`` is True, or, when it is None, where the text itself
    shows a decimal comma and no decimal point (``shows_decimal_comma``)."""
    chunks = _chunks(text)
    if not any(c.seps for c in chunks):
        return text
    comma = shows_decimal_comma(text) if decimal_comma is None else decimal_comma
    out: list[str] = []
    at = 0
    for chunk in chunks:
        sign, read = _reading(chunk)
        if read is None or (sign is None and not comma):
            continue
        out.append(text[at:chunk.start])
        out.append(read)
        at = chunk.end
    out.append(text[at:])
    return "".join(out)
