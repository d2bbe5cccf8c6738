"""The numbers (and formulas) of a report section, and which one the student marks as final.

Why tiers: a section holds working as well as the answer ("48 × 16384² × 2 bytes =
25,769,803,776 bytes ≈ 25.77 GB"). What a student marks as final wins: a boxed value, an
"Answer:" line or a table's answer cell first; then the last *conclusive* value (bold, the
end of an ``=`` chain, after ``≈``/"about", after "total"/"therefore"/"gives", or a formula
in the question's symbols); failing that, the last number, which is the last line's.

Why cleaning first: units hide behind markup and LaTeX (``$25.77$ GB``, ``25.77\\text{ MB}``,
``14\\,495\\,514\\,624``, ``25{,}769{,}803{,}776``) or are words ("25.8 gigabytes",
"0.065 percent", "1536 times"); a PDF line break can put the unit on the next line.

Why shotguns: several *different* values offered as the answer ("Answer: 25.77 GB or
24 GB", two boxed values) earn nothing; the grader names them rather than pick one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sympy import Rational

from calculators.answers.parse import ParsedAnswer, parse_answer
from calculators.answers.tex import clean
from grader.written.asides import comparison_spans, inside
from grader.written.formulas import defines, formulas_in_line, symbol_names
from grader.written.spelled import spelled_out
from grader.written.vocabulary import (
    ANSWER_HEADINGS,
    ANSWER_LINE,
    ANSWER_WORDS,
    ARROW,
    CJK_CHARS,
    LIST_COMMAS,
    NUMBER,
    QUESTION_LABEL,
    UNIT_WORDS,
    has_digit,
    heading_text,
    is_table_row,
    magnitude_after,
    sub_part_numbers,
    value_alone,
)

_CANDIDATE = re.compile(
    # a number glued to a word is no answer ("x2", "fp16"), but one after CJK script is
    # ("約25.77GB", "つまり14.50 billion": no space is typed between them)
    # and a decimal written without its leading zero is one (".75", "~.065%")
    rf"(?<![.,^_])(?<!(?![{CJK_CHARS}])\w)(?<!\^\{{)(?<!_\{{)(" + NUMBER
    + r"|(?<![\w.,])\.\d+(?![\d.,]))"
    r"(?:[\s*}]*(?:%|\[(?:%|" + UNIT_WORDS + r")\]|(?:" + UNIT_WORDS + r")\b|-fold\b|×(?!\s*\d)"
    r"|x(?=\s*$|\s*[.,;)]|\s+(?:smaller|larger|less|more)\b)))?"
)
"""A number and its unit: "25.77 GB", "0.065%", "1536×", or the unit in square brackets as
an engineer writes it ("25.77 [GB]", MATLAB's and SI habit)."""
_UNIT_START = re.compile(r"^\s*(?:\$\s*)?((?:" + UNIT_WORDS + r")\b|%)")
_BOLD_SPANS = re.compile(r"\*\*(.+?)\*\*|__(.+?)__|\\textbf\{([^{}]*)\}|\\mathbf\{([^{}]*)\}"
                         r"|(?<![=!<>])==(?=\S)([^=]+?)(?<=\S)==(?!=)")
"""Emphasis a student puts on the answer: bold, and the highlight of HackMD and Obsidian
(``==0.750==``; never ``a == b``)."""
_BOXED_SPANS = re.compile(r"\\(?:boxed|fbox)\{((?:[^{}]|\{[^{}]*\})*)\}|\[\[(.+?)\]\]")
_KEYWORDS = re.compile(
    r"\b(total|therefore|thus|hence|answer|result|gives|overall|altogether|so|i\.e\.|that is"
    r"|which is|equals|comes to|amounts to|works out (?:to|at)|(?:we|i)(?: can| could| would)? get|obtain(?:s|ed)?"
    r"|(?:model|network|classifier)s? (?:then )?(?:has|have)"
    r"|soit|donc|c'est-à-dire|d'où|es decir|o sea|ou seja|cioè|quindi|dus|d\.\s?h\.)"
    r"(?!\w)", re.I
)
"""The words a student concludes a value with ("so", "i.e.", "that is"), in the languages
they write in too: French "soit", "donc", "c'est-à-dire"; Spanish "es decir", "o sea";
Portuguese "ou seja"; Italian "cioè", "quindi"; Dutch "dus"; German "d. h."."""
_OPERATOR_AFTER = re.compile(
    r"^\s*[*}]*\s*(?:-(?!>)|[+×/^·÷²³⁴⁵⁶⁷⁸⁹]|\*(?=\s*[\w(\\.])|\\times|\\cdot|\\div|\\frac)"
)  # "->" after a value is an arrow to a remark ("0.0651 %   -> LoRA's memory is tiny");
# a "*" multiplies only what follows it ("512*4"): at a line's end it closes the emphasis
# WhatsApp and Markdown write with one ("*Total = 22,829,056*")
# "(" after a value multiplies it ("48 (16384^2)"), unless the value has a unit or a
# remark opens the parenthesis ("25.77GB (just for one layer)", "0.75 (i.e. 75 %)", in
# any script: "22,829,056 (총 약 2283만 개)")
_PAREN_AFTER = re.compile(
    r"^\s*[*}]*\s*\((?!\s*(?:[A-Za-z]{2,}|[^\W\dA-Za-z_]|[A-Za-z]\.|\d{1,2}(?:\.\d{1,2})?\s*\)\s*$))")
# (an equation's number closing its line, "= 0.7500 (3.2)", multiplies nothing)
# "=" or an arrow a student types for "gives" ("9,437,184 * 8B -> 75.49MB", "⇒ 24 GB")
_EQ_BEFORE = re.compile(
    rf"(?:(?<![=<>!])=|{ARROW})\s*(?:\*|\\textbf\{{|\\mathbf\{{|\\boxed\{{|\{{|\s)*$")
_APPROX_BEFORE = re.compile(
    r"(?:≈|\\approx|~|\\sim|\b(?:about|approximately|approx\.?|roughly|around|nearly))"
    r"\s*(?:\*|\\textbf\{|\\mathbf\{|\\boxed\{|\{|\s)*$",
    re.I,
)
_CHAIN_AFTER = re.compile(r"(?<![<>!])(?:=(?!>)|≈|\\approx)")
# on an "Answer:" line that lists several ("p(mat) ≈ 0.7500, cross-entropy loss ≈ 0.2876"),
# the "≈" after the next label is that item's, not a chain the first value runs on into
# or in a parenthesis after it ("**0.065 %** of the FFN's states (≈ 116 GB)")
_NEXT_ITEM = re.compile(rf"(?<!\d)[{LIST_COMMAS}]\s*(?=[^\d\s=≈])|\s(?:and|while|with)\s|\s\(", re.I)
# "the trainable parameters are 9,437,184." states a result; "2rH = 98,304 parameters"
# before it in the same paragraph is working
_IS_BEFORE = re.compile(r"\b(?:is|are|was|were|becomes?|come\s+to)\s*(?:\*|\{|\s)*$", re.I)
_SENTENCE_CLOSES = re.compile(r"^[\s*}]*(?:[A-Za-z]+[\s*}]*){0,3}(?:[.!](?:\s|$)|$)")
_SENTENCE_END = re.compile(r"(?<!i\.e)(?<!e\.g)[.;:]\s")

_WINDOW = 300
"""Characters either side of a number that decide how conclusive it is (bounded: linear time)."""
_FORMULA_LINE = 1000
"""Longer lines are prose or pasted data: no formula is looked for in them."""
_FORMULA_LINES = 200
"""Formulas are looked for in a section's last 200 lines only (an answer is at its end)."""
MAX_CANDIDATES = 500
"""Numbers read per section, from its end (a real section holds a few dozen)."""

TIER_FINAL, TIER_BOLD, TIER_CONCLUSIVE, TIER_NUMBER, TIER_ASIDE = 4, 3, 2, 1, 0


@dataclass(frozen=True)
class Candidate:
    text: str
    line: int
    why: str  # "boxed", "answer line", "answer cell", "bold", "after =", "formula", "number", ...
    conclusive: bool
    parsed: ParsedAnswer | None = field(default=None, repr=False, compare=False)
    tier: int = TIER_NUMBER
    column: int = 0
    end: int = 0
    line_text: str = field(default="", repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "line": self.line, "why": self.why,
                "conclusive": self.conclusive}


@dataclass(frozen=True)
class Source:
    """One line of a section as the candidates see it."""

    number: int
    text: str  # the part of the line that may hold the answer (after a label)
    table: bool = False
    """A table row that answers (labelled, the part's own row, or under an "Answer" header);
    the rows of a table of working are plain lines."""
    next_text: str = ""  # the following line (a unit may have been wrapped onto it)
    answer_cell: int | None = None
    """For a table row: which ``|``-separated piece of ``text`` is the answer column."""
    value_cell: int | None = None
    """For a row of a table of working ("Step | Expression | Value") other than its last:
    which piece is the step's value (conclusive, as a value after its working is)."""
    code: bool = False
    """A line of a code block: its expressions ("bytes <- h * S^2 * 2") are a program's,
    never the formula a student gives as the answer; its printed numbers may be."""
    answer: bool = False
    """Marked as the answer by where it stands (under a "### Answer" heading): an answer line."""


_OPERATORS = ("-", "+", "×", "/", "^", "·", "÷", "\\times", "\\cdot")
"""What makes the value after it an operand ("48 × 16384")."""


@dataclass
class _Row:
    """One source line as the picker reads it: its cleaned text and what marks values in it."""

    src: Source
    text: str
    bold: list[tuple[int, int]]
    boxed: list[tuple[int, int]]
    answer_line: bool
    cells: tuple[int, int] | None
    values: tuple[int, int] | None
    formulas: list[tuple[int, int, ParsedAnswer, bool]]
    compared: list[tuple[int, int]]
    carried: str | None = None  # the previous line's last sentence, read once if needed

    def boxes(self, start: int, end: int) -> bool:
        return any(bs <= start and end <= be for bs, be in self.boxed)

    def in_bold(self, start: int, end: int) -> bool:
        return any(bs <= start and end <= be for bs, be in self.bold)


def candidates(sources: Sequence[Source], symbols: Mapping[str, Any] | None = None) -> list[Candidate]:
    """Every number (and formula in ``symbols``) of the lines, with how conclusive it is."""
    out: list[Candidate] = []
    names = symbol_names(symbols)
    formula_from = len(sources) - _FORMULA_LINES
    for index in range(len(sources) - 1, -1, -1):  # from the end: the answer is there
        if len(out) >= MAX_CANDIDATES:
            break  # a section of thousands of numbers: only its end is read (linear time)
        src = sources[index]
        text = clean(src.text)
        if _bare_marker(text):
            continue  # "2)" left before "(II) Adam …" when its line was split at the part
        formulas = (formulas_in_line(text, symbols or {}, names)
                    if len(text) <= _FORMULA_LINE and index >= formula_from and not src.code
                    else [])
        matches = list(_CANDIDATE.finditer(text))[-MAX_CANDIDATES:]
        named = [m.span(2) for m in QUESTION_LABEL.finditer(text)]  # "So Question 1: …"
        named += sub_part_numbers(text)  # "part e, subpart 1: …"
        if (numbered := environment_number(text)) is not None:
            named.append(numbered)  # "**Answer 3.4.** …": the environment's number
        matches = [m for m in matches if not any(s <= m.start() < e for s, e in named)]
        spelled = spelled_out(text)
        # a heading that is a value alone ("## 9,437,184 params", a poster's result set
        # large) marks it as bold does; one stating values ("#### Key numbers: h = 48")
        # keeps its relations' tiers
        large = [(0, len(text))] if value_alone(heading_text(text) or "") else []
        row = _Row(src, text, [m.span() for m in _BOLD_SPANS.finditer(text)] + large,
                   [m.span() for m in _BOXED_SPANS.finditer(text)],
                   # code that names a column "Svar" ("Svar": ["0.7500", …]) states nothing
                   src.answer or not src.code and (bool(ANSWER_LINE.match(text))
                                                   or _answer_row(text)),
                   _answer_cell(text, src.answer_cell) if src.table else None,
                   _answer_cell(text, src.value_cell) if src.value_cell is not None else None,
                   formulas,
                   comparison_spans(text, sorted([m.span() for m in matches] + spelled
                                                 + [(fs, fe) for fs, fe, _, _ in formulas]),
                                    cells=src.table))
        out.extend(_formula_candidates(row))
        out.extend(_spelled_candidates(row, spelled, symbols))
        out.extend(_number_candidates(row, matches, sources, index, symbols, names))
    out.sort(key=lambda c: (c.line, c.column))
    return _run_on_asides(_marked_cells(out), _bracketed_passages(sources))


def _marked_cells(found: list[Candidate]) -> list[Candidate]:
    """An answer column whose steps each give a value and whose last says which is the
    answer ("| scores | 16384 x 16384 | 268435456 scores |" … "| GB | … | Ans = 0.54 GB |",
    a table typed with tabs in Notepad): the cells the answer word marks are the answers,
    the others steps of them."""
    def marked(c: Candidate) -> bool:
        head = c.line_text[c.line_text.rfind("|", 0, c.column) + 1:c.column].strip(" *_")
        said = ANSWER_WORDS.match(head)
        return said is not None and not head[said.end():].strip(" =:*_")

    cells = [c for c in found if c.why == "answer cell"]
    if not any(marked(c) for c in cells) or all(marked(c) for c in cells):
        return found
    return [Candidate(c.text, c.line, "value cell", True, c.parsed, TIER_CONCLUSIVE, c.column,
                      c.end, c.line_text) if c.why == "answer cell" and not marked(c) else c
            for c in found]


def _bare_marker(text: str) -> bool:
    """Whether a line is a list item's marker alone ("2)", "3.", "(4)"), or a slide's or a
    page's number alone ("2", "Slide 8", "Page 3 of 9", "Folie 8": a deck's handouts
    printed, speaker notes exported as text), no value."""
    body = text.strip(" *_\t")
    inner = body.lstrip("(").rstrip(").")
    if body != inner and len(inner) <= 2 and inner.isdecimal() and body[-1:] in ").":
        return True
    if body.isdecimal() and len(body) <= 2:
        return True  # "2" alone between a slide's last bullet and the next title: its number
    words = body.lower().replace(" of ", " ").split()
    return 2 <= len(words) <= 3 and words[0] in PAGE_WORDS and all(w.isdecimal() for w in words[1:])


EDIT_WORDS = ("edit", "update", "upd", "ps", "p.s.", "addendum", "correction")
"""The words a post's later edits are numbered after ("EDIT 2:", "Update 1:")."""
PAGE_WORDS = ("slide", "page", "folie", "diapositiva", "diapositive", "seite", "página", "pagina")
"""The words a slide's or page's number stands after on a line of its own."""


PASSAGE_LINES = 8
"""The most lines a bracketed passage ("(head bias not counted. … / … = 968,000)") runs."""


def _bracketed_passages(sources: Sequence[Source]) -> dict[int, int]:
    """Line -> the line its bracketed passage opens on, for each line of a passage that
    opens a line with "(" and closes lines later: a remark or working written under a
    value in brackets, over several lines. A blank line ends it unclosed."""
    out: dict[int, int] = {}
    opening, depth = None, 0
    for src in sources:
        text = clean(src.text)
        if opening is not None:
            if not text.strip() or src.number - opening >= PASSAGE_LINES:
                opening, depth = None, 0
            else:
                out[src.number] = opening
                depth += text.count("(") - text.count(")")
                if depth <= 0:
                    opening, depth = None, 0
                continue
        body = text.lstrip(" *_")
        if body.startswith("(") and body.count("(") > body.count(")"):
            opening, depth = src.number, body.count("(") - body.count(")")
            out[src.number] = opening
    return out


ENVIRONMENTS = ("answer", "solution", "theorem", "lemma", "proposition", "corollary",
                "definition", "remark", "example", "exercise", "problem", "claim", "proof")
"""The numbered environments of LaTeX's amsthm ("**Answer 3.4.** The FFN holds …"):
their number names the environment, it is no value."""


def environment_number(text: str) -> tuple[int, int] | None:
    """Where the number of a numbered environment that opens ``text`` stands ("Answer
    3.4.", "**Remark 3.8.**", "Theorem 2."): a word of ``ENVIRONMENTS``, a number of dotted
    parts, and a full stop closing it; None when the line opens otherwise ("Answer: 3.4 GB",
    "Answer 3.4 GB")."""
    i = 0
    while i < len(text) and text[i] in " *_#>":
        i += 1
    end = i
    while end < len(text) and text[end].isalpha():
        end += 1
    if text[i:end].lower() not in ENVIRONMENTS or text[end:end + 1] != " ":
        return None
    start = stop = end + 1
    while stop < len(text) and (text[stop].isdigit() or text[stop] == "."):
        stop += 1
    number = text[start:stop]
    if not number[:1].isdigit() or not number.endswith(".") or ".." in number:
        return None
    after = text[stop:stop + 1]
    return (start, stop - 1) if after in ("", " ", "*", "_") else None


def environment_answer(text: str) -> bool:
    """Whether ``text`` opens a numbered Answer or Solution environment ("**Answer 3.3.**
    (Q3 (c)) … take 25.77 GB."): it states the answer, its Proof after it the working."""
    if environment_number(text) is None:
        return False
    return text.lstrip(" *_#>").lower().startswith(("answer", "solution"))


def _answer_row(text: str) -> bool:
    """A table row whose first cell is "Answer" ("| **Answer** | 1/1536 of the FFN memory |"):
    a table of Given / Working / Answer rows answers in that row, as "Answer:" does."""
    if not is_table_row(text):
        return False
    first = text.strip().strip("|").split("|", 1)[0]
    return first.strip(" *_:").lower() in ANSWER_HEADINGS


def _spelled_candidates(row: _Row, spans: Sequence[tuple[int, int]],
                        symbols: Mapping[str, Any] | None) -> list[Candidate]:
    """The numbers written in words of a line: an answer line's are its answer, a bold
    one is marked; in prose they are numbers like any other."""
    out = []
    for s, e in spans:
        parsed = parse_answer(row.text[s:e], symbols)
        if not parsed.ok:
            continue
        tier, why = (TIER_FINAL, "answer line") if row.answer_line else \
            (TIER_BOLD, "bold") if row.in_bold(s, e) else (TIER_NUMBER, "number")
        if not row.boxes(s, e) and inside(row.compared, s, e):
            tier, why = TIER_ASIDE, "in a comparison"
        out.append(Candidate(row.text[s:e], row.src.number, why, tier > TIER_NUMBER, parsed,
                             tier, s, e, row.text))
    return out


def _share(written: str, after: str) -> bool:
    """A percentage an answer line states as a share ("0.065 % of the FFN's Adam memory"):
    the share is the answer, what it is a share of the aside."""
    return written.rstrip().endswith(("%", "percent")) and \
        after.lstrip(" *_}$")[:3].lower() == "of "


def _run_on_asides(found: list[Candidate], passages: Mapping[int, int]) -> list[Candidate]:
    """An answer line wrapped over two lines ("… only 0.065 % of the memory the FFN would
    need" / "(about 116 GB), i.e. roughly 1500× less."): a value in a parenthesis the next
    line opens is an aside of the answer before it, as it is on one line."""
    def outside(c: Candidate) -> bool:
        head = c.line_text[:c.column]
        return head.count("(") <= head.count(")")

    def working(c: Candidate) -> bool:
        """A result inside brackets after the operands that make it ("(10,000,200 +
        968,000 + 200 × 50001 + 50001 = 10,050,201)"): the working of the value above."""
        head = c.line_text[:c.column].lstrip(" *_")
        return head.startswith("(") and not outside(c) and any(op in head for op in "+×*/−")

    answered = {c.line for c in found if c.why in ("answer line", "answer cell") and outside(c)}
    # "1 Language modeling task = 21,018,401" / "(10,000,200 + … = 10,050,201)": a line
    # of working in brackets under a settled value is that value's working
    settled = {c.line for c in found if c.tier >= TIER_CONCLUSIVE and outside(c)}
    def in_passage(c: Candidate) -> bool:
        """Inside a bracketed passage over lines that opens under a settled value."""
        opening = passages.get(c.line)
        return opening is not None and opening - 1 in settled and (
            c.line != opening or not outside(c))

    out = []
    for c in found:
        if c.tier >= TIER_CONCLUSIVE and in_passage(c) or c.line not in answered \
                and c.line_text[:c.column].lstrip(" *_").startswith("(") \
                and ((c.why == "answer line" or c.tier >= TIER_CONCLUSIVE and not outside(c))
                     and c.line - 1 in answered
                     or c.tier >= TIER_CONCLUSIVE and c.line - 1 in settled
                     and c.line not in settled and working(c)):
            c = Candidate(c.text, c.line, "in parentheses", False, c.parsed, TIER_ASIDE,
                          c.column, c.end, c.line_text)
        out.append(c)
    return out


def _formula_candidates(row: _Row) -> list[Candidate]:
    out = []
    for fs, fe, parsed, chain_end in row.formulas:
        if _date(row.text[fs:fe]):
            continue  # "打印于 2026/11/20": a date, no ratio
        tier = TIER_FINAL if row.answer_line or row.boxes(fs, fe) \
            else TIER_BOLD if any(bs <= fs < be for bs, be in row.bold) \
            else TIER_CONCLUSIVE
        why = "answer line" if row.answer_line else "formula"
        if not (chain_end or row.answer_line or tier == TIER_BOLD):
            tier = TIER_NUMBER  # a formula with more after it: working
        if inside(row.compared, fs, fe) and not row.boxes(fs, fe):
            tier, why = TIER_ASIDE, "in a comparison"  # "roughly 2/3 of a 20B model"
        shown = " ".join(row.text[fs:fe].replace("**", " ").split())
        out.append(Candidate(shown, row.src.number, why, tier > TIER_NUMBER, parsed, tier,
                             fs, fe, row.text))
    return out


def _skipped(m: re.Match[str], row: _Row, before: str, after: str) -> bool:
    """A number that is no value: a formula's coefficient, a tag, a citation, an equation
    number, a list marker."""
    s, e = m.span()
    if any(fs <= s and e <= fe for fs, fe, _, _ in row.formulas):
        return True  # a coefficient of a formula
    if before.rstrip().endswith(("\\tag{", "[")) or after.lstrip().startswith("]"):
        return True  # \tag{1}, citations [4]
    if before.rstrip().endswith("(") and after.lstrip().startswith(")") and (
            len(m.group(0)) <= 2 or not after.lstrip()[1:].strip() and len(m.group(0)) <= 5
            and m.group(0).replace(".", "", 1).isdigit()):
        return True  # equation number "(5)", or "(3.2)" closing its line (LaTeX's numbering)
    if before.strip(" *_").lower() in EDIT_WORDS and after.lstrip(" *_")[:1] in (":", ")"):
        return True  # "**EDIT 2:** someone in the comments says …": the edit's number
    if _date(m.group(0)) or _calendar(m.group(0), before, after):
        return True  # "打印于 2026/11/20", a print stamp's date; "Last updated on 27 Nov 2025"
    # a list marker "1. "
    return s <= _WINDOW and not before.strip(" *") and after[:1] in ".)" and after[1:2].isspace()


MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
          "dec", "january", "february", "march", "april", "june", "july", "august",
          "september", "october", "november", "december")


def _calendar(written: str, before: str, after: str) -> bool:
    """Whether a number is a day or a year of a date written with its month's name, or the
    year of a copyright line: a page's footer ("Last updated on **27 Nov 2025**",
    "Copyright © 2025", "Posted Nov 3, 2025") dates the page and answers nothing."""
    number = written.strip(" *_")
    if not number.isdecimal():
        return False
    words = before.replace("*", " ").replace(",", " ").lower().split()
    after_words = after.replace("*", " ").replace(",", " ").lower().split()
    if len(number) == 4 and number[:2] in ("19", "20"):
        return bool(words) and (words[-1].rstrip(".") in MONTHS or words[-1] in ("©", "(c)")
                                or len(words) > 1 and words[-2].rstrip(".") in MONTHS)
    return len(number) <= 2 and bool(after_words) and after_words[0].rstrip(".") in MONTHS \
        and (len(after_words) > 1 and after_words[1][:4].isdecimal())


def _date(written: str) -> bool:
    """Whether a token is a calendar date written year first ("2026/11/20", "2026-11-20"):
    a ratio of three numbers or a difference nobody computes."""
    for sep in "/-.":
        parts = written.strip().split(sep)
        if len(parts) == 3 and all(p.isdecimal() for p in parts) and len(parts[0]) == 4 \
                and parts[0][:2] in ("19", "20") and 1 <= len(parts[1]) <= 2 \
                and 1 <= len(parts[2]) <= 2 and 1 <= int(parts[1]) <= 12 \
                and 1 <= int(parts[2]) <= 31:
            return True
    return False


def _written(m: re.Match[str], after: str, next_text: str) -> str:
    """The value as written, its unit wrapped onto the next line or a CJK magnitude after it."""
    exponent_braces = re.sub(r"\^\s*\{([-−]?\d+)\}", r"^\1", m.group(0))  # 10^{9}
    written = " ".join(re.sub(r"(?<=\S)[*}]+", " ", exponent_braces).split())
    if written.endswith("]") and "[" in written:
        written = written.replace("[", "").removesuffix("]")  # "25.77 [GB]": its unit
    if (power := magnitude_after(after)) is not None:
        written = f"{written} × 10^{power}"  # "（约 145 亿）": 145 × 10^8, as meant
    if not after.strip(" *.") and not _unit_last(written):
        unit_next = _UNIT_START.match(clean(next_text))
        if unit_next:
            written = f"{written} {unit_next.group(1)}"
    return written


def _sentence(row: _Row, before: str, sources: Sequence[Source], index: int) -> str:
    """The sentence a value stands in, up to it; wrapped from the line before when it starts
    there ("..., so the" / "probability is 0.750")."""
    pieces = _SENTENCE_END.split(before)
    if len(pieces) > 1 or index == 0 or row.src.table:
        return pieces[-1]
    if row.carried is None:
        row.carried = _SENTENCE_END.split(_carried(sources[index - 1]) + " ")[-1]
    return row.carried + pieces[-1]


def _tier(row: _Row, m: re.Match[str], before: str, after: str, written: str,
          sentence: str, names: Sequence[str]) -> tuple[int, str]:
    """How conclusive a value is (``TIER_*``) and why, before asides are considered."""
    s = m.start()
    ns, ne = m.span(1)  # the number itself: its unit may sit outside the bold
    after = _own_item(after)
    # an operator after it, or after the remark in brackets that names it ("10 000 200
    # (embedding) + 4 × 242 000 …"): a term of working
    operand = bool(_OPERATOR_AFTER.match(_past_remark(after))) or bool(
        _PAREN_AFTER.match(after) and not _unit_last(written)
        and not (row.answer_line and _working_in_brackets(after))) or bool(
        before.rstrip(" \t\n*{(").endswith(_OPERATORS))
    chain_continues = bool(_CHAIN_AFTER.search(_this_sentence(
        _NEXT_ITEM.split(after, 1)[0] if row.answer_line else _past_remark(after))))
    settled = not operand and not chain_continues
    keyword = _KEYWORDS.search(sentence)
    if defines(before, names):
        return TIER_NUMBER, "number"  # "with L = 48 and H = 6144": the question's data
    if row.boxes(ns, ne):
        return TIER_FINAL, "boxed"
    if row.cells is not None and row.cells[0] <= s < row.cells[1] and (
            row.in_bold(ns, ne) or not any(row.cells[0] <= bs < row.cells[1]
                                           for bs, _ in row.bold)):
        # a cell holding its working and a bold final ("... = 25,769,803,776 bytes / 2^30
        # **Final: 24 GB**", a Google Doc's table a question): the bold value is the cell's
        return TIER_FINAL, "answer cell"
    if (row.answer_line or _answer_said(before)) and settled:
        return TIER_FINAL, "answer line"
    if row.in_bold(ns, ne):
        return TIER_BOLD, "bold"
    if row.values is not None and row.values[0] <= s < row.values[1]:
        return TIER_CONCLUSIVE, "value cell"  # "| Probability | e^3 / 26.779 | 0.750 |"
    if _EQ_BEFORE.search(before) and settled and not row.src.code:  # code assigns data
        return TIER_CONCLUSIVE, "after ="
    if _APPROX_BEFORE.search(before) and settled:
        return TIER_CONCLUSIVE, "after ≈"
    if keyword and settled:
        return TIER_CONCLUSIVE, f"after '{keyword.group(1).lower()}'"
    datum = written.strip().isdigit() and len(written.strip()) <= 3
    if settled and not datum and _named_result(before):
        # "Speicherbedarf: 24,0 GB" under the working; "Heads: 48", a datum, stays a number
        return TIER_CONCLUSIVE, "after a name"
    if _IS_BEFORE.search(before) and _SENTENCE_CLOSES.match(after) and not operand:
        return TIER_CONCLUSIVE, "ends a sentence"  # "... by LoRA are 9,437,184."
    return TIER_NUMBER, "number"


def _answer_said(before: str) -> bool:
    """Whether the sentence or cell a value opens says it is the answer: "…= 98,304 .
    Answer: 9,437,184 trainable parameters.", "… × 2 bytes. **Ans:** 25.77 GB", "| ratio |
    … | Ans = 0.065% |", "Ans = 14.5 billion" (the answer word, its colon or "=" right
    before the value: the first value it announces, not the working after it)."""
    stop = max(before.rfind(". "), before.rfind("; "), before.rfind("| "))
    piece = (before[stop + 2:] if stop >= 0 else before).strip(" *_\t")
    said = ANSWER_WORDS.match(piece)  # "Answer:", "Ans:", "Final answer:", a cell's "Ans ="
    return said is not None and (":" in piece or "=" in piece) \
        and not piece[said.end():].strip(" *_:=") and not has_digit(piece)


def _this_sentence(after: str) -> str:
    """What follows a value up to the end of its sentence: "= 0.7500. The cross-entropy
    loss is then −ln(0.7500) = 0.2877" ends the chain at the full stop; the next
    sentence's "=" is its own working."""
    end = _SENTENCE_END.search(after)
    stop = end is not None and after[end.start()] == "." \
        and not after[end.end():end.end() + 1].isdigit()  # "=1. 1.1052": no sentence's end
    return after[:end.start()] if stop and end is not None else after


ITEM_DOTS = (" · ", " • ", " ∙ ")
"""A spaced dot between a line's items ("p(mat) = 0.75 · loss = 0.2876", a slide's
callout): no product, which is written unspaced ("8·6144") or between symbols."""


def _own_item(after: str) -> str:
    """What follows a value up to the next item of its line: a spaced dot then a name
    and its "=" ("· loss = 0.2876") starts another item, which neither multiplies the
    value nor continues its chain of working."""
    for dot in ITEM_DOTS:
        at = after.find(dot)
        if at < 0:
            continue
        rest = after[at + len(dot):].lstrip()
        name = rest[:min((k for k in (rest.find(r) for r in "=≈:") if k >= 0), default=0)]
        if name.strip() and name.strip()[0].isalpha() and len(name) <= 30 \
                and not any(ch.isdigit() for ch in name):
            return after[:at]
    return after


def _working_in_brackets(after: str) -> bool:
    """Whether the brackets right after a value hold working with its own "=" ("10,963,800
    (10,000,200 + 963,200 + 200 x 2 = 400)" on an answer line): the value's working, not a
    factor it multiplies ("48 (8H^2 + 5H) = …", whose "=" is outside them)."""
    rest = _past_remark(after)
    inner = after.lstrip(" *}")[:len(after.lstrip(" *}")) - len(rest)]
    return any(r in inner for r in "=≈")


def _past_remark(after: str) -> str:
    """What follows a value past the remark in parentheses right after it: "25.77 GB (1 GB
    = 10^9 bytes)" names the unit it is in, and the "=" inside continues no chain of
    working; "12,884,901,888 (all heads) = 25,769,803,776 bytes" goes on after it."""
    s = after.lstrip(" *}")
    if not s.startswith("("):
        return after
    depth = 0
    for k, ch in enumerate(s):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return s[k + 1:]
    return ""  # the remark runs past the line (or the window): nothing after it here


def _named_result(before: str) -> bool:
    """Whether a value opens a line after a short name and a colon only ("Memory: 24 GB",
    "Verhältnis: 0,0651 %"): a result named, as a key names its value, not working."""
    head = before.strip(" \t*_>-")
    name = head[:-1].strip(" *_")
    return (head.endswith(":") and 0 < len(name) <= 40 and not has_digit(name)
            and not any(ch in name for ch in "=≈:|"))


def _completes(sources: Sequence[Source], index: int, before: str, after: str) -> bool:
    """Whether a value alone on its line is the result of the product or sum on the line
    above, with no "=" between them ("98,304 × 2 × 48" / "9,437,184": a boxed result under
    display mathematics, the "=" left to the eye)."""
    if index == 0 or before.strip(" *_$") or after.strip(" *_$.") or sources[index].code:
        return False
    above = sources[index - 1]
    tail = clean(above.text).rstrip(" *_$.")
    last = tail.rsplit("=", 1)[-1].rsplit("≈", 1)[-1]
    return (not above.code and not above.table and tail[-1:].isdigit()
            and (any(op in last for op in "×*·+/÷") or " x " in last) and has_digit(last))


def _defined_aside(c: Candidate) -> bool:
    """Whether a value in brackets is what a name in them is set to ("→ 25,77 GB (fp16 = 2
    Byte!)", "(1 GB = 10^9 B)"): a datum of the working. "(about 15 billion)" and "(= 24
    GiB)" restate the answer instead."""
    inner = c.line_text[c.line_text.rfind("(", 0, c.column) + 1:c.column].rstrip()
    return inner.endswith("=") and any(ch.isalpha() for ch in inner)


def _number_candidates(row: _Row, matches: Sequence[re.Match[str]], sources: Sequence[Source],
                       index: int, symbols: Mapping[str, Any] | None,
                       names: Sequence[str]) -> list[Candidate]:
    """The numbers of one line, each with its tier; an answer line's values in parentheses
    are asides when the line gives one outside them."""
    out: list[Candidate] = []
    line_asides: list[int] = []  # answer-line values inside "( ... )"
    line_answers = 0  # and outside
    keyword_asides: list[int] = []  # values after a keyword ("Result:") inside "( ... )"
    keyword_values: list[int] = []  # and outside
    restated: list[int] = []  # conclusive values inside "( ... )"
    settled_outside: list[int] = []  # and conclusive ones outside
    text = row.text
    for m in matches:
        s, e = m.span()
        before, after = text[max(0, s - _WINDOW):s], text[e:e + _WINDOW]
        if _skipped(m, row, before, after):
            continue
        written = _written(m, after, row.src.next_text)
        tier, why = _tier(row, m, before, after, written,
                          _sentence(row, before, sources, index), names)
        ns, ne = m.span(1)
        if tier == TIER_NUMBER and _completes(sources, index, before, after):
            tier, why = TIER_CONCLUSIVE, "result of the line above"
        if tier > TIER_NUMBER and _datum(written, after, symbols):
            tier, why = TIER_NUMBER, "the question's datum"  # "all 48 layers have ..."
        in_parens = before.count("(") - before.count("^(") > before.count(")")
        if tier == TIER_NUMBER and in_parens:
            tier, why = TIER_ASIDE, "in parentheses"  # "(75.5 MB against 115.98 GB)"
        elif not row.boxes(ns, ne) and inside(row.compared, ns, ne) \
                and not (why == "answer line" and _share(written, after)):
            tier, why = TIER_ASIDE, "in a comparison"  # "25.77 GB, i.e. 3 times the 8 GB"
        if why in ("answer line", "answer cell") and in_parens:
            line_asides.append(len(out))  # an aside of the answer, if it has one outside
        elif row.answer_line and why in ("answer line", "bold") or why == "answer cell":
            line_answers += 1  # ("| memory | 24.0 GB (divided by 1024^3) |": a cell's too)
        elif why.startswith("after '"):
            # "**Result:** 25.77 GB for one layer (all 48 heads)": the keyword's value is
            # the one outside the parentheses, the count inside them a remark on it
            (keyword_asides if in_parens else keyword_values).append(len(out))
        out.append(Candidate(written, row.src.number, why, tier > TIER_NUMBER,
                             parse_answer(written, symbols), tier, s, e, text))
        if in_parens and tier == TIER_CONCLUSIVE:
            restated.append(len(out) - 1)
        elif tier >= TIER_CONCLUSIVE:
            settled_outside.append(len(out) - 1)
    for k in restated:
        # "= 14,495,514,624 (about 14.5 billion)": the rounding in parentheses restates the
        # value before it, which is the answer as written; "→ 25,77 GB (fp16 = 2 Byte!)"
        # sets a datum of its working
        if any(j < k and (same(out[j], out[k]) or _defined_aside(out[k]))
               for j in settled_outside):
            c = out[k]
            out[k] = Candidate(c.text, c.line, "in parentheses", False, c.parsed, TIER_ASIDE,
                               c.column, c.end, c.line_text)
    if not keyword_values:
        keyword_asides = []
    if line_answers or keyword_asides:
        # "Answer: **0.065 %** of the FFN's states (≈ 116 GB)": the size in parentheses is
        # what the answer is a share of, not a second answer
        for k in (line_asides if line_answers else []) + keyword_asides:
            c = out[k]
            out[k] = Candidate(c.text, c.line, "in parentheses", False, c.parsed, TIER_ASIDE,
                               c.column, c.end, c.line_text)
    return out


def _datum(written: str, after: str, symbols: Mapping[str, Any] | None) -> bool:
    """Whether a bare integer is one of the question's givens, counting the thing the word
    after it names ("the FFN sub-layers of all 48 layers have 14.4955 billion", "48
    heads"): context in the answer's sentence, not a second answer."""
    if not symbols or not written.strip().isdigit():
        return False
    word = after.lstrip(" *_").split(" ", 1)[0].strip(".,;:)")
    given = {str(v) for v in symbols.values() if isinstance(v, int)}
    return written.strip() in given and word.isalpha() and word.islower() and len(word) > 2


def _unit_last(written: str) -> bool:
    """Whether a value as written ends with a unit's letter or ``%`` ("25.77 GB", "6 %")."""
    last = written.rstrip()[-1:]
    return last.isascii() and (last.isalpha() or last == "%")


def _carried(src: Source) -> str:
    """The end of a line a sentence may run on from (none from a table row or heading)."""
    if src.table or "|" in src.text or src.text.lstrip().startswith("#"):
        return ". "
    return clean(src.text[-_WINDOW:])


def _answer_cell(row: str, index: int | None) -> tuple[int, int] | None:
    """Span of a table row's answer cell: the column its header names "Answer", else the
    first cell that holds one value and nothing else, else the last cell with a digit."""
    bars = [i for i, ch in enumerate(row) if ch == "|"]
    spans = list(zip([-1, *bars], [*bars, len(row)], strict=False))
    if index is not None and 0 <= index < len(spans):
        a, b = spans[index]
        return a + 1, b
    for a, b in spans[1:]:
        cell = row[a + 1:b].strip(" *")
        m = _CANDIDATE.fullmatch(cell)
        if m is not None:
            return a + 1, b
    for a, b in reversed(spans):
        if has_digit(row[a + 1:b]):
            return a + 1, b
    return None


def only_value(text: str, words: bool = False) -> bool:
    """Whether a line holds a value and nothing else ("**25.77 GB**", "≈ 14.5 billion",
    "= 0.7500"): set alone on a section's first line, it is the answer stated first.
    ``words``: words after it that change nothing count as nothing ("22,696,960 total")."""
    body = clean(text).strip(" \t*_$=≈~:.")
    if not body:
        return False
    if _CANDIDATE.fullmatch(body) is not None:
        return True
    m = _CANDIDATE.match(body) if words else None
    if m is None or not body[m.end():].replace(" ", "").isalpha():
        return False
    whole, alone = parse_answer(body), parse_answer(m.group())
    return whole.ok and alone.ok and whole.value is not None and whole.value == alone.value \
        and whole.unit == alone.unit


def _magnitude(c: Candidate) -> Rational | None:
    p = c.parsed
    if p is None or not p.ok or p.value is None:
        return None
    if p.is_memory and p.bytes is not None:
        return Rational(p.bytes)
    try:
        return Rational(p.value)
    except (TypeError, ValueError):
        return None


def same(a: Candidate, b: Candidate) -> bool:
    """Whether two candidates give the same answer (a rounding, or GB beside GiB of it)."""
    if a.parsed is not None and b.parsed is not None and a.parsed.is_memory != b.parsed.is_memory:
        return False
    x, y = _magnitude(a), _magnitude(b)
    if x is None or y is None:
        return True  # unreadable: not a competing value
    if x == y:
        return True
    size = max(abs(x), abs(y))
    return abs(x - y) <= Rational(5, 1000) * size
