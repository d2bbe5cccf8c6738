"""A Python script handed in as the report: its comments and docstrings are the prose,
its code is code.

Why here: a student may write the report inside the script that computes it (``#``
comments beside each count, a function's docstring ending "ANSWER (language modeling
task): 20,857,601", ``# ---- Question 3 ----`` banners between the parts). Read as
plain text, every line is a paragraph, the banners are no headings and the program's
constants (``NTOKEN, NHID = 50001, 200``) stand beside the answers as if the student had
concluded them. So the script is read as what it is: a banner comment naming a
question is its heading, the other comments and the docstrings are the text (their
``#`` and quotes taken off), and each run of code is fenced as a code block, whose
numbers the stages after the reader know are the program's. A file Python cannot parse,
or with no ``def``, ``class`` or ``import``, is no script. The line count is kept. The
fencing (``fenced_runs``) is also a console session's whose comments are its prose
(``repl``).
"""

from __future__ import annotations

import ast
import io
import tokenize

_BANNER = "-=*#~_+"
"""The characters a banner comment is drawn with: ``# ---- Question 3 ----``."""
_QUOTES = ('"""', "'''")


def _prose_lines(text: str) -> tuple[set[int], dict[int, str]] | None:
    """(the 0-based lines of docstrings and bare strings, each whole-line comment's
    text by line) of a Python script, or None where ``text`` is no script."""
    try:
        tree = ast.parse(text)
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (SyntaxError, ValueError, tokenize.TokenError):
        return None
    if not any(isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                          | ast.Import | ast.ImportFrom) for node in ast.walk(tree)):
        return None
    strings: set[int] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str) and node.end_lineno is not None):
            strings.update(range(node.lineno - 1, node.end_lineno))
    comments = {tok.start[0] - 1: tok.string for tok in tokens
                if tok.type == tokenize.COMMENT and not tok.line[:tok.start[1]].strip()}
    return strings, comments


_CELL_MARK = "COMMAND ----------"
"""What a Databricks notebook exported as source puts between its cells."""


def _comment_text(comment: str) -> str:
    """A comment as text: ``# ---- Question 3 ----`` -> "## Question 3" (a banner is a
    heading), ``#   embedding  = 10,000,200`` -> "embedding  = 10,000,200". A Databricks
    notebook exported as source writes each Markdown cell's line as ``# MAGIC ### Q3 (a)``
    under ``# MAGIC %md``, its cells apart by ``# COMMAND ----------``: the Markdown is
    the line after "MAGIC", and the magic command and the cell mark are no text."""
    body = comment.lstrip("#").strip()
    if body == _CELL_MARK:
        return ""
    if body == "MAGIC" or body.startswith("MAGIC "):
        body = body[len("MAGIC"):].strip()
        return "" if body.startswith("%") else body
    title = body.strip(_BANNER + " ")
    banner = len(body) - len(body.lstrip(_BANNER)) >= 3 or len(body) - len(body.rstrip(_BANNER)) >= 3
    if banner and title and any(c.isalpha() for c in title):
        return "## " + title
    return "" if not title else body


def _string_text(line: str) -> str:
    """A docstring's line as text: its quotes and a ``#`` the student wrote before a
    working line inside it taken off."""
    body = line.strip()
    for quote in _QUOTES:
        for prefix in ("r", "u", "f", ""):
            if body.startswith(prefix + quote):
                body = body[len(prefix) + 3:]
        if body.endswith(quote):
            body = body[:-3]
    body = body.strip()
    return body.lstrip("#").strip() if body.startswith("#") else body


def script_report(lines: list[str]) -> list[str]:
    """A Python script's lines as a report's (see the module's docstring); a text that is
    no script is returned unchanged."""
    prose = _prose_lines("\n".join(lines))
    if prose is None:
        return lines
    strings, comments = prose
    if len(strings) + len(comments) < 3:
        return lines
    out = list(lines)
    code = [False] * len(lines)
    for i, raw in enumerate(lines):
        if i in strings:
            out[i] = _string_text(raw)
        elif i in comments:
            out[i] = _comment_text(comments[i])
        elif raw.strip():
            code[i] = True
    return fenced_runs(out, code)


def fenced_runs(out: list[str], code: list[bool]) -> list[str]:
    """Each run of code lines fenced: the blank line before it opens the fence, the blank
    line after it closes it (runs one blank line apart are one block where the first can
    open one: a function's body has its blank lines); a run with no blank line free on a side has each line set as
    inline code, which is code to the stages too."""
    runs: list[list[int]] = []  # [first, end) of each run of code lines
    for i, is_code in enumerate(code):
        if not is_code:
            continue
        opens = bool(runs) and runs[-1][0] > 0 and not out[runs[-1][0] - 1].strip()
        joined = runs and (runs[-1][1] == i or (
            opens and runs[-1][1] == i - 1 and not out[i - 1].strip()))
        if joined:
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1])
    used: set[int] = set()
    for first, end in runs:
        opening = first - 1 if first > 0 and not out[first - 1].strip() else None
        if end == len(out):
            out.append("")  # the text's end: a closing fence after it adds no line before
        closing = end if not out[end].strip() else None
        if opening is not None and closing is not None and opening not in used:
            out[opening] = out[closing] = "```"
            used.update((opening, closing))
            continue
        for k in range(first, end):
            if code[k]:
                out[k] = "`" + out[k].strip() + "`"
    return out
