"""BBCode, the markup of forum posts, written as the Markdown every later stage reads.

Why: a student who posts answers on a course forum and hands in the post as a text file
writes ``[b]Q3 (a)[/b]``, ``[quote="handout"]…[/quote]``, ``[code]…[/code]``; read as
plain text no heading is found and the quoted handout reads as the student's words. The
rewrite gives ``**Q3 (a)**`` (a bold line, a heading where the Markdown stages say so),
``> `` lines for a quote (the handout's numbers are quoted, not answered), a fenced
block for code, ``- `` for a list item; other tags (size, colour, [hr]) are dropped.
One line for one, so the line numbers quoted are still the file's own. String scans
only.
"""

from __future__ import annotations

from grader.written.reading.tags import replace_tags

_CLOSERS = ("[/b]", "[/i]", "[/quote]", "[/code]", "[/size]", "[/url]", "[/list]", "[/u]",
            "[/color]")
_INLINE = {"b": "**", "i": "*", "u": "", "s": "", "size": "", "color": "", "colour": "",
           "font": "", "url": "", "center": "", "left": "", "right": "", "list": "",
           "hr": "", "quote": "", "code": "", "img": ""}
"""Each tag's Markdown mark ("" drops it); quote and code are lines of their own."""


def is_bbcode(lines: list[str]) -> bool:
    """Two kinds of closing tag, or one used twice: one "[/b]" in a Markdown file is a
    slip, a post is made of them."""
    text = "\n".join(lines).lower()
    found = [text.count(tag) for tag in _CLOSERS]
    return sum(1 for n in found if n) >= 2 or max(found) >= 3


def bbcode(lines: list[str]) -> list[str]:
    """The lines written as Markdown, line for line (see the module's note)."""
    out: list[str] = []
    quoting = False
    code = False
    for raw in lines:
        line = raw.strip()
        low = line.lower()
        if code:
            if low.startswith("[/code]"):
                code = False
                out.append("```")
            else:
                out.append(raw)
            continue
        if low.startswith("[code"):
            rest = line[line.find("]") + 1:]
            if rest.lower().endswith("[/code]"):
                out.append("`" + rest[:-len("[/code]")] + "`")  # code on its one line
            else:
                code = True
                out.append("```")
            continue
        if low.startswith("[quote"):
            quoting = True
            line = line[line.find("]") + 1:]
        if quoting:
            end = line.lower().find("[/quote]")
            if end >= 0:
                quoting = False
                line = line[:end] + line[end + len("[/quote]"):]
            out.append("> " + _inline(line).strip())
            continue
        item = low.startswith("[*]")
        text = _inline(line[3:] if item else line).strip()
        out.append("- " + text if item else text)
    return out


def _inline(line: str) -> str:
    """The line with its tags as Markdown marks or dropped; a bracket that is no tag
    ("[0.5, 0.1]", "[1]") kept."""
    return replace_tags(line, "[", "]", lambda inner: _INLINE.get(
        inner.lstrip("/").split("=")[0].strip().lower()))
