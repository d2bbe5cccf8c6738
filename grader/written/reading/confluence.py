"""Confluence wiki markup written as the Markdown every later stage reads.

Why: a group that writes its report on a Confluence page and exports it as text hands
in ``h2. Question 1`` headings, ``{info:title=Answer}…{info}`` boxes, ``||Model||Seed||``
header rows and ``|a|b|`` rows, ``*bold*``. Read as plain text no heading is found and
the table has no header line. The rewrite gives ``## Question 1``, the box's title as a
bold label (``**Answer:** …``), the header row as a Markdown header with its ``|---|``
line, ``**bold**``; ``{code}`` and ``{noformat}`` blocks are fenced and other macros
({panel}, {color}) dropped. One line for one, so the line numbers quoted are still the
file's own. String scans only.
"""

from __future__ import annotations

from grader.written.reading.tags import replace_tags

_FENCED = ("code", "noformat")


def _heading_level(line: str) -> int:
    """N for a line "hN. title" (1 to 6), else 0."""
    if len(line) > 4 and line[0] == "h" and line[1] in "123456" and line[2:4] == ". ":
        return int(line[1])
    return 0


def is_confluence(lines: list[str]) -> bool:
    """Two "hN." headings, or one with a macro ("{panel}") or a "||" header row."""
    headings = sum(1 for ln in lines if _heading_level(ln))
    other = any(ln.lstrip().startswith(("{", "||")) for ln in lines)
    return headings >= 2 or (headings == 1 and other)


def confluence(lines: list[str], bold: object) -> list[str]:
    """The lines written as Markdown, line for line; ``bold`` mends ``*bold*``."""
    out: list[str] = []
    fenced = False
    for raw in lines:
        line = raw.strip()
        name = _macro_name(line) if line.startswith("{") else ""
        if fenced:
            if name in _FENCED and line.endswith("}") and line.count("{") == 1:
                fenced = False
                out.append("```")
            else:
                out.append(raw)
            continue
        if name in _FENCED and line.endswith("}") and line.count("{") == 1:
            fenced = True
            out.append("```")
            continue
        level = _heading_level(line)
        if level:
            out.append("#" * level + " " + line[4:].strip())
            continue
        if line.startswith("||"):
            cells = [c.strip() for c in line.strip("|").split("||")]
            row = "| " + " | ".join(cells) + " |"
            rule = "|" + "---|" * len(cells)
            if out and not out[-1].strip():
                out[-1] = row  # the header moves up onto the blank line, its own
                out.append(rule)  # line becomes the separator under it
            else:
                out.append(row)
            continue
        out.append(_macros(bold(raw) if callable(bold) else raw))
    return out


def _macro_name(text: str) -> str:
    """The name of the macro "{name:params}" the text starts with, lower case."""
    end = text.find("}")
    inner = text[1:end] if end > 0 else ""
    return inner.split(":")[0].strip().lower()


def _macros(line: str) -> str:
    """The line with each "{macro}" dropped, one with a title as the bold label
    "**title:** "; a brace that is no macro ("{x}" in a formula with a space or digit
    in it) kept."""
    return replace_tags(line, "{", "}", _macro)


def _macro(inner: str) -> str | None:
    name = inner.split(":")[0]
    if not (name.isalpha() and name.islower()):
        return None
    title = ""
    for param in inner[len(name) + 1:].split("|"):
        key, _, value = param.partition("=")
        if key.strip().lower() == "title" and value.strip():
            title = value.strip()
    return f"**{title}:** " if title else ""
