"""Word's automatic list numbers ("I.", "(a)", "Question 3") from numbering.xml,
counted as Word counts them: they are not in the runs, and section finding needs them."""

from __future__ import annotations

import re
from dataclasses import dataclass
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


_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty",
)
_ORDINAL_WORDS = (
    "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
    "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth",
)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_FORMATS = {
    "decimal": str,
    "upperRoman": _roman,
    "lowerRoman": lambda n: _roman(n).lower(),
    "upperLetter": _letters,
    "lowerLetter": lambda n: _letters(n).lower(),
    "decimalZero": lambda n: f"{n:02d}",
    "ordinal": _ordinal,
    "cardinalText": lambda n: _WORDS[n].capitalize() if n < len(_WORDS) else str(n),
    "ordinalText": lambda n: (_ORDINAL_WORDS[n].capitalize() if n < len(_ORDINAL_WORDS)
                              else _ordinal(n)),
    "decimalEnclosedParen": lambda n: f"({n})",
    "decimalEnclosedFullstop": lambda n: f"{n}.",
}
"""Word's number formats (``w:numFmt``) as drawn; the full-width and circled digits
(``decimalFullWidth``, ``decimalEnclosedCircle``) are drawn as digits here, as NFKC would
read them."""


@dataclass(frozen=True)
class _Level:
    """One list level: its number format, level text ("%1.%2.", "(%1)"), start value,
    whether it shows every level's number in decimal (``w:isLgl``, "legal" numbering:
    "Article III" over "3.1"), and after which level it restarts (``w:lvlRestart``: 0 never;
    by default after any higher level)."""

    fmt: str = "decimal"
    text: str = ""
    start: int = 1
    legal: bool = False
    restart: int | None = None


def _level_format(lvl: Any) -> _Level:
    def val(tag: str) -> str | None:
        el = lvl.find(f"{W}{tag}")
        return el.get(f"{W}val", "") if el is not None else None

    start, restart = val("start") or "1", val("lvlRestart")
    legal = lvl.find(f"{W}isLgl")
    return _Level(
        val("numFmt") or "decimal",
        val("lvlText") or "",
        int(start) if start.isdigit() else 1,
        legal is not None and legal.get(f"{W}val", "true") not in ("0", "false", "off"),
        int(restart) if restart is not None and restart.isdigit() else None,
    )


def _style_numbering(document: Any) -> dict[str, tuple[str, int | None]]:
    """style id -> (numId, level) for paragraph styles that number their paragraphs
    ("List Number", a student's "Question" style), through the styles they are based on;
    the level is None where the style names none (the list's level naming the style
    decides, ``w:lvl/w:pStyle``). A list style (``w:type="numbering"``) is here too: an
    abstract list that links to it (``w:numStyleLink``) takes its levels through it."""
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
    out: dict[str, tuple[str, int | None]] = {}
    for sid in {*own, *based}:
        num_id, level, seen, cur = None, None, set(), sid
        while cur and cur not in seen and (num_id is None or level is None):
            seen.add(cur)
            n, lv = own.get(cur, (None, None))
            num_id = num_id if num_id is not None else n
            level = level if level is not None else lv
            cur = based.get(cur, "")
        if num_id and num_id != "0":
            out[sid] = (num_id, level)
    return out


class _Numbering:
    """Word's automatic list numbers ("I.", "(a)", "3.a.ii.") as the reader sees them.

    Word computes them at display time from numbering.xml, so they are not in the
    paragraph text; students number sub-questions this way ("(e) ... I. ... II."), or
    label every part only by one multilevel list ("3." / "3.a." / "3.a.ii.", no heading
    styles), and section finding needs the marker. Every level's format and level text
    is drawn as Word draws it: start values and restarts (``startOverride``,
    ``lvlRestart``), legal numbering (``isLgl``), lists defined through a list style
    (``numStyleLink``), styles tied to a level (``w:lvl/w:pStyle``)."""

    def __init__(self, document: Any) -> None:
        self.formats: dict[str, dict[int, _Level]] = {}
        # Word counts a list per abstract definition: a second w:num of the same one
        # carries on its numbers unless it restarts them (lvlOverride/startOverride)
        self.abstract_of: dict[str, str] = {}
        self.restarts: dict[str, dict[int, int]] = {}
        self.counters: dict[str, dict[int, int]] = {}
        self.used: set[str] = set()
        self.styles = _style_numbering(document)
        self.style_levels: dict[tuple[str, str], int] = {}  # (abstract, style) -> level
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return
        abstract: dict[str, dict[int, _Level]] = {}
        links: dict[str, str] = {}  # abstract id -> the list style it takes its levels from
        for node in root.findall(f"{W}abstractNum"):
            aid = node.get(f"{W}abstractNumId", "")
            abstract[aid] = {}
            for lvl in node.findall(f"{W}lvl"):
                level = int(lvl.get(f"{W}ilvl", "0"))
                abstract[aid][level] = _level_format(lvl)
                style = lvl.find(f"{W}pStyle")
                if style is not None:
                    self.style_levels[(aid, style.get(f"{W}val", ""))] = level
            link = node.find(f"{W}numStyleLink")
            if link is not None:
                links[aid] = link.get(f"{W}val", "")
        refs = {}
        for num in root.findall(f"{W}num"):
            ref = num.find(f"{W}abstractNumId")
            if ref is not None:
                refs[num.get(f"{W}numId", "")] = ref.get(f"{W}val", "")

        def resolve(aid: str) -> str:
            """The abstract list holding the levels: through list styles, at most a few."""
            for _ in range(4):
                style = links.get(aid)
                target = refs.get((self.styles.get(style) or ("", None))[0]) if style else None
                if target is None or target == aid:
                    break
                aid = target
            return aid

        for num in root.findall(f"{W}num"):
            num_id = num.get(f"{W}numId", "")
            aid = resolve(refs.get(num_id, ""))
            if aid not in abstract:
                continue
            self.formats[num_id] = dict(abstract[aid])
            self.abstract_of[num_id] = aid
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
        sid = style.get(f"{W}val", "") if style is not None else ""
        from_style = self.styles.get(sid) if sid else None
        if num is None and from_style is None:
            return ""
        nid = num.find(f"{W}numId") if num is not None else None
        ilvl = num.find(f"{W}ilvl") if num is not None else None
        num_id = nid.get(f"{W}val", "") if nid is not None else (from_style or ("", 0))[0]
        aid = self.abstract_of.get(num_id, num_id)
        if ilvl is not None:
            level = int(ilvl.get(f"{W}val", "0"))
        elif from_style and from_style[1] is not None:
            level = from_style[1]
        else:  # the level of the list that names this paragraph's style
            level = self.style_levels.get((aid, sid), 0)
        lvls = self.formats.get(num_id)
        if not lvls or level not in lvls:
            return ""  # numId 0: numbering switched off
        counts = self.counters.setdefault(aid, {})
        if num_id not in self.used:
            self.used.add(num_id)
            for k, start in self.restarts.get(num_id, {}).items():
                counts[k] = start - 1
                for deeper in [d for d in counts if d > k]:
                    del counts[deeper]
        counts[level] = counts.get(level, lvls[level].start - 1) + 1
        for deeper in [k for k in counts if k > level]:
            restart = lvls[deeper].restart if deeper in lvls else None
            if restart is None or (restart != 0 and level <= restart - 1):
                del counts[deeper]
        this = lvls[level]
        if this.fmt in ("bullet", "none"):
            return "-" if this.fmt == "bullet" else ""

        def value(m: re.Match[str]) -> str:
            k = int(m.group(1)) - 1
            at = lvls.get(k, _Level())
            fmt = "decimal" if this.legal else at.fmt
            return _FORMATS.get(fmt, str)(counts.get(k, at.start))

        return re.sub(r"%(\d)", value, this.text).strip()
