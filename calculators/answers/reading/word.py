"""Word ``.docx`` reports through python-docx (an optional dependency).

python-docx opens the package and resolves styles; the body is then walked in document
order, because ``Paragraph.text`` alone loses what answer finding needs: Word equations
(``m:oMath``, where students write ``N = 12 × d^2``) are not runs, and tables interleave
with paragraphs. Output follows the PDF reader's contract: ``#`` headings from the
"Heading N"/"Title" styles (or a style's outline level), ``**bold**``/``*italic*`` runs
(direct formatting or a Strong/Emphasis character style), ``| a | b |`` table rows,
superscript runs as ``^2``; deleted tracked changes are left out.

A .docx is a zip: its members' unpacked sizes are summed before anything is unpacked,
so a zip bomb named .docx is refused in microseconds.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

from calculators.answers.reading.document import (
    MAX_TEXT_CHARS,
    MAX_UNPACKED_BYTES,
    Document,
    ReportReadError,
)
from calculators.answers.reading.markup import Run, render
from calculators.answers.reading.normalise import normalise, raised

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_HEADING_NAME = re.compile(r"^(?:heading|überschrift|titre|título|titolo)\s*(\d)$", re.I)
MAX_BODY_XML_BYTES = 25 * 1024 * 1024
"""word/document.xml is parsed whole (lxml, ~10x its size in memory); 25 MiB of XML is
thousands of pages of text, while images and fonts live in other parts."""
_SKIP = {f"{W}del", f"{W}moveFrom", f"{W}pPr", f"{W}rPr", f"{W}instrText", f"{W}delText"}


def _check_zip(p: Path) -> None:
    try:
        with zipfile.ZipFile(p) as archive:
            members = archive.infolist()
            names = {m.filename for m in members}
            unpacked = sum(m.file_size for m in members)
            body = next((m.file_size for m in members if m.filename == "word/document.xml"), 0)
    except (zipfile.BadZipFile, OSError) as error:
        raise ReportReadError(f"{p.name}: a damaged zip/Word file ({error})") from error
    if "word/document.xml" not in names:
        what = "an OpenDocument file (.odt)" if "content.xml" in names else "a ZIP archive"
        raise ReportReadError(
            f"{p.name}: {what}, not a Word document or a PDF; ask for the report itself "
            "as PDF or .docx"
        )
    if body > MAX_BODY_XML_BYTES:
        raise ReportReadError(
            f"{p.name}: its text part unpacks to {body / 2**20:.0f} MiB, more than the "
            f"{MAX_BODY_XML_BYTES // 2**20} MiB a report's text may; it was not read"
        )
    if unpacked > MAX_UNPACKED_BYTES or len(members) > 10_000:
        raise ReportReadError(
            f"{p.name}: unpacks to {unpacked / 2**20:.0f} MiB in {len(members)} parts, more "
            f"than the {MAX_UNPACKED_BYTES // 2**20} MiB a report may; it was not read"
        )


def read_docx(p: Path, named_pdf: bool = False) -> Document:
    _check_zip(p)
    try:
        import docx
    except ImportError as error:
        raise ReportReadError(
            f"{p.name}: reading Word reports needs the optional package python-docx "
            "(pip install 'transformer-grader[reports]')"
        ) from error
    try:
        document = docx.Document(str(p))
        levels = _heading_levels(document)
        lines = _body_lines(document.element.body, levels, _Numbering(document))
    except ReportReadError:
        raise
    except Exception as error:  # python-docx/lxml raise KeyError, XMLSyntaxError, ValueError
        raise ReportReadError(f"{p.name}: not a readable Word document ({error})") from error
    text = normalise("\n".join(line for line in lines if line.strip()))
    notes = ("a Word document named .pdf; read as Word",) if named_pdf else ()
    needs_ta = None
    if not text.strip():
        needs_ta = "the Word document has no text (only images?); a TA must read it"
    version = getattr(docx, "__version__", "?")
    return Document(text, str(p), "docx", f"python-docx {version}", None, needs_ta, notes)


def _heading_levels(document: Any) -> dict[str, int]:
    """style id -> heading level, from the style name or its outline level."""
    levels: dict[str, int] = {}
    for style in document.styles:
        try:
            name, sid = style.name or "", style.style_id
        except Exception:  # a style without a name or id
            continue
        m = _HEADING_NAME.match(name.strip())
        if name.strip().lower() == "title":
            levels[sid] = 1
        elif m:
            levels[sid] = min(int(m.group(1)), 6)
        else:
            outline = style.element.find(f"{W}pPr/{W}outlineLvl")
            if outline is not None and outline.get(f"{W}val", "9").isdigit():
                level = int(outline.get(f"{W}val")) + 1
                if level <= 6:
                    levels[sid] = level
    return levels


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


class _Numbering:
    """Word's automatic list numbers ("I.", "(a)", "3.") as the reader sees them.

    Word computes them at display time from numbering.xml, so they are not in the
    paragraph text; students number sub-questions this way ("(e) ... I. ... II."), and
    section finding needs the marker."""

    def __init__(self, document: Any) -> None:
        self.formats: dict[str, dict[int, tuple[str, str, int]]] = {}
        self.counters: dict[str, dict[int, int]] = {}
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return
        abstract = {}
        for node in root.findall(f"{W}abstractNum"):
            lvls = {}
            for lvl in node.findall(f"{W}lvl"):
                fmt = lvl.find(f"{W}numFmt")
                text = lvl.find(f"{W}lvlText")
                start = lvl.find(f"{W}start")
                lvls[int(lvl.get(f"{W}ilvl", "0"))] = (
                    fmt.get(f"{W}val", "decimal") if fmt is not None else "decimal",
                    text.get(f"{W}val", "") if text is not None else "",
                    int(start.get(f"{W}val", "1")) if start is not None else 1,
                )
            abstract[node.get(f"{W}abstractNumId")] = lvls
        for num in root.findall(f"{W}num"):
            ref = num.find(f"{W}abstractNumId")
            if ref is not None and ref.get(f"{W}val") in abstract:
                self.formats[num.get(f"{W}numId", "")] = abstract[ref.get(f"{W}val")]

    def marker(self, p: Any) -> str:
        num = p.find(f"{W}pPr/{W}numPr")
        if num is None:
            return ""
        nid = num.find(f"{W}numId")
        ilvl = num.find(f"{W}ilvl")
        num_id = nid.get(f"{W}val", "") if nid is not None else ""
        level = int(ilvl.get(f"{W}val", "0")) if ilvl is not None else 0
        lvls = self.formats.get(num_id)
        if not lvls or level not in lvls:
            return ""
        counts = self.counters.setdefault(num_id, {})
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


def _body_lines(body: Any, levels: dict[str, int], numbering: _Numbering) -> list[str]:
    lines: list[str] = []
    chars = 0
    for element in body.iterchildren():
        if element.tag == f"{W}p":
            line = _paragraph(element, levels)
            marker = numbering.marker(element)
            lines.append(f"{marker} {line}" if marker and line.strip() else line)
        elif element.tag == f"{W}tbl":
            lines.extend(_table(element))
        elif element.tag == f"{W}sdt":  # a content control around paragraphs (cover pages)
            content = element.find(f"{W}sdtContent")
            if content is not None:
                lines.extend(_body_lines(content, levels, numbering))
        chars += len(lines[-1]) if lines else 0
        if chars > MAX_TEXT_CHARS:
            raise ReportReadError(f"more than {MAX_TEXT_CHARS:,} characters of text")
    return lines


def _paragraph(p: Any, levels: dict[str, int]) -> str:
    style = p.find(f"{W}pPr/{W}pStyle")
    level = levels.get(style.get(f"{W}val", "")) if style is not None else None
    runs: list[Run] = []
    _walk(p, runs)
    if level:
        return "#" * level + " " + render(runs, emphasis=False)
    return render(runs)


def _table(tbl: Any) -> list[str]:
    rows = []
    for tr in tbl.iter(f"{W}tr"):
        cells = []
        for tc in tr.findall(f"{W}tc"):
            runs: list[Run] = []
            for p in tc.iter(f"{W}p"):
                if runs:
                    runs.append(Run(" "))
                _walk(p, runs)
            cells.append(render(runs))
        if any(cells):
            rows.append("| " + " | ".join(cells) + " |")
    return rows


def _on(rpr: Any, tag: str) -> bool:
    el = rpr.find(f"{W}{tag}") if rpr is not None else None
    return el is not None and el.get(f"{W}val", "true") not in ("0", "false", "none")


def _walk(el: Any, runs: list[Run]) -> None:
    for child in el.iterchildren():
        tag = child.tag
        if tag in _SKIP or not isinstance(tag, str):
            continue
        if tag == f"{W}r":
            rpr = child.find(f"{W}rPr")
            rstyle = rpr.find(f"{W}rStyle") if rpr is not None else None
            sname = (rstyle.get(f"{W}val", "") if rstyle is not None else "").lower()
            bold = _on(rpr, "b") or "strong" in sname or "bold" in sname
            italic = _on(rpr, "i") or "emphasis" in sname
            va = rpr.find(f"{W}vertAlign") if rpr is not None else None
            vert = {"superscript": "sup", "subscript": "sub"}.get(
                va.get(f"{W}val", "") if va is not None else "", ""
            )
            for part in child.iterchildren():
                if part.tag == f"{W}t":
                    runs.append(Run(part.text or "", bold, italic, vert))
                elif part.tag in (f"{W}tab", f"{W}br", f"{W}cr"):
                    runs.append(Run(" "))
                elif part.tag == f"{W}noBreakHyphen":
                    runs.append(Run("-", bold, italic, vert))
        elif tag in (f"{M}oMath", f"{M}oMathPara"):
            runs.append(Run(" " + _math(child) + " "))
        else:
            _walk(child, runs)


def _math(el: Any) -> str:
    """Office Math as linear text: x^2, (a)/(b), sqrt(x), x_k."""
    tag = el.tag
    if tag == f"{M}t":
        return el.text or ""

    def part(name: str) -> str:
        found = el.find(f"{M}{name}")
        return "" if found is None else _math(found)

    if tag == f"{M}sSup":
        return part("e") + raised(part("sup"), "^")
    if tag == f"{M}sSub":
        return part("e") + raised(part("sub"), "_")
    if tag == f"{M}sSubSup":
        return part("e") + raised(part("sub"), "_") + raised(part("sup"), "^")
    if tag == f"{M}f":
        return f"({part('num')})/({part('den')})"
    if tag == f"{M}rad":
        return f"sqrt({part('e')})"
    if tag == f"{M}d":
        pr = el.find(f"{M}dPr")
        beg = pr.find(f"{M}begChr") if pr is not None else None
        end = pr.find(f"{M}endChr") if pr is not None else None
        inner = ", ".join(_math(e) for e in el.findall(f"{M}e"))
        return (
            (beg.get(f"{M}val", "(") if beg is not None else "(")
            + inner
            + (end.get(f"{M}val", ")") if end is not None else ")")
        )
    if tag.endswith("Pr"):
        return ""
    return "".join(_math(child) for child in el.iterchildren() if isinstance(child.tag, str))
