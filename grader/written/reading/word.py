"""Word ``.docx`` reports through python-docx (an optional dependency).

python-docx opens the package and resolves styles; the body is then walked in document
order, because ``Paragraph.text`` alone loses what answer finding needs: Word equations
(``m:oMath``, where students write ``N = 12 × d^2``) are not runs, and tables interleave
with paragraphs. Output follows the PDF reader's contract: ``#`` headings from the
"Heading N"/"Title" styles (or a style's outline level), ``**bold**``/``*italic*`` runs
(direct formatting or a Strong/Emphasis character style), ``| a | b |`` table rows,
superscript runs as ``^2``; deleted tracked changes and hidden text are left out.

What Word keeps out of the runs is put back, because section finding needs it at a
line's start: automatic list numbers ("(a)", "II.", "Question 3", counted per list
definition as Word counts them, numbering set through styles included), a soft line
break before a part marker (a new line), headings set by size alone (as for PDF),
Office Math written linearly, Symbol-font characters; a text box is read once (Word
stores it twice, DrawingML and VML).

A .docx is a zip: each member is inflated in 64 KiB steps before python-docx sees the
file, counting the bytes it really produces (its headers may lie), so a zip bomb named
.docx is refused after at most ``MAX_BODY_XML_BYTES`` of output, in bounded memory.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.written.reading.document import (
    MAX_TEXT_CHARS,
    MAX_UNPACKED_BYTES,
    Document,
    ReportReadError,
    ReportTooComplex,
)
from grader.written.reading.markup import Run, render
from grader.written.reading.normalise import normalise, raised

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_HEADING_NAME = re.compile(r"^(?:heading|überschrift|titre|título|titolo)\s*(\d)$", re.I)
MAX_BODY_XML_BYTES = 25 * 1024 * 1024
"""word/document.xml is parsed whole (lxml, ~10x its size in memory); 25 MiB of XML is
thousands of pages of text, while images and fonts live in other parts."""
_SKIP = {f"{W}del", f"{W}moveFrom", f"{W}pPr", f"{W}rPr", f"{W}instrText", f"{W}delText"}


MAX_PARTS = 10_000
"""Members of a .docx (a long report with figures has a few dozen)."""
_CHUNK = 1 << 16


def _inflated_size(archive: zipfile.ZipFile, member: zipfile.ZipInfo, limit: int) -> int:
    """The bytes ``member`` really inflates to, counted while inflating in 64 KiB steps
    and given up past ``limit`` (the count is then ``limit + 1``): memory stays bounded
    whatever the stream holds.

    The member's own headers are not trusted: zipfile stops at the declared size, but
    only after inflating the whole member in one call (a 2 MB stream declared as 2 KiB
    made 2 GiB in memory), so the compressed bytes are read from the file and inflated
    here, with the limit on what comes out."""
    if member.flag_bits & 0x1:
        raise ValueError("an encrypted zip member")
    if member.compress_type == zipfile.ZIP_STORED:
        return member.compress_size
    if member.compress_type != zipfile.ZIP_DEFLATED:
        raise ValueError(f"a zip member compressed with method {member.compress_type}")
    handle = archive.fp
    assert handle is not None
    handle.seek(member.header_offset)
    local = handle.read(30)
    if len(local) < 30 or local[:4] != b"PK\x03\x04":
        raise ValueError("a zip member's local header is missing")
    name_len, extra_len = int.from_bytes(local[26:28], "little"), int.from_bytes(local[28:30], "little")
    handle.seek(member.header_offset + 30 + name_len + extra_len)
    inflater = zlib.decompressobj(-15)
    left = member.compress_size
    produced = 0
    while not inflater.eof:
        data = inflater.unconsumed_tail
        if not data:
            if left <= 0:
                break
            data = handle.read(min(_CHUNK, left))
            if not data:
                break
            left -= len(data)
        try:
            produced += len(inflater.decompress(data, _CHUNK))
        except zlib.error as error:
            raise ValueError(f"a damaged zip member ({error})") from error
        if produced > limit:
            return limit + 1
    return produced


def _check_zip(p: Path) -> None:
    """Refuse a .docx that is not Word, or that unpacks to more than a report may: first
    by what its headers declare (microseconds), then by the bytes its members really
    inflate to (counted while inflating, with bounded memory), which must be what the
    headers declare."""
    too = ReportTooComplex.prefix
    try:
        with zipfile.ZipFile(p) as archive:
            members = archive.infolist()
            names = {m.filename for m in members}
            if "word/document.xml" not in names:
                what = "an OpenDocument file (.odt)" if "content.xml" in names else "a ZIP archive"
                raise ReportReadError(
                    f"{p.name}: {what}, not a Word document or a PDF; ask for the report "
                    "itself as PDF or .docx"
                )
            declared = sum(m.file_size for m in members)
            body = max(m.file_size for m in members if m.filename == "word/document.xml")
            if body > MAX_BODY_XML_BYTES:
                raise ReportTooComplex(
                    f"{p.name}: {too} (its text part unpacks to {body / 2**20:.0f} MiB, more "
                    f"than the {MAX_BODY_XML_BYTES // 2**20} MiB a report's text may; it was "
                    "not read)")
            if declared > MAX_UNPACKED_BYTES or len(members) > MAX_PARTS:
                raise ReportTooComplex(
                    f"{p.name}: {too} (unpacks to {declared / 2**20:.0f} MiB in {len(members)} "
                    f"parts, more than the {MAX_UNPACKED_BYTES // 2**20} MiB a report may; it "
                    "was not read)")
            unpacked = 0
            for member in members:
                cap = (MAX_BODY_XML_BYTES if member.filename == "word/document.xml"
                       else MAX_UNPACKED_BYTES - unpacked)
                size = _inflated_size(archive, member, cap)
                if size != member.file_size:
                    really = (f"more than {cap:,}" if size > cap else f"{size:,}")
                    raise ReportTooComplex(
                        f"{p.name}: {too} ({member.filename} unpacks to {really} bytes, but "
                        f"its zip headers declare {member.file_size:,}: a damaged or crafted "
                        "file; it was not read)")
                unpacked += size
    except ReportReadError:
        raise
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        raise ReportReadError(f"{p.name}: a damaged zip/Word file ({error})") from error


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
        lines = _body_lines(
            document.element.body, levels, _Numbering(document), _Styles(document)
        )
    except ReportTooComplex as error:
        raise ReportTooComplex(f"{p.name}: {error}") from None
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


def _body_lines(body: Any, levels: dict[str, int], numbering: _Numbering,
                sizes: _Styles | None = None) -> list[str]:
    sizes = sizes or _Styles(None)
    items: list[tuple[str, float | None]] = []  # (line, size when set large like a heading)
    chars = 0
    for element in _children(body):
        if element.tag == f"{W}p":
            marker = numbering.marker(element)
            for k, (line, big) in enumerate(_paragraph(element, levels, sizes)):
                if k == 0 and marker and line.strip():
                    # a numbered heading ("Heading 1" numbered "Question %1"): after its #s
                    hashes = re.match(r"#+ ", line)
                    cut = hashes.end() if hashes else 0
                    line = f"{line[:cut]}{marker} {line[cut:]}"
                items.append((line, big))
        elif element.tag == f"{W}tbl":
            items.extend((row, None) for row in _table(element, sizes))
        chars += len(items[-1][0]) if items else 0
        if chars > MAX_TEXT_CHARS:
            raise ReportTooComplex(
                f"{ReportTooComplex.prefix} (more than {MAX_TEXT_CHARS:,} characters of text)")
    # headings set by size alone ("Normal" text at 16 pt, bold): the largest size is #
    ranks = sorted({round(big * 2) / 2 for _, big in items if big}, reverse=True)
    return [
        "#" * min(ranks.index(round(big * 2) / 2) + 1, 6) + " " + _plain(line) if big else line
        for line, big in items
    ]


def _children(el: Any) -> Any:
    """Body-level children in order, looking through content controls (w:sdt: cover
    pages, templates) and markup-compatibility wrappers."""
    for child in el.iterchildren():
        if child.tag == f"{W}sdt":
            content = child.find(f"{W}sdtContent")
            if content is not None:
                yield from _children(content)
        elif child.tag == f"{MC}AlternateContent":
            yield from _children(_chosen(child))
        else:
            yield child


def _chosen(alternate: Any) -> Any:
    """The branch of mc:AlternateContent a reader shows: its first Choice (Word writes
    text boxes twice, as DrawingML in the Choice and as VML in the Fallback)."""
    for branch in (f"{MC}Choice", f"{MC}Fallback"):
        found = alternate.find(branch)
        if found is not None:
            return found
    return alternate


class _Styles:
    """What styles.xml says of each style (through the styles it is based on): font size
    in points, bold, italic; and the body text's size. A student's own "Answer" character
    style, or a paragraph style set in bold, makes bold text without a w:b on the run."""

    def __init__(self, document: Any) -> None:
        self.style: dict[str, float] = {}
        self.bold: dict[str, bool] = {}
        self.italic: dict[str, bool] = {}
        self.body = 11.0
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
        for mine, out in ((own, self.style), (own_bold, self.bold), (own_italic, self.italic)):
            for sid in {*mine, *based}:
                cur, seen = sid, set()
                while cur and cur not in seen and cur not in mine:
                    seen.add(cur)
                    cur = based.get(cur, "")
                if cur in mine:
                    out[sid] = mine[cur]  # type: ignore[index]
        self.body = self.style.get(default_style, self.body)


def _paragraph(p: Any, levels: dict[str, int], sizes: _Styles) -> list[tuple[str, float | None]]:
    """The paragraph's lines: one, or more where a soft line break (Shift+Enter) starts a
    new part ("(b) ...", "II. ...", "Q3 ..."), with the size of a heading set by size."""
    style = p.find(f"{W}pPr/{W}pStyle")
    sid = style.get(f"{W}val", "") if style is not None else ""
    level = levels.get(sid)
    runs: list[Run] = []
    run_sizes: list[float] = []
    _walk(p, runs, _Ctx(sizes, sid, run_sizes))
    segments: list[list[Run]] = [[]]
    for run in runs:
        if run.text == "\n":
            segments.append([])
        else:
            segments[-1].append(run)
    lines: list[str] = []
    for segment in segments:
        text = render(segment, emphasis=not level)
        if lines and not (text and _PART_START.match(text)):
            lines[-1] = f"{lines[-1]} {text}".strip()
        else:
            lines.append(text)
    if level:
        return [("#" * level + " " + " ".join(lines), None)]
    plain = " ".join(lines)
    big = min(run_sizes) if run_sizes else None
    if big is not None and big >= HEADING_RATIO * sizes.body and 0 < len(plain) <= 150:
        return [(plain, big)]
    return [(line, None) for line in lines]


HEADING_RATIO = 1.15
"""A short paragraph set this much larger than the body text is a heading (as for PDF)."""
_PART_START = re.compile(
    r"^\**\s*(?:\(?(?:[a-hA-H]|[ivxIVX]{1,4}|\d{1,2})[.):]\s|(?:Q|Question|Part|Task)\s*\d|Answer\b)"
)


def _plain(line: str) -> str:
    return line.replace("**", "").replace("*", "") if line.count("**") <= 2 else line


def _table(tbl: Any, styles: _Styles | None = None) -> list[str]:
    """Each row as ``| a | b |``. A cell merged down over several rows (Word's vMerge: a
    "Q3 (e)" cell beside the (I), (II), (III) rows) is written in each of its rows, so a
    row read alone still says which question it answers."""
    styles = styles or _Styles(None)
    rows = []
    above: dict[int, str] = {}  # grid column -> the text of the cell last started there
    for tr in _children(tbl):
        if tr.tag != f"{W}tr":
            continue
        cells = []
        column = 0
        for tc in _children(tr):
            if tc.tag != f"{W}tc":
                continue
            span = tc.find(f"{W}tcPr/{W}gridSpan")
            width = int(span.get(f"{W}val", "1")) if span is not None and span.get(
                f"{W}val", "").isdigit() else 1
            merge = tc.find(f"{W}tcPr/{W}vMerge")
            if merge is not None and merge.get(f"{W}val", "continue") == "continue":
                cells.append(above.get(column, ""))
                column += width
                continue
            runs: list[Run] = []
            for block in _children(tc):
                if block.tag == f"{W}p":
                    if runs:
                        runs.append(Run(" "))
                    style = block.find(f"{W}pPr/{W}pStyle")
                    _walk(block, runs, _Ctx(styles, style.get(f"{W}val", "") if style is not None else ""))
                elif block.tag == f"{W}tbl":  # a table inside a cell: its rows, inline
                    runs.append(Run(" " + " ".join(_table(block, styles)) + " "))
            text = render([r if r.text != "\n" else Run(" ") for r in runs])
            above[column] = text
            cells.append(text)
            column += width
        if any(cells):
            rows.append("| " + " | ".join(cells) + " |")
    return rows


def _on(rpr: Any, tag: str) -> bool:
    el = rpr.find(f"{W}{tag}") if rpr is not None else None
    return el is not None and el.get(f"{W}val", "true") not in ("0", "false", "none")


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
                elif part.tag == f"{W}drawing":
                    _walk(part, runs, ctx)  # text boxes
        elif tag in (f"{M}oMath", f"{M}oMathPara"):
            runs.append(Run(" " + _math(child) + " "))
        elif tag == f"{MC}AlternateContent":
            _walk(_chosen(child), runs, ctx)
        elif tag == f"{W}p":  # a paragraph inside a text box: its own style
            style = child.find(f"{W}pPr/{W}pStyle")
            sid = style.get(f"{W}val", "") if style is not None else ""
            _walk(child, runs, _Ctx(styles, sid, ctx.sizes))
        else:
            _walk(child, runs, ctx)


_FUNCTIONS = {"ln", "log", "exp", "sin", "cos", "tan", "max", "min", "softmax", "lim"}


def _math(el: Any) -> str:
    """Office Math as linear text: x^2, (a)/(b), sqrt(x), x_k, ∑_(i=1)^n x_i, ln(x)."""
    tag = el.tag
    if tag == f"{M}t":
        return el.text or ""

    def part(name: str) -> str:
        found = el.find(f"{M}{name}")
        return "" if found is None else _math(found)

    def prop(name: str, default: str) -> str:
        found = el.find(f"{M}{tag.split('}')[1]}Pr/{M}{name}")
        return found.get(f"{M}val", default) if found is not None else default

    def script(name: str, mark: str) -> str:
        text = part(name).strip()
        return f"{mark}({text})" if re.search(r"[_^]", text) else raised(text, mark)

    if tag == f"{M}sSup":
        return part("e") + script("sup", "^")
    if tag == f"{M}sSub":
        return part("e") + script("sub", "_")
    if tag == f"{M}sSubSup":
        return part("e") + script("sub", "_") + script("sup", "^")
    if tag == f"{M}sPre":
        return script("sub", "_") + script("sup", "^") + part("e")
    if tag == f"{M}f":
        if prop("type", "bar") == "noBar":
            return f"({part('num')} over {part('den')})"
        return f"({part('num')})/({part('den')})"
    if tag == f"{M}rad":
        degree = part("deg").strip()
        return f"root({degree}, {part('e')})" if degree else f"sqrt({part('e')})"
    if tag == f"{M}nary":
        sub, sup = part("sub").strip(), part("sup").strip()
        limits = (raised(sub, "_") if sub else "") + (raised(sup, "^") if sup else "")
        return f"{prop('chr', '∫')}{limits} {part('e')}"
    if tag == f"{M}func":
        name, arg = part("fName").strip(), part("e").strip()
        return f"{name}{arg}" if arg.startswith("(") else f"{name}({arg})"
    if tag in (f"{M}limLow", f"{M}limUpp"):
        mark = "_" if tag == f"{M}limLow" else "^"
        return part("e") + raised(part("lim"), mark)
    if tag == f"{M}eqArr":  # equations stacked and aligned: one after the other
        return "; ".join(_math(e) for e in el.findall(f"{M}e"))
    if tag == f"{M}m":  # a matrix, row by row
        rows = [", ".join(_math(e) for e in mr.findall(f"{M}e")) for mr in el.findall(f"{M}mr")]
        return "[" + "; ".join(rows) + "]"
    if tag == f"{M}d":
        inner = prop("sepChr", ",").join(_math(e) for e in el.findall(f"{M}e"))
        return prop("begChr", "(") + inner + prop("endChr", ")")
    if tag in (f"{M}acc", f"{M}bar", f"{M}groupChr", f"{M}box", f"{M}borderBox", f"{M}phant"):
        return part("e")  # x̂, x̄, a brace under x: the x is what is read
    if tag.endswith("Pr"):
        return ""
    return "".join(_math(child) for child in el.iterchildren() if isinstance(child.tag, str))
