"""A Word paragraph's runs with what they inherit: bold and italic from direct
formatting, a character style or the paragraph's style; superscripts; sizes (headings set
by size alone); Symbol-font characters; equations; hidden and deleted text left out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.written.reading.markup import Run
from grader.written.reading.word_math import _math
from grader.written.reading.word_xml import _SKIP, MC, M, W, _chosen, _on


class _Styles:
    """What styles.xml says of each style (through the styles it is based on): font size
    in points, bold, italic; and the body text's size. A student's own "Answer" character
    style, or a paragraph style set in bold, makes bold text without a w:b on the run."""

    def __init__(self, document: Any) -> None:
        self.style: dict[str, float] = {}
        self.bold: dict[str, bool] = {}
        self.italic: dict[str, bool] = {}
        self.font: dict[str, str] = {}  # style id -> its Latin font ("Consolas")
        self.body = 11.0
        self.body_font = ""  # the body text's font (the default paragraph style's)
        if document is None:
            return
        try:
            root = document.styles.element
        except Exception:  # no styles part
            return
        default = root.find(f"{W}docDefaults/{W}rPrDefault/{W}rPr/{W}sz")
        if default is not None and default.get(f"{W}val", "").isdigit():
            self.body = int(default.get(f"{W}val")) / 2
        own: dict[str, float] = {}
        own_bold: dict[str, bool] = {}
        own_italic: dict[str, bool] = {}
        own_font: dict[str, str] = {}
        based: dict[str, str] = {}
        default_style = ""
        for style in root.findall(f"{W}style"):
            sid = style.get(f"{W}styleId", "")
            if style.get(f"{W}type") == "paragraph" and style.get(f"{W}default") in ("1", "true"):
                default_style = sid
            parent = style.find(f"{W}basedOn")
            if parent is not None:
                based[sid] = parent.get(f"{W}val", "")
            rpr = style.find(f"{W}rPr")
            sz = rpr.find(f"{W}sz") if rpr is not None else None
            if sz is not None and sz.get(f"{W}val", "").isdigit():
                own[sid] = int(sz.get(f"{W}val")) / 2
            if rpr is not None and rpr.find(f"{W}b") is not None:
                own_bold[sid] = _on(rpr, "b")
            if rpr is not None and rpr.find(f"{W}i") is not None:
                own_italic[sid] = _on(rpr, "i")
            if (font := run_font(rpr)) is not None:
                own_font[sid] = font
        for mine, out in ((own, self.style), (own_bold, self.bold), (own_italic, self.italic),
                          (own_font, self.font)):
            for sid in {*mine, *based}:
                cur, seen = sid, set()
                while cur and cur not in seen and cur not in mine:
                    seen.add(cur)
                    cur = based.get(cur, "")
                if cur in mine:
                    out[sid] = mine[cur]  # type: ignore[index]
        self.body = self.style.get(default_style, self.body)
        defaults = root.find(f"{W}docDefaults/{W}rPrDefault/{W}rPr")
        self.body_font = self.font.get(default_style) or run_font(defaults) or ""


def run_font(rpr: Any) -> str | None:
    """The Latin font a run properties element names (``w:rFonts w:ascii``), if any."""
    fonts = rpr.find(f"{W}rFonts") if rpr is not None else None
    if fonts is None:
        return None
    return fonts.get(f"{W}ascii") or fonts.get(f"{W}hAnsi")


# Symbol-font characters (w:sym, code F0xx) students insert from Word's symbol dialog
_SYMBOL = dict(
    zip(
        map(ord, "abgdezhqiklmnxprstufcyowGDQLXPSFYW"),
        "αβγδεζηθικλμνξπρστυφχψωωΓΔΘΛΞΠΣΦΨΩ",
        strict=True,
    )
)
_SYMBOL.update({0xB4: "×", 0xB8: "÷", 0xBB: "≈", 0xB9: "≠", 0xA3: "≤", 0xB3: "≥", 0xB1: "±",
                0xD6: "√", 0xE5: "∑", 0xF2: "∫", 0xA5: "∞", 0xAE: "→", 0xD7: "⋅", 0xB7: "•",
                0x2D: "−", 0x2B: "+", 0x3D: "=", 0xBC: "…", 0xD1: "∇", 0xB6: "∂"})


def _sym(el: Any) -> str:
    code = el.get(f"{W}char", "")
    try:
        value = int(code, 16)
    except ValueError:
        return ""
    if 0xF000 <= value <= 0xF0FF:
        value -= 0xF000
    if "symbol" in el.get(f"{W}font", "").lower():
        return _SYMBOL.get(value, "")
    return chr(value) if 0x20 <= value < 0xD800 else ""



BOX_START = "\n\n\n"
"""A run that opens a text box: its paragraphs are one framed block (``word_body``)."""
BOX_PARAGRAPH = "\n\n"
"""A run that ends a paragraph inside a text box: a box's paragraphs ("Q3 (c)" bold, then
"2.577E+10 bytes") are lines of their own, never run together into the paragraph that
anchors the box."""
BOX_END = "\n\n\n\n"
"""A run that closes a text box: the anchoring paragraph's text after it is the
paragraph's again, not the box's last line ("Answer: 25.77 GB" in the box, "h × S_max^2
…" after its anchor)."""

@dataclass
class _Ctx:
    """What a run inherits: the styles, its paragraph's style, where run sizes are noted."""

    styles: _Styles
    paragraph_style: str = ""
    sizes: list[float] | None = None


def _walk(el: Any, runs: list[Run], ctx: _Ctx | None = None) -> None:
    ctx = ctx or _Ctx(_Styles(None))
    styles, psid = ctx.styles, ctx.paragraph_style
    for child in el.iterchildren():
        tag = child.tag
        if tag in _SKIP or not isinstance(tag, str):
            continue
        if tag == f"{W}r":
            rpr = child.find(f"{W}rPr")
            if _on(rpr, "vanish"):
                continue  # hidden text: not on the page
            rstyle = rpr.find(f"{W}rStyle") if rpr is not None else None
            rsid = rstyle.get(f"{W}val", "") if rstyle is not None else ""
            sname = rsid.lower()
            # direct formatting, else the run's character style, else the paragraph's
            if rpr is not None and rpr.find(f"{W}b") is not None:
                bold = _on(rpr, "b")
            else:
                bold = styles.bold.get(rsid, styles.bold.get(psid, False)) or (
                    "strong" in sname or "bold" in sname)
            if rpr is not None and rpr.find(f"{W}i") is not None:
                italic = _on(rpr, "i")
            else:
                italic = styles.italic.get(rsid, styles.italic.get(psid, False)) or (
                    "emphasis" in sname)
            va = rpr.find(f"{W}vertAlign") if rpr is not None else None
            vert = {"superscript": "sup", "subscript": "sub"}.get(
                va.get(f"{W}val", "") if va is not None else "", ""
            )
            sz = rpr.find(f"{W}sz") if rpr is not None else None
            if sz is not None and sz.get(f"{W}val", "").isdigit():
                run_size = int(sz.get(f"{W}val")) / 2
            else:
                run_size = styles.style.get(rsid, styles.style.get(psid, styles.body))
            for part in child.iterchildren():
                if part.tag == f"{W}t":
                    runs.append(Run(part.text or "", bold, italic, vert))
                    if ctx.sizes is not None and (part.text or "").strip() and not vert:
                        ctx.sizes.append(run_size)
                elif part.tag in (f"{W}tab", f"{W}ptab"):
                    runs.append(Run(" "))
                elif part.tag in (f"{W}br", f"{W}cr"):
                    # a soft line break; a page or column break is a space
                    kind = part.get(f"{W}type", "textWrapping")
                    runs.append(Run("\n" if kind == "textWrapping" else " "))
                elif part.tag == f"{W}noBreakHyphen":
                    runs.append(Run("-", bold, italic, vert))
                elif part.tag == f"{W}sym":
                    runs.append(Run(_sym(part), bold, italic, vert))
                elif part.tag == f"{MC}AlternateContent":
                    _walk(_chosen(part), runs, ctx)
                elif part.tag in (f"{W}drawing", f"{W}pict"):
                    # text boxes: DrawingML, or VML alone (w:pict: Word 2003's format,
                    # LibreOffice, python-docx's own shapes), no mc:AlternateContent around it
                    _walk(part, runs, ctx)
        elif tag in (f"{M}oMath", f"{M}oMathPara"):
            runs.append(Run(" " + _math(child) + " "))
        elif tag == f"{MC}AlternateContent":
            _walk(_chosen(child), runs, ctx)
        elif tag == f"{W}txbxContent":  # a text box: a block of its own
            runs.append(Run(BOX_START))
            _walk(child, runs, ctx)
            runs.append(Run(BOX_END))
        elif tag == f"{W}p":  # a paragraph inside a text box: its own style, its own line
            runs.append(Run(BOX_PARAGRAPH))
            style = child.find(f"{W}pPr/{W}pStyle")
            sid = style.get(f"{W}val", "") if style is not None else ""
            _walk(child, runs, _Ctx(styles, sid, ctx.sizes))
        else:
            _walk(child, runs, ctx)
