"""Two answers in one part ("p(mat)" and the loss): which numbers are whose.

Why: a part may ask two values, each named by the pack's ``labels``; a number belongs to
the nearest label before it (across lines), and one named by a word that is no answer's
label ("、損失=0.1249") belongs to none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from grader.written.candidates import TIER_FINAL, Candidate, Source, clean
from grader.written.phrases import find_phrase, norm
from grader.written.vocabulary import LIST_COMMAS, has_digit, is_table_row

if TYPE_CHECKING:
    from grader.written.questions import QuestionSpec


def _last_label(text: str, phrase: str) -> int:
    """Where ``phrase`` last names an answer in ``text`` (not as an operand: "-ln p(mat)")."""
    best, start = -1, 0
    while True:
        at = find_phrase(text[start:], phrase)
        if at < 0:
            return best
        at += start
        if not _operand(text[:at]):
            best = at
        start = at + 1


def _operand(before: str) -> bool:
    """Whether a label after ``before`` is a logarithm's argument ("-ln p(mat)", "-\\log_2
    p(mat)", "log₁₀(p)"): then it names no answer. A bracket after a word opens an
    aside, not an argument: "a perda (cross-entropy) L = 0,2876" names the loss."""
    before = before.rstrip()
    called = before.endswith("(") and not before[:-1].rstrip()[-1:].isalpha()
    base = before.rstrip(" ({}_0123456789₀₁₂₃₄₅₆₇₈₉")
    return called or base.endswith(("ln", "log", "lg"))


def _owner(text: str, own: Sequence[str], others: Sequence[str]) -> bool | None:
    """Whose label comes last in ``text``: this answer's (True), another's (False), none."""
    best: tuple[int, bool | None] = (-1, None)
    for words, is_own in ((own, True), (others, False)):
        for w in words:
            at = _last_label(text, w)
            if at > best[0]:
                best = (at, is_own)
    return best[1]


def _named_item(prefix: str) -> str | None:
    """The last item of a list a number is the value of, where the item is named before an
    "=" ("p(mat)=0.7500、損失=0.1249": "損失="), else None. A name that is no answer's
    label still ends the label before it: the number is not that label's."""
    cut = max(prefix.rfind(ch) for ch in LIST_COMMAS)
    if cut < 0:
        return None
    tail = prefix[cut + 1:].strip()
    name = tail.rstrip(" =:≈").strip()
    if name == tail or not name or has_digit(name) or len(name) > 40:
        return None
    return tail


def _cell_start(text: str, column: int) -> int:
    """Where the table cell holding ``column`` starts (0 outside a table row): a row's
    answer cell is read on its own, not as the end of the working cell before it. (A row
    whose label opened its section comes without the label: " loss | p(mat) | … |".)"""
    if not is_table_row(text) and " | " not in text:
        return 0
    return text.rfind("|", 0, column) + 1


def _row_owner(text: str, own: Sequence[str], others: Sequence[str],
               before: bool | None) -> bool | None:
    """Whose label a table row's first cell names ("| Cross-entropy loss | ... |"), else
    the owner the lines before left (``before``)."""
    cells = text.strip().strip("|").split("|")
    # a row continuing the one above leaves its first cell empty ("|  | p(mat) | 0.75 |",
    # a spreadsheet's rows under "Q3 (a)(II)"): its first filled cell names it
    while len(cells) > 2 and not cells[0].strip():
        cells = cells[1:]
    if not (is_table_row(text) or " | " in text) or len(cells) < 2 or any(
            w.strip("(),.=≈~$*")[:1].isdigit() for w in cells[0].split()):
        # a first cell with figures is working (its label cell read off); a key's digits
        # ("q3a2_loss_log10") are no figures
        return before
    named = _owner(norm(clean(cells[0])), own, others)
    if named is None:  # "_p_mat" (a run's key, its label cut off) is no emphasis to clean
        named = _owner(norm(cells[0]), own, others)
    return before if named is None else named


SYMBOL_CHARS = 2
"""The longest function symbol a label's call is named by alone ("p" of "p(mat)")."""


def _with_symbols(labels: list[str]) -> list[str]:
    """``labels`` and the symbols their calls name ("p(mat)" -> "p"): a student who writes
    "p = 0.0413" under "p(mat) and the loss" names the probability by its symbol."""
    symbols = [head for x in labels if "(" in x
               and 1 <= len(head := x.split("(")[0].strip()) <= SYMBOL_CHARS and head.isalpha()]
    return labels + [h for h in dict.fromkeys(symbols) if h not in labels]


def own_candidates(found: list[Candidate], sources: Sequence[Source], spec: QuestionSpec,
                    questions: Sequence[QuestionSpec]) -> list[Candidate]:
    """Where a part holds two answers ("p(mat)" and the loss), the numbers that follow this
    one's label (the nearest label before each number, across lines); with no label of its
    own in the part, the numbers before any other's label."""
    if not spec.labels:
        return found
    own = _with_symbols([norm(x) for x in spec.labels])
    others = _with_symbols([norm(x) for q in questions if q.id != spec.id
                            and q.headings == spec.headings and q.part == spec.part
                            for x in q.labels])
    if not others:
        return found
    by_line: dict[int, list[Candidate]] = {}
    for c in found:
        by_line.setdefault(c.line, []).append(c)
    current: bool | None = None
    after_own = False  # an unnamed item ended this answer's run of working
    mine, unlabelled, trailing = [], [], []
    for src in sources:
        cell, row_owner = 0, _row_owner(src.text, own, others, current)
        for c in by_line.get(src.number, []):
            upto = c.end if c.why == "formula" else c.column  # "-\ln \frac{...}" names the loss
            if _cell_start(c.line_text, c.column) != cell:
                # "| Q3(a)(II) | ...; loss = −log(p) | p = 0.7500 |": a cell starts from what
                # the row's first cell names, not from the working cell before it
                cell, current = _cell_start(c.line_text, c.column), row_owner
            owner = _owner(norm(c.line_text[cell:upto]), own, others)
            item = _named_item(c.line_text[cell:upto])
            if item is not None and _owner(norm(item), own, others) is None:
                after_own = after_own or current is True
                owner = current = None  # "、損失=0.1249": named, but by no answer's label
            current = owner if owner is not None else current
            after_own = after_own and current is None
            (mine if current else unlabelled if current is None else []).append(c)
            if current is None and after_own:
                trailing.append(c)
        owner = _owner(norm(clean(src.text)), own, others)
        current = owner if owner is not None else current
        after_own = after_own and current is None
    if mine and trailing and max(c.tier for c in trailing) > max(c.tier for c in mine):
        # "softmax: exp = [...], sum = 26.779" then "p = 0.750": the working's unnamed item
        # ended the label's run, yet a settled value after it outranks the working before
        return mine + trailing
    return mine or unlabelled



def labelled_lines(found: list[Candidate], spec: QuestionSpec) -> list[Candidate]:
    """A line that opens with this answer's own name of several words and a colon or
    "=" ("LM model trainable parameters: 21018401", the notebook's printed line pasted in
    the report) gives the answer, as an "Answer:" line does: the first value after it."""
    names = [norm(x) for x in spec.labels if len(x.split()) >= 2]
    if not names:
        return found
    out, done = [], set()
    for c in found:
        before = c.line_text[:c.column].strip().lstrip("-*>#|` ")
        if before.endswith((":", "=")) and norm(before) in names and c.line not in done:
            done.add(c.line)
            c = replace(c, why="labelled line", conclusive=True, tier=TIER_FINAL)
        out.append(c)
    return out
