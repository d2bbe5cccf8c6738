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
from dataclasses import dataclass, replace

from grader.written.blocks import heading_level
from grader.written.labels import (
    CLOSING,
    END,
    Mark,
    Path,
    Target,
    parse_label,
    parse_part,
    read_mark,
    strip_markup,
    target_of,
)
from grader.written.question_words import learned_words, read_as_question
from grader.written.runin import COPYRIGHT, Parts, run_in
from grader.written.vocabulary import (
    BOLD_LINE,
    END_WORDS,
    MD_HEADING,
    ROMAN_VALUES,
    TABLE_SEPARATOR,
    contents_lines,
    has_digit,
    is_caption,
    states_value,
    value_at_end,
)

__all__ = [  # the label grammar's names are re-exported: callers read sections from here
    "END", "SOFT_BREAK", "asked_kind", "Line", "Mark", "Parts", "Path", "Target", "find_section",
    "lettered_numbers", "opening", "parse_label", "parse_part", "read_lines", "section_end",
    "sections_of", "split_run_in", "strip_markup", "target_of",
]

_OUTLINE = re.compile(r"(?P<n>\d{1,2})[.)]?(?:\s+(?P<title>[A-Za-z][^=\d]{0,80}?))?\s*")
"""A plain-text outline's question line, at the left margin: "3." or "3. Transformer analysis"."""


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


def read_lines(text: str, lettered: set[str] | None = None,
               parts: Parts | None = None, kind: str | None = None,
               tasks: bool = False) -> list[Line]:
    """Every line of the report, with the label path it is under.

    ``lettered``: question numbers the pack asks in lettered parts; a bare "3.3" heading
    is read as Q3 (c) only for those (elsewhere "3.1 Language Modeling Task" is a
    subsection). ``parts``: the pack's part markers; given, a line holding run-in parts
    ("(e) (I) ... (II) ...") is read as one line per part (``Parts.follows`` says when),
    each with the line's number. ``kind``: the one kind of label the pack asks
    (``asked_kind``); given, every label word reads as it ("Task 3.c" is Q3 (c) in a pack
    that asks questions only: the word is the student's, the number the pack's).
    ``tasks``: the pack asks tasks, so "T3" names Task 3; else it names nothing.
    """
    lettered = lettered or set()
    out: list[Line] = []
    paths: tuple[Path, ...] = ()
    pending = list(_numbered(text))
    contents = {pending[i][0] for i in contents_lines([raw for _, raw in pending])}
    # the report's own words: "Swali 3", "Ερώτηση 3 (a)"; a task's "Oppgave 3"
    word, task = learned_words([raw for _, raw in pending], tasks)
    pending.reverse()
    fences = [n for n, raw in pending if _fence(raw)]
    fences = set(fences[:len(fences) // 2 * 2])  # a fence never closed fences nothing
    fenced = False
    closed: Path | None = None  # the path a closing summary ended (its rows name its parts)
    level: int | None = None  # Markdown level of the last heading that opened a section
    while pending:
        number, raw = pending.pop()
        if number in fences or fenced:
            fenced = fenced != (number in fences and _fence(raw))
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
        if not table and (glued := _glued_label(raw)) is not None:
            pending.append((number, raw[glued:]))  # "... next one**Q3 (a)**": a heading
            raw = raw[:glued].rstrip()
        bold = bool(BOLD_LINE.match(raw))
        heading = heading_level(raw) is not None  # what the document model calls a heading
        if table:
            first_cell = raw.split("|")[1] if raw.count("|") >= 2 else raw
            start = raw.index("|") + 1
            mark = read_mark(read_as_question(first_cell, word, task), heading=False)
            cells = raw.strip().strip("|").split("|")
            if mark is None and len(cells) == 2 and not has_digit(cells[0]):
                # "| **Online text** | **Question 1** |": a form's field beside its
                # content (an LMS's submission page printed), the content's label
                second = read_mark(read_as_question(cells[1], word, task), heading=False)
                if second is not None and all(p[0] in ("q", "t", "task") for p in second.paths):
                    first_cell, start, mark = cells[1], raw.index("|", start) + 1, second
            if mark is not None:  # the answer text starts after the label, inside the cell
                mark = replace(mark, content=start + mark.content)
                mark = _part_column(raw, mark)
        else:
            mark = read_mark(read_as_question(raw, word, task), heading or bold)
            if bold and not heading and mark is not None and not mark.letter_only \
                    and not mark.roman_only:
                heading = True  # "**Question 3 (c)**": a bold label line is a heading
            if mark is not None and mark.paths == (END,) and _subsection(raw, level):
                mark = None  # "### Summary" under "## Q3 (e)": that part's own summary
            if mark is None and not heading and is_caption(raw):
                heading = True  # "Table 2: Result for 3(c)": a caption, its numbers no answer
            if mark is None and action_bar(raw):
                mark = Mark((END,), len(raw))  # "❤ 7 🔗 ↩ Reply": the post ends, replies follow
        if mark is not None and any(p[0] == "t" for p in mark.paths):
            mark = replace(mark, paths=tuple(("task", *p[1:]) if p[0] == "t" else p
                                             for p in mark.paths)) if tasks else None
        if mark is not None and kind is not None:
            mark = _as_asked(mark, kind)
        if mark is None and heading and states_value(raw):
            heading = False  # "### ≈ 14.5 B parameters": a slide's answer set large
        if mark is not None and heading and not table \
                and (at := value_at_end(raw[mark.content:])) is not None:
            # "## Q3 (C) · ATTENTION MEMORY 24.0 GB": a card's result set large on its
            # heading's line is a line of its own, the section's answer stated first
            pending.append((number, raw[mark.content + at:]))
            raw = raw[:mark.content + at].rstrip()
        if mark is None and not table and not heading:
            mark = _outline_mark(raw, paths, lettered)
            if mark is None and len(raw) < 60 \
                    and CLOSING.fullmatch(strip_markup(raw.strip(" -=*_#"))[0]) \
                    and not _subsection(raw, level):
                mark = Mark((END,), len(raw))  # a text report's "Summary of answers:" line
        if mark is not None and not paths and len(lettered) == 1 and mark.letter_only \
                and mark.paths[0][2] is not None and not COPYRIGHT.match(raw.strip(" #*_")):
            # "## (c) Memory" before any label: the one question the pack letters
            mark = Mark((("?", next(iter(lettered)), *mark.paths[0][2:]),), mark.content)
        if table and mark is not None and paths and paths[0] != END \
                and _goes_back(mark, paths[0]) and _restates(pending, mark):
            closed, paths = paths[0], (END,)  # a table going back over the parts: a summary
        if mark is not None and mark.letter_only and mark.paths[0][2] is not None \
                and paths and paths[0] == END and closed is not None:
            # a summary's row or line "(c)" names the part of the question it closed
            mark = Mark(((closed[0], closed[1], *mark.paths[0][2:]),), mark.content)
        elif mark is not None and mark.roman_only and closed is not None and closed[2] \
                and paths and paths[0] == END:
            # a result table under Q3 (e)'s last part, its rows "(I)", "(II)", "(III)":
            # each names a sub-part of the lettered part it closed
            mark = Mark(((*closed[:3], mark.paths[0][3]),), mark.content)
        opens = False
        if mark is not None and not table and _box_title_again(out, mark, raw):
            mark = None
        if mark is not None:
            new = _apply(mark, paths, lettered, heading and MD_HEADING.match(raw) is not None)
            if new is None and paths \
                    and (again := _apply(mark, paths, lettered, True)) is not None \
                    and (parent := _restarted(paths[0], again[0])) is not None \
                    and (mark.answered or _listed(out, parent)):
                _as_statement(out, parent)
                new = again
            if new is not None:
                if new[0] == END and paths and paths[0] != END:
                    closed = paths[0]
                paths, opens = new, True
                if (md := MD_HEADING.match(raw)) is not None:
                    level = len(md.group(1))
        if parts is not None and not table and not heading and paths and paths[0] != END:
            split = run_in(raw, mark.content if mark is not None and opens else 0, paths[0],
                            parts)
            if split is not None:
                pending.append((number, raw[split:]))
                raw = raw[:split].rstrip()
        out.append(Line(number, raw, heading, table, mark, paths, opens))
    return out


def _box_title_again(out: list[Line], mark: Mark, raw: str) -> bool:
    """A label alone on its line that repeats the heading opened two or three lines above,
    with another label between them: an answer template's box printed with its title
    again ("## Q3.6", the handout's prompt "Q3(e)(II) Adam optimizer-state memory …",
    "Q3.6", then the student's answer). The box's number is the template's; the prompt
    named the part, and the box stays in it."""
    if mark.content < len(raw.rstrip(" :.*_#")) or len(out) < 2:
        return False
    above = out[-3:-1]
    return out[-1].opens and any(
        line.opens and line.heading and line.mark is not None
        and line.mark.paths == mark.paths for line in above)


ACTION_WORDS = frozenset({"reply", "replies", "like", "likes", "share", "report", "quote",
                          "flag", "bookmark", "upvote", "downvote", "save", "follow"})
"""The buttons a forum prints under each post ("❤ 7 🔗 ↩ Reply", "⬆ 23 · Share · Save")."""
ACTION_BAR_CHARS = 80


def action_bar(raw: str) -> bool:
    """Whether a line is a forum post's bar of buttons and counts, and nothing else: the
    student's post ends there, and the replies under it (a classmate's "13 likes", a
    mentor's reminder) answer nothing of theirs."""
    if len(raw) > ACTION_BAR_CHARS:
        return False  # checked first: every line of a section is asked
    words = "".join(ch if ch.isalpha() else " " for ch in raw.lower()).split()
    return bool(words) and all(w in ACTION_WORDS for w in words) \
        and any(w in ("reply", "share") for w in words)


def _part_column(raw: str, mark: Mark) -> Mark:
    """A summary row whose part has a column of its own ("| Q3 (e) | (II) | Adam state |
    75.50 MB |" under "Question | Part | Quantity | Answer"): the part in the second cell
    completes the question's label in the first."""
    cells = raw.split("|")
    if len(mark.paths) != 1 or mark.letter_only or mark.roman_only or len(cells) < 4 \
            or (part := parse_part(cells[2])) is None:
        return mark
    kind, num, letter, roman = mark.paths[0]
    new_letter, new_roman = part
    if roman is not None or (letter is not None and new_letter is not None):
        return mark  # the first cell named its part already
    column = len(cells[0]) + len(cells[1]) + len(cells[2]) + 2
    return replace(mark, paths=((kind, num, new_letter or letter, new_roman),), content=column)


def _restarted(current: Path, new: Path) -> Path | None:
    """The question (or lettered part) whose parts an answer word goes back over ("**Problem
    3(e)** … (I) trainable parameters, (II) Adam state memory …" then "**Solution.** (I) …"),
    or None when ``new`` moves on as parts do."""
    if current == END or current[:2] != new[:2]:
        return None
    if new[3] is not None and current[3] is not None and current[2] == new[2] \
            and ROMAN_VALUES[new[3]] < ROMAN_VALUES[current[3]]:
        return (*new[:3], None)
    if new[2] is not None and current[2] is not None and new[3] is None \
            and new[2] < current[2]:
        return (*new[:2], None, None)
    return None


def _statement(out: list[Line], parent: Path) -> Iterator[int]:
    """Indexes of ``out``'s lines since ``parent`` opened, last first."""
    for j in range(len(out) - 1, -1, -1):
        path = out[j].paths[0] if out[j].paths else None
        if path is None or path in (parent, END) or path[:2] != parent[:2] \
                or (parent[2] is not None and path[2] != parent[2]):
            return
        yield j


def _listed(out: list[Line], parent: Path) -> bool:
    """Whether every part opened since ``parent`` was opened by one line of the report: a
    statement listing them ("*(I) LoRA parameters, (II) Adam memory, (III) comparison*"
    under a template's "## Q3 (e)"), which a part's marker going back to the first answers."""
    opened = {out[j].number for j in _statement(out, parent) if out[j].opens}
    return len(opened) == 1 and sum(out[j].opens for j in _statement(out, parent)) >= 2


def _as_statement(out: list[Line], parent: Path) -> None:
    """The lines since ``parent`` opened restate the question and list its parts: they are
    the question's, no part's, so each part's section is its answer's."""
    for j in list(_statement(out, parent)):
        out[j] = replace(out[j], paths=(parent,), opens=False)


def _as_asked(mark: Mark, kind: str) -> Mark:
    """``mark`` with every label word read as the one kind the pack asks."""
    if all(p[0] in ("?", kind) or p == END for p in mark.paths):
        return mark
    return replace(mark, paths=tuple(p if p[0] == "?" or p == END else (kind, *p[1:])
                                     for p in mark.paths))


def asked_kind(targets: Sequence[Target | None]) -> str | None:
    """The kind of label the pack asks ("q" or "task") when it asks one kind only, else None."""
    kinds = {t.kind for t in targets if t is not None}
    return next(iter(kinds)) if len(kinds) == 1 else None


def _subsection(raw: str, level: int | None) -> bool:
    """Whether a closing heading ("Summary") sits below the heading that opened the section
    it is in (a bold line is below any Markdown heading): then it sums up that part only.
    "References" and "Appendix" end every section at any level, and so does a heading of
    answers in the plural ("**Answers**" over a list of every part's): no one part's."""
    plain = strip_markup(raw.strip(" #*_"))[0].lower()
    if level is None or plain.startswith(END_WORDS) or "answers" in plain.split():
        return False
    md = MD_HEADING.match(raw)
    return md is None or len(md.group(1)) > level


def _fence(raw: str) -> bool:
    """A code fence: ``` or ~~~ after at most three spaces."""
    body = raw.lstrip(" ")
    return len(raw) - len(body) <= 3 and body.startswith(("```", "~~~"))


def _comment_start(raw: str) -> int | None:
    """Where a code comment's text starts ("# Q3 (c)", "// (e)", "-- x", "% y"), or None."""
    body = raw.lstrip()
    for lead in ("#", "//", "--", "%"):
        if body.startswith(lead):
            rest = body.lstrip("#") if lead == "#" else body[len(lead):]
            return len(raw) - len(rest.lstrip())
    return None


def _comment_mark(raw: str) -> Mark | None:
    """In a code block, a comment that is a label and nothing else ("# Q3 (c)", "// (e)(ii)")
    opens it; every other line of code (a printed "# 25769803776", "# 3.2") names nothing."""
    start = _comment_start(raw)
    if start is None or _fence(raw):
        return None
    body = raw[start:]
    mark = read_mark(body, heading=False)
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


def _glued_runs(raw: str) -> list[tuple[int, str]]:
    """Bold markup opening right after a word, with no space ("next one**Q3 (a)**"): where,
    and which markup, for each that closes within 40 characters of no markup or line end."""
    out = []
    for markup in ("**", "__"):
        at = raw.find(markup, 1)
        while at > 0:
            close = raw.find(markup, at + 2)
            inner = raw[at + 2:close] if close > at + 2 else ""
            if (not raw[at - 1].isspace() and raw[at - 1] not in "*_|" and len(inner) <= 40
                    and inner and not any(ch in inner for ch in "*_\n")):
                out.append((at, markup))
            at = raw.find(markup, at + 1)
    return sorted(out)


def _glued_label(raw: str) -> int | None:
    """Where a bold label glued onto the end of a line of text starts ("I. ... predicts the
    next one**Q3 (a)**", "For 48 layers:**Q3 (d)** 14,496,989,184 parameters."), or None.

    Why: a page scanned askew has its lines rotated about their starts, and a heading set
    in the margin above a line then sorts after that line's start, so the PDF reader runs
    the heading's bold text on at the line's end, with no space, as no student types it.
    The label read whole inside the bold (a question's, not a bare "(c)" nor a number), in a
    bold run that opens there, is a heading's."""
    for at, markup in _glued_runs(raw):
        if raw.count(markup, 0, at) % 2:
            continue  # the close of a bold run ("**(I)** 2 × 48 = **9,437,184**")
        inner = raw[at + 2:raw.find(markup, at + 2)]
        mark = read_mark(inner, heading=True)
        if mark is not None and not (mark.letter_only or mark.roman_only) \
                and (mark.paths[0][0] != "?" or mark.paths[0][2] is not None) \
                and not inner[mark.content:].strip(" :.-–—"):
            return at
    return None


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
        mark = read_mark(raw.split("|")[1], heading=False)
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



def split_run_in(text: str, targets: Sequence[Target | None]) -> str:
    """``text`` with each run-in part on its own line (after ``SOFT_BREAK``): "(e) (I) 9.4M.
    (II) 75.5 MB." holds two parts the rest of the reading then sees as lines. ``targets``:
    all the pack's questions (``Parts`` says which inline markers open a part).
    """
    lines = read_lines(text, lettered_numbers(targets), Parts.of(targets), asked_kind(targets),
                       any(t is not None and t.kind == "task" for t in targets))
    if len(lines) == len(text.splitlines()):
        return text
    out: list[str] = []
    for i, line in enumerate(lines):
        if i:
            out.append(SOFT_BREAK if line.number == lines[i - 1].number else "\n")
        out.append(line.raw)
    return "".join(out) + "\n"


def _apply(mark: Mark, paths: tuple[Path, ...], lettered: set[str],
           titled: bool = False) -> tuple[Path, ...] | None:
    """The paths after a line with ``mark``, or None when the mark does not count.
    ``titled``: the mark opens a Markdown heading (or, going back over a statement's parts,
    follows the answer word: ``_restarted``), so a part before the current one ("### (e)
    (II)" after "### (e) (III)": answers out of order) is that part again, not a list
    inside the answer."""
    if mark.letter_only or mark.roman_only:
        if not paths or paths[0] == END:
            return None
        kind, num, letter, roman = paths[0]
        new_letter, new_roman = mark.paths[0][2], mark.paths[0][3]
        if new_letter is not None and new_letter == letter and new_roman is not None:
            new_letter = None  # "a-ii" under "Q3-a": the numeral is what moves on
        if new_letter is not None:
            if letter is not None and new_letter <= letter and not titled:
                return None  # "a)" after "(c)": a list inside the answer
            return ((kind, num, new_letter, new_roman),)
        assert new_roman is not None
        if roman is not None and ROMAN_VALUES[new_roman] <= ROMAN_VALUES[roman] and not titled:
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
    """(first index, end index exclusive) of ``target``'s section, or None: the first line
    that enters it, past a mere mention of it (``_mention``)."""
    start = opening(lines, target)
    if start is None:
        start = _numbered_question(lines, target)
    if start is None:
        return None
    found = start, section_end(lines, start, target)
    for later in sections_of(lines, target):
        if later[0] >= found[1] and _mention(lines, found, later[0]):
            return later
    return found


NUMBERED_QUESTIONS = 3
"""The fewest headings numbered 1, 2, 3, … that stand for a report's questions."""


def _numbered_question(lines: Sequence[Line], target: Target) -> int | None:
    """The heading numbered as ``target`` where the report numbers its questions without a
    word for them ("**3. (10 points) Trainable parameters.**", the exam class's numbered
    questions): no line names a question or task by its word, and the numbered headings
    run 1, 2, 3, … . A bare number enters no question elsewhere ("3.1 Language modeling"
    is a subsection of a report's own)."""
    if target.kind != "q" or target.letter is not None:
        return None
    numbered: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        if not line.opens:
            continue
        kinds = {p[0] for p in line.paths}
        if kinds & {"q", "task"}:
            return None
        if line.heading and kinds == {"?"} and all(p[2] is None for p in line.paths):
            numbered.append((i, line.paths[0][1]))
    numbers = [n for _, n in numbered]
    if len(numbers) < NUMBERED_QUESTIONS or numbers != [str(k) for k in range(1, len(numbers) + 1)]:
        return None
    return next((i for i, n in numbered if n == target.num), None)


def _mention(lines: Sequence[Line], first: tuple[int, int], later: int) -> bool:
    """Whether the section at ``first`` only mentions the question that a heading at
    ``later`` opens: the document's title naming the same number at a higher level ("#
    Assignment 3 – Part 3" over "## Question 1" … "## Question 3"), or an entry of a list
    naming the questions, with no value of its own ("- ☑ Q1" / "- ☑ Task 3 / Task 4 runs
    (3 seeds each)" / "- ☑ Q2", a to-do list at the top of a Quip document)."""
    start, end = first
    level, later_level = heading_level(lines[start].raw), heading_level(lines[later].raw)
    if later_level is None:
        return False
    if level is not None:
        return level < later_level and lines[start].raw.lstrip().startswith("#")
    listed = end - start == 1 and start > 0 and lines[start - 1].opens \
        and not lines[start].table and lines[start].raw.lstrip()[:1] in LIST_BULLETS
    return listed and not _holds_value(lines[start].raw)


LIST_BULLETS = "-*+•◦▪☐☑☒✓✔"
"""What opens an item of a bulleted list or a to-do list (a summary table's row, which
answers, is none)."""


def _holds_value(text: str) -> bool:
    """Whether a line gives a value: a decimal, a grouped figure or a number of 100 or more
    ("25.77 GB", "9,437,184"), not a count ("3 seeds each") or a label's number."""
    for word in text.replace("(", " ").replace(")", " ").split():
        digits = word.strip(".,:;%")
        if any(c.isdigit() for c in digits) and (
                any(c in digits for c in ".,") or (digits.isdecimal() and int(digits) >= 100)):
            return True
    return False


def lettered_numbers(targets: Sequence[Target | None]) -> set[str]:
    return {t.num for t in targets if t is not None and t.letter is not None}
