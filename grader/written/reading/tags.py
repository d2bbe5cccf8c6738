"""Bracketed tags inside a line ("[b]", "{info:title=Answer}"), replaced one by one.

Why one scanner: BBCode's "[b]…[/b]" and Confluence's "{macro}" are the same problem,
a span between an opening and a closing bracket that is either markup (replaced) or the
student's own text ("[0.5, 0.1]", "{x}" in a formula: kept). Each markup says which.
"""

from __future__ import annotations

from collections.abc import Callable


def replace_tags(line: str, opening: str, closing: str,
                 replace: Callable[[str], str | None]) -> str:
    """``line`` with each ``opening``…``closing`` span replaced by ``replace(inner)``, or
    kept as written where that gives None. A bracket never closed ends the scan."""
    out: list[str] = []
    i = 0
    while i < len(line):
        j = line.find(opening, i)
        if j < 0:
            break
        k = line.find(closing, j)
        if k < 0:
            break
        new = replace(line[j + 1:k])
        out.append(line[i:j] + new if new is not None else line[i:k + 1])
        i = k + 1
    out.append(line[i:])
    return "".join(out)
