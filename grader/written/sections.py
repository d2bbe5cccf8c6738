"""Where each question's answer is in a report: labels, and the sections they open.

Why labels and not phrases: students write the same sub-question as "Q3 (c)", "Q3(c)",
"Question 3 (c)", "3(c)", "3.3", "Part 3 – c)", "Q3.c", a "(c)" line under a "Question 3"
heading, or a table row "| Q3(e)(II) | ... |". A phrase search cannot see that "Q3 (d)"
ends "Q3 (c)" (both contain "Q3"), nor that "(II)" ends "(I)". So a heading (the pack's
``report`` key, with ``report_part``) is read into a ``Target`` (kind, number, letter,
roman numeral), every line of the report that starts with a label or a part marker is
read into the same form, and a section runs from the line that enters the target to the
first later labelled line that leaves it. Headings that name no label ("Language
modeling task") keep the phrase search of ``report.py``.

A part may be spelled out ("Question 3 – Part (c)", "Q3, part c", "Part (c) of Question 3")
and a numeral may share the letter's line ("e) i.", "(e)(i)", "e.i", "(e) i)"), in a heading
or a list. A part marker alone ("(c)", "(II)", "e-ii", "Part (c):") continues the label
above it; a letter that goes backwards ("a)" after "(c)") is a list inside the answer, not
a new part. Run-in parts in one paragraph ("(e) (I) ... (II) ...") are put on lines of their
own first (``split_run_in``), where the pack's parts say an inline marker is no prose
(``Parts``).

Layouts of the second held-out batch: a plain-text outline ("3." at the margin, then "(a)",
"(ii)" indented: ``_outline_mark``); a part heading with no question number ("## (c)
Memory") when the pack letters one question only; code blocks, whose printed numbers are no
headings (``_comment_mark``); a closing "Summary"/"Final answers" heading, or a table going
back over the parts (``_restates``), which ends the last part, its rows naming the parts of
the question it closed (a summary restates: ``report`` reads a row only where the body's
section holds no number); "Tasks 3 and 4", "Questions 3–4" (``_plural_at``), one path each.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from grader.written.vocabulary import (
    ABBREVIATION,
    ANSWER_WORDS,
    BOLD_LINE,
    END_WORDS,
    KINDS,
    LABEL_WORD,
    LATEX_HEADING,
    MD_HEADING,
    QUOTE_AND_BULLET,
    ROMAN,
    ROMAN_VALUES,
    TABLE_SEPARATOR,
    contents_lines,
    ends_sentence,
    has_digit,
    states_value,
    undecorated,
)

END = ("end", "", None, None)
"""The path of a "References"/"Appendix" heading: it ends every section."""

_WORD = (rf"(?P<word>{LABEL_WORD[3:-1]})\s*\.?\s*(?P<num>\d+)"
         r"(?!\d|,\d)")
_BARE = (rf"(?P<bare>\d+)(?=\s*\(\s*[a-hA-H]\s*\)|\s?(?-i:[a-h])(?:[-–.]{ROMAN})?\)"
         r"|(?-i:[a-h])[.:](?:\s|$)|\.\d{1,2}(?![\d.,]))")
"""A question number with no word before its letter: "3(c)", "3c)", "3e-ii)" (a phone's
shorthand), "3c.", "3.3"."""
_PART_WORD = r"(?:sub[\s-]?)?(?:part|question)"
"""A part spelled out: "Part (c)", "part c", "Sub-part (c)", "Subquestion c"."""
_LETTER = (
    rf"(?:\s*\(\s*(?P<l10>[a-h])\s*[.\-–,]\s*(?:(?P<r8>{ROMAN})|(?P<n5>10|[1-9]))\s*\)"
    r"|\s*:?\s*\(\s*(?P<l1>[a-h])\s*\)"
    r"|\s*[.\-–—]\s*\(?(?P<l2>(?-i:[a-h]))(?:\)|(?![a-z0-9]))"
    r"|\s*:?\s*(?P<l3>[a-h])\)"
    r"|(?P<l4>[a-h])(?![a-z0-9])"
    rf"|\s*(?:[,:.\-–—·(]\s*)?{_PART_WORD}\s*\.?\s*"
    r"(?:\(\s*(?P<l5>[a-h])\s*\)|(?P<l6>[a-h])(?:\)|(?![a-z0-9])))"
    rf"|\s+(?P<l7>(?-i:[a-h]))(?=\s*[-–—.]\s*(?:{ROMAN}(?![a-z0-9])|(?:10|[1-9])(?![\d.,])))"
    r"|\.(?P<sub>\d{1,2})(?![\d.,]))"
)
_LETTER_NAMES = ("l1", "l2", "l3", "l4", "l5", "l6", "l7", "l10", "l11")


def _roman_part(tag: str = "") -> str:
    """A numeral after a letter: "(ii)", "-ii", ".ii", " ii)", " ii." (``tag`` keeps names apart)."""
    return (rf"(?:\s*\(\s*(?P<r1{tag}>{ROMAN})\s*\)"
            rf"|\s*[-–—]\s*(?P<r2{tag}>{ROMAN})(?![a-z0-9])"
            rf"|\.\s?(?P<r3{tag}>{ROMAN})(?![a-z0-9])"
            rf"|\s+(?P<r4{tag}>{ROMAN})\)"
            rf"|\s+(?P<r6{tag}>{ROMAN})\.(?=\s|$|\*)"
            rf"|\s*[-–—.,]\s*\(\s*(?P<r7{tag}>{ROMAN})\s*\)"
            rf"|\s+(?P<r10{tag}>{ROMAN}):(?=\s|$)"
            rf"|\s*\(\s*(?P<n1{tag}>10|[1-9])\s*\)|[.\-–](?P<n2{tag}>10|[1-9])(?![\d.,]))")


_ROMAN_PART = _roman_part()
_ROMAN_NAMES = ("r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10",
                "r1b", "r2b", "r3b", "r4b", "r6b", "r7b", "r10b")
_ARABIC_NAMES = ("n1", "n2", "n3", "n4", "n5", "n1b", "n2b")
"""A sub-part numbered after its letter ("(e)(2)", "e.2", "Q3 e-2"): read as the numeral."""
_NUMERALS = {v: k for k, v in ROMAN_VALUES.items()}


def _numeral(m: re.Match[str]) -> str | None:
    roman = _first(m, *_ROMAN_NAMES)
    if roman is None and (arabic := _first(m, *_ARABIC_NAMES)) is not None:
        roman = _NUMERALS[int(arabic)]
    return roman
_REVERSED = (
    rf"{_PART_WORD}\s*\.?\s*(?:\(\s*(?P<l8>[a-h])\s*\)|(?P<l9>[a-h])(?:\)|(?![a-z0-9])))"
    rf"(?:{_roman_part('b')})?"
    r"\s*(?:,|:|of|in|[-–—·])\s*(?P<word2>question|problem|exercise|q)\s*\.?\s*"
    r"(?P<num2>\d+)(?!\d|,\d)"
)
"""The part before its question: "Part (c) of Question 3", "part c, Q3"."""
_LABEL = re.compile(rf"(?:{_WORD}|{_BARE})(?:{_LETTER})?(?:{_ROMAN_PART})?|{_REVERSED}", re.I)
_MORE = re.compile(r"\s*(?:&|and|,|/)\s*(?:(?P<word>question|task|part|q)\s*)?(?P<num>\d+)\b",
                   re.I)
_PLURAL = re.compile(r"(?P<word>questions|problems|exercises|tasks|parts|qs)\s*\.?\s*(?P<num>\d+)\b"
                     r"(?:\s*(?:[-–—]|to|through)\s*(?P<last>\d+)\b)?", re.I)
"""A heading naming several tasks: "Tasks 3 and 4", "Questions 3–4" (the range is read only
after a plural word: "Q3-4" is part (iv) of Q3, "Task 3-4" a sub-task)."""
_RANGE = re.compile(r"\s*(?:[-–—]|to|through)\s*(?P<last>\d+)\b", re.I)
_MAX_RANGE = 12
_LETTER_ONLY = re.compile(
    rf"(?:\(\s*(?P<l11>[a-h])\s*[.\-–,]\s*(?:(?P<r9>{ROMAN})|(?P<n4>10|[1-9]))\s*\)"
    rf"|\(\s*(?P<l1>[a-h])\s*\)|(?P<l2>(?-i:[a-h]))[).](?=\s|$|\*|\])"
    rf"|(?P<l3>(?-i:[a-h]))\s*[-–.]\s*(?=(?-i:{ROMAN})\b|(?:10|[1-9])(?![\d.,]))"
    rf"|{_PART_WORD}\s*(?:\(\s*(?P<l5>[a-h])\s*\)|(?P<l6>[a-h])(?=[).:]|\s*$|\s+[-–—]\s)[).:]?))"
    rf"(?:{_ROMAN_PART}|(?P<r5>(?-i:{ROMAN}))(?![a-z0-9])|(?P<n3>10|[1-9])(?![\d.,]))?",
    re.I,
)
_ROMAN_ONLY = re.compile(rf"(?:{_PART_WORD}\s*)?(?:\(\s*(?P<r1>{ROMAN})\s*\)|(?P<r2>{ROMAN})[).](?=\s|$|\*|\]))", re.I)
"""A numeral alone ("(II)", "iv)"), or spelled out as a part ("Part (II)", "Part II.")."""
_BARE_HEADING = re.compile(r"^(?P<n>\d{1,2})(?P<dots>(?:\.\d+)*)\.?(?:\s+(?![\d.,])|$)")
""""3 Memory", "3.": a heading numbered by hand; not "# 25769803776 25.77" (a code comment)."""
_CLOSING = re.compile(
    r"(?:\d{1,2}\.?\s+)?(?:summary(?:\s+(?:of|for)\s+(?:the\s+|my\s+|all\s+)?"
    r"(?:answers?|results?|solutions?|questions?))?|(?:final|all|my)\s+(?:answers?|results?)"
    r"|answers?\s+summary|summary\s+table|results?\s+summary|overview\s+of\s+(?:the\s+|my\s+)?"
    r"answers?|answers?\s+at\s+a\s+glance|tl;?dr)\s*[:.]?", re.I)
"""A closing section that restates the answers ("Summary", "Summary of answers", "Final
answers"): it ends the last part's section like "References" does. A plain "Results" is
not one (a lab's task has its own "Results" subsection), nor "Conclusion" (claims)."""
_CLOSING_HINT = re.compile(r"summary|answers|results|glance|tl;?dr", re.I)
_OUTLINE = re.compile(r"(?P<n>\d{1,2})[.)]?(?:\s+(?P<title>[A-Za-z][^=\d]{0,80}?))?\s*")
"""A plain-text outline's question line, at the left margin: "3." or "3. Transformer analysis"."""
_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)")
_COMMENT = re.compile(r"^\s*(?:#+|//|--|%)\s*")

# markup that may wrap a label: removed before reading it, positions kept
_MARKUP = re.compile(r"\\(?=[()\[\].*_#|-])|\*\*|__|(?<![\w])[*_](?=\S)|(?<=\S)[*_](?![\w])|`|\$|\\textbf\{|\\textit\{"
                     r"|\\emph\{|\\text\{|\\mathbf\{|\\section\*?\{|\\subsection\*?\{")
_LATEX_OPEN = re.compile(r"^\s*\\(?:item\s*\[?|(?:(?:sub){0,2}section|chapter|paragraph)\*?\s*\{)")
"""Raw LaTeX pasted into a text report: "\\section*{Question 3}", "\\item[(a)]" start a label."""
_BULLET_MARK = re.compile(rf"(?-i:(?P<l1>[a-h]))\s*[:.]?\s*$|(?P<r1>(?-i:{ROMAN})):(?=\s|$)")
"""A terse bullet's bare part ("* a" alone, "- ii: softmax ...") under a question."""

Path = tuple[str, str, str | None, str | None]


@dataclass(frozen=True)
class Target:
    """A question as a label: kind ("q" for Question/Q/Part, "task"), number, letter, numeral."""

    kind: str
    num: str
    letter: str | None = None
    roman: str | None = None

    def holds(self, path: Path, entering: bool = False) -> bool:
        """Whether a line at ``path`` is inside this target (``entering``: may open it)."""
        kind, num, letter, roman = path
        if kind == "?":
            if self.kind != "q" or (entering and self.letter is None):
                return False
        elif kind != self.kind:
            return False
        if num != self.num:
            return False
        if self.letter is not None and letter != self.letter:
            return False
        return self.roman is None or roman == self.roman

    def describe(self) -> str:
        word = "Task " if self.kind == "task" else "Q"
        return (f"{word}{self.num}" + (f" ({self.letter})" if self.letter else "")
                + (f" ({self.roman.upper()})" if self.roman else ""))


def _first(m: re.Match[str], *names: str) -> str | None:
    groups = m.groupdict()  # once: a label has some twenty named groups
    for name in names:
        value = groups.get(name)
        if value:
            return value.lower()
    return None


def _sub_letter(m: re.Match[str]) -> str | None:
    letter = _first(m, *_LETTER_NAMES, "l8", "l9")
    if letter is None and m.groupdict().get("sub"):
        n = int(m.group("sub"))
        letter = chr(ord("a") + n - 1) if 1 <= n <= 8 else None
    return letter


def parse_label(text: str) -> Target | None:
    """``"Q3 (e)"`` + nothing -> Target("q", "3", "e"); None when ``text`` names no label."""
    plain, _ = strip_markup(text.strip())
    m = _LABEL.match(plain)
    if m is None or m.end() < len(plain.rstrip(" :.)")):
        return None
    word = _first(m, "word", "word2")
    kind = KINDS[word] if word else "q"
    return Target(kind, _first(m, "num", "num2", "bare") or "", _sub_letter(m),
                  _numeral(m))


def parse_part(text: str) -> tuple[str | None, str | None] | None:
    """``"(II)"`` -> (None, "ii"); ``"(c)"`` -> ("c", None); None for a phrase part."""
    plain, _ = strip_markup(text.strip())
    m = _LETTER_ONLY.fullmatch(plain)
    if m is not None:
        return _first(m, *_LETTER_NAMES), _numeral(m)
    m = _ROMAN_ONLY.fullmatch(plain)
    if m is not None:
        return None, _first(m, "r1", "r2")
    return None


def target_of(headings: Sequence[str], part: str | None) -> Target | None:
    """The target a pack's ``report`` headings and ``report_part`` name, or None (phrases)."""
    for heading in headings:
        target = parse_label(heading)
        if target is None:
            continue
        if part is None:
            return target
        marker = parse_part(part)
        if marker is None:
            return None  # a phrase part ("Language modeling task") inside a labelled section
        letter, roman = marker
        if letter is not None and target.letter is None:
            return Target(target.kind, target.num, letter, roman)
        if roman is not None and target.roman is None:
            return Target(target.kind, target.num, target.letter, roman)
        return None
    return None


def strip_markup(raw: str) -> tuple[str, list[int]]:
    """``raw`` without emphasis, ``$`` and LaTeX wrappers, and where each kept character was."""
    out: list[str] = []
    where: list[int] = []
    depth = 0  # braces kept open: a "}" closing a removed wrapper ("\\textbf{") is dropped
    pos = 0
    for m in [*_MARKUP.finditer(raw), None]:
        stop = len(raw) if m is None else m.start()
        for i in range(pos, stop):
            ch = raw[i]
            if ch == "}" and depth == 0 and m is None:
                continue
            depth += (ch == "{") - (ch == "}" and depth > 0)
            out.append(ch)
            where.append(i)
        if m is not None:
            pos = m.end()
    return "".join(out), where


@dataclass(frozen=True)
class Mark:
    """What a line's label says; ``content`` is the column of ``raw`` where its answer text starts."""

    paths: tuple[Path, ...]
    content: int
    letter_only: bool = False
    roman_only: bool = False
    weak: bool = False  # a bare "3.1" heading: a label only where the pack has lettered parts


@dataclass(frozen=True)
class Line:
    number: int  # 1-based, in the report as read
    raw: str
    heading: bool  # a Markdown heading or a line that is all bold
    table: bool
    mark: Mark | None
    paths: tuple[Path, ...] = ()
    opens: bool = False  # its label took effect (it begins a new section or part)
    code: bool = False  # inside a code block (``` fences): its lines are program, not prose


def _plural_at(text: str, where: list[int], raw_len: int) -> tuple[Mark, int] | None:
    """"Tasks 3 and 4", "Questions 3–4", "Qs 1, 2 & 3": a path for each question named."""
    m = _PLURAL.match(text)
    if m is None:
        return None
    kind = KINDS[m.group("word").lower().rstrip("s") or "q"]
    nums = [int(m.group("num"))]
    if m.group("last"):
        nums.extend(range(nums[0] + 1, int(m.group("last")) + 1))
    end = m.end()
    while (more := _MORE.match(text, end)) is not None:
        nums.append(int(more.group("num")))
        end = more.end()
        if (span := _RANGE.match(text, end)) is not None:
            nums.extend(range(nums[-1] + 1, int(span.group("last")) + 1))
            end = span.end()
    if len(nums) > _MAX_RANGE:
        return None  # "Questions 1-2000": no heading
    column = where[end] if end < len(where) else raw_len
    return Mark(tuple((kind, str(n), None, None) for n in nums), column), end


def _label_at(text: str, where: list[int], raw_len: int) -> tuple[Mark, int] | None:
    """A label at the start of ``text`` (markup already stripped)."""
    plural = _plural_at(text, where, raw_len)
    if plural is not None:
        return plural
    m = _LABEL.match(text)
    if m is None:
        return None
    word = _first(m, "word", "word2")
    letter = _sub_letter(m)
    weak = word is None and m.groupdict().get("sub") is not None
    kind = KINDS[word] if word else "?"
    paths: list[Path] = [(kind, _first(m, "num", "num2", "bare") or "", letter,
                          _numeral(m))]
    end = m.end()
    while True:
        more = _MORE.match(text, end)
        if more is None:
            break
        more_word = more.group("word")
        more_kind = KINDS[more_word.lower()] if more_word else paths[-1][0]
        paths.append((more_kind, more.group("num"), None, None))
        end = more.end()
    column = where[end] if end < len(where) else raw_len
    return Mark(tuple(paths), column, weak=weak), end


def _marker_at(text: str, where: list[int], raw_len: int) -> Mark | None:
    m = _LETTER_ONLY.match(text)
    if m is not None:
        letter = _first(m, *_LETTER_NAMES)
        roman = _numeral(m)
        column = where[m.end()] if m.end() < len(where) else raw_len
        return Mark((("?", "", letter, roman),), column, letter_only=True)
    m = _ROMAN_ONLY.match(text)
    if m is not None:
        column = where[m.end()] if m.end() < len(where) else raw_len
        return Mark((("?", "", None, _first(m, "r1", "r2")),), column, roman_only=True)
    return None


def _read_mark(raw: str, heading: bool) -> Mark | None:
    """The label or part marker a line starts with, if any."""
    body = raw
    offset = 0
    md = MD_HEADING.match(raw)
    if md:
        offset = md.start(2)
        body = md.group(2)
    latex = _LATEX_OPEN.match(body)
    if latex:
        offset += latex.end()
        body = body[latex.end():]
    prefix = QUOTE_AND_BULLET.match(body)
    bullet = bool(prefix and prefix.group().strip(" >"))
    if prefix:
        offset += prefix.end()
        body = body[prefix.end():]
    plain, where = strip_markup(body)
    lead = len(plain) - len(plain.lstrip())
    plain, where = plain[lead:], where[lead:]
    where = [w + offset for w in where]
    low = plain.lower()
    if heading and (low.startswith(END_WORDS) or _CLOSING.fullmatch(plain)):
        return Mark((END,), len(raw))
    if (skip := undecorated(plain)) and skip < len(plain):
        plain, where = plain[skip:], where[skip:]  # "🧠 Q3 (c)", "A  Q3(a)", "3.2 Q3(b)"
    found = _label_at(plain, where, len(raw))
    answer = ANSWER_WORDS.match(plain) if found is None else None
    if answer is not None and answer.end() < len(plain):
        found = _label_at(plain[answer.end():], where[answer.end():], len(raw))
        if found is not None and found[0].weak:
            found = None  # "Answer: 3.5 GB" is a value, no "3.5" heading
        if found is None:  # "**Answer (I):**" inside Q3 (e): the part it answers
            marker = _marker_at(plain[answer.end():], where[answer.end():], len(raw))
            if marker is not None:
                return marker
    if found is not None:
        return found[0]
    if heading and (tail := _trailing_label(plain)) is not None:
        return Mark((tail,), len(raw))
    if heading and (numbered := _NUMBERED_PART.match(plain)) is not None:
        column = where[numbered.end()] if numbered.end() < len(where) else len(raw)
        return Mark((("?", numbered.group("n"), _first(numbered, "l1", "l2"),
                      _numeral(numbered)),), column)
    if heading:
        bare = _BARE_HEADING.match(plain)
        if bare and not bare.group("dots"):
            return Mark((("?", bare.group("n"), None, None),), len(raw))
        if bare:
            return None  # "1.2 Details": a subsection, neutral
    found_marker = _marker_at(plain, where, len(raw))
    if found_marker is None and bullet and (m := _BULLET_MARK.match(plain)) is not None:
        column = where[m.end()] if m.end() < len(where) else len(raw)
        letter, roman = m.group("l1"), m.group("r1")
        return Mark((("?", "", letter, roman),), column, letter_only=letter is not None,
                    roman_only=letter is None)
    return found_marker


_NUMBERED_PART = re.compile(
    rf"(?P<n>\d+)\s*[.\-–—:]\s*(?:\(\s*(?P<l1>[a-h])\s*\)|(?P<l2>[a-h])\))(?:{_ROMAN_PART})?", re.I)
"""A heading numbered by Word or by hand before its part: "3. (c)", "3 – c)", "3: (c)(ii)"."""
_TAIL_START = re.compile(r"[(\[]\s*|\s[-–—:|]\s+|:\s+")


def _trailing_label(plain: str) -> Path | None:
    """A heading's label at its end: "Attention memory (Q3 c)", "Memory – Question 3 (c)"."""
    for cut in list(_TAIL_START.finditer(plain))[-3:][::-1]:
        tail = plain[cut.end():].rstrip(" :.*")
        closed = tail[:-1].rstrip() if cut.group().startswith(("(", "[")) and tail.endswith(
            (")", "]")) else None
        m = _LABEL.fullmatch(tail) or (_LABEL.fullmatch(closed) if closed else None)
        if m is None or not (_first(m, "word", "word2") or _sub_letter(m)) or m.group("sub"):
            continue
        word = _first(m, "word", "word2")
        return (KINDS[word] if word else "?", _first(m, "num", "num2", "bare") or "",
                _sub_letter(m), _numeral(m))
    return None


def read_lines(text: str, lettered: set[str] | None = None,
               parts: Parts | None = None) -> list[Line]:
    """Every line of the report, with the label path it is under.

    ``lettered``: question numbers the pack asks in lettered parts; a bare "3.3" heading
    is read as Q3 (c) only for those (elsewhere "3.1 Language Modeling Task" is a
    subsection). ``parts``: the pack's part markers; given, a line holding run-in parts
    ("(e) (I) ... (II) ...") is read as one line per part (``Parts.follows`` says when),
    each with the line's number.
    """
    lettered = lettered or set()
    out: list[Line] = []
    paths: tuple[Path, ...] = ()
    pending = list(_numbered(text))
    contents = {pending[i][0] for i in contents_lines([raw for _, raw in pending])}
    pending.reverse()
    fences = [n for n, raw in pending if _FENCE.match(raw)]
    fences = set(fences[:len(fences) // 2 * 2])  # a fence never closed fences nothing
    fenced = False
    closed: Path | None = None  # the path a closing summary ended (its rows name its parts)
    level: int | None = None  # Markdown level of the last heading that opened a section
    while pending:
        number, raw = pending.pop()
        if number in fences or fenced:
            fenced = fenced != (number in fences and bool(_FENCE.match(raw)))
            mark = _comment_mark(raw)
            new = _apply(mark, paths, lettered) if mark is not None else None
            if new is not None:
                paths = new
            out.append(Line(number, raw, False, False, mark, paths, new is not None, True))
            continue
        table = raw.lstrip().startswith("|")
        if number in contents:  # "Q3 (c) Memory ..... 4": a contents entry, no section
            out.append(Line(number, raw, False, table, None, paths))
            continue
        if table and TABLE_SEPARATOR.match(raw):
            out.append(Line(number, raw, False, True, None, paths))
            continue
        bold = bool(BOLD_LINE.match(raw))
        heading = bool(MD_HEADING.match(raw) or LATEX_HEADING.match(raw)) \
            or (bold and not has_digit(raw))
        if table:
            first_cell = raw.split("|")[1] if raw.count("|") >= 2 else raw
            start = raw.index("|") + 1
            mark = _read_mark(first_cell, heading=False)
            if mark is not None:  # the answer text starts after the label, inside the cell
                mark = Mark(mark.paths, start + mark.content, mark.letter_only, mark.roman_only,
                            mark.weak)
        else:
            mark = _read_mark(raw, heading or bold)
            if bold and not heading and mark is not None and not mark.letter_only \
                    and not mark.roman_only:
                heading = True  # "**Question 3 (c)**": a bold label line is a heading
            if mark is not None and mark.paths == (END,) and _subsection(raw, level):
                mark = None  # "### Summary" under "## Q3 (e)": that part's own summary
        if mark is None and heading and states_value(raw):
            heading = False  # "### ≈ 14.5 B parameters": a slide's answer set large
        if mark is None and not table and not heading:
            mark = _outline_mark(raw, paths, lettered)
            if mark is None and len(raw) < 60 and _CLOSING_HINT.search(raw) \
                    and _CLOSING.fullmatch(strip_markup(raw.strip(" -=*_#"))[0]) \
                    and not _subsection(raw, level):
                mark = Mark((END,), len(raw))  # a text report's "Summary of answers:" line
        if mark is not None and not paths and len(lettered) == 1 and mark.letter_only \
                and mark.paths[0][2] is not None and not _COPYRIGHT.match(raw.strip(" #*_")):
            # "## (c) Memory" before any label: the one question the pack letters
            mark = Mark((("?", next(iter(lettered)), *mark.paths[0][2:]),), mark.content)
        if table and mark is not None and paths and paths[0] != END \
                and _goes_back(mark, paths[0]) and _restates(pending, mark):
            closed, paths = paths[0], (END,)  # a table going back over the parts: a summary
        if mark is not None and mark.letter_only and mark.paths[0][2] is not None \
                and paths and paths[0] == END and closed is not None:
            # a summary's row or line "(c)" names the part of the question it closed
            mark = Mark(((closed[0], closed[1], *mark.paths[0][2:]),), mark.content)
        opens = False
        if mark is not None:
            new = _apply(mark, paths, lettered)
            if new is not None:
                if new[0] == END and paths and paths[0] != END:
                    closed = paths[0]
                paths, opens = new, True
                if (md := MD_HEADING.match(raw)) is not None:
                    level = len(md.group(1))
        if parts is not None and not table and not heading and paths and paths[0] != END:
            split = _run_in(raw, mark.content if mark is not None and opens else 0, paths[0],
                            parts)
            if split is not None:
                pending.append((number, raw[split:]))
                raw = raw[:split].rstrip()
        out.append(Line(number, raw, heading, table, mark, paths, opens))
    return out


def _subsection(raw: str, level: int | None) -> bool:
    """Whether a closing heading ("Summary") sits below the heading that opened the section
    it is in (a bold line is below any Markdown heading): then it sums up that part only.
    "References" and "Appendix" end every section at any level."""
    plain = strip_markup(raw.strip(" #*_"))[0].lower()
    if level is None or plain.startswith(END_WORDS):
        return False
    md = MD_HEADING.match(raw)
    return md is None or len(md.group(1)) > level


def _comment_mark(raw: str) -> Mark | None:
    """In a code block, a comment that is a label and nothing else ("# Q3 (c)", "// (e)(ii)")
    opens it; every other line of code (a printed "# 25769803776", "# 3.2") names nothing."""
    comment = _COMMENT.match(raw)
    if comment is None or _FENCE.match(raw):
        return None
    body = raw[comment.end():]
    mark = _read_mark(body, heading=False)
    if mark is None or mark.weak or body[mark.content:].strip(" :.-–*"):
        return None
    return Mark(mark.paths, len(raw), mark.letter_only, mark.roman_only)


def _outline_mark(raw: str, paths: tuple[Path, ...], lettered: set[str]) -> Mark | None:
    """A plain-text outline's "3." or "3. Transformer analysis" line at the left margin, for a
    question the pack asks in lettered parts (its "(a)", "(ii)" lines follow, indented).
    Not a list item inside that question ("3. Multiply by 2 bytes." ends a sentence)."""
    m = _OUTLINE.fullmatch(raw)
    if m is None or m.group("n") not in lettered or (paths and paths[0][1] == m.group("n")):
        return None
    title = m.group("title") or ""
    if title.rstrip().endswith((".", ":", ";", ",", "?", "!")):
        return None
    return Mark((("?", m.group("n"), None, None),), len(raw))


def _goes_back(mark: Mark, path: Path) -> bool:
    """Whether a part marker names a part before ``path``'s ("(a)" in (e), "(i)" in (e)(iii))."""
    if not (mark.letter_only or mark.roman_only):
        return False
    letter, roman = mark.paths[0][2:]
    if letter is not None and path[2] is not None and letter != path[2]:
        return letter < path[2]
    return roman is not None and path[3] is not None and \
        ROMAN_VALUES[roman] < ROMAN_VALUES[path[3]]


def _restates(pending: list[tuple[int, str]], first: Mark) -> bool:
    """Whether the table whose row ``first`` goes back over the parts names another part in
    a later row: a table restating the answers (``pending`` is reversed: next line last)."""
    seen = {first.paths[0][1:]}
    for _, raw in reversed(pending):
        if not raw.lstrip().startswith("|"):
            return False
        if TABLE_SEPARATOR.match(raw) or raw.count("|") < 2:
            continue
        mark = _read_mark(raw.split("|")[1], heading=False)
        if mark is not None and mark.paths[0][1:] not in seen:
            return True
    return False


SOFT_BREAK = "\u2028"
"""Where ``split_run_in`` puts a run-in part on its own line: U+2028 (LINE SEPARATOR) is a
line to ``str.splitlines`` (so every reader of the text sees the part on its own line) but
no new line to ``read_lines``' numbering, so line numbers stay the student's."""


def _numbered(text: str) -> Iterator[tuple[int, str]]:
    number = 1
    for piece in text.splitlines(keepends=True):
        yield number, piece.splitlines()[0]
        if not piece.endswith(SOFT_BREAK):
            number += 1


@dataclass(frozen=True)
class Parts:
    """The part markers a pack asks, in order: letters per question, numerals per part.

    Why: an inline "(c)" or "(I)" is usually prose (a citation "(c) 2024", "see (a)", a
    formula f(a), "(d) and (e) differ"). It opens a run-in part only when all of these hold:

    - it stands after a sentence's end (". ", "; ", ": ", "? ", "! ", not "e.g." or "cf."),
      written "(c)", "c)", "(II)", "II)" or "II." (a letter never as "c.": "e. g.") or as
      the question's own label ("Q3(d)", "Q3 (e)(ii)"); or, in any of these but "c)",
      right after a value or a closing bracket ("9,437,184 (II) 75.5 MB (III) ...": terse
      parts end no sentence); or, written "(II)" or "(c)", anywhere in a line that began
      with the part before ("(I) next-token prediction (II) p = 0.75"); in these two cases
      not after a word that names a part ("as in step (ii)", "see (b)", "unlike (c)");
    - it is not followed by "and", "or", "to", ",", "&" or "/" (parts named, not opened),
      and it is no copyright ("(c) 2024");
    - the pack asks parts at that level of the current section (numerals of Q3 (e),
      letters of Q3), and the marker is the next one: the first the pack asks after the
      current part, or the one right after it ("(III)" after "(II)", "(d)" after "(c)"); a
      second numeral may follow a letter whose first went unmarked ("(a) ... (II) ...").

    So a "(ii)" inside Q3 (c), whose pack asks no numerals, stays prose, and so does an
    "(e)" inside Q3 (c) (it skips (d)) or an "(I)" after "(II)".
    """

    letters: dict[tuple[str, str], tuple[str, ...]]
    romans: dict[tuple[str, str, str | None], tuple[str, ...]]

    @classmethod
    def of(cls, targets: Sequence[Target | None]) -> Parts:
        letters: dict[tuple[str, str], set[str]] = {}
        romans: dict[tuple[str, str, str | None], set[str]] = {}
        for t in targets:
            if t is None:
                continue
            if t.letter is not None:
                letters.setdefault((t.kind, t.num), set()).add(t.letter)
            if t.roman is not None:
                romans.setdefault((t.kind, t.num, t.letter), set()).add(t.roman)
        return cls({k: tuple(sorted(v)) for k, v in letters.items()},
                   {k: tuple(sorted(v, key=ROMAN_VALUES.__getitem__)) for k, v in romans.items()})

    def follows(self, path: Path, letter: str | None, roman: str | None) -> Path | None:
        """The path a run-in marker (``letter``, ``roman``) opens inside ``path``, or None."""
        kind, num, cur_letter, cur_roman = path
        kind = "q" if kind == "?" else kind
        if letter is not None:
            asked = self.letters.get((kind, num), ())
            after = [x for x in asked if cur_letter is None or x > cur_letter]
            successor = cur_letter is not None and ord(letter) == ord(cur_letter) + 1
            if not asked or not (after[:1] == [letter] or successor):
                return None
            return (path[0], num, letter, roman)
        if roman is None:
            return None
        asked_romans = self.romans.get((kind, num, cur_letter), ())
        value, cur = ROMAN_VALUES[roman], ROMAN_VALUES[cur_roman] if cur_roman else 0
        after = [x for x in asked_romans if ROMAN_VALUES[x] > cur]
        unmarked_first = cur_roman is None and roman in asked_romans[1:2]  # "(a) ... (II)"
        if not asked_romans or not (after[:1] == [roman] or value == cur + 1 or unmarked_first):
            return None
        return (path[0], num, cur_letter, roman)


_RUN_IN = re.compile(
    rf"(?<=\S)\s+(?=(?P<paren>\(\s*(?:[a-h]|{ROMAN})\s*\))|(?P<bare_letter>[a-h]\))|{ROMAN}[).]\s"
    r"|(?P<label>(?:question|problem|exercise|task|qns?|ques|q)\s*\.?\s*\d))", re.I)
_LIST_NUMBER = re.compile(r"\s*(?:\d{1,3}|[a-z]|[ivx]{1,4})[.)]", re.I)
"""A list's own number opening a line ("3. (d) comes next"): its dot ends no sentence (after
a marker, "(I) 1. (II) 2." it is an answer)."""
_AFTER_VALUE = re.compile(r"(?:\d(?:\s*%|\s+[a-z]{1,12})?|\))$", re.I)
"""A value just written ("9,437,184", "75.5 MB", "0.065 %"): terse run-in parts end none."""
_REFERENCE = re.compile(r"\b(?:see|in|of|and|or|step|steps|from|by|to|with|as|part|parts|case"
                        r"|item|eq|equation|cf|like|unlike|than|per)$", re.I)
"""Words that name a part rather than end one ("as in step (ii)", "see (b)")."""
_NAMED_NOT_OPENED = re.compile(r"\s*(?:(?:and|or|to|through)\b|[,&/])", re.I)
_COPYRIGHT = re.compile(r"\(\s*c\s*\)\s*(?:19|20)\d\d\b(?![.,]\d)", re.I)


_MARKER_HINT = re.compile(rf"\b(?:[a-h]|{ROMAN})\s*\\?[).]|\b(?:question|task|q)\s*\.?\s*\d",
                          re.I)
"""Something like a marker ("(c)", "II)", "ii."): lines without one are not stripped of markup."""


def _inline_marker(plain: str, at: int, label: bool,
                   path: Path) -> tuple[int, str | None, str | None] | None:
    """(end, letter, numeral) of the marker or label at ``at`` inside ``path``, or None."""
    if not label:
        m = _LETTER_ONLY.match(plain, at)
        if m is not None:
            return m.end(), _first(m, *_LETTER_NAMES), _numeral(m)
        m = _ROMAN_ONLY.match(plain, at)
        return None if m is None else (m.end(), None, _first(m, "r1", "r2"))
    m = _LABEL.match(plain, at)
    if m is None or m.group("sub"):
        return None
    word = _first(m, "word", "word2")
    same = ((KINDS[word] if word else "q"), _first(m, "num", "num2", "bare"))
    if same != ("q" if path[0] == "?" else path[0], path[1]):
        return None  # another question's label: only this question's parts run in
    letter, roman = _sub_letter(m), _numeral(m)
    if letter is not None and letter == path[2] and roman is not None:
        letter = None  # "Q3(e)(ii)" inside Q3(e)(i): the numeral moves on
    return None if letter is None and roman is None else (m.end(), letter, roman)


def _run_in(raw: str, start: int, path: Path, parts: Parts) -> int | None:
    """Column of ``raw`` (after ``start``) where a run-in part begins, or None (``Parts``)."""
    if _MARKER_HINT.search(raw, start) is None:
        return None
    plain, where = strip_markup(raw[start:])
    for gap in _RUN_IN.finditer(plain):
        before = plain[max(0, gap.start() - 24):gap.start()]
        ended = ends_sentence(before) and not ABBREVIATION.search(before[-9:]) \
            and not (start == 0 and _LIST_NUMBER.fullmatch(plain, 0, gap.start()))
        named = _REFERENCE.search(before)
        after_value = not gap.group("bare_letter") and _AFTER_VALUE.search(before) and not named
        in_a_run = start > 0 and gap.group("paren") and not named
        if not (ended or after_value or in_a_run):
            continue
        at = gap.end()
        found = _inline_marker(plain, at, bool(gap.group("label")), path)
        if found is None:
            continue
        end, letter, roman = found
        if _NAMED_NOT_OPENED.match(plain, end) or _COPYRIGHT.match(plain, at):
            continue
        if parts.follows(path, letter, roman) is None:
            continue
        column = start + where[at]
        while column > start and raw[column - 1] in "*_\\`":
            column -= 1  # "**(II)**", "\\(II\\)": the break goes before the markup
        return column
    return None


def split_run_in(text: str, targets: Sequence[Target | None]) -> str:
    """``text`` with each run-in part on its own line (after ``SOFT_BREAK``): "(e) (I) 9.4M.
    (II) 75.5 MB." holds two parts the rest of the reading then sees as lines. ``targets``:
    all the pack's questions (``Parts`` says which inline markers open a part).
    """
    lines = read_lines(text, lettered_numbers(targets), Parts.of(targets))
    if len(lines) == len(text.splitlines()):
        return text
    out: list[str] = []
    for i, line in enumerate(lines):
        if i:
            out.append(SOFT_BREAK if line.number == lines[i - 1].number else "\n")
        out.append(line.raw)
    return "".join(out) + "\n"


def _apply(mark: Mark, paths: tuple[Path, ...], lettered: set[str]) -> tuple[Path, ...] | None:
    """The paths after a line with ``mark``, or None when the mark does not count."""
    if mark.letter_only or mark.roman_only:
        if not paths or paths[0] == END:
            return None
        kind, num, letter, roman = paths[0]
        new_letter, new_roman = mark.paths[0][2], mark.paths[0][3]
        if new_letter is not None and new_letter == letter and new_roman is not None:
            new_letter = None  # "a-ii" under "Q3-a": the numeral is what moves on
        if new_letter is not None:
            if letter is not None and new_letter <= letter:
                return None  # "a)" after "(c)": a list inside the answer
            return ((kind, num, new_letter, new_roman),)
        assert new_roman is not None
        if roman is not None and ROMAN_VALUES[new_roman] <= ROMAN_VALUES[roman]:
            return None
        return ((kind, num, letter, new_roman),)
    if mark.weak and mark.paths[0][1] not in lettered:
        return None
    return mark.paths


def opening(lines: Sequence[Line], target: Target) -> int | None:
    """Index of the line that enters ``target``, or None."""
    for i, line in enumerate(lines):
        if line.opens and any(target.holds(p, entering=True) for p in line.paths):
            return i
    return None


def section_end(lines: Sequence[Line], start: int, target: Target) -> int:
    """Index (exclusive) of the first labelled line after ``start`` that leaves ``target``."""
    for j in range(start + 1, len(lines)):
        line = lines[j]
        if line.opens and not any(target.holds(p) for p in line.paths):
            return j
    return len(lines)


def sections_of(lines: Sequence[Line], target: Target) -> Iterator[tuple[int, int]]:
    """Every section that enters ``target``, first to last: the body's, then a summary's row."""
    for i, line in enumerate(lines):
        if line.opens and any(target.holds(p, entering=True) for p in line.paths):
            yield i, section_end(lines, i, target)


def find_section(lines: Sequence[Line], target: Target) -> tuple[int, int] | None:
    """(first index, end index exclusive) of ``target``'s section, or None."""
    start = opening(lines, target)
    if start is None:
        return None
    return start, section_end(lines, start, target)


def lettered_numbers(targets: Sequence[Target | None]) -> set[str]:
    return {t.num for t in targets if t is not None and t.letter is not None}
