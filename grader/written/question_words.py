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


def _is_letter(ch: str) -> bool:
    """A letter of any script, or a mark joined to one (Thai and Devanagari vowel signs)."""
    return ch.isalpha() or unicodedata.category(ch).startswith("M")


def _heading(raw: str) -> tuple[int, str, int] | None:
    """(level, text, column of the text) of a Markdown heading or an all-bold line."""
    md = MD_HEADING.match(raw)
    if md is not None:
        return len(md.group(1)), md.group(2), md.start(2)
    bold = BOLD_LINE.match(raw)
    if bold is not None:
        return 7, bold.group(1), bold.start(1)
    return None


def _word_before_number(text: str) -> tuple[int, int] | None:
    """Where a word standing before a number starts and ends in ``text`` ("2 Uppgift 3 (a)":
    the section number before it is skipped), or None."""
    i = 0
    while i < len(text) and (text[i].isdigit() or text[i] in " .\t"):
        i += 1  # a section number the document class or the writer put first
    start = i
    while i < len(text) and _is_letter(text[i]):
        i += 1
    end = i
    if not 2 <= end - start <= MAX_WORD:
        return None
    while i < len(text) and text[i] in " .\t\u00a0":
        i += 1
    if i >= len(text) or not text[i].isdigit():
        return None
    return start, end


def _as_question(raw: str, start: int, end: int) -> str:
    """``raw`` with its word ``raw[start:end]`` read as "Q", every column kept."""
    return raw[:start] + "Q" + " " * (end - start - 1) + raw[end:]


def question_word(lines: Sequence[str]) -> str | None:
    """The word (case-folded) this report numbers its questions with, when the grammar
    knows none of its heading words; None when it knows one, or no word qualifies."""
    found: dict[str, tuple[int, set[tuple], int]] = {}
    for index, raw in enumerate(lines):
        head = _heading(raw)
        if head is None:
            continue
        level, text, _column = head
        plain, _ = strip_markup(text)
        mark = read_mark(raw, heading=True)
        if mark is not None and any(p[0] in ("q", "task") for p in mark.paths):
            return None  # the grammar reads this report's labels: learn nothing
        span = _word_before_number(plain)
        if span is None:
            continue
        word = plain[span[0]:span[1]].casefold()
        if word in NOT_QUESTION_WORDS:
            continue
        read = read_mark(_as_question(plain, *span), heading=True)
        if read is None:
            continue
        paths = {p for p in read.paths if p[0] == "q"}
        if not paths:
            continue
        best, seen, first = found.get(word, (level, set(), index))
        found[word] = (min(best, level), seen | paths, first)
    ranked = sorted((level, -len(paths), first, word)
                    for word, (level, paths, first) in found.items() if len(paths) >= 2)
    return ranked[0][3] if ranked else None


def read_as_question(raw: str, word: str | None) -> str:
    """``raw`` with the report's question word at its start read as "Q" (same length, so
    columns hold), when the word leads the line before a number; else ``raw``."""
    if word is None:
        return raw
    lead = 0
    while lead < len(raw) and (raw[lead] in " #*_>|-•\t" or raw[lead].isdigit()
                               or raw[lead] == "."):
        lead += 1
    end = lead
    while end < len(raw) and _is_letter(raw[end]):
        end += 1
    if raw[lead:end].casefold() != word:
        return raw
    rest = raw[end:].lstrip(" .\t\u00a0*_")
    return _as_question(raw, lead, end) if rest[:1].isdigit() else raw


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
    counts: dict[str, int] = {}
    stating: dict[str, int] = {}
    sections: dict[str, set[tuple]] = {}
    for line in lines:
        if line.code or line.table:
            continue
        if known(line.raw):
            return None  # the vocabulary reads this report's answer lines: learn nothing
        opened = _colon_word(line.raw)
        if opened is None or opened[0] in NOT_ANSWER_WORDS or not line.paths:
            continue
        word, states = opened
        counts[word] = counts.get(word, 0) + 1
        if states:
            stating[word] = stating.get(word, 0) + 1
            sections.setdefault(word, set()).add(line.paths[0])
    ranked = sorted(((n, len(sections[w]), w) for w, n in stating.items()
                     if n >= MIN_ANSWER_LINES and len(sections[w]) >= 2
                     and 3 * n >= 2 * counts[w]), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0][:2] == ranked[1][:2]):
        return None
    return ranked[0][2]


def answer_lines(lines: Sequence[_Line], known: Callable[[str], bool]) -> set[int]:
    """The numbers of the lines the report's own answer word opens (``answer_word``)."""
    word = answer_word(lines, known)
    if word is None:
        return set()
    return {line.number for line in lines
            if not line.code and not line.table and _colon_word(line.raw) == (word, True)}
