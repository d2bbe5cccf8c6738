"""The words of a written report, defined once: headings, list markers, tables, sentence
ends, numbers and units, and the grammar of question labels.

Why one module: every stage of reading (the readers that turn a file into text, the
section finder, the phrase finder, the answer picker, the aside finder) has to agree on
what a heading is, where a sentence ends and what a part label looks like. When each
stage kept its own copy, the copies drifted apart ("a bold line is a heading" in one,
"a bold line with no underscore" in another) and every new writing style was fixed in
one copy only. Stages import these names; none defines its own.

Labels are read after ``decorations`` are taken off: an emoji, a section number or
letter from the document class ("A  Q3(a)", "3.2 Q3(b)"), a bullet, a bold or italic
marker and the words that announce a label ("Answer", "Solution") are no part of it, so
one grammar reads "## 🧠 Q3 (c)", "**Answer (I):**" and "3.2 Q3(b)" alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from calculators.answers._vocabulary import AFTER_NUMBER

# -- headings and tables ----------------------------------------------------------------------

MD_HEADING = re.compile(
    r"^\s{0,3}(#{1,6}|={2,6}(?=\s+(?:[^\W\d_]|\d{1,2}\s?\([a-hA-H]\))|\s+[^=\s].*\s={2,6}\s*$))"
    r"\s+(.*?)\s*(?:#*|=*)\s*$")
"""A Markdown heading (every reader writes its headings so): group 1 the ``#``s, 2 the text.
A README or wiki page typed as text marks its headings with ``=`` the same way
(MediaWiki and AsciiDoc: ``== Question 1 ==``, ``=== Task 3``): two or more, a word after
them, so a working line ``= 25.77 GB`` (or ``== 24 GB``) stays a value; or closed by ``=``
signs as MediaWiki closes them, where a part's label may open with a digit (``== 3(c) ==``,
``=== 3(e)(II) ===``): no chain of working ends so; or open, as AsciiDoc writes them, where
a part's label ``3(c)`` opens it (``== 3(c) Attention memory``): no value is written so."""
BOLD_LINE = re.compile(r"^\s*(?:\*\*|__)([^*_]{0,60}[A-Za-z][^*_]{0,60})(?:\*\*|__)\s*[:.]?\s*$")
"""A short line that is all bold (``**Question 3**``): a heading where it holds no number."""
LATEX_HEADING = re.compile(r"^\s*\\(?:(?:sub){0,2}section|chapter|paragraph)\*?\s*\{")
"""Raw LaTeX pasted into a text report: ``\\section*{Question 3}``."""
TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
"""The ``|---|---|`` line under a table's header row."""
END_WORDS = ("references", "bibliography", "appendix", "acknowledg")
"""A heading starting with one of these ends every section."""


def heading_text(raw: str) -> str | None:
    """The text of a Markdown heading or an all-bold line, else None."""
    m = MD_HEADING.match(raw)
    if m is not None:
        return m.group(2)
    m = BOLD_LINE.match(raw)
    return m.group(1) if m is not None else None


RELATIONS = "=≈~≃≅"
"""What states a value: "p = 0.75", "≈ 14.5 B parameters"."""


def states_value(raw: str) -> bool:
    """Whether a heading states a value ("### ≈ 14.5 B parameters", "### p(mat) = 0.75"):
    then it is a result set large (a slide's answer line, a callout), no heading, and its
    value is an answer. A value stated is a number after a relation sign, or a value
    alone ("## 9,437,184 params"), or after a colon ("## Total: 20,968,400", a slide's
    total set large under its breakdown)."""
    text = (heading_text(raw) or raw).strip(" *_#")
    cut = max(text.rfind(r) for r in RELATIONS)
    return cut >= 0 and has_digit(text[cut:]) or value_alone(text) \
        or ":" in text and value_alone(text.rsplit(":", 1)[1].strip())


def value_alone(text: str) -> bool:
    """Whether a heading is a value and nothing else ("## 9,437,184 params", "## 25.77 GB",
    a poster's result printed large, also as the end of the equation above it: "= 0.065 %"):
    it opens with a digit, reads whole as an answer and has a unit, a scale or four digits
    or more, where "3 Results", "1 Introduction" and a section number "3.2 Memory" do
    not."""
    from calculators.answers.parse import parse_answer  # the parser reads the value

    text = text.lstrip("=≈ ")
    if not text[:1].isdigit() or len(text) > 40:
        return False
    parsed = parse_answer(text)
    return parsed.value is not None and (
        parsed.unit is not None or parsed.scale != 1 or sum(ch.isdigit() for ch in text) >= 4)


CAPTION = re.compile(
    r"^[\s*_>]*(?:table|figure|fig|tab|tabel|tabelle|tableau|tabla|tabella|tabela|abbildung|abb"
    r"|rysunek|ryc|hình|bảng|gambar|表|图|圖|그림|표)\.?\s*\d{1,3}(?:[.\-]\d{1,2})?"
    r"\s*(?:[:.–—|-]|(?=[\s*_]*$))", re.I)
"""A numbered caption over a table or figure ("Table 2: Result for 3(c)", "Figure 1. Loss",
Word's SEQ field; "Tabel", "Tabelle", "Rysunek", "Bảng", "Gambar" in other languages): its
number is the caption's and any label it names ("3(c)") says what the table is about, so
neither is an answer; the reading takes it as a heading that opens no section."""


def is_caption(raw: str) -> bool:
    """Whether a line is only a table's or figure's numbered caption (``CAPTION``), short and
    with no value stated in it ("Figure 2: loss = 0.29" states one)."""
    return len(raw.strip()) <= 120 and CAPTION.match(raw) is not None \
        and not states_value(raw) and not any(r in raw for r in RELATIONS)


def value_at_end(title: str) -> int | None:
    """Where the result a heading's title ends in starts (words, then a value alone: "·
    ATTENTION MEMORY 24.0 GB", "· P("MAT") 0.750", an infographic's card whose big number
    the PDF reader puts on its heading's line), or None. The value has a unit, a scale,
    four digits or a decimal part, and is no year: "FFN parameters for 48 layers" ends in a
    datum, "Memory of GPT-3" and "GPT-3 175B" in a name, "Results 2024" in a year."""
    from calculators.answers.parse import parse_answer  # the parser reads the value

    starts = [k for k in range(1, len(title)) if not title[k].isspace() and title[k - 1].isspace()]
    for start in starts:
        tail = title[start:].rstrip(" *_#")
        if not _opens_with_figure(tail) or _is_year(tail) \
                or not any(c.isalpha() for c in title[:start]):
            continue
        if value_alone(tail) or (parse_answer(tail).value is not None and _is_decimal(tail)):
            return start
    return None


def _opens_with_figure(text: str) -> bool:
    """"24.0 GB", "0.750", "1536×": digits (with "." and ","), then a space, the end, "×"
    or "%"."""
    k = 0
    while k < len(text) and (text[k].isdigit() or (k and text[k] in ".,")):
        k += 1
    return k > 0 and text[0].isdigit() and (k == len(text) or text[k].isspace()
                                            or text[k] in "×%")


def _is_year(text: str) -> bool:
    return len(text) == 4 and text.isdigit() and text[:2] in ("19", "20")


def _is_decimal(text: str) -> bool:
    """"0.750", "24,0": digits, one "." or ",", digits."""
    for sep in ".,":
        whole, dot, part = text.partition(sep)
        if dot and whole.isdigit() and part.isdigit():
            return True
    return False


def is_table_row(raw: str) -> bool:
    return raw.lstrip().startswith("|")


CONTENTS_WORDS = (
    "contents", "table of contents", "目录", "目錄", "目次", "목차", "차례", "inhalt",
    "inhaltsverzeichnis", "table des matières", "table des matieres", "sommaire", "índice",
    "indice", "contenido", "contenidos", "tabla de contenidos", "sumário", "sumario",
    "sommario", "inhoud", "inhoudsopgave", "innehåll", "innehållsförteckning", "innhold",
    "innholdsfortegnelse", "indhold", "indholdsfortegnelse", "sisällys", "sisällysluettelo",
    "sisältö", "efnisyfirlit", "sisukord", "saturs", "turinys", "spis treści", "spis tresci",
    "obsah", "cuprins", "tartalom", "tartalomjegyzék", "содержание", "оглавление", "зміст",
    "змiст", "съдържание", "садржај", "sadržaj", "sadrzaj", "kazalo", "περιεχόμενα",
    "içindekiler", "mục lục", "daftar isi", "kandungan", "talaan ng nilalaman", "สารบัญ",
    "المحتويات", "فهرس المحتويات", "الفهرس", "فهرست مطالب", "فهرست", "תוכן העניינים",
    "תוכן עניינים", "विषय सूची", "अनुक्रमणिका", "yaliyomo", "mündəricat")
"""The heading over a table of contents, in the languages a class writes in (a Typst or
Word contents is titled in the document's language: "Innehåll", "Cuprins", "Obsah",
"ЗМІСТ", "Mục lục"): the whole family, not the word a report brought."""
_LEADERS = ".…·_ \t\u2002\u2003\u00a0"
"""What fills the gap between a contents entry's title and its page number."""


def _contents_entry(raw: str, titled: bool = False) -> tuple[int, bool] | None:
    """The page number a table-of-contents entry ends with, and whether dots lead to it.

    An entry is a title with letters, then dot leaders or a gap, then a page number: a
    table row ``| Q3 (a) Objective | 3 |`` (a Word contents printed to PDF comes out as
    a two-column table) or a line ``Q3 (a) Objective ........ 3``. Under a "Contents"
    heading (``titled``) one space is gap enough: a Word contents field read from the
    DOCX gives its cached entries as "3(c) Memory of the attention scores 2", the tab
    and its leader dots gone; the heading after them ("# Question 3") is none."""
    text = raw.strip().strip("*_")
    if text.startswith("|"):
        # a chapter's row is bold in a LaTeX or Org contents: "| **3 Q3 (c)** | **2** |"
        cells = [c.strip().strip("*_").strip() for c in text.strip("|").split("|")]
        cells = [c for c in cells if c]
        if len(cells) < 2 or not cells[-1].isdecimal():
            return None
        title, page = " ".join(cells[:-1]), cells[-1]
        gap = title[len(title.rstrip(_LEADERS)):]
    else:
        page = text[len(text.rstrip("0123456789")):]
        title = text[:len(text) - len(page)]
        gap = title[len(title.rstrip(_LEADERS)):]
        if not page or not (gap.count(" ") >= 3 or "\t" in gap or _dots(gap) >= 3
                            or titled and gap and not MD_HEADING.match(raw)):
            return None
    title, dotted = title[:len(title) - len(gap)], _dots(gap) >= 3
    if len(page) > 3 or not any(c.isalpha() for c in title):
        return None
    return int(page), dotted


def _headed_later(lines: Sequence[str], entries: Sequence[int]) -> bool:
    """Whether every entry's title heads a section after the entries (a Google Docs
    contents printed as a table: "| Q3 (c) | 2 |" … then "## Q3 (c)"): a contents with
    neither its title nor leaders. A summary's rows hold values, not their own headings."""
    later = [" ".join((heading_text(raw) or "").lower().split())
             for raw in lines[max(entries) + 1:] if MD_HEADING.match(raw)]
    for k in entries:
        text = lines[k].strip().strip("|")
        title = " ".join(text[:len(text.rstrip(" |0123456789*_"))].replace("|", " ")
                         .strip(" *_.").lower().split())
        if not title or not any(h.startswith(title) for h in later):
            return False
    return True


def _dots(gap: str) -> int:
    return gap.count(".") + gap.count("…") * 3 + gap.count("·")


def contents_lines(lines: Sequence[str]) -> set[int]:
    """The indexes of ``lines`` that are a table of contents: its page numbers are no
    answers, and its entries ("Q3 (c) Memory ..... 4") open no section.

    A contents is three or more entries in a row (blank lines and a table's ``|---|``
    between them) whose page numbers never go down, under a "Contents" heading (where two
    entries are one too: a short report's Word contents), or led to by dots on every
    line. A summary table of answers ("| Q3 (c) | 4 |") has neither.
    """
    found: set[int] = set()
    i = 0
    while i < len(lines):
        entries: list[tuple[int, int, bool]] = []
        titled = _titled(lines, i)
        j = i
        while j < len(lines):
            raw = lines[j]
            if not raw.strip() or TABLE_SEPARATOR.match(raw):
                j += 1
                continue
            entry = _contents_entry(raw, titled)
            if entry is None or (entries and entry[0] < entries[-1][1]):
                break
            entries.append((j, *entry))
            j += 1
        if (len(entries) >= 3 and all(e[2] for e in entries)) or (len(entries) >= 2 and titled) \
                or (len(entries) >= 3 and _headed_later(lines, [e[0] for e in entries])):
            found.update(e[0] for e in entries)
        i = max(j, i + 1)
    return found | _navigation_lines(lines) | _titled_navigation(lines) | _linked_contents(lines)


LINKED_CONTENTS_MIN = 3
"""The fewest entries of a contents of links with neither title nor page numbers."""


def _linked_contents(lines: Sequence[str]) -> set[int]:
    """A contents of links with neither a title nor page numbers (pandoc's ``--toc`` in
    HTML printed, a wiki's): three or more plain lines in a row, each the text of a
    heading after them, in the headings' order. Read as text, its "Tasks 3 and 4" opens a
    section with nothing in it before the real heading. The entries may be set as headings
    themselves (wkhtmltopdf's contents page, its titles larger than the body's text)."""
    last: dict[str, int] = {}  # each heading's text: where it last stands
    for i, raw in enumerate(lines):
        if MD_HEADING.match(raw):
            last[_entry_title(raw)] = i
    found: set[int] = set()
    run: list[int] = []
    for i, raw in enumerate([*lines, ""]):
        title = _entry_title(raw)
        if title and len(title) <= 60 and last.get(title, -1) > i:
            run.append(i)
            continue
        if len(run) >= LINKED_CONTENTS_MIN and _in_order(lines, run, last):
            found.update(run)
        run = []
    return found


def _entry_title(raw: str) -> str:
    """A contents entry's title as its heading's text is compared: lower case, spaced once."""
    text = heading_text(raw) if MD_HEADING.match(raw) else raw
    return " ".join((text or "").strip().lower().split())


def _in_order(lines: Sequence[str], run: list[int], last: dict[str, int]) -> bool:
    """Whether the entries of ``run`` name headings after them in the same order."""
    positions = [last[_entry_title(lines[i])] for i in run]
    return positions == sorted(positions)


def _navigation_entries(raw: str) -> int:
    """How many question labels a line of a page's navigation names ("Q3 (e) (II) Adam
    states Q3 (e) (III) Comparison", a Jupyter Book sidebar printed to PDF), or 0 for a
    line that is more than labels and titles: a digit besides the labels' numbers, a
    sentence's end, a table row, a heading (the section's own, "## Q3 (c)", over a page's
    "On this page" list that printing set right under it)."""
    text = raw.strip().strip("*_")
    labels = list(QUESTION_LABEL.finditer(text))
    if not labels or len(text) > 120 or text.startswith(("|", "#")) or text.endswith((".", ":")):
        return 0
    return 0 if has_digit(_outside(text, labels)) else len(labels)


def _outside(text: str, spans: Sequence[re.Match[str]]) -> str:
    """``text`` without the spans matched."""
    out, at = [], 0
    for m in spans:
        out.append(text[at:m.start()])
        at = m.end()
    return "".join(out) + text[at:]


def _navigation_lines(lines: Sequence[str]) -> set[int]:
    """A page's navigation (a sidebar of the headings, with no page numbers): three lines
    or more in a row, each only labels and titles, naming four questions or more (one a
    line, or two where the sidebar's lines ran together). Its entries open no section."""
    found: set[int] = set()
    run: list[tuple[int, int]] = []
    for k, raw in enumerate([*lines, ""]):
        n = _navigation_entries(raw)
        if n:
            run.append((k, n))
            continue
        if len(run) >= 3 and sum(c for _, c in run) >= 4:
            found.update(k for k, _ in run)
        run = []
    return found


NAVIGATION_WORDS = ("on this page", "in this section", "page contents", *CONTENTS_WORDS)
"""The title over a page's own navigation (Quarto, Jupyter Book, Read the Docs, a wiki)."""
NAVIGATION_ENTRY_CHARS = 48
_UNDERLINE = "─━═-=_~ \t"
"""What a title's underline in a text export is drawn with (Org's ASCII and UTF-8 export)."""
MAX_NAVIGATION_ENTRIES = 24


def _titled_navigation(lines: Sequence[str]) -> set[int]:
    """A page's navigation under its title ("On this page", a Quarto page's margin printed
    beside the text): the short lines under it, each a title with no sentence, value or
    table in it, are its entries ("1 Question 1", "3.1 Language modeling", "task"); they
    open no section. It ends at the first line that is more than such a title, or that
    names an entry again (the text resumed under the heading the navigation listed)."""
    found: set[int] = set()
    for k, raw in enumerate(lines):
        title = (heading_text(raw) or raw).strip(" #*_:").lower().replace("\u0307", "")
        if title not in NAVIGATION_WORDS:
            continue
        entries: list[int] = []
        seen: set[str] = set()
        first = k + 1  # past the title's underline and the blank lines under it (Org's text)
        while first < len(lines) and not lines[first].strip().strip(_UNDERLINE):
            first += 1
        for j in range(first, min(len(lines), first + MAX_NAVIGATION_ENTRIES)):
            text = lines[j].strip().strip("*_")
            if not text or len(text) > NAVIGATION_ENTRY_CHARS or text.startswith(("|", "#")) \
                    or text.endswith((".", ":", "?")) or any(c in text for c in "=≈%") \
                    or text in seen:  # an entry again: the page's own heading, resumed
                break
            seen.add(text)
            entries.append(j)
        if len(entries) >= 3:
            found.update(entries)
    return found


def _titled(lines: Sequence[str], start: int) -> bool:
    """Whether the last non-blank line before ``start`` is a "Contents" heading."""
    for raw in reversed(lines[max(0, start - 3):start]):
        if raw.strip():
            text = (heading_text(raw) or raw).strip(" #*_:").lower().replace("\u0307", "")
            return text in CONTENTS_WORDS  # "İçindekiler" lowers to a dotted i
    return False


# -- list markers --------------------------------------------------------------------------------

BULLETS = "-•*+–·▪◦‣∙"
"""The characters students and exporters start a list item with."""
LIST_MARKER = re.compile(rf"^(?:[{BULLETS}]|\(?(?:\d{{1,2}}|[a-z]|[ivxlIVXL]{{1,5}})[.)])$")
"""One word that is a list item's marker: a bullet, ``1.``, ``(a)``, ``iv)``."""
LEADING_MARKERS = re.compile(rf"^(?:[{BULLETS}]\s+|(?:\d+|[A-Za-z](?=\.\d))(?:\.\d+)*[.)]?\s+)+")
"""Bullets, list and section numbers at a line's start ("3.1", "C.1" of a document class
that letters its sections); never ``(I)``, which may be a part's label."""
QUOTE_AND_BULLET = re.compile(rf"^(?:\s|>|[{BULLETS}]\s+|\[![a-z]+\][-+]?\s*|\[[ xX]\]\s+)*")
"""What may stand before a label on its line: indentation, ``>`` quote marks (Obsidian
call-outs ``> [!note]`` too), bullets, a task list's box (``- [x] Q3 (d) …``)."""

# -- sentence ends ------------------------------------------------------------------------------

ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|cf|eq|eqn|fig|vs|see|resp)[.:]$", re.I)
"""A stop that ends no sentence ("e.g.", "cf.", "see:")."""
SENTENCE_END = re.compile(
    r"(?<!\bi\.e)(?<!\be\.g)(?<!\bvs)(?<!\bcf)(?<!\bapprox)(?<!\bca)(?<!\bv)(?<!\d)[.!?;。！？；](?=\s|$)"
    r"|(?<=\d)[.!?;](?=\s+[A-Z(]|$)|[。！？；]|\n"
)
"""Where a sentence ends inside a line (CJK full stops too; "3.5" and "e.g." end none)."""
_STOPS = ".;:!?。！？；："


def ends_sentence(text: str) -> bool:
    """Whether ``text`` ends with a sentence's (or clause's) end, bold markers aside."""
    return text.rstrip("*")[-1:] in _STOPS and text.rstrip("*") != ""


def has_digit(text: str) -> bool:
    """Whether ``text`` holds a decimal digit (of any script: full-width too)."""
    return any(c.isdecimal() for c in text)

# -- numbers and units --------------------------------------------------------------------------

MAGNITUDES = {"万": 4, "萬": 4, "亿": 8, "億": 8, "兆": 12, "만": 4, "억": 8, "조": 12}
"""CJK magnitude words and their powers of ten: ``145 亿`` is 145 × 10^8 (14.5 billion),
never 145; ``944 万`` is 9.44 million; Korean writes them ``145억``, ``944만``."""
UNIT_WORDS = (
    r"KiB|MiB|GiB|TiB|kB|KB|MB|GB|TB|Gb|Mb|kb|mb|gb|tb|bytes?|bits?|billions?|millions?|thousands?"
    r"|trillions?|bn|[kKMBGT](?![A-Za-z])"
    r"|(?:kilo|mega|giga|tera|kibi|mebi|gibi|tebi)(?:bytes?|bits?)|percent|per\s?cent|times"
    r"|mil\s+millones|millones|milliards?|milliarden|Mrd|Mio|Mds?"
    r"|Go|Mo|Ko|(?:kilo|m[eé]ga|giga|t[eé]ra)?octets?"
    r"|miljard|miljoen|mld|miliard(?:y|ów)?|milion(?:y|ów)?|miliar|juta|tỷ|tỉ|triệu"
    r"|Gt|Mt|Tt|(?:kilo|mega|giga|tera)?tavu[aä]?|miljardia?|miljoonaa?|tuhatta|miliarde"
    r"|milioane|miliarda|milliarder|millioner|mrd|bilyon|milyon|lakhs?|crores?"
    + "|" + "|".join(re.escape(w) for w in AFTER_NUMBER
                     if not w.isascii() and w not in MAGNITUDES)  # those: magnitude_after
)
"""Units and scale words a written value may carry, the abbreviations and units of other
languages too: German "Mio."/"Mrd.", French "Md"/"Mds", "Go"/"Mo"/"Ko" (octets, bytes),
Dutch "miljard", Polish "mld", Indonesian "miliar"/"juta", Vietnamese "tỷ"/"triệu",
Finnish "Gt"/"Mt" (gigatavu, megatavu) and "miljardia", Romanian "miliarde", Danish and
Norwegian "milliarder"/"mrd", Tagalog "bilyon", Indian English "lakh"/"crore",
and as a note typed on a phone has them, lower case: "37.7mb", "25.77gb" (bytes meant).
Every word of the parser's table (``calculators.answers._vocabulary``) written in another
script is one too ("ГБ", "млрд", "δισεκατομμύρια", "พันล้าน"): the parser and the reader
read the same words, added in one place; its ASCII words are left to the list above, so
short Latin words ("mal", "kali") never make a value of a sentence."""
NUMBER = (
    r"(?:\d{1,2}(?:,\d{2})+,\d{3}(?![\d,])"  # 94,37,184: Indian grouping (lakh)
    r"|\d{1,3}(?:\.\d{3}){2,}(?![\d.])|\d+,(?!\d{3}(?!\d))\d+(?![\d,])"
    r"|\d{1,3}(?:(?:,\s?|['’ _\u2009\u202f])\d{3})+(?!\d)|\d+)(?:\.\d+)?"
    r"(?:[eE][+-]?\d+|\s*(?:×|x|\\times|\\cdot|[*·⋅])\s*10\s*(?:\^|\*\*)\s*[{(]?[-−]?\d+[})]?)?"
)
"""A written number: digit groups (``25,769,803,776``, ``21 018 401``, Python's
``14_496_989_184``), a decimal part,
a power of ten (``1.2e9``, ``1.2 × 10^9``, ``6.51×10^(-4)`` as a superscript ``10⁻⁴`` is
spelled by the readers); as a Spanish or German student writes it, dots grouping the
thousands (``9.437.184``: two groups or more, ``16.384`` stays a decimal) and a decimal
comma (``0,7500``, ``25,77 GB``: a comma before anything but a group of three, never
inside a list ``0,1,2``), which the answer parser reads as meant."""


def magnitude_after(text: str) -> int | None:
    """The power of ten a CJK magnitude word right after a number stands for, or None."""
    return MAGNITUDES.get(text.lstrip(" \u3000")[:1])
CJK_CHARS = r"\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef"
"""Chinese, Japanese and Korean script and punctuation (as a character class's body)."""

# -- question labels ----------------------------------------------------------------------------

ROMAN = r"(?:viii|vii|vi|iv|ix|iii|ii|i|v|x)"
ROMAN_VALUES = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8,
                "ix": 9, "x": 10}
KINDS = {"question": "q", "q": "q", "qn": "q", "qns": "q", "ques": "q", "part": "q",
         "problem": "q", "exercise": "q", "task": "task", "t": "t",
         "aufgabe": "q", "frage": "q", "teil": "q", "exercice": "q", "ejercicio": "q",
         "pregunta": "q", "esercizio": "q", "domanda": "q",
         "вопрос": "q", "задание": "q", "задача": "q", "упражнение": "q", "часть": "q",
         **dict.fromkeys(("questão", "questao", "exercício", "exercicio", "problema", "parte",
                          "soru", "alıştırma", "aliştirma", "alistirma", "bölüm", "bolum",
                          "kısım", "kisim"), "q"),
         **dict.fromkeys(("vraag", "opgave", "oefening", "opdracht", "deel",
                          "zadanie", "zad", "pytanie", "ćwiczenie", "cwiczenie", "ćw", "część",
                          "czesc", "câu", "câu hỏi", "bài", "bài tập", "phần",
                          "pertanyaan", "soal", "latihan", "bagian"), "q"),
         **dict.fromkeys(("tarefa", "görev", "gorev", "과제", "taak", "polecenie", "nhiệm vụ",
                          "tugas"), "task"),
         **dict.fromkeys(("問", "問題", "設問", "大問", "问", "问题", "題", "题", "题目", "문제",
                          "문항", "질문", "연습문제", "문", "번"), "q")}
"""The words that name a question, and the kind each is (Question, Q, Part are one kind;
so are the words of other languages a student writes them in: German "Aufgabe 3 a)",
"Frage", "Teil", French "Exercice", Spanish "Ejercicio", "Pregunta", Italian "Esercizio",
Russian "Вопрос 3", "Задание", "Задача", "Упражнение", "Часть"; Japanese "問3",
"問題 3", "設問3", "大問3" and "第3問", Chinese "问题3", "题3" and "第3题", Korean "문제 3",
"문항 3", "질문 3" (a question asked), "연습문제 3" (an exercise), "과제 3" (a task) and
"3번", "제3문"; Portuguese "Questão 3 (a)", "Exercício", "Problema", "Parte", "Tarefa" (a
task); Turkish "Soru 3", "Alıştırma", "Bölüm", "Kısım", "Görev" (a task), and as Turkish
orders them, "3. Soru"; Dutch "Vraag 3", "Opgave", "Oefening", "Opdracht", "Deel",
"Taak" (a task); Polish "Zadanie 3", "Zad. 3", "Pytanie", "Ćwiczenie", "Część", "Polecenie"
(a task); Vietnamese "Câu 3", "Câu hỏi 3", "Bài", "Bài tập", "Phần", "Nhiệm vụ" (a task);
Indonesian "Pertanyaan 3", "Soal", "Latihan", "Bagian", "Tugas" (a task); the counter form "第3問", "第3题", "제3문", "3번" is
``COUNTER_WORD`` after its number, "3. Soru" ``WORD_AFTER_NUMBER``).
"T" ("T3 / T4.") is a kind of its own: Task where the pack asks tasks, else no label at
all ("T5 is an encoder-decoder", "T4 GPU": a model, a card)."""
LABEL_WORD = (r"(?:question|problem|exercise|part|task|aufgabe|frage|teil|exercice|ejercicio|pregunta"
              r"|esercizio|domanda|вопрос|задание|задача|упражнение|часть"
              r"|quest[ãa]o|exerc[íi]cio|problema|parte|tarefa"
              r"|soru|al[ıi][şs]t[ıi]rma|g[öo]rev|b[öo]l[üu]m|k[ıi]s[ıi]m"
              r"|vraag|opgave|oefening|opdracht|deel|taak"
              r"|zadanie|zad|pytanie|[ćc]wiczenie|ćw|cz[ęe][śs][ćc]|polecenie"
              r"|câu\s+hỏi|câu|bài\s+tập|bài|phần|nhiệm\s+vụ"
              r"|pertanyaan|soal|latihan|bagian|tugas|qns?|ques|q"
              r"|問題|設問|大問|問|问题|问|题目|題|题|연습문제|문제|문항|질문|과제)")
"""A word that names a question before its number ("Question 3", "Q3", "Task 7")."""
ARROW = r"(?:-+>|=+>|→|⇒|⟶|⟹|➔|➜|➡)"
"""An arrow a note typed fast marks its answer with, as a colon: "q3a ii -> softmax ...",
"3c → 25.77 GB"."""
COUNTER_WORD = r"(?:問|问|題|题|문제|문|번)"
"""The counter after a number that names a question in Japanese, Chinese and Korean:
"第3問", "第3题", "제3문" (第, 제 before the number make it an ordinal: "the third
question")."""
ORDINAL_MARK = r"(?:第|제)"
"""What makes the number after it an ordinal: "第3問", "제3문" ("the third question")."""
COUNTED_WORD = r"(?:번(?=\s*(?:문제|문항)|\s*[.:)]|\s*$))"
"""Korean's counter after a bare number: "3번", "3번 문제" (number 3), only before 문제, a
stop or the line's end ("3번 실행했다" is "ran it three times")."""
WORD_AFTER_ORDINAL = r"(?:soru|al[ıi][şs]t[ıi]rma|g[öo]rev)(?![^\W\d_])"
"""A question word after an ordinal number and its dot, as Turkish orders them: "3. Soru",
"2. Alıştırma", "1. Görev"."""
CJK_NUMERALS = {"一": "1", "二": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7",
                "八": "8", "九": "9", "十": "10"}
"""The numerals a Japanese or Chinese question may be numbered with ("問三", "第三题"):
one character, one to ten, read as the digits."""
KANA_LETTERS = {"ア": "a", "イ": "b", "ウ": "c", "エ": "d", "オ": "e", "カ": "f", "キ": "g",
                "ク": "h"}
"""The katakana a Japanese question letters its parts with, in order ("(ア)", "(イ)"), and
the letter each is: "問3 (ウ)" is Q3 (c). Full-width "（ａ）" is "(a)" already (NFKC)."""
HANGUL_LETTERS = {"가": "a", "나": "b", "다": "c", "라": "d", "마": "e", "바": "f", "사": "g",
                  "아": "h"}
"""The syllables a Korean question letters its parts with, in the order of the alphabet
("(가)", "(나)", "(다)"): "문제 3 (다)" is Q3 (c)."""
SYLLABLE_LETTERS = {**KANA_LETTERS, **HANGUL_LETTERS}
"""A part's letter in a script with no Latin letters, and the letter it stands for."""
QUESTION_LABEL = re.compile(rf"\b({LABEL_WORD})\s*\.?\s*(\d+)(?!\d|,\d)", re.I)
"""A question named by word and number anywhere in a text: ("q", "3") of "see Q3 (c)"."""
SUB_PART_WORDS = ("subpart", "sub-part", "sub part", "subquestion", "sub-question", "subitem")


def sub_part_numbers(text: str) -> list[tuple[int, int]]:
    """Where a sub-part is named by its number ("Answer for part e, subpart 1: 9,437,184",
    as a screen-reader user spells "(e)(I)" out): the number is the label's, no value."""
    low = text.lower()
    out = []
    for word in SUB_PART_WORDS:
        at = low.find(word)
        while at >= 0:
            start = at + len(word)
            while start < len(low) and low[start] in " .":
                start += 1
            end = start
            while end < len(low) and end - start < 2 and low[end].isdigit():
                end += 1
            if end > start and (at == 0 or not low[at - 1].isalpha()) \
                    and not (end < len(low) and low[end].isdigit()):
                out.append((start, end))
            at = low.find(word, at + 1)
    return out
STEMS_OF_OTHER_LANGUAGES = {"языко": "langu", "моделир": "model", "класс": "class",
                            "предо": "pretr", "дообу": "finet",
                            "pemod": "model", "bahas": "langu", "klasi": "class",
                            "taalm": "langu", "język": "langu", "klasy": "class",
                            "ngôn": "langu", "sprac": "langu", "klass": "class",
                            "lengu": "langu", "lingu": "langu", "langa": "langu"}
"""The stems (first five letters) of a lab's part words as a student writing in another
script names them, and the English stem each stands for: "Модель для языкового
моделирования" is named like "Language modeling task", "Модель для классификации" like
"Classification task" (``phrases._named_like``); "модель" (a model) is no "моделирование"
(modeling), so that key is seven letters. Latin-script languages share the stems
("classificazione" -> "class"; German "Klassifikation" and "Sprachmodell" -> "klass" and
"sprac", Spanish "lenguaje", Italian and Portuguese "linguaggio"/"linguagem", French
"langage" keyed here), but not where the words
differ: Indonesian "Tugas pemodelan bahasa" is the language modeling task, "Tugas
klasifikasi" the classification task; Dutch "taalmodel", Polish "modelowanie języka",
"klasyfikacja" and Vietnamese "mô hình ngôn ngữ" (a language model) name them too."""


def stem(word: str) -> str:
    """A word's stem as part names are compared (first five letters), in English."""
    return STEMS_OF_OTHER_LANGUAGES.get(word[:7]) or STEMS_OF_OTHER_LANGUAGES.get(word[:5], word[:5])


ANSWER_IN_OTHER_LANGUAGES = (
    "svar", "vastaus", "vastus", "atbilde", "atsakymas", "odpověď", "odpoved", "odpoveď",
    "odgovor", "одговор", "отговор", "відповідь", "адказ", "răspuns", "raspuns", "válasz",
    "valasz", "απάντηση", "απαντηση", "përgjigje", "pergjigje", "sagot", "jawapan", "คำตอบ",
    "ຄຳຕອບ", "ចម្លើយ", "အဖြေ", "उत्तर", "जवाब", "উত্তর", "பதில்", "விடை", "సమాధానం", "జవాబు",
    "ಉತ್ತರ", "ഉത്തരം", "જવાબ", "ਜਵਾਬ", "جواب", "الجواب", "الإجابة", "إجابة", "اجابة", "پاسخ",
    "תשובה", "cavab", "жауап", "javob", "პასუხი", "պատասխան", "jibu", "መልስ", "amsa",
    "idahun", "ìdáhùn", "aziza", "azịza", "impendulo", "jawaab", "erantzuna", "ateb",
    "freagra", "svör")
"""The word for "answer" in the languages of the world's classes, beyond the ones
``ANSWER_WORD`` spells with their inflections: Nordic "Svar", Finnish "Vastaus", Baltic,
Slavic ("Odpověď", "Відповідь", "Одговор"), Romanian "Răspuns", Hungarian "Válasz", Greek,
Filipino "Sagot", Malay "Jawapan", Thai "คำตอบ", the languages of India ("उत्तर", "பதில்"),
Arabic, Persian and Urdu, Hebrew, the Caucasus and Central Asia, Swahili "Jibu", Amharic,
Hausa, Yoruba, Igbo, Zulu, Somali, Basque, Welsh and Irish; each with and without its
accents where keyboards drop them. A class brings its language whole, so the family is
listed whole, not a word per report met."""
_ONE_ANSWER_WORD = (r"(?:(?:final\s+)?answers?|答え|答案|解答|回答|答|정답|답변|답"
               r"|respostas?(?:\s+final)?|cevap|yan[ıi]t|antwort|r[ée]ponses?(?:\s+finale)?"
               r"|respuestas?(?:\s+final)?|rispost[ae](?:\s+finale)?|ответ"
               r"|antwoord|odpowied[źz]|odp|đáp\s+án|đáp\s+số|trả\s+lời|jawaban|jawab|"
               + "|".join(re.escape(w) for w in sorted(ANSWER_IN_OTHER_LANGUAGES, key=len,
                                                       reverse=True)) + ")")
ANSWER_WORD = rf"{_ONE_ANSWER_WORD}(?:\s*/\s*{_ONE_ANSWER_WORD})?"
"""The word that announces an answer, in English or as a Japanese IME, a Chinese or a
Korean student types it ("答え:25.77GB", "答案：…", "答：…", "답: 25.77 GB", "답변: …"),
in Portuguese ("Resposta: 25,77 GB", "Resposta final"), Turkish ("Cevap: …", "Yanıt"),
German ("Antwort:"), French ("Réponse :"), Spanish ("Respuesta:"), Italian ("Risposta:"),
Russian ("Ответ:"), Dutch ("Antwoord:"), Polish ("Odpowiedź:", "Odp."), Vietnamese ("Đáp
án:", "Đáp số:" for a value, "Trả lời:") and Indonesian ("Jawaban:", "Jawab:"), and in the
rest of ``ANSWER_IN_OTHER_LANGUAGES``; or two of them, the student's and English ("Vastaus /
Answer:")."""
ANSWER_WORDS = re.compile(
    rf"(?:{ANSWER_WORD}|ans\.?|solutions?|sol\.)\s*(?:(?:to|for|of)\s+)?[:.\-–·]?\s*",
    re.I)
"""'Answer to Q3 (c):', 'Ans. 3(c)', 'Solution to Question 3 (c)': the label after them."""
ANSWER_LINE = re.compile(
    rf"^\W*[(【〔「『《〈［]\s*{ANSWER_WORD}\s*[)】〕」』》〉］](?=\s)"
    rf"|^\W*{ANSWER_WORD}\b(?:\s*\(\s*(?:[a-h]|{ROMAN}|\d{{1,2}})\s*\)){{0,3}}"
    rf"(?:\W*(?:[:=]|is\b)|\.(?=[\s*_]))"
    rf"|^\W*{ANSWER_WORD}\s+(?:to|for|of)\s+[^:=\d]{{1,40}}?(?:\d{{1,2}}[^:=\d]{{0,20}}?)?[:=]"
    r"|^\s*(?:=+>|⇒|⟹)", re.I)
"""A line that gives the answer: "Answer: 25.77 GB", "Final answer is …", "答え:約25.77GB",
"(II) Answer. p(mat) = 0.7500" (an answer stated first, its working after it), "Answer
(d): 14.50 billion parameters", "Answer (e)(II): 75.5 MB" (the part it answers named
after the word, as a margin note has it), "(Antwort) 72.00 MB", "【解答】 **25.77 GB**"
(the word in brackets before the value it marks, a Japanese template's lenticular ones),
"Answer for part e, subpart 1: 9,437,184", "Answer to Q3 (c): …" (the part it answers
named after "for" or "to", before the colon), and a line the working leads to with a
double arrow ("=> LoRA needs only 0,00065 % of …", an engineer's result line; a single
"->" is as often a step)."""
ANSWER_HEADINGS = frozenset({"answer", "answers", "final answer", "final answers", "ans", "答え", "答案", "解答", "回答", "答",
                             "정답", "답", "답변", "resposta", "respostas", "resposta final",
                             "cevap", "yanıt", "yanit", "antwort", "réponse", "reponse",
                             "réponse finale", "respuesta", "respuesta final", "risposta",
                             "risposta finale", "ответ", "antwoord", "odpowiedź", "odpowiedz",
                             "odp", "đáp án", "đáp số", "trả lời", "jawaban", "jawab",
                             *ANSWER_IN_OTHER_LANGUAGES})
"""A heading that is only the answer word ("### Answer" under each question, as a notebook
exported to Markdown has it): what stands under it, to the next heading, is the answer."""


def is_answer_heading(text: str) -> bool:
    """Whether a heading's text (markers and markup aside) is only an answer word, or one
    naming the part it answers in brackets ("Answer (e)(I)", a tcolorbox's title)."""
    words = " ".join(text.strip(" #*_:.\t").lower().split())
    while words.endswith(")") and "(" in words and len(words) - words.rfind("(") <= 7:
        words = words[:words.rfind("(")].rstrip(" :")
    return words in ANSWER_HEADINGS or "/" in words and all(
        w.strip() in ANSWER_HEADINGS for w in words.split("/"))  # "Vastaus / Answer"


TOTAL_WORDS = frozenset({"total", "totals", "sum", "overall", "all", "gesamt", "insgesamt",
                         "summe", "totale", "итого", "всего", "合計", "合计", "总计", "총계", "합계"})
"""The words that name a table's concluding row ("Trainable total", "Sum", "Итого", "合計"):
its cells are what the rows above add up to."""
LIST_COMMAS = ",;、，；"
"""What separates the items of a list in a line, in any script ("p=0.7500、損失=0.1249")."""

_EMOJI = (r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D\u20E3"
          r"\u2190-\u21FF\u25A0-\u25FF\u2700-\u27BF✓✔✗✘]")
SECTION_NUMERAL = r"(?-i:[A-Z]|(?=[IVX])X{0,2}(?:IX|IV|V?I{0,3}))"
"""A section letter or Roman numeral (I to XX) a document class or a Typst template puts
before a heading ("A.", "V.", "XIV.")."""
PANEL_CAPTION = r"(?-i:(?:[A-Z]{2,}\s+){0,2}(?:PANEL|BLOCK|CELL|WIDGET))"
"""The caption a dashboard prints over each of its panels, in small capitals, which a PDF
reader puts on the panel heading's line: W&B's "MARKDOWN PANEL **Question 1**", "TEXT
BLOCK", a notebook's "MARKDOWN CELL". Only before a label: "LINE PLOT · …" stays text."""
DECORATION = re.compile(
    rf"^(?:\s+|{_EMOJI}+|[【〔「『《〈［]|{PANEL_CAPTION}\s+(?={LABEL_WORD}\s*\.?\s*\d)|{SECTION_NUMERAL}\.?\s+(?={LABEL_WORD}\s*\.?\s*\d)"
    rf"|\(\s*(?:{ROMAN}|[a-h]|\d{{1,2}})\s*\)\s+(?={LABEL_WORD}\s*\.?\s*\d)"
    rf"|(?:chapter|chapitre|kapitel|cap[íi]tulo|capitolo)\s+\d{{1,2}}[.:]?\s+(?={LABEL_WORD}\s*\.?\s*\d)"
    rf"|(?:section|sección|sezione|abschnitt|seção|secção|article|artículo|artigo|articolo)\s+"
    rf"(?:[A-Z]|\d{{1,2}})\s*[–—:.-]?\s+"
    rf"(?={LABEL_WORD}s?\s*\.?\s*\d)"
    rf"|(?:\d{{1,2}}°\s*)?(?:sur|on|about|re|concernant|regarding)\s*:?\s+(?:(?:la|le|the)\s+)?"
    rf"(?={LABEL_WORD}\s*\.?\s*\d)"
    rf"|\d{{1,2}}°\s+(?={LABEL_WORD}\s*\.?\s*\d)"
    rf"|{SECTION_NUMERAL}\.\s+(?=(?:sub[\s-]?)?part\s*\(\s*(?:[a-h]|{ROMAN})\s*\))"
    rf"|\d{{1,2}}(?:[./]\d{{1,2}}){{0,3}}\.?\s+(?={LABEL_WORD}s?\s*\.?\s*\d)"
    rf"|(?:(?-i:[A-Z])|\d{{1,2}})(?:\.\d{{1,2}}){{1,3}}\.?\s+"
    rf"(?=(?:(?:sub[\s-]?)?part\s*)?\(\s*(?:[a-h]|{ROMAN})\s*\)))+",
    re.I)
"""What may stand before a label and is no part of it: an emoji ("🧠 Q3 (c)"), a section
letter, Roman numeral or number the document class put there ("A  Q3(a)", "V. Q3 (e)",
"3.2 Q3(b)", "2 Task 3", "2. Tasks 3 and 4"), a thread's post counter ("2/9  Q3 (a)(I): …",
a tweet thread), a sub-section's letter or number before a
spelled-out part ("A. Part (I)", "1.1 Part (a)"), an enumerate's own item
marker before the label it holds ("(i) **Q3 (a)(I), objective.**", ``enumerate[(\roman*)]``),
a book's chapter number ("# Chapter 3 Question 3", bookdown's chapter headings), a form's
section ("SECTION B – QUESTION 1: …", an answer form's sections), a French ordinal and the
word a lawyer opens a point with ("1° Sur Q3 (a)(I) - …", "Sur la question 3 (a)", "On Q3
(c):"), a decision's article ("Article 2 — Q3 (c): 25,77 Go", under "PAR CES MOTIFS"),
a dashboard panel's caption ("MARKDOWN PANEL Question 1", ``PANEL_CAPTION``), the
opening of an East Asian bracket a Japanese or Chinese template puts round a heading
("【Q3 (a)】", "〔Question 3〕")."""


def undecorated(text: str) -> int:
    """How many characters of decoration ``text`` starts with (``DECORATION``)."""
    m = DECORATION.match(text)
    return 0 if m is None else m.end()


def kind_of(word: str | None) -> str:
    """The kind of a label word ("Question" -> "q", "Task" -> "task"); "q" when None."""
    return KINDS[" ".join(word.lower().split())] if word else "q"
