"""LaTeX and markup that hide a number's unit or digit groups, taken off: ``clean``.

Why here, beside the answer parser and not with the report readers: the conventions a
section states in TeX (``$4\\,\\text{bytes}$ per value``, read by ``stated.py``) need the
same plain text as the numbers the grader's report reader picks (``grader.written``), and
``calculators`` imports nothing from the grader.
"""

from __future__ import annotations

import re
import unicodedata

from calculators.answers.units import siunitx_unit

# siunitx: \SI{25.77}{\giga\byte}, \qty[...]{...}{...}, \num{25769803776}, \si{\giga\byte}
_SIUNITX_QUANTITY = re.compile(
    r"\\(?:SI|qty)\s*(?:\[[^\[\]]*\])?\{([^{}]*)\}\s*(?:\[[^\[\]]*\])?\{((?:[^{}]|\{[^{}]*\})*)\}")
_SIUNITX_NUMBER = re.compile(r"\\num\s*(?:\[[^\[\]]*\])?\{([^{}]*)\}")
_SIUNITX_UNIT = re.compile(r"\\(?:si|unit)\s*(?:\[[^\[\]]*\])?\{((?:[^{}]|\{[^{}]*\})*)\}")

# LaTeX and markup that hide a number's unit or digit groups
_CLEAN = [
    (_SIUNITX_QUANTITY, lambda m: f"{m.group(1).strip()} {siunitx_unit(m.group(2))}"),
    (_SIUNITX_NUMBER, lambda m: m.group(1).strip()),
    (_SIUNITX_UNIT, lambda m: " " + siunitx_unit(m.group(1))),
    (re.compile(r"&(?:nbsp|thinsp|ensp|emsp|#160|#8201|#x202[fF]|#x[aA]0);"), " "),
    (re.compile(r"\\(?:mathbf|textbf|boldsymbol|bm)\s*\{([^{}]*)\}"), r"**\1**"),
    # TeX math delimiters \( .. \) and \[ .. \] (not Markdown's escaped "\(a\)" part marker
    # or "\[4\]" citation)
    (re.compile(r"\\\((?![a-zA-Z]{1,4}\\\))(.*?)\\\)"), r" \1 "),
    (re.compile(r"\\\[(?!\s*\d+\s*\\\])(.*?)\\\]"), r" \1 "),
    (re.compile(r"^\s*\\[\[\]]|\\[\[\]](?=\s*$)"), " "),
    # Markdown's escapes (Google Docs' "Download as Markdown" escapes = + . - too)
    (re.compile(r"\\(?=[()\[\]*_#|=+.-])"), ""),
    # {\rm GB}: the old-style font switch
    (re.compile(r"\{\\(?:rm|mathrm|text|textrm|sf|it|bf)\s+([^{}]*)\}"), r" \1"),
    (re.compile(r"\\(?:text|mathrm|textrm|mathit|operatorname|mbox|textnormal|textup|mathsf"
                r"|textsf|texttt|hbox)\s*\{\s*([^{}]*)\}"), r" \1"),
    (re.compile(r"(?<=\d)\\[,;: ](?=\d{3})"), ","),
    (re.compile(r"(?<=\d)\{,\}(?=\d)"), ","),
    # dots as thousands separators (German, Italian habits): two groups or more are
    # unambiguous ("21.018.401"); one ("21.018") stays a decimal
    (re.compile(r"(?<![\w.,])\d{1,3}(?:\.\d{3}){2,}(?![\d.]?\d)"),
     lambda m: m.group(0).replace(".", ",")),
    # a LaTeX control space or tie between a number and its unit: 25.77\ GB, 25.77~GB
    (re.compile(r"(?<!\\)\\(?= )"), ""),
    (re.compile(r"(?<=[\d}$])\s*~\s*(?=[A-Za-z%\\])"), " "),
    (re.compile(r"\\[,;:!]| \\ "), " "),  # after the digit groups: any TeX space left
    (re.compile(r"\\%"), "%"),
    (re.compile(r"\$+"), " "),
    (re.compile(r"[\u2009\u202f\u00a0]"), " "),
    (re.compile(r"−"), "-"),
]


def _plain_bold(m: re.Match[str]) -> str:
    return "**" + unicodedata.normalize("NFKC", m.group(0)) + "**"


_MATH_ALNUM = re.compile("[\U0001d400-\U0001d7ff](?:[\U0001d400-\U0001d7ff.,]*[\U0001d400-\U0001d7ff])?")


def clean(raw: str) -> str:
    """``raw`` with LaTeX digit groups, ``\\text{}`` units and ``$`` turned into plain text.

    Mathematical bold digits (𝟎.𝟕𝟓, a browser's MathML export of a bold answer) become
    bold digits; other compatibility characters (superscripts) stay, they carry meaning.
    """
    out = _MATH_ALNUM.sub(_plain_bold, raw)
    for pattern, repl in _CLEAN:
        out = pattern.sub(repl, out)
    return out
