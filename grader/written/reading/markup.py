"""Styled runs of text -> one Markdown-flavoured line (shared by the PDF and Word readers).

Both readers see a paragraph as runs with a style (a PDF span, a Word run). Emphasis
is what answer finding relies on ("the bold number is the final answer"), so a bold
phrase cut into several runs ("0.54", " ", "GB") must come out as one ``**0.54 GB**``,
not ``**0.54** **GB**``; a superscript must stay a separate token (``16,384^2``) so it
is never read as ``16,3842``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.written.reading.normalise import raised

_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")
_WORD_START = re.compile(r"^[^\W_]")
_JOINER = re.compile(r"^\s*[,.'’\u2009\u202f]\s*$")


@dataclass(frozen=True)
class Run:
    text: str
    bold: bool = False
    italic: bool = False
    vert: str = ""  # "", "sup" or "sub"


def _style(run: Run) -> str:
    if run.bold:
        return "**"
    if run.italic and _LETTER.search(run.text) and not _DIGIT.search(run.text):
        return "*"  # italic words; an italic number or symbol is mathematics, left plain
    return ""


FALLBACK_LETTERS = 3
"""The most letters a font fallback sets in a word's middle ("Tr|ả| l|ờ|i")."""


def _fallback_letters(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A few letters set plain in the middle of a bold or italic word take its emphasis:
    the bold font lacked them and the writer's tool drew them from a fallback font (WPS's
    Vietnamese "**→ Trả lời:**" comes out as "Tr", "ả", " l", "ờ", "i:"; a TA sees one
    bold answer word)."""
    out = list(pieces)
    for k in range(1, len(out) - 1):
        style, text = out[k]
        prev_style, prev_text = out[k - 1]
        word = text.rstrip(" ")
        if (style == "" and prev_style in ("**", "*") and out[k + 1][0] == prev_style
                and 0 < len(word) <= FALLBACK_LETTERS and word.isalpha()
                and prev_text[-1:].isalpha()):
            out[k] = (prev_style, text)
    return out


def render(runs: list[Run], emphasis: bool = True) -> str:
    """The runs as one line: emphasis merged across spaces, super/subscripts marked."""
    pieces: list[tuple[str, str]] = []  # (style, text); style "^"/"_" for raised runs
    for run in runs:
        if not run.text:
            continue
        if run.vert and run.text.strip():
            pieces.append(("^" if run.vert == "sup" else "_", run.text))
        elif not run.text.strip():
            pieces.append((" ", " "))
        elif _JOINER.match(run.text):
            pieces.append((" ", run.text))  # a digit-group comma set in a math font
        else:
            pieces.append((_style(run) if emphasis else "", run.text))
    pieces = _fallback_letters(pieces)
    # a space between two runs of one style belongs to that style
    after = [""] * len(pieces)
    following = ""
    for i in range(len(pieces) - 1, -1, -1):
        after[i] = following
        if pieces[i][0] != " ":
            following = pieces[i][0]
    before = ""
    for i, (style, _text) in enumerate(pieces):
        if style == " ":
            same = before == after[i] and before in ("**", "*")
            pieces[i] = (before if same else "", _text)
        else:
            before = style
    out: list[str] = []
    i = 0
    while i < len(pieces):
        style = pieces[i][0]
        j = i
        while j < len(pieces) and pieces[j][0] == style:
            j += 1
        text = "".join(t for _, t in pieces[i:j])
        if i and pieces[i - 1][0] in ("^", "_") and style not in ("^", "_") \
                and _WORD_START.match(text):
            out.append(" ")  # n_token n_hid: a glyph after a script is the next factor
        if style in ("^", "_"):
            out.append(raised(text, style))
        elif style and text.strip():
            core = text.strip()
            lead = text[: len(text) - len(text.lstrip())]
            trail = text[len(text.rstrip()) :]
            out.append(f"{lead}{style}{core}{style}{trail}")
        else:
            out.append(text)
        i = j
    return " ".join("".join(out).split())
