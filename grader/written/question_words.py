"""The words a report numbers its questions and announces its answers with, learned from
the report itself.

Why learn it: the label grammar (``vocabulary.LABEL_WORD``) knows "Question", "Aufgabe",
"Soru", "問" and some forty more, and every batch of reports brought a language it did
not: "Ερώτηση 3 (a)", "Uppgift 3 (a)", "Завдання 3 (a)", "Swali 3", "ข้อ 3 (a)". A list
never ends. What every such report shares is its shape: one word, then the question's
number and part, heading after heading ("Swali 1", "Swali 2", …; "Ερώτηση 3 (a)",
"Ερώτηση 3 (b)", …). So the word that numbers the report's outermost headings is its
question word, whatever its language, and its headings read as "Q3 (a)" would.

Guarded so that a report the grammar already reads is read as before: a word is learned
only where no heading carries a known label word, it must number two or more headings
with different labels (a title "Εργασία 3 – Μέρος 3" stands alone), and words that
number other things ("Step 1", "Figure 2", "Layer 3") are never learned. One word per
report: the one heading the outermost level.

The answer word is learned the same way ("**Svar:** 24,0 GB", "Jibu: 25.77 GB",
"Відповідь: …" in every part): the word that opens, with a colon, three lines or more in
two sections or more, where no line opens with an answer word the vocabulary knows.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from typing import Protocol

from grader.written.labels import read_mark, strip_markup
from grader.written.vocabulary import BOLD_LINE, MD_HEADING

NOT_QUESTION_WORDS = frozenset({
    "step", "steps", "figure", "fig", "table", "tab", "layer", "layers", "epoch", "epochs",
    "seed", "seeds", "run", "runs", "slide", "page", "week", "lecture", "lab", "chapter",
    "section", "appendix", "model", "version", "experiment", "equation", "eq", "case",
    "example", "lemma", "theorem", "definition", "stage", "phase", "day", "round", "trial",
    "head", "heads", "block", "batch", "group", "team", "unit", "module", "lesson",
})
"""Words that number things other than questions: never learned as a question word."""
MAX_WORD = 24
"""A question word is one word: longer runs of letters are a title's words."""
MAX_PLAIN_HEADING = 48
"""A plain-text report's label line is short: "கேள்வி 3 (a)", "3. feladat (c) Memória"."""
DECORATION = " #*_>|-•\t"
"""What may stand before a label on its line (Markdown, a bullet, a table's bar)."""


_Found = dict[str, tuple[int, set[tuple], int]]
"""Each word numbering label lines: (outermost level, label paths, first line)."""


def _is_letter(ch: str) -> bool:
    """A letter of any script, or a mark joined to one (Thai and Devanagari vowel signs)."""
    return ch.isalpha() or unicodedata.category(ch).startswith("M")


def _heading(raw: str) -> tuple[int, str] | None:
    """(level, text) of a Markdown heading, an all-bold line, or a short line standing
    alone as a plain-text report's headings do ("கேள்வி 3 (a)", "3. feladat (c)")."""
    md = MD_HEADING.match(raw)
    if md is not None:
        return len(md.group(1)), md.group(2)
    bold = BOLD_LINE.match(raw)
    if bold is not None:
        return 7, bold.group(1)
    text = raw.strip()
    if 0 < len(text) <= MAX_PLAIN_HEADING and "=" not in text:
        return 8, text
    return None


def _shape(text: str, as_word: str = "Q") -> tuple[str, str] | None:
    """The word a label line names its question with, and the line with that word read
    as "Q" (same length): "Ερώτηση 3 (a)" and "2 Uppgift 3 (a)" (a section number
    first) name it before the number, "3. feladat (a)" (Hungarian, Finnish, Turkish
    order) after it. None when ``text`` has neither shape."""
    lead = 0
    while lead < len(text) and text[lead] in DECORATION:
        lead += 1
    found = _word_first(text, lead, as_word)
    if found is None:
        found = _number_first(text, lead, as_word)
    if found is None:
        i = lead
        while i < len(text) and (text[i].isdigit() or text[i] in " .\t"):
            i += 1  # a section number the document class or the writer put first
        found = _word_first(text, i, as_word) if i > lead else None
    return found


def _word_end(text: str, start: int) -> int:
    end = start
    while end < len(text) and _is_letter(text[end]):
        end += 1
    return end


def _word_first(text: str, start: int, as_word: str) -> tuple[str, str] | None:
    end = _word_end(text, start)
    if not 2 <= end - start <= MAX_WORD:
        return None
    rest = text[end:].lstrip(" .\t\u00a0")
    if not rest[:1].isdigit():
        return None
    if end - start < len(as_word):
        return None  # too short to be read as the word without moving the columns
    read = text[:start] + as_word.ljust(end - start) + text[end:]
    return text[start:end].casefold(), read


def _number_first(text: str, start: int, as_word: str) -> tuple[str, str] | None:
    digits = start
    while digits < len(text) and text[digits].isdigit():
        digits += 1
    if not 1 <= digits - start <= 2 or text[digits:digits + 1] != ".":
        return None
    begin = digits + 1
    while begin < len(text) and text[begin] in " \t\u00a0":
        begin += 1
    end = _word_end(text, begin)
    if not 2 <= end - begin <= MAX_WORD or text[end:].lstrip()[:1].isdigit():
        return None  # "2. Uppgift 3 (a)": a section number, then the word before its number
    number = text[start:digits]
    if end - start < len(as_word) + len(number):
        return None
    read = text[:start] + (as_word + number).ljust(end - start) + text[end:]
    return text[begin:end].casefold(), read


def _figures_row(text: str) -> bool:
    """A row of a table written with spaces ("pretrained   1     0.853     1200   0.841"):
    one word, then three figures or more and nothing else. A label line has its number
    and a part or a title, never a run of figures."""
    words = text.split()
    return len(words) >= 4 and all(
        w.replace(".", "").replace(",", "").replace("%", "").isdigit() for w in words[1:])


def _numbering_words(lines: Sequence[str]) -> _Found | None:
    """Each word that numbers the report's label lines: (outermost level, label paths,
    first line); None when the grammar already reads a heading's label word."""
    found: _Found = {}
    for index, raw in enumerate(lines):
        head = _heading(raw)
        if head is None:
            continue
        level, text = head
        plain, _ = strip_markup(text)
        if level == 8 and _figures_row(plain):
            continue
        mark = read_mark(raw, heading=True)
        if level < 8 and mark is not None and any(p[0] in ("q", "task") for p in mark.paths):
            return None  # the grammar reads this report's labels: learn nothing
        if mark is not None and level == 8 and mark.content >= len(raw.rstrip(" :.")) \
                and any(p[0] in ("q", "task") for p in mark.paths):
            return None  # a plain line that is a known label and nothing else
        shape = _shape(plain)
        if shape is None or shape[0] in NOT_QUESTION_WORDS:
            continue
        word, as_question = shape
        read = read_mark(as_question, heading=True)
        if read is None:
            continue
        paths = {p for p in read.paths if p[0] == "q"}
        if not paths:
            continue
        best, seen, first = found.get(word, (level, set(), index))
        found[word] = (min(best, level), seen | paths, first)
    return found


def question_word(lines: Sequence[str]) -> str | None:
    """The word (case-folded) this report numbers its questions with, when the grammar
    knows none of its heading words; None when it knows one, or no word qualifies."""
    return _question(_numbering_words(lines) or {})


def task_word(lines: Sequence[str], question: str | None) -> str | None:
    """Where a pack asks questions and tasks (lab B: Questions 1-2, Tasks 3-4), the word
    that numbers the report's other headings at the question word's level, none of its
    numbers the question word's ("Spørsmål 1", "Spørsmål 2", then "Oppgave 3 og 4"):
    the report's word for a task. None when there is no such word, or two."""
    return _task(_numbering_words(lines) or {}, question)


def learned_words(lines: Sequence[str], tasks: bool) -> tuple[str | None, str | None]:
    """The report's question word and (where the pack asks tasks) its task word, from one
    reading of its label lines: what ``question_word`` and ``task_word`` give."""
    found = _numbering_words(lines) or {}
    question = _question(found)
    return question, _task(found, question) if tasks else None


def _question(found: _Found) -> str | None:
    ranked = sorted((level, -len(paths), first, word)
                    for word, (level, paths, first) in found.items() if len(paths) >= 2)
    return ranked[0][3] if ranked else None


def _task(found: _Found, question: str | None) -> str | None:
    if question is None:
        return None
    level, asked, _first = found[question]
    numbers = {p[1] for p in asked}
    others = [word for word, (lvl, paths, _f) in found.items()
              if word != question and lvl == level and len(word) >= len("Task")
              and not numbers & {p[1] for p in paths}]
    return others[0] if len(others) == 1 else None


def read_as_question(raw: str, word: str | None, task: str | None = None) -> str:
    """``raw`` with the report's question word at its start read as "Q" (its task word as
    "Task"; same length, so columns hold), when the word leads the line before a number
    or follows one ("3. feladat (a)"); else ``raw``."""
    if word is None:
        return raw
    shape = _shape(raw)
    if shape is not None and shape[0] == word:
        return shape[1]
    if task is not None and shape is not None and shape[0] == task:
        as_task = _shape(raw, "Task")
        return as_task[1] if as_task is not None else raw
    return raw


# -- the word a report announces its answers with ---------------------------------------------

NOT_ANSWER_WORDS = frozenset({
    "working", "workings", "work", "given", "note", "notes", "formula", "formulas",
    "calculation", "calculations", "calc", "steps", "step", "method", "reasoning",
    "explanation", "where", "so", "then", "check", "hence", "thus", "therefore", "proof",
    "derivation", "recall", "assume", "assumption", "assumptions", "logits", "input",
    "inputs", "output", "outputs", "code", "source", "sources", "reference", "references",
    "figure", "table", "see", "example", "model", "question", "task", "part",
})
"""Words that lead a line of working, never learned as the answer word."""
MIN_ANSWER_LINES = 3
"""A learned answer word leads this many lines or more, in two sections or more."""
OPERATORS = "×·*+/÷^√"
"""Arithmetic between numbers: a line holding it after "Word:" is working ("how: 48 ×
16,384^2 × 2"), not an answer stated ("Svar: 24,0 GB", "Jibu: p(mat) = 0.750")."""
MAX_STATEMENT = 90
"""An answer stated after its word is short; a longer line is working or prose."""


class _Line(Protocol):
    number: int
    raw: str
    table: bool
    code: bool
    paths: tuple[tuple[str, str, str | None, str | None], ...]


def _colon_word(raw: str) -> tuple[str, bool] | None:
    """The word a line opens with when a colon follows it ("**Svar:** 24,0 GB", "Jibu:
    25.77 GB", "- Відповідь: …"), case-folded, and whether what follows states a value
    (short, no arithmetic); None when the line opens otherwise."""
    plain, _ = strip_markup(raw)
    text = plain.lstrip(" >-•*\t")
    end = 0
    while end < len(text) and _is_letter(text[end]):
        end += 1
    if not 2 <= end <= MAX_WORD:
        return None
    rest = text[end:].lstrip(" \u00a0")
    said = rest[1:].strip(" *_")
    if not rest.startswith((":", "：")) or not said:
        return None
    states = len(said) <= MAX_STATEMENT and not any(op in said for op in OPERATORS)
    return text[:end].casefold(), states


def answer_word(lines: Sequence[_Line], known: Callable[[str], bool]) -> str | None:
    """The word this report announces its answers with ("Svar:", "Jibu:", "Απάντηση:"),
    when no line opens with an answer word ``known`` reads; None when one does, or when no
    word leads ``MIN_ANSWER_LINES`` lines stating a value in two sections or more (and
    states one in two of its lines in three at least), or two words tie."""
    return _answer_scan(lines, known)[0]


def answer_lines(lines: Sequence[_Line], known: Callable[[str], bool]) -> set[int]:
    """The numbers of the lines the report's own answer word opens (``answer_word``)."""
    return _answer_scan(lines, known)[1]


def _answer_scan(lines: Sequence[_Line], known: Callable[[str], bool]
                 ) -> tuple[str | None, set[int]]:
    """The learned answer word and the lines it opens stating a value, in one pass."""
    counts: dict[str, int] = {}
    stating: dict[str, set[int]] = {}
    sections: dict[str, set[tuple]] = {}
    for line in lines:
        if line.code or line.table:
            continue
        if known(line.raw):
            return None, set()  # the vocabulary reads this report's answer lines
        opened = _colon_word(line.raw)
        if opened is None or opened[0] in NOT_ANSWER_WORDS or not line.paths:
            continue
        word, states = opened
        counts[word] = counts.get(word, 0) + 1
        if states:
            stating.setdefault(word, set()).add(line.number)
            sections.setdefault(word, set()).add(line.paths[0])
    ranked = sorted(((len(n), len(sections[w]), w) for w, n in stating.items()
                     if len(n) >= MIN_ANSWER_LINES and len(sections[w]) >= 2
                     and 3 * len(n) >= 2 * counts[w]), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0][:2] == ranked[1][:2]):
        return None, set()
    return ranked[0][2], stating[ranked[0][2]]
