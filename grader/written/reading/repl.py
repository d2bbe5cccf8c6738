"""A Python shell session pasted into a text report, as the code block it is.

Why here: a student who counts in the interpreter pastes its session (``>>> emb = V*d +
…``, ``... `` continuations, the echoed ``16517120``) between their sentences. The typed
lines are a program, whose numbers ("512, 4, 32000") are the question's data and whose
expressions are no formula the student gives as an answer; the echoed lines are printed
values. The stages after the reader know both apart inside a fenced code block (its
expressions code, its printed numbers values), so the session is fenced: the blank line
(or the interpreter's banner line) just before it becomes the opening fence, the one just
after it the closing one, and the line count is kept. A session with no such line on
either side is left as it is. String operations only.
"""

from __future__ import annotations

_PROMPTS = (">>> ", "... ")
_BANNERS = ("Python 3", "Python 2", 'Type "help"', "IPython ")


def _prompt(line: str) -> bool:
    """A typed line of the shell: ``>>> x``, ``... y``, a bare ``>>>``/``...``, or
    IPython's ``In [3]: x`` (and its ``...:`` continuation)."""
    body = line.strip()
    if body in (">>>", "...") or line.startswith(_PROMPTS):
        return True
    close = body.find("]:")
    return (body.startswith("In [") and body[4:close].isdecimal()) or body.startswith("...:")


def _banner(line: str) -> bool:
    return line.startswith(_BANNERS)


def _sessions(lines: list[str]) -> list[tuple[int, int]]:
    """(first, end) of each session: from its banner or first prompt to the line before
    the first blank line that no prompt follows, two typed lines or more in it."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        if not _prompt(lines[i]):
            i += 1
            continue
        first = i
        while first > 0 and _banner(lines[first - 1]):
            first -= 1
        end = i
        while end < len(lines):
            if lines[end].strip():
                end += 1
                continue
            after = next((ln for ln in lines[end:] if ln.strip()), "")
            if not _prompt(after):
                break
            end += 1
        if sum(_prompt(ln) for ln in lines[i:end]) >= 2:
            out.append((first, end))
        i = max(end, i + 1)
    return out


def fenced_sessions(lines: list[str]) -> list[str]:
    """``lines`` with each shell session fenced as a code block (see the module's
    docstring); a text with no session is returned unchanged."""
    out = list(lines)
    for first, end in _sessions(lines):
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
            closing = None
        else:
            continue
        out[opening] = "```"
        if closing is not None:
            out[closing] = "```"
    return out
