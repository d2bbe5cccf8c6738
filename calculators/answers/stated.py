"""Conventions a student states in words, so an answer can be held to its own convention.

Why: "we omit the biases and the normalization layers" followed by a count that is right
without biases and LayerNorm is a different answer from a count that is simply off; and a
count that is wrong *even under* the student's convention deserves to be told what it
still leaves out. The names are those of ``calculators.params.conventions`` (``no_bias``,
``no_layernorm``, ...) plus the memory and scope ones the Part 3 questions meet
(``fp32``, ``one_head``, ``per_layer``). They combine: a section may state several.
"""

from __future__ import annotations

import re

from calculators.answers.tex import clean

_LEAVE = (r"(?:without|no|not\s+(?:count\w*|includ\w*)|omit\w*|ignor\w*|exclud\w*|leav\w*\s+out"
          r"|drop\w*|neglect\w*|skip\w*|disregard\w*|do(?:es)?\s+not\s+(?:count|include)"
          r"|except|apart\s+from)")
_GAP = r"[^.;:\n]{0,60}?"


def _left_out(thing: str) -> re.Pattern[str]:
    return re.compile(rf"\b{_LEAVE}\b{_GAP}\b(?:{thing})|\b(?:{thing})\b[^.;\n]{{0,30}}?"
                      rf"\b(?:are|is|were|being)\s+(?:omitted|ignored|excluded|left\s+out|dropped|"
                      rf"neglected|not\s+counted)", re.I)


STATEMENTS: dict[str, re.Pattern[str]] = {
    "no_bias": _left_out(r"bias(?:es|\s+terms?|\s+vectors?)?\b"),
    "no_layernorm": _left_out(r"layer\s*-?\s*norm\w*|normali[sz]ation(?:\s+layers?)?|norms?\b"
                              r"|\bLN\b"),
    "no_out_proj": _left_out(r"out(?:put)?[\s_-]*proj\w*"),
    "no_embeddings": _left_out(r"embeddings?(?:\s+(?:tables?|layers?))?"),
    "no_position_embeddings": _left_out(r"position(?:al)?\s+embeddings?"),
    "weights_only": re.compile(r"\b(?:weights?|weight\s+matrices|matrices)\s+only\b"
                               r"|\bonly\s+(?:the\s+)?(?:weights?|weight\s+matrices|matrices)\b", re.I),
    "fp32": re.compile(r"\b(?:fp32|float32|float\s*32|single[\s-]precision|32[\s-]bit\s+floats?"
                       r"|4\s+bytes\s+(?:per|for\s+each|each))", re.I),
    "one_head": re.compile(r"\b(?:for\s+)?(?:one|a\s+single|single|1)\s+(?:attention\s+)?head\b"
                           r"|\bper\s+head\b", re.I),
    "per_layer": re.compile(r"\b(?:for\s+)?(?:one|a\s+single|single)\s+layer\b"
                            r"(?![^.\n]{0,40}\b(?:times|×|x|multipl\w*|all)\b)", re.I),
}
"""What each stated convention sounds like."""

WORDS = {
    "no_bias": "without biases",
    "no_layernorm": "without LayerNorm",
    "no_out_proj": "without the attention output projection",
    "no_embeddings": "without the embeddings",
    "no_position_embeddings": "without position embeddings",
    "weights_only": "counting the weight matrices only",
    "fp32": "in fp32 (4 bytes a value)",
    "one_head": "for one head",
    "per_layer": "for one layer",
}


def _plain(text: str) -> str:
    """``text`` without the TeX and Markdown markup that splits a statement's words
    ("$4\\,\\text{bytes}$ per value", "for a \\textbf{single} head", "\\SI{4}{\\byte}")."""
    out = clean(text)
    out = re.sub(r"\\(?:textit|emph|underline|textsl|mathit|mathrm|text)\s*\{([^{}]*)\}", r"\1", out)
    return " ".join(re.sub(r"[*_{}]+|\\[A-Za-z]+", " ", out).split())


def conventions_in(text: str) -> tuple[str, ...]:
    """The conventions ``text`` states, in ``STATEMENTS`` order (``no_position_embeddings``
    implies nothing about the other embeddings), as written or once markup is taken off."""
    plain = _plain(text) if re.search(r"[\\$*&]", text) else text
    found = [name for name, pattern in STATEMENTS.items()
             if pattern.search(text) or pattern.search(plain)]
    if "no_position_embeddings" in found and "no_embeddings" in found:
        found.remove("no_embeddings")  # "without position embeddings" names those only
    return tuple(found)


def describe(names: tuple[str, ...] | list[str]) -> str:
    """``("no_bias", "no_layernorm")`` -> "without biases and without LayerNorm"."""
    words = [WORDS.get(n, n) for n in names]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
