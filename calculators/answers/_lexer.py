"""Clean-up and tokens: the only code that looks at raw student characters.

Students write the same number in many ways (``21,018,401``, ``21 018 401``,
``21'018'401``, ``\\textbf{21{,}018{,}401}``, ``**21,018,401**``), and formulas in
plain text, Markdown and LaTeX. ``preprocess`` folds the notations into one, and
``tokenize`` cuts the result into a small set of token kinds. Anything outside the
allow-list becomes an ``OTHER`` (or ``ERROR``) token; the tokenizer never fails and
never evaluates anything, so the parser decides what is readable and the linter
can skip prose. Both passes are linear in the length of the text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from sympy import Integer, Rational

from calculators.answers._digits import ascii_digits
from calculators.answers._limits import MAX_DIGITS, MAX_EXPONENT
from calculators.answers._vocabulary import unspaced

# Token kinds.
NUM = "NUM"  # a number literal
NAME = "NAME"  # a letter run with optional subscripts: H, d_model, n_hid, GB, billion
FUNC = "FUNC"  # a LaTeX function command: \ln \log \exp \sqrt \frac
OP = "OP"  # + - * / ^  (× · ÷ ** \times \cdot \div folded in)
LP = "LP"  # ( [ {
RP = "RP"  # ) ] }
EQ = "EQ"  # =
APPROX = "APPROX"  # ≈ ~ \approx \sim
PERCENT = "PERCENT"  # %
ELLIPSIS = "ELLIPSIS"  # ... … \cdots \ldots \dots
COMMA = "COMMA"
OTHER = "OTHER"  # anything else, including unknown LaTeX commands
ERROR = "ERROR"  # a number beyond the limits; ``text`` says why


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    start: int
    end: int
    space_before: bool = False
    value: Rational | None = None  # NUM: exact value
    sig_figs: int | None = None  # NUM: significant figures as written (None: exact integer)
    place: Rational | None = None  # NUM: value of one unit in the last written digit
    is_decimal: bool = False  # NUM: written with a point or an exponent


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-")
_SUPERSCRIPT_RUN = re.compile("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻]+")
_CHAR_FOLDS = str.maketrans(
    {
        "−": "-",
        "–": "-",
        "‒": "-",
        "⋅": "·",
        "∙": "·",
        "∗": "*",
        "＝": "=",
        "≃": "≈",
        "≅": "≈",
        "∼": "~",
        "\t": " ",
        "\r": " ",
    }
)
_WRAPPERS = re.compile(
    r"\\(?:text|mathrm|textrm|textbf|mathbf|mathit|textit|operatorname|boldsymbol|bm|emph"
    r"|mbox|mathsf|texttt|textnormal|mathnormal|boxed|fbox|underline)\s*\{([^{}]*)\}"
)
_SIZERS = re.compile(
    r"\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|bigg|Bigg|big|Big|displaystyle)(?![A-Za-z])"
)
_SPACERS = re.compile(r"\\(?:quad|qquad)(?![A-Za-z])|\\[;: ]")
_MATH_DELIMS = re.compile(r"\$\$?|\\\(|\\\)|\\\[|\\\]")
_TILDE_SPACE = re.compile(r"(?<=[\w}])~(?=[\w\\])")
_DOUBLE_STAR = re.compile(r"\*\*")
_ITALIC = re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]{1,200}?)(?<=[^\s*])\*(?![\w*])")


def _star_pair(match: re.Match[str]) -> str:
    """``**`` is a power between two operands (``H**2``) and bold markup otherwise."""
    text = match.string
    before = text[match.start() - 1] if match.start() > 0 else " "
    after = text[match.end()] if match.end() < len(text) else " "
    if (before.isalnum() or before in ")}]") and (after.isalnum() or after in "({[.-"):
        return "^"
    return ""


def preprocess(text: str, *, keep_math_delimiters: bool = False) -> str:
    """Fold the notations a student may use into one plain form; never evaluates."""
    s = ascii_digits(text).translate(_CHAR_FOLDS)
    s = _SUPERSCRIPT_RUN.sub(lambda m: "^{" + m.group(0).translate(_SUPERSCRIPTS) + "}", s)
    if not keep_math_delimiters:
        s = _MATH_DELIMS.sub(" ", s)
    s = _TILDE_SPACE.sub(" ", s)  # before the wrappers: "25.77~\text{GB}"
    for _ in range(3):
        # inside \mathrm{~GB} a "~" is TeX's tie (a space), never "about"
        s, n = _WRAPPERS.subn(lambda m: " " + m.group(1).replace("~", " ") + " ", s)
        if not n:
            break
    s = s.replace("{,}", ",").replace("\\,", "\u2009").replace("\\!", "").replace("\\%", "%")
    s = _SIZERS.sub("", s)
    s = _SPACERS.sub(" ", s)
    s = _DOUBLE_STAR.sub(_star_pair, s)
    s = _ITALIC.sub(lambda m: m.group(1), s)
    return s


_DIGITS = frozenset("0123456789")  # ASCII only: int() would also accept "١٢٣" and "𝟙𝟚"
# A number: digits grouped by one consistent separator (a comma, an apostrophe, a space
# or Python's underscore: 14_496_989_184), or plain digits; then an optional decimal part
# and exponent. Groups must be exactly three digits. A zero before a comma is a decimal
# comma ("0,7500", as most of Europe writes it): no one groups the thousands of zero.
_NUMBER = re.compile(
    r"""
    (?:
        (?P<zero>0),(?P<cfrac>[0-9]+)(?!,[0-9])
      | (?P<int>
            [0-9]{1,3}(?P<sep>,[ ]?|['’_]|[ \u00a0\u2009\u202f])[0-9]{3}(?:(?P=sep)[0-9]{3})*(?![0-9])
          | [0-9]+
        )?
        (?:\.(?P<frac>[0-9]+))?
    )
    (?:[eE](?P<exp>[+-]?[0-9]+))?
    """,
    re.VERBOSE,
)
# a letter run, with the vowel signs of Devanagari ("करोड़") and Latin combining accents
_NAME = re.compile(r"(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0963])+[0-9]*"
                   r"(?:(?:_|\\_)(?:\{[^{}]{0,60}\}|[^\W_]+))*")
_COMMAND = re.compile(r"\\([A-Za-z]+)")
_SUBSCRIPT = re.compile(r"_(?:\{([^{}]{1,20})\}|([0-9A-Za-z]))")
_SUBSCRIPTS = re.compile(r"(?:(?:_|\\_)(?:\{[^{}]{0,60}\}|[^\W_]+))*")
_WHITESPACE = " \n\u00a0\u2009\u202f\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u200a\u200b\f\v"

_OPERATOR_COMMANDS = {"times": "*", "cdot": "*", "ast": "*", "div": "/", "over": "/"}
_FUNCTION_COMMANDS = {"frac", "dfrac", "tfrac", "sqrt", "ln", "log", "exp", "lg"}
_APPROX_COMMANDS = {"approx", "sim", "simeq", "thickapprox", "thicksim", "cong"}
_ELLIPSIS_COMMANDS = {"cdots", "ldots", "dots", "dotsc", "dotsb", "hdots", "vdots"}
_GREEK = {
    "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta",
    "iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon",
    "phi", "varphi", "chi", "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Xi",
    "Pi", "Sigma", "Phi", "Psi", "Omega",
}  # fmt: skip
_SINGLE_OPS = {"+": "+", "-": "-", "*": "*", "/": "/", "^": "^", "×": "*", "·": "*", "÷": "/"}


def normalize_name(name: str) -> str:
    """One spelling per symbol: ``d_{model}``, ``d\\_model`` and ``d_model`` are the same."""
    out = name.replace("\\_", "_").replace("\\", "")
    for ch in "{} \u2009":
        out = out.replace(ch, "")
    return out


def _number_token(match: re.Match[str], start: int, space: bool) -> Token:
    text = match.group(0)
    int_part = match.group("int") or ""
    sep = match.group("sep")
    digits = "".join(ch for ch in int_part if ch.isdigit()) if sep else int_part
    frac = match.group("frac") or match.group("cfrac")  # a decimal point or comma
    if match.group("zero"):
        digits = "0"
    exp_text = match.group("exp")
    end = match.end() + start - match.start()
    if len(digits) + len(frac or "") > MAX_DIGITS:
        return Token(ERROR, f"a number has more than {MAX_DIGITS} digits", start, end, space)
    exponent = 0
    if exp_text is not None:
        if len(exp_text.lstrip("+-")) > 4 or abs(int(exp_text)) > MAX_EXPONENT:
            return Token(ERROR, f"an exponent is larger than {MAX_EXPONENT}", start, end, space)
        exponent = int(exp_text)
    mantissa = Integer(int(digits or "0"))
    place = Integer(1)
    if frac:
        mantissa = Rational(int((digits or "0") + frac), 10 ** len(frac))
        place = Rational(1, 10 ** len(frac))
    scale = Integer(10) ** exponent
    value = mantissa * scale
    is_decimal = bool(frac) or exp_text is not None
    all_digits = ((digits or "") + (frac or "")).lstrip("0")
    if is_decimal:
        sig = len(all_digits) if frac else len(all_digits.rstrip("0"))
        if not frac:  # "2e9": the trailing zeros of the mantissa are not significant
            place = Integer(10) ** (len(digits) - len(digits.rstrip("0") or "0"))
        sig_figs: int | None = max(sig, 1)
    else:
        stripped = all_digits.rstrip("0")
        sig_figs = None
        place = Integer(10) ** (len(all_digits) - len(stripped)) if stripped else Integer(1)
        # integers are exact; ``sig_figs`` is filled in when a unit or scale follows
    return Token(
        NUM,
        text,
        start,
        end,
        space,
        value=value,
        sig_figs=sig_figs,
        place=place * scale,
        is_decimal=is_decimal,
    )


def _name_end(s: str, end: int) -> int:
    """Where a name the pattern ended at ``end`` really ends. A combining mark (a Thai vowel
    or tone mark, a Hebrew point, an Arabic short vowel) belongs to the letter it sits on,
    and the letters after it to the same word: ``พันล้าน`` is one word, not five pieces.
    The pattern itself knows only the Latin and Devanagari marks."""
    n = len(s)
    while end < n and unicodedata.category(s[end])[0] == "M":
        while end < n and unicodedata.category(s[end])[0] == "M":
            end += 1
        m = _NAME.match(s, end)
        if m:
            end = m.end()
    return end


def integer_sig_figs(token: Token) -> int:
    """Significant figures of an integer literal read as a rounded value ("24 GiB", "14 billion")."""
    digits = "".join(ch for ch in token.text if ch.isdigit()).lstrip("0")
    return max(len(digits.rstrip("0")), 1)


def tokenize(s: str) -> list[Token]:
    """Cut preprocessed text into tokens; unknown characters become OTHER tokens."""
    tokens: list[Token] = []
    i, n = 0, len(s)
    space = False
    while i < n:
        ch = s[i]
        if ch in _WHITESPACE:
            space = True
            i += 1
            continue
        if ch in _DIGITS or (ch == "." and i + 1 < n and s[i + 1] in _DIGITS):
            m = _NUMBER.match(s, i)
            if m and m.end() > i:
                tokens.append(_number_token(m, i, space))
                i = m.end()
                space = False
                continue
        if ch in "xX" and tokens and tokens[-1].kind in (NUM, RP):
            j = i + 1
            while j < n and s[j] == " ":
                j += 1
            if j < n and (s[j] in _DIGITS or s[j] == "(") and (j > i + 1 or s[j] in _DIGITS):
                tokens.append(Token(OP, "*", i, i + 1, space))
                i += 1
                space = False
                continue
        if ch.isalpha():
            m = _NAME.match(s, i)
            if m:
                end = _name_end(s, m.end())
                if unspaced(ch):  # no space is typed before the number: "約145億", "ประมาณ14.5"
                    end = next((k for k in range(i, end) if s[k] in _DIGITS), end)
                tokens.append(Token(NAME, normalize_name(s[i:end]), i, end, space))
                i = end
                space = False
                continue
        if ch == "\\":
            tok, i = _command_token(s, i, space)
            tokens.append(tok)
            space = False
            continue
        if ch == "*" and i + 1 < n and s[i + 1] == "*":
            tokens.append(Token(OP, "^", i, i + 2, space))
            i += 2
        elif ch in _SINGLE_OPS:
            tokens.append(Token(OP, _SINGLE_OPS[ch], i, i + 1, space))
            i += 1
        elif ch in "([{":
            tokens.append(Token(LP, ch, i, i + 1, space))
            i += 1
        elif ch in ")]}":
            tokens.append(Token(RP, ch, i, i + 1, space))
            i += 1
        elif ch == "=":
            nxt = s[i + 1] if i + 1 < n else ""
            prev = s[i - 1] if i > 0 else ""
            if (nxt and nxt in "=>") or (prev and prev in "<>!=:"):
                tokens.append(Token(OTHER, "=", i, i + 1, space))
            else:
                tokens.append(Token(EQ, "=", i, i + 1, space))
            i += 1
        elif ch in "≈~":
            tokens.append(Token(APPROX, ch, i, i + 1, space))
            i += 1
        elif ch == "%":
            tokens.append(Token(PERCENT, "%", i, i + 1, space))
            i += 1
        elif ch == "…" or s.startswith("...", i):
            width = 1 if ch == "…" else 3
            tokens.append(Token(ELLIPSIS, s[i : i + width], i, i + width, space))
            i += width
        elif ch == ",":
            tokens.append(Token(COMMA, ",", i, i + 1, space))
            i += 1
        else:
            tokens.append(Token(OTHER, ch, i, i + 1, space))
            i += 1
        space = False
    return tokens


def _command_token(s: str, i: int, space: bool) -> tuple[Token, int]:
    m = _COMMAND.match(s, i)
    if not m:
        end = min(i + 2, len(s))
        return Token(OTHER, s[i:end], i, end, space), end
    name, end = m.group(1), m.end()
    if name in _OPERATOR_COMMANDS:
        return Token(OP, _OPERATOR_COMMANDS[name], i, end, space), end
    if name in _FUNCTION_COMMANDS:
        if name in ("log", "lg"):
            sub = _SUBSCRIPT.match(s, end)
            if sub:
                base = sub.group(1) or sub.group(2)
                return Token(FUNC, "log_" + base.strip(), i, sub.end(), space), sub.end()
        return Token(FUNC, name, i, end, space), end
    if name in _APPROX_COMMANDS:
        return Token(APPROX, "\\" + name, i, end, space), end
    if name in _ELLIPSIS_COMMANDS:
        return Token(ELLIPSIS, "\\" + name, i, end, space), end
    if name in _GREEK:
        stop = _SUBSCRIPTS.match(s, end).end()
        return Token(NAME, normalize_name(name + s[end:stop]), i, stop, space), stop
    return Token(OTHER, "\\" + name, i, end, space), end
