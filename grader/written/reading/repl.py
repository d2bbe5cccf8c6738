"""A console session (Python's shell, IPython, R's console, a Stata log) pasted into a text report, or
handed in as the report, as the code block it is, its comments the student's prose.

Why here: a student who counts in the interpreter pastes its session (``>>> emb = V*d +
…``, ``... `` continuations, the echoed ``16517120``; R's ``> emb <- ntoken * nhid``,
``+ `` continuations, ``[1] 10000200``) between their sentences. The typed lines are a
program, whose numbers ("512, 4, 32000") are the question's data and whose expressions
are no formula the student gives as an answer; the echoed lines are printed values. The
stages after the reader know both apart inside a fenced code block (its expressions code,
its printed numbers values), so the session is fenced: the blank line (or the
interpreter's banner line) just before it becomes the opening fence, the one just after
it the closing one, and the line count is kept. A session with no such line on either
side is left as it is.

A student who hands the session in as the report writes the report in it: a comment
typed at the prompt (``>>> # Q3(c) answer: 25.77 GB``, R's ``> ## Q3 language modeling
task: 20,968,400``) is what they tell the reader, the way a script's comments are
(``pysource``). Where a session's comments name a question, each comment typed on a line
of its own is that prose (its prompt and ``#`` taken off), so its label opens the
question's section and its value is the answer; the code and printed values between
the comments are fenced where a free line (a bare prompt, the banner, a blank line)
stands on each side, else set line by line as inline code. Nothing in the session is
run: it is text, read as the student typed it. String operations only.
"""

from __future__ import annotations

from collections.abc import Callable

from grader.written.reading.pysource import fenced_runs
from grader.written.vocabulary import QUESTION_LABEL

_PROMPTS = (">>> ", "... ")
_BANNERS = ("Python 3", "Python 2", 'Type "help"', "IPython ")
_R_BANNERS = ("R version ", "R Under development", "Copyright (C) ", "Platform: ", "R is ",
              "You are welcome", "Type '", "Natural language support", "'citation()",
              "'help.start()", "[Previously saved workspace restored]")
"""The lines R prints when it starts (its first two name it): no one's words."""


def _python_code(line: str) -> str | None:
    """What was typed after the prompt of a Python shell's line (``>>> x`` -> "x", a bare
    ``>>>``/``...`` -> "", IPython's ``In [3]: x`` and its ``...:`` continuation), or
    None for a line the shell printed."""
    body = line.strip()
    if body in (">>>", "..."):
        return ""
    if line.startswith(_PROMPTS):
        return line[4:]
    close = body.find("]:")
    if body.startswith("In [") and body[4:close].isdecimal():
        return body[close + 2:].strip()
    return body[4:].strip() if body.startswith("...:") else None


def _r_code(line: str) -> str | None:
    """What was typed after R's prompt (``> emb <- ntoken * nhid`` -> "emb <- ntoken *
    nhid", its ``+ `` continuation, a bare ``>``), or None for a line R printed."""
    if line.rstrip() in (">", "+"):
        return ""
    return line[2:] if line.startswith(("> ", "+ ")) else None


def _stata_code(line: str) -> str | None:
    """What was typed after Stata's prompt (``. scalar tok = 32000*512`` -> "scalar tok =
    32000*512", a bare ``.``), its comment lines (``. * Question 1: …``) written as ``#``
    comments; None for a line Stata printed."""
    if line.rstrip() == ".":
        return ""
    if not line.startswith(". "):
        return None
    code = line[2:]
    body = code.lstrip()
    if body.startswith(("*", "//")):
        return "# " + body.lstrip("*/").strip()
    return code


def _is_stata_log(lines: list[str]) -> bool:
    """Whether a text is a Stata log: its header ("log type:  text", "opened on:"), or two
    comment lines typed at its prompt (". * …")."""
    head = [ln.strip().lower() for ln in lines[:12]]
    return any(h.startswith(("log type:", "opened on:")) for h in head) or sum(
        ln.startswith(". *") for ln in lines) >= 2


def _r_output(line: str) -> bool:
    """A vector R printed: ``[1] 10000200``, ``[12] 0.5 0.7`` (its first element's index)."""
    close = line.find("]")
    return line.startswith("[") and close > 1 and line[1:close].isdecimal()


def _is_r_console(lines: list[str]) -> bool:
    """Whether a text holds an R console session: R's banner, or two printed vectors each
    right under a typed line. ``> `` alone is an e-mail's quote and Markdown's block quote,
    which print no ``[1]``."""
    if any(ln.startswith(_R_BANNERS[:2]) for ln in lines):
        return True
    return sum(_r_output(b) and a.startswith("> ")
               for a, b in zip(lines, lines[1:], strict=False)) >= 2


def _banner(line: str) -> bool:
    return line.startswith(_BANNERS + _R_BANNERS)


def _sessions(lines: list[str],
              typed: Callable[[str], str | None]) -> list[tuple[int, int, int]]:
    """(first, first typed line, end) of each session: from its banner or first prompt to
    the line before the first blank line that no prompt follows, two typed lines or more
    in it."""
    out: list[tuple[int, int, int]] = []
    i = 0
    while i < len(lines):
        if typed(lines[i]) is None:
            i += 1
            continue
        first = i
        while first > 0 and (_banner(lines[first - 1]) or (
                not lines[first - 1].strip() and first >= 2 and _banner(lines[first - 2]))):
            first -= 1
        end = i
        while end < len(lines):
            if lines[end].strip():
                end += 1
                continue
            after = next((ln for ln in lines[end:] if ln.strip()), "")
            if typed(after) is None:
                break
            end += 1
        if sum(typed(ln) is not None for ln in lines[i:end]) >= 2:
            out.append((first, i, end))
        i = max(end, i + 1)
    return out


def _comment(code: str) -> str | None:
    """The words of a comment typed on a line of its own (``# Q3(c) answer: 25.77 GB``,
    R's ``## Question 3: …``), or None for a line of code."""
    body = code.strip()
    return body.lstrip("#").strip() if body.startswith("#") else None


def _names_a_question(lines: list[str], first: int, end: int,
                      typed: Callable[[str], str | None]) -> bool:
    """Whether a session's comments are the report: one of them names a question."""
    return any((code := typed(ln)) is not None and (words := _comment(code)) is not None
               and QUESTION_LABEL.search(words) is not None for ln in lines[first:end])


def _as_prose(out: list[str], code: list[bool], lines: list[str], session: tuple[int, int, int],
              typed: Callable[[str], str | None], r_console: bool) -> None:
    """A session whose comments are the report written as it reads: its banner and bare
    prompts blank, each comment on a line of its own the comment's words, each typed or
    printed line marked as code (its prompt, and R's ``[1]``, taken off) for
    ``fenced_runs`` to fence."""
    first, start, end = session
    for i in range(first, start):
        out[i] = ""  # the interpreter's banner
    for i in range(start, end):
        typed_code = typed(lines[i])
        if typed_code is None:  # printed by the interpreter
            printed = lines[i].rstrip()
            if r_console and _r_output(printed):
                printed = printed[printed.find("]") + 1:].strip()
            out[i], code[i] = printed, bool(printed.strip())
            continue
        words = _comment(typed_code)
        if words is not None:
            out[i] = words
        else:
            out[i], code[i] = typed_code.rstrip(), bool(typed_code.strip())


def fenced_sessions(lines: list[str]) -> list[str]:
    """``lines`` with each console session fenced as a code block, and a session whose
    comments name a question read as prose between its code (see the module's
    docstring); a text with no session is returned unchanged."""
    out = list(lines)
    code = [False] * len(lines)
    r_console = _is_r_console(lines)
    stata = _is_stata_log(lines)

    def typed(line: str) -> str | None:
        if stata:
            return _stata_code(line)
        code = _python_code(line)
        return _r_code(line) if code is None and r_console else code
    spoken = False
    for session in _sessions(lines, typed):
        first, _, end = session
        if _names_a_question(lines, first, end, typed):
            _as_prose(out, code, lines, session, typed, r_console)
            spoken = True
            continue
        if first > 0 and not lines[first - 1].strip():
            opening = first - 1
        elif _banner(lines[first]):
            opening = first  # the banner is the interpreter's, no one's words
        else:
            continue
        if end < len(lines) and not lines[end].strip():
            closing = end
        elif end == len(lines):
            out.append("```")  # the text's end: a closing fence after it adds no line before
            code.append(False)
            closing = None
        else:
            continue
        out[opening] = "```"
        if closing is not None:
            out[closing] = "```"
    return fenced_runs(out, code) if spoken else out
