"""The grammar of question labels: what a line's label or part marker says (``Mark``),
and the question a pack names (``Target``).

Why one grammar: students write the same sub-question as "Q3 (c)", "Q3(c)", "Question 3
(c)", "3(c)", "3.3", "Part 3 – c)", "Q3.c", "Task 3.c", "(c)" under a Q3 heading, "e-ii",
or a table row "| Q3(e)(II) | ... |". Each form is read into the same path (kind, number,
letter, numeral) after its decorations are taken off (``vocabulary.undecorated``), so the
section finder (``sections``) compares paths, never spellings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from grader.written.vocabulary import (
    ANSWER_WORDS,
    ARROW,
    CJK_NUMERALS,
    COUNTED_WORD,
    COUNTER_WORD,
    END_WORDS,
    KINDS,
    LABEL_WORD,
    MD_HEADING,
    ORDINAL_MARK,
    QUOTE_AND_BULLET,
    ROMAN,
    ROMAN_VALUES,
    SYLLABLE_LETTERS,
    WORD_AFTER_ORDINAL,
    undecorated,
    value_alone,
)

END = ("end", "", None, None)
"""The path of a "References"/"Appendix" heading: it ends every section."""

_KANJI = "[" + "".join(CJK_NUMERALS) + "]"
_WORD = (rf"(?:(?P<word>{LABEL_WORD[3:-1]}|(?-i:T)(?=\d+\s*(?:[./:)\-–—]|$)))\s*\.?\s*"
         rf"(?P<num>\d+(?!\d|,\d)|{_KANJI}(?!{_KANJI}))"
         rf"|{ORDINAL_MARK}\s*(?P<num3>\d+|{_KANJI})\s*(?P<word3>{COUNTER_WORD})"
         rf"|(?P<num4>\d+)\s*(?P<word4>{COUNTED_WORD})"
         rf"|(?P<num5>\d+)\.\s*(?P<word5>{WORD_AFTER_ORDINAL}))")
"""A question named by word and number: "Question 3", "Q3", "Task 3", "T3 /" ("T" only
upper-case, its number followed by a stop: "T5 model" is none), "問3", "問三", or by its
number and a counter: "第3問", "第三题", "제3문", Korean "3번", Turkish "3. Soru"."""
WORDS = ("word", "word2", "word3", "word4", "word5")
NUMS = ("num", "num2", "num3", "num4", "num5", "bare")
"""The groups a label's word and number may be in (``first_of(m, *NUMS)``)."""
SET_OFF = r"(?=\s*$|\s{2}|\t)"
"""A label's end where nothing follows it on its line, or a column of spaces or a tab sets
it off from its answer ("3e ii", "3e-III  0.065 percent")."""


_BARE = (rf"(?P<bare>\d+)(?=\s*\(\s*[a-hA-H]\s*\)|\s?(?-i:[a-h])(?:[-–.]{ROMAN})?\)"
         rf"|(?-i:[a-h])[.:](?:\s|$)|\.\d{{1,2}}(?:\.(?-i:[a-h]|{ROMAN}|[1-9])(?![\w.,]))?(?![\d.,])"
         rf"|\s?(?-i:[a-h])(?:\s*{ROMAN}|10|[1-9])?\s*{ARROW}|(?-i:[a-h])\s+{ROMAN}:\s"
         rf"|(?-i:[a-h])\s*\(\s*{ROMAN}\s*\)|(?-i:[a-g])\s?=\s?(?=\d)"
         rf"|\s?(?-i:[a-h])(?:(?:\s+|[-–.]){ROMAN})?{SET_OFF}"
         rf"|\.(?-i:[a-h])\.(?=\s|$|\*|(?-i:{ROMAN})\.))")
"""A question number with no word before its letter: "3(c)", "3c)", "3e-ii)" (a phone's
shorthand), "3c.", "3.3", and as a note typed fast has it, an arrow marking the answer:
"3e ii ->", "3e2 ->", "3 c ->", or a colon after the numeral: "3e ii: ...", or the label
alone on its line: "3c", "3e ii" (nothing after it can be a value it was read from), or
set off from its answer by a column of spaces: "3c      25.8 gigabytes", "3e-III  0.065"
(an answers-only sheet aligned with spaces or tabs), or as a chat message has it: "3e(I):
...", "3c = 25.77 GB" (a letter up to g: "2h = 96" is working on the heads). "3.a." and
"3.a.ii." are Word's multilevel outline numbers ("%1.%2.%3.")."""
_PART_WORD = (r"(?:(?:sub[\s-]?)?(?:part|question|item|teil)|parte|al[íi]nea|letra|小問|소문항"
              r"|onderdeel|deelvraag|podpunkt|punkt|(?<![^\W\d_])ý|bagian|butir)")
"""A part spelled out: "Part (c)", "part c", "Sub-part (c)", "Subquestion c", "item e" (of
"Problem 3, item e (ii)"), German "Teil c", Portuguese "Parte (c)", "alínea c)", "letra
c", Japanese "小問(a)", Korean "소문항 (a)", Dutch "onderdeel c", "deelvraag c", Polish
"podpunkt c", "punkt c)", Vietnamese "ý c" (a word of its own: "Quý" is none), Indonesian
"bagian c", "butir c"."""
_PAREN_LETTER = "[a-h" + "".join(SYLLABLE_LETTERS) + "]"
"""A part's letter in brackets: "(c)", or a Japanese question's katakana "(ウ)", a Korean
question's syllable "(다)"."""
_LETTER = (
    rf"(?:\s*\(\s*(?P<l10>[a-h])\s*[.\-–,]\s*(?:(?P<r8>{ROMAN})|(?P<n5>10|[1-9]))\s*\)"
    rf"|\s*:?\s*\(\s*(?P<l1>{_PAREN_LETTER})\s*\)"
    r"|\s*[.\-–—]\s*\(?(?P<l2>(?-i:[a-h]))(?:\)|(?![a-z0-9]))"
    r"|\s*:?\s*(?P<l3>[a-h])\)"
    rf"|(?P<l12>(?-i:[a-h]))(?:(?P<r12>{ROMAN})|(?P<n6>10|[1-9]))(?![a-z0-9]|[.,]\d)"
    r"|(?P<l4>[a-h])(?![a-z0-9])"
    rf"|\s*(?:[,:.\-–—·(]\s*)?{_PART_WORD}\s*\.?\s*"
    rf"(?:\(\s*(?P<l5>{_PAREN_LETTER})\s*\)|(?P<l6>[a-h])(?:\)|(?![a-z0-9])))"
    rf"|\s+(?P<l7>(?-i:[a-h]))(?=\s*[-–—.]\s*(?:{ROMAN}(?![a-z0-9])|(?:10|[1-9])(?![\d.,]))"
    rf"|(?:\s+{ROMAN})?\s*{ARROW}|(?:\s+{ROMAN})?\s*$|\s+[-–—]\s|\((?={ROMAN}\)))"
    rf"|\.(?P<sub>\d{{1,2}})(?:\.(?:(?P<l13>(?-i:[a-h]))|(?P<r13>(?-i:{ROMAN}))|(?P<n7>[1-9]))"
    r"(?![\w.,]))?(?![\d.,]))"
)
LETTER_NAMES = ("l1", "l2", "l3", "l4", "l5", "l6", "l7", "l10", "l11", "l12")


def _roman_part(tag: str = "") -> str:
    """A numeral after a letter: "(ii)", "-ii", ".ii", " ii)", " ii.", or spelled out as a
    screen-reader user writes it: ", subpart 2" (``tag`` keeps names apart)."""
    return (rf"(?:\s*\(\s*(?P<r1{tag}>{ROMAN})\s*\)"
            rf"|\s*[-–—]\s*(?P<r2{tag}>{ROMAN})(?![a-z0-9])"
            rf"|\.\s?(?P<r3{tag}>{ROMAN})(?![a-z0-9])"
            rf"|\s+(?P<r4{tag}>{ROMAN})\)"
            rf"|\s+(?P<r6{tag}>{ROMAN})\.(?=\s|$|\*)"
            rf"|\s*[-–—.,]\s*\(\s*(?P<r7{tag}>{ROMAN})\s*\)"
            rf"|\s+(?P<r10{tag}>{ROMAN})(?::|\s*{ARROW})(?=\s|$)"
            rf"|\s+(?P<r11{tag}>{ROMAN}){SET_OFF}"
            rf"|\s*\(\s*(?P<n1{tag}>10|[1-9])\s*\)|[.\-–](?P<n2{tag}>10|[1-9])(?![\d.,])"
            rf"|\s*(?:,\s*)?sub[\s-]?part\s*(?:(?P<n8{tag}>10|[1-9])|(?P<r14{tag}>{ROMAN}))"
            r"(?![a-z0-9]))")


_ROMAN_PART = _roman_part()
_ROMAN_NAMES = ("r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13",
                "r14", "r1b", "r2b", "r3b", "r4b", "r6b", "r7b", "r10b", "r11b", "r14b")
_ARABIC_NAMES = ("n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n1b", "n2b", "n8b")
"""A sub-part numbered after its letter ("(e)(2)", "e.2", "Q3 e-2"): read as the numeral."""
_NUMERALS = {v: k for k, v in ROMAN_VALUES.items()}


def numeral(m: re.Match[str]) -> str | None:
    roman = first_of(m, *_ROMAN_NAMES)
    if roman is None and (third := m.groupdict().get("l13")):
        # "3.5.a" of a Word multilevel list: the third level's letter counts the sub-parts
        roman = _NUMERALS[ord(third) - ord("a") + 1]
    if roman is None and (arabic := first_of(m, *_ARABIC_NAMES)) is not None:
        roman = _NUMERALS[int(arabic)]
    return roman
_REVERSED = (
    rf"{_PART_WORD}\s*\.?\s*(?:\(\s*(?P<l8>[a-h])\s*\)|(?P<l9>[a-h])(?:\)|(?![a-z0-9])))"
    rf"(?:{_roman_part('b')})?"
    r"\s*(?:,|:|of|in|[-–—·])\s*(?P<word2>question|problem|exercise|q)\s*\.?\s*"
    r"(?P<num2>\d+)(?!\d|,\d)"
)
"""The part before its question: "Part (c) of Question 3", "part c, Q3"."""
LABEL = re.compile(rf"(?:{_WORD}|{_BARE})(?:{_LETTER})?(?:{_ROMAN_PART})?|{_REVERSED}", re.I)
_MORE = re.compile(r"\s*(?:&|and|,|/)\s*(?:(?P<word>question|task|part|q)\s*)?(?P<num>\d+)\b",
                   re.I)
_PLURAL = re.compile(r"(?P<word>questions|problems|exercises|tasks|parts|qs)\s*\.?\s*(?P<num>\d+)\b"
                     r"(?:\s*(?:[-–—]|to|through)\s*(?P<last>\d+)\b)?", re.I)
"""A heading naming several tasks: "Tasks 3 and 4", "Questions 3–4" (the range is read only
after a plural word: "Q3-4" is part (iv) of Q3, "Task 3-4" a sub-task)."""
_RANGE = re.compile(r"\s*(?:[-–—]|to|through)\s*(?P<last>\d+)\b", re.I)
_MAX_RANGE = 12
LETTER_ONLY = re.compile(
    rf"(?:\(\s*(?P<l11>[a-h])\s*[.\-–,]\s*(?:(?P<r9>{ROMAN})|(?P<n4>10|[1-9]))\s*\)"
    rf"|\(\s*(?P<l1>{_PAREN_LETTER})\s*\)|(?P<l2>(?-i:[a-h]))[).](?=\s|$|\*|\])"
    rf"|(?P<l3>(?-i:[a-h]))\s*[-–.]\s*(?=(?-i:{ROMAN})\b|(?:10|[1-9])(?![\d.,]))"
    rf"|{_PART_WORD}\s*(?:\(\s*(?P<l5>{_PAREN_LETTER})\s*\)|(?P<l6>[a-h])(?=[).:,]|\s*$|\s+[-–—]\s)[).:]?))"
    rf"(?:{_ROMAN_PART}|(?P<r5>(?-i:{ROMAN}))(?![a-z0-9])|(?P<n3>10|[1-9])(?![\d.,]))?",
    re.I,
)
ROMAN_ONLY = re.compile(rf"(?:{_PART_WORD}\s*)?(?:\(\s*(?P<r1>{ROMAN})\s*\)|(?P<r2>{ROMAN})[).](?=\s|$|\*|\]))", re.I)
"""A numeral alone ("(II)", "iv)"), or spelled out as a part ("Part (II)", "Part II.")."""
_BARE_HEADING = re.compile(r"^(?P<n>\d{1,2})(?P<dots>(?:\.\d+)*)\.?(?:\s+(?![\d.,])|$)")
""""3 Memory", "3.": a heading numbered by hand; not "# 25769803776 25.77" (a code comment)."""
CLOSING = re.compile(
    r"(?:\d{1,2}\.?\s+)?(?:summary(?:\s+(?:of|for)\s+(?:the\s+|my\s+|all\s+)?"
    r"(?:answers?|results?|solutions?|questions?))?|(?:final|all|my)\s+(?:answers|results)|answers"
    r"|answers?\s+summary|summary\s+table|results?\s+summary|overview\s+of\s+(?:the\s+|my\s+)?"
    r"answers?|answers?\s+at\s+a\s+glance|tl;?dr|in\s+(?:short|brief|a\s+nutshell)"
    r"|key\s+(?:numbers|results|figures)|par\s+ces\s+motifs|dispositif)\s*[:.]?", re.I)
"""A closing section that restates the answers ("Summary", "Summary of answers", "Final
answers", a bare "Answers" over a list of them, a magazine's "In short" box, "Key
numbers", a French decision's "PAR CES MOTIFS" and "Dispositif"): it ends the last part's
section like
"References" does. A plain "Results" is
not one (a lab's task has its own "Results" subsection), nor "Conclusion" (claims)."""

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


def first_of(m: re.Match[str], *names: str) -> str | None:
    groups = m.groupdict()  # once: a label has some twenty named groups
    for name in names:
        value = groups.get(name)
        if value:
            return SYLLABLE_LETTERS.get(value) or CJK_NUMERALS.get(value) or value.lower()
    return None


def sub_letter(m: re.Match[str]) -> str | None:
    letter = first_of(m, *LETTER_NAMES, "l8", "l9")
    if letter is None and m.groupdict().get("sub"):
        n = int(m.group("sub"))
        letter = chr(ord("a") + n - 1) if 1 <= n <= 8 else None
    return letter


def parse_label(text: str) -> Target | None:
    """``"Q3 (e)"`` + nothing -> Target("q", "3", "e"); None when ``text`` names no label."""
    plain, _ = strip_markup(text.strip())
    m = LABEL.match(plain)
    if m is None or m.end() < len(plain.rstrip(" :.)")):
        return None
    word = first_of(m, *WORDS)
    kind = KINDS[word] if word else "q"
    return Target(kind, first_of(m, *NUMS) or "", sub_letter(m),
                  numeral(m))


def parse_part(text: str) -> tuple[str | None, str | None] | None:
    """``"(II)"`` -> (None, "ii"); ``"(c)"`` -> ("c", None); None for a phrase part."""
    plain, _ = strip_markup(text.strip())
    m = LETTER_ONLY.fullmatch(plain)
    if m is not None:
        return first_of(m, *LETTER_NAMES), numeral(m)
    m = ROMAN_ONLY.fullmatch(plain)
    if m is not None:
        return None, first_of(m, "r1", "r2")
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
    answered: bool = False
    """A part marker after the answer word ("**Solution.** (I) …", "Answer (II):"): the
    student says which part this answers, so it opens that part even after a later one (a
    statement listing "(I) …, (II) …" above it)."""


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
    m = LABEL.match(text)
    if m is None:
        return None
    word = first_of(m, *WORDS)
    letter = sub_letter(m)
    weak = word is None and m.groupdict().get("sub") is not None
    kind = KINDS[word] if word else "?"
    paths: list[Path] = [(kind, first_of(m, *NUMS) or "", letter,
                          numeral(m))]
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
    m = LETTER_ONLY.match(text)
    if m is not None:
        letter = first_of(m, *LETTER_NAMES)
        roman = numeral(m)
        column = where[m.end()] if m.end() < len(where) else raw_len
        return Mark((("?", "", letter, roman),), column, letter_only=True)
    m = ROMAN_ONLY.match(text)
    if m is not None:
        column = where[m.end()] if m.end() < len(where) else raw_len
        return Mark((("?", "", None, first_of(m, "r1", "r2")),), column, roman_only=True)
    return None


def _bold_label(body: str, offset: int, plain: str, where: list[int]) -> tuple[Mark, int] | None:
    """The label a line opens with in bold, read as the bold run alone ("**Q3 e) i** Each
    adapted matrix …", typed on a phone): the run's end sets the label off as the line's
    end would, so its numeral is the label's and no word of the answer."""
    if not body.lstrip().startswith("**"):
        return None
    close = body.find("**", body.find("**") + 2)
    if close < 0:
        return None
    k = next((i for i, w in enumerate(where) if w >= offset + close), len(where))
    found = _label_at(plain[:k].rstrip(), where[:k], offset + close + 2)
    if found is None or found[1] < len(plain[:k].rstrip()) or found[0].weak:
        return None
    return found


def _detail(mark: Mark) -> int:
    """How much of a path a mark names (a letter, a numeral): the more, the more specific."""
    return sum(p[2] is not None for p in mark.paths) + sum(p[3] is not None for p in mark.paths)


def read_mark(raw: str, heading: bool) -> Mark | None:
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
    if heading and (low.startswith(END_WORDS) or CLOSING.fullmatch(plain)):
        return Mark((END,), len(raw))
    if heading and value_alone(plain.strip(" *_")):
        return None  # "## 24 GB", "## 14.49 billion": a result printed large, no question
    if (skip := undecorated(plain)) and skip < len(plain):
        plain, where = plain[skip:], where[skip:]  # "🧠 Q3 (c)", "A  Q3(a)", "3.2 Q3(b)"
    found = _label_at(plain, where, len(raw))
    bold = _bold_label(body, offset, plain, where)
    if bold is not None and (found is None or _detail(bold[0]) > _detail(found[0])):
        found = bold  # "**Q3 e) i** Each …": the bold run says the numeral the line hides
    answer = ANSWER_WORDS.match(plain) if found is None else None
    if answer is not None and answer.end() < len(plain):
        found = _label_at(plain[answer.end():], where[answer.end():], len(raw))
        if found is not None and found[0].weak:
            found = None  # "Answer: 3.5 GB" is a value, no "3.5" heading
        if found is None:  # "**Answer (I):**" inside Q3 (e): the part it answers
            marker = _marker_at(plain[answer.end():], where[answer.end():], len(raw))
            if marker is not None:
                return replace(marker, answered=True)
    if found is not None:
        return found[0]
    if heading and (tail := _trailing_label(plain)) is not None:
        return Mark((tail,), len(raw))
    if heading and (numbered := _NUMBERED_PART.match(plain)) is not None:
        column = where[numbered.end()] if numbered.end() < len(where) else len(raw)
        return Mark((("?", numbered.group("n"), first_of(numbered, "l1", "l2"),
                      numeral(numbered)),), column)
    if heading:
        bare = _BARE_HEADING.match(plain)
        if bare and not bare.group("dots"):
            return Mark((("?", bare.group("n"), None, None),), len(raw))
        if bare:
            return None  # "1.2 Details": a subsection, neutral
    found_marker = _marker_at(plain, where, len(raw))
    if found_marker is None and heading and (alone := _part_alone(plain)) is not None:
        return Mark((("?", "", *alone),), len(raw), letter_only=alone[0] is not None,
                    roman_only=alone[0] is None)
    if found_marker is None and bullet and (m := _BULLET_MARK.match(plain)) is not None:
        column = where[m.end()] if m.end() < len(where) else len(raw)
        letter, roman = m.group("l1"), m.group("r1")
        return Mark((("?", "", letter, roman),), column, letter_only=letter is not None,
                    roman_only=letter is None)
    return found_marker


def _part_alone(plain: str) -> tuple[str | None, str | None] | None:
    """A heading that is a part's numeral or letter and nothing else: iA Writer's "### II"
    under "## (a)", "#### b" under "## Q3". A heading holds no prose, so a lone "I" or "a"
    there is no pronoun or article: it is the (letter, numeral) of the part it opens."""
    alone = plain.strip(" .:*_").lower()
    if alone in ROMAN_VALUES:
        return None, alone
    if len(alone) == 1 and "a" <= alone <= "h":
        return alone, None
    return None


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
        m = LABEL.fullmatch(tail) or (LABEL.fullmatch(closed) if closed else None)
        if m is None or not (first_of(m, *WORDS) or sub_letter(m)) or m.group("sub"):
            continue
        word = first_of(m, *WORDS)
        return (KINDS[word] if word else "?", first_of(m, *NUMS) or "",
                sub_letter(m), numeral(m))
    return None

