"""Display mathematics in Markdown: one formula, one line.

Why: a candidate answer is read from one line. A student breaks a long display formula
over source lines (``$$ N = n_{token} n_{hid}`` / ``+ n_{layers}(...) $$``); TeX sets it
as one line, but read line by line the last piece ("+ n_{token}") looks like the answer.
So inside a display block (``$$ .. $$``, ``\\[ .. \\]``, ``\\begin{equation|align|...}``):

- with no ``\\\\`` row break anywhere in it, its source lines are one formula, joined;
- with rows, a row starting with a binary operator (``+``, ``-``, ``\\times``, ``\\cdot``
  after an ``&``), or following a row that ends with one or with ``=``, continues the
  row before and is joined to it; rows that start afresh (``&= 25.77 GB``) stay lines.

A joined line sits on the line where its formula starts; the lines it took are left
empty, so line numbers stay the file's. Pandoc, converting a Word or Google Docs file
whose equations were typed as TeX text, escapes each backslash (``\\\\frac``,
``\\\\left(``): a doubled backslash before a TeX command's name is read as one.
"""

from __future__ import annotations

import re

_OPEN = re.compile(r"^\s*(\$\$|\\\[|\\begin\{(equation|align|multline|gather|eqnarray)\*?\})")
_CLOSE = {"$$": re.compile(r"\$\$\s*$"), "\\[": re.compile(r"\\\]\s*$")}
_ROW_BREAK = re.compile(r"\\\\(?![A-Za-z])")
_LEADING_OPERATOR = re.compile(
    r"^(?:&\s*)?(?:\\q?quad\s*)*(?:[+\-−×·*/]|\\(?:times|cdot|pm|mp)\b)(?!\s*[=&])"
)
_TRAILING_OPERATOR = re.compile(r"(?:[+\-−×·*/=(]|\\(?:times|cdot|pm|mp))\s*(?:\\\\)?\s*$")
_ESCAPED_COMMAND = re.compile(
    r"\\\\(?=(?:frac|dfrac|tfrac|left|right|text|mathrm|mathbf|operatorname|cdot|times|"
    r"approx|sqrt|sum|prod|log|ln|exp|quad|qquad|infty|alpha|beta|gamma|theta|sigma|mu|"
    r"pi|le|ge|leq|geq|neq|ne|cdots|ldots|dots|hat|bar|mathbb|mathcal|begin|end)(?![A-Za-z]))"
)


def _close(opened: re.Match[str]) -> re.Pattern[str]:
    token = opened.group(1)
    if token in _CLOSE:
        return _CLOSE[token]
    return re.compile(r"\\end\{" + re.escape(opened.group(2)) + r"\*?\}")


def _joined(rows: list[str], breaks: bool) -> list[str]:
    """The block's content lines, continuations joined to the line before ("" left)."""
    out = list(rows)
    head = None  # index of the line a continuation joins
    for i, row in enumerate(rows):
        core = row.strip()
        if not core:
            continue
        if head is not None:
            before = out[head].rstrip()
            continues = (not breaks or _LEADING_OPERATOR.match(core)
                         or _TRAILING_OPERATOR.search(before))
            if continues:
                before = _ROW_BREAK.sub("", before).rstrip() if breaks else before
                piece = core[1:].lstrip() if breaks and core.startswith("&") else core
                out[head] = f"{before} {piece}"
                out[i] = ""
                continue
        head = i
    return out


def display_math(text: str) -> str:
    """Markdown with each display formula on one line (see the module); lines kept."""
    if "$$" not in text and "\\[" not in text and "\\begin" not in text and "\\\\" not in text:
        return text
    text = _ESCAPED_COMMAND.sub(r"\\", text)
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        opened = _OPEN.match(lines[i])
        if not opened:
            i += 1
            continue
        close = _close(opened)
        rest = lines[i][opened.end():]
        token = opened.group(1)
        closer = {"$$": "$$", "\\[": "\\]"}.get(token)
        if (close.search(rest) or closer is not None and closer in rest) \
                and rest.strip() not in ("", "$"):
            i += 1  # opened and closed on one line ("$$…$$ → **75.50 MB**": GitBook's inline $$)
            continue
        j = i + 1
        while j < len(lines) and j - i <= 60 and not close.search(lines[j]):
            j += 1
        if j >= len(lines) or j - i > 60:
            i += 1  # never closed: not a display block
            continue
        # content from the opening line's rest to the closing line's text before it
        end = close.search(lines[j])
        assert end is not None
        body = [rest, *lines[i + 1 : j], lines[j][: end.start()]]
        breaks = any(_ROW_BREAK.search(b) for b in body)
        joined = _joined(body, breaks)
        if joined != body:
            head = lines[i][: opened.end()]
            tail = lines[j][end.start():]
            new = [head + joined[0], *joined[1:-1], joined[-1] + tail]
            if not joined[-1].strip() and body[-1].strip():
                # the closing delimiter goes with the line its formula was joined to
                last = max(k for k, b in enumerate(new[:-1]) if b.strip())
                new[last] = new[last].rstrip() + " " + tail.strip()
                new[-1] = ""
            lines[i : j + 1] = new
        i = j + 1
    return "\n".join(lines)
