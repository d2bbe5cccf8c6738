"""Token-level winnowing of Python code (Schleimer, Wilkerson and Aiken, SIGMOD 2003).

Why tokens and not text: renaming a variable, rewording a comment or re-indenting must
not hide a copy. The code is read with Python's own `tokenize` (no dependency, and it
knows Python exactly: strings, f-strings, line continuations), comments and layout are
dropped, and what a renamer changes is normalised:

- a name the student chooses (a local, a parameter, a function, `self.<attribute>`)
  becomes `N`; Python's keywords and builtins stay, and so does an attribute read on
  something other than `self` (`.transpose`, `.masked_fill`, `F.softmax`'s `softmax`):
  it names the library call, which a renamer leaves alone and which tells two
  approaches apart;
- every string literal becomes `S` (docstrings included) and every number `0`.

The normalised tokens are hashed in k-grams; winnowing keeps, from each window of `w`
consecutive k-gram hashes, the smallest (the rightmost on ties), which guarantees that
any match of at least `k + w - 1` tokens is found while keeping about 2/(w+1) of the
hashes. Each kept fingerprint remembers the source lines it covers, so a report can
show the matching regions side by side.
"""

from __future__ import annotations

import builtins
import hashlib
import io
import keyword
import tokenize
from dataclasses import dataclass

from grader.checks.pysource import MAX_LINE_CHARS

KEEP_NAMES = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
         tokenize.ENCODING, tokenize.ENDMARKER}
_FSTRING_PARTS = {getattr(tokenize, n) for n in ("FSTRING_START", "FSTRING_MIDDLE",
                                                 "FSTRING_END") if hasattr(tokenize, n)}


@dataclass(frozen=True)
class Token:
    text: str
    line: int
    """1-based line in the unit's source."""


@dataclass(frozen=True)
class Fingerprint:
    hash: int
    first: int
    """First and last source line (1-based) of the k tokens the hash covers."""
    last: int


def normalise(source: str) -> list[Token]:
    """The unit's tokens with names, strings and numbers normalised; [] if it does not
    tokenize at all (a cell of shell magics), else as far as it tokenizes."""
    # a line too long to tokenize (grader.checks.pysource.MAX_LINE_CHARS: Python 3.12's
    # tokenizer costs the square of a line's length) is read as an empty one
    lines = ["" if len(ln) > MAX_LINE_CHARS else ln for ln in source.splitlines()
             if not ln.lstrip().startswith(("%", "!"))]
    text = "\n".join(lines) + "\n"
    out: list[Token] = []
    prev, prev2 = "", ""
    in_fstring = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            kind, value, line = tok.type, tok.string, tok.start[0]
            if kind in _SKIP:
                continue
            if kind in _FSTRING_PARTS:
                name = tokenize.tok_name[kind]
                if name == "FSTRING_START":
                    in_fstring += 1
                    out.append(Token("S", line))
                elif name == "FSTRING_END":
                    in_fstring -= 1
                continue
            if in_fstring:
                continue  # the pieces of an f-string: one S already stands for it
            if kind == tokenize.STRING:
                norm = "S"
            elif kind == tokenize.NUMBER:
                norm = "0"
            elif kind == tokenize.NAME:
                if value in KEEP_NAMES and prev != ".":
                    norm = value
                elif prev == "." and prev2 != "self":
                    norm = value  # a library attribute: .view, .softmax, nn.Linear
                else:
                    norm = "N"
            else:
                norm = value
            out.append(Token(norm, line))
            prev2, prev = prev, value
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # keep what tokenized: a half-finished cell still has its first lines
    return out


def _hash(parts: list[str]) -> int:
    return int.from_bytes(hashlib.blake2b("\x1f".join(parts).encode(), digest_size=8).digest(),
                          "big")


def kgrams(tokens: list[Token], k: int) -> list[Fingerprint]:
    texts = [t.text for t in tokens]
    return [Fingerprint(_hash(texts[i:i + k]), tokens[i].line, tokens[i + k - 1].line)
            for i in range(len(tokens) - k + 1)]


def winnow(grams: list[Fingerprint], w: int) -> list[Fingerprint]:
    """The winnowed fingerprints: each window's minimum hash (rightmost on ties), each
    position once."""
    if len(grams) <= w:
        return [min(grams, key=lambda g: g.hash)] if grams else []
    hashes = [g.hash for g in grams]
    chosen: list[int] = []
    for start in range(len(hashes) - w + 1):
        window = hashes[start:start + w]
        low = min(window)
        pos = start + w - 1 - window[::-1].index(low)  # the rightmost minimum
        if not chosen or chosen[-1] != pos:
            chosen.append(pos)
    return [grams[p] for p in chosen]


def fingerprints(source: str, k: int, w: int) -> list[Fingerprint]:
    """Winnowed fingerprints of one unit of code (a cell, a module)."""
    return winnow(kgrams(normalise(source), k), w)
