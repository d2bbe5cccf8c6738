"""Word's automatic list numbers ("I.", "(a)", "Question 3") from numbering.xml,
counted as Word counts them: they are not in the runs, and section finding needs them."""

from __future__ import annotations

import re
from typing import Any

from grader.written.reading.word_xml import W


def _roman(n: int) -> str:
    out = ""
    for value, digits in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        while n >= value:
            out, n = out + digits, n - value
    return out


def _letters(n: int) -> str:
    return chr(ord("A") + (n - 1) % 26) * ((n - 1) // 26 + 1)


_FORMATS = {
    "decimal": str,
    "upperRoman": _roman,
    "lowerRoman": lambda n: _roman(n).lower(),
    "upperLetter": _letters,
    "lowerLetter": lambda n: _letters(n).lower(),
    "decimalZero": lambda n: f"{n:02d}",
}


def _level_format(lvl: Any) -> tuple[str, str, int]:
    """(number format, level text such as "(%1)", start) of one list level."""
    fmt = lvl.find(f"{W}numFmt")
    text = lvl.find(f"{W}lvlText")
    start = lvl.find(f"{W}start")
    value = start.get(f"{W}val", "1") if start is not None else "1"
    return (
        fmt.get(f"{W}val", "decimal") if fmt is not None else "decimal",
        text.get(f"{W}val", "") if text is not None else "",
        int(value) if value.isdigit() else 1,
    )


def _style_numbering(document: Any) -> dict[str, tuple[str, int]]:
    """style id -> (numId, level) for paragraph styles that number their paragraphs
    ("List Number", a student's "Question" style), through the styles they are based on."""
    own: dict[str, tuple[str | None, int | None]] = {}
    based: dict[str, str] = {}
    try:
        styles = document.styles.element.findall(f"{W}style")
    except Exception:  # no styles part
        return {}
    for style in styles:
        sid = style.get(f"{W}styleId", "")
        parent = style.find(f"{W}basedOn")
        if parent is not None:
            based[sid] = parent.get(f"{W}val", "")
        num = style.find(f"{W}pPr/{W}numPr")
        if num is not None:
            nid, ilvl = num.find(f"{W}numId"), num.find(f"{W}ilvl")
            level = ilvl.get(f"{W}val", "0") if ilvl is not None else None
            own[sid] = (
                nid.get(f"{W}val") if nid is not None else None,
                int(level) if level is not None and level.isdigit() else None,
            )
    out: dict[str, tuple[str, int]] = {}
    for sid in {*own, *based}:
        num_id, level, seen, cur = None, None, set(), sid
        while cur and cur not in seen and (num_id is None or level is None):
            seen.add(cur)
            n, lv = own.get(cur, (None, None))
            num_id = num_id if num_id is not None else n
            level = level if level is not None else lv
            cur = based.get(cur, "")
        if num_id and num_id != "0":
            out[sid] = (num_id, level or 0)
    return out


class _Numbering:
    """Word's automatic list numbers ("I.", "(a)", "3.") as the reader sees them.

    Word computes them at display time from numbering.xml, so they are not in the
    paragraph text; students number sub-questions this way ("(e) ... I. ... II."), and
    section finding needs the marker."""

    def __init__(self, document: Any) -> None:
        self.formats: dict[str, dict[int, tuple[str, str, int]]] = {}
        # Word counts a list per abstract definition: a second w:num of the same one
        # carries on its numbers unless it restarts them (lvlOverride/startOverride)
        self.abstract_of: dict[str, str] = {}
        self.restarts: dict[str, dict[int, int]] = {}
        self.counters: dict[str, dict[int, int]] = {}
        self.used: set[str] = set()
        self.styles = _style_numbering(document)
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return
        abstract = {}
        for node in root.findall(f"{W}abstractNum"):
            lvls = {int(lvl.get(f"{W}ilvl", "0")): _level_format(lvl) for lvl in node.findall(f"{W}lvl")}
            abstract[node.get(f"{W}abstractNumId")] = lvls
        for num in root.findall(f"{W}num"):
            ref = num.find(f"{W}abstractNumId")
            if ref is not None and ref.get(f"{W}val") in abstract:
                num_id = num.get(f"{W}numId", "")
                self.formats[num_id] = dict(abstract[ref.get(f"{W}val")])
                self.abstract_of[num_id] = ref.get(f"{W}val", "")
                for override in num.findall(f"{W}lvlOverride"):
                    start = override.find(f"{W}startOverride")
                    level = int(override.get(f"{W}ilvl", "0"))
                    if start is not None and start.get(f"{W}val", "").isdigit():
                        self.restarts.setdefault(num_id, {})[level] = int(start.get(f"{W}val"))
                    lvl = override.find(f"{W}lvl")  # a level redefined for this list only
                    if lvl is not None:
                        self.formats[num_id][level] = _level_format(lvl)

    def marker(self, p: Any) -> str:
        num = p.find(f"{W}pPr/{W}numPr")
        style = p.find(f"{W}pPr/{W}pStyle")
        from_style = self.styles.get(style.get(f"{W}val", "")) if style is not None else None
        if num is None and from_style is None:
            return ""
        nid = num.find(f"{W}numId") if num is not None else None
        ilvl = num.find(f"{W}ilvl") if num is not None else None
        num_id = nid.get(f"{W}val", "") if nid is not None else (from_style or ("", 0))[0]
        if ilvl is not None:
            level = int(ilvl.get(f"{W}val", "0"))
        else:
            level = from_style[1] if from_style else 0
        lvls = self.formats.get(num_id)
        if not lvls or level not in lvls:
            return ""  # numId 0: numbering switched off
        counts = self.counters.setdefault(self.abstract_of.get(num_id, num_id), {})
        if num_id not in self.used:
            self.used.add(num_id)
            for k, start in self.restarts.get(num_id, {}).items():
                counts[k] = start - 1
                for deeper in [d for d in counts if d > k]:
                    del counts[deeper]
        counts[level] = counts.get(level, lvls[level][2] - 1) + 1
        for deeper in [k for k in counts if k > level]:
            del counts[deeper]
        fmt, text, _start = lvls[level]
        if fmt == "bullet" or fmt == "none":
            return "-" if fmt == "bullet" else ""

        def value(m: re.Match[str]) -> str:
            k = int(m.group(1)) - 1
            f = lvls.get(k, ("decimal", "", 1))[0]
            return _FORMATS.get(f, str)(counts.get(k, lvls.get(k, ("", "", 1))[2]))

        return re.sub(r"%(\d)", value, text).strip()
