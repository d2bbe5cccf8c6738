"""Reports: find each question's final answer (``extract_answers``) and quote a section
(``section_text``). The one place the grader finds a report's sections; reading files is
``grader.written.reading``.

A question is named once, by its label and part (``QuestionSpec("q3e2", ("Q3 (e)",),
part="(II)")``): ``sections`` reads every labelled line of the report (Q3(c), Question 3(c),
3(c), 3.3, Part 3 – c), Q3.c, "(c)" under a Q3 heading, (e)(II), e-ii, a table row naming
the question), and since ``extract_answers`` is given *all* the pack's questions, a section
ends where the report leaves its label: Q3 (d) ends Q3 (c), (II) ends (I). Headings that
name no label ("Language modeling task") are phrases, found as a heading or a line start.
Inside the range, ``candidates`` lists every number and formula and picks what the student
marks as final; ``stated`` reads the conventions the section states. Every candidate is
kept, so a TA can see what else was considered.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from calculators.answers.parse import ParsedAnswer
from calculators.answers.stated import conventions_in
from grader.written.blocks import table_of
from grader.written.candidates import Candidate, Source, candidates, clean, pick, shotgun
from grader.written.reading import (  # noqa: F401  (re-exported: existing imports)
    MAX_REPORT_BYTES,
    Report,
    ReportReadError,
    read_report,
)
from grader.written.sections import (
    END,
    SOFT_BREAK,
    Line,
    find_section,
    lettered_numbers,
    read_lines,
    sections_of,
    split_run_in,
    target_of,
)
from grader.written.vocabulary import (
    LEADING_MARKERS,
    LIST_COMMAS,
    MD_HEADING,
    QUESTION_LABEL,
    has_digit,
    heading_text,
    kind_of,
)

# -- questions and candidates ---------------------------------------------------------------


@dataclass(frozen=True)
class QuestionSpec:
    """Where a question's answer is: the label (or phrases) of its section, and its part.

    ``QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")`` reads the lines from the one that
    enters Q3 (e) (II) to the first labelled line that leaves it ("(III)", "Q3 (f)",
    "Question 4"). A heading that is no label (``"Language modeling task"``) is a phrase
    that opens a heading or a line; a ``part`` that is no marker (``"Classification task"``)
    narrows the section to the lines from the one starting with it to a sibling part.
    ``labels``: words that name this answer where one part holds two ("p(mat)", "loss");
    a number belongs to the nearest label before it. ``synonyms``: other names a student
    may give a phrase heading or part, by the pack's name (the pack's ``[synonyms]``:
    "Language modeling task" = ["Pre-training (LM) model"]); a label needs none, its
    forms are read by the label grammar.
    """

    id: str
    headings: tuple[str, ...]
    part: str | None = None
    symbols: Mapping[str, Any] | None = None
    labels: tuple[str, ...] = ()
    synonyms: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def names(self, phrase: str) -> list[str]:
        """``phrase`` and the other names the pack gives it."""
        return [phrase, *self.synonyms.get(phrase, ())]

    def __post_init__(self) -> None:
        if isinstance(self.headings, str):
            object.__setattr__(self, "headings", (self.headings,))
        if isinstance(self.labels, str):
            object.__setattr__(self, "labels", (self.labels,))


@dataclass(frozen=True)
class Extracted:
    """The answer picked for one question, with the evidence for the pick."""

    question_id: str
    found: bool
    answer: str | None = None
    line: int | None = None
    why: str | None = None
    parsed: ParsedAnswer | None = field(default=None, repr=False, compare=False)
    candidates: tuple[Candidate, ...] = ()
    section: tuple[int, int] | None = None  # first and last line (1-based) searched
    heading: str | None = None
    reason: str | None = None
    shotgun: tuple[str, ...] = ()
    """Different values offered as the answer (the picked one first); empty if one."""
    stated: tuple[str, ...] = ()
    """Conventions the section states ("no_bias", "fp32", ...): `stated.conventions_in`."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "question_id": self.question_id,
            "found": self.found,
            "answer": self.answer,
            "line": self.line,
            "why": self.why,
            "parsed": None if self.parsed is None else self.parsed.to_dict(),
            "candidates": [c.to_dict() for c in self.candidates],
            "section": None if self.section is None else list(self.section),
            "heading": self.heading,
            "reason": self.reason,
            "shotgun": list(self.shotgun),
            "stated": list(self.stated),
        }


# -- phrase headings (sections whose heading names no label) ----------------------------------

_RUN_IN_BOLD = re.compile(r"^(.*?[^\s*#][ \t]*(?:\*\*)?)[ \t]+(\*\*([^*\n]{1,80})\*\*)[ \t]*$")
"""A bold run at the end of a line ("= **21015201** **3.2 Classification task**"): a PDF's
text may run a subheading onto the line before it. Matched on one line's tail
(`split_run_in_headings`), never on a Markdown heading (`MD_HEADING`)."""


def split_run_in_headings(text: str, phrases: Sequence[str]) -> str:
    """Put a bold subheading the text ran onto the line before on a line of its own, by a
    ``SOFT_BREAK`` (line numbers stay the student's), where it starts with a heading or part
    the pack asks ("**3.2 Classification task**"): left there, the part it opens would start
    a line late and the part before it would run into it. Only such phrases: a bold value at
    a line's end ("= **25.77 GB**") is an answer, not a heading."""
    wanted = [n for p in phrases if len(n := _norm(p)) > 4]  # a phrase, no "(I)" marker

    def split(m: re.Match[str]) -> str:
        head = LEADING_MARKERS.sub("", _norm(m.group(3)))
        if any(_find_phrase(head, w) == 0 for w in wanted):
            return m.group(1) + SOFT_BREAK + m.group(2)
        return m.group(0)

    if "**" not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        # The pattern backtracks quadratically over a long whitespace run (150,000 spaces:
        # 79 s), so it only sees a line whose end could be a bold run's, with a gap of at
        # most `_TAIL_CHARS`, and only from the last word before that gap on.
        tail = line.rstrip(" \t")
        if not tail.endswith("**") or tail.count("**") < 2 or MD_HEADING.match(line):
            continue
        opening = tail.rfind("**", 0, len(tail) - 2)
        before = tail[:opening].rstrip(" \t")
        if not before or len(tail) - len(before) > _TAIL_CHARS:
            continue
        cut = max(before.rfind(" "), before.rfind("\t")) + 1
        lines[i] = line[:cut] + _RUN_IN_BOLD.sub(split, line[cut:])
    return "\n".join(lines)


_TAIL_CHARS = 200
"""The most a bold run at a line's end (80 characters) and the gap before it may span."""


def _norm(text: str) -> str:
    s = text.lower().replace("\\_", "_")
    s = " ".join(s.translate(_MARKUP_BLANKS).split())  # one space each, so:
    s = s.replace("( ", "(").replace(" (", "(").replace(" )", ")")
    s = _BRITISH.sub(lambda m: _AMERICAN[m.group(0)], s)
    return " ".join(s.split()).strip(" :.")


_MARKUP_BLANKS = str.maketrans(dict.fromkeys("*`#$\\", " "))
_AMERICAN = {"modelling": "modeling", "labelling": "labeling", "isation": "ization",
             "normalis": "normaliz", "tokenis": "tokeniz"}
_BRITISH = re.compile("|".join(_AMERICAN))
"""British spellings read as the pack writes them ("Language modelling task")."""


def _find_phrase(text: str, phrase: str) -> int:
    """Index of ``phrase`` in ``text`` on word boundaries ("question 1" is not in "question 10")."""
    start = 0
    while True:
        idx = text.find(phrase, start)
        if idx < 0:
            return -1
        before = text[idx - 1] if idx > 0 else " "
        end = idx + len(phrase)
        after = text[end] if end < len(text) else " "
        if not before.isalnum() and not (after.isalnum() and phrase[-1:].isalnum()):
            return idx
        start = idx + 1


@dataclass(frozen=True)
class _Line:
    number: int  # 1-based
    raw: str
    heading: str | None  # normalised heading text for a Markdown or bold heading line
    norm: str  # normalised text with list markers stripped


def _lines(text: str) -> list[_Line]:
    out = []
    for idx, raw in enumerate(text.splitlines(), start=1):
        text = heading_text(raw)
        heading = _norm(text) if text is not None else None
        norm = _norm(raw)
        norm = LEADING_MARKERS.sub("", norm) if heading is None else heading
        out.append(_Line(idx, raw, heading, norm))
    return out


def _labels(text: str) -> set[tuple[str, str]]:
    return {(kind_of(w), n) for w, n in QUESTION_LABEL.findall(text)}


def _opens(line: _Line, phrases: Sequence[str]) -> int | None:
    """Where the section-opening phrase ends in ``line.norm``, or None."""
    for phrase in phrases:
        p = _norm(phrase)
        if line.heading is not None:
            if _find_phrase(line.heading, p) >= 0:
                return len(line.norm)  # a heading line holds no answer
        else:
            stripped = line.norm.strip()  # list and section numbers are off already
            if _find_phrase(stripped, p) == 0:
                return len(line.norm) - len(stripped) + len(p)
    return None


def _ends_section(j: int, i: int, plain: Sequence[_Line], labelled: Sequence[Line],
                  own_phrases: Sequence[str], other_phrases: Sequence[str]) -> bool:
    """Whether line ``j`` leaves the phrase section opened at line ``i``: another phrase of
    the pack opens there, or a label does (read by ``sections``, as every label is) that
    names another question than the one the section stands in, "References" included; a
    heading that mentions another question anywhere ("Results of Task 7") ends it too."""
    line = plain[j]
    if any(_opens(line, [p]) is not None for p in other_phrases if p not in own_phrases):
        return True
    mark = labelled[j]
    if mark.opens:
        if mark.paths == (END,):
            return True
        own = labelled[i].paths
        if not any(p[1] == o[1] for p in mark.paths for o in own if o != END):
            return True
    if line.heading is None:
        return False
    own_line = plain[i]
    labels = _labels(line.heading)
    return bool(labels) and not labels & _labels(own_line.heading or own_line.norm)


def _phrase_opening(lines: list[_Line], headings: Sequence[str]) -> tuple[int, int] | None:
    """(index of the first line opening a section for ``headings``, column of its inline answer)."""
    for i, line in enumerate(lines):
        col = _opens(line, headings)
        if col is not None:
            return i, col
    return None


def _phrase_section(lines: list[_Line], labelled: Sequence[Line], headings: Sequence[str],
                    all_phrases: Sequence[str]) -> tuple[int, int] | None:
    opening = _phrase_opening(lines, headings)
    if opening is None:
        return None
    i = opening[0]
    for j in range(i + 1, len(lines)):
        if (lines[j].heading is not None or lines[j].norm) and _ends_section(
                j, i, lines, labelled, headings, all_phrases):
            return i, j
    return i, len(lines)


def _part_range(lines: list[_Line], start: int, end: int, part: str,
                siblings: Sequence[str]) -> tuple[int, int] | None:
    own = _norm(part)

    def begins(line: _Line, phrase: str) -> bool:
        text = line.heading if line.heading is not None else line.norm.lstrip("| ")
        return _find_phrase(LEADING_MARKERS.sub("", text), phrase) == 0

    first = next((i for i in range(start, end) if begins(lines[i], own)), None)
    inside = first is None  # named inside its line: "语言建模任务（Language modeling task）："
    if first is None:
        first = next((i for i in range(start, end) if _find_phrase(lines[i].norm, own) >= 0), None)
    if first is None:
        return None
    others = [_norm(s) for s in siblings if _norm(s) != own]
    # a sibling named as this part was (inside its line, the pack's name in brackets
    # after the student's) ends it as a sibling at a line's start does
    stop = next((i for i in range(first + 1, end)
                 if any(begins(lines[i], o) or ((inside or o.startswith("("))
                                                and _find_phrase(lines[i].norm, o) >= 0)
                        for o in others)), end)
    return first, stop


_GENERIC_WORDS = frozenset({"task", "model", "models", "part", "the", "a", "an", "of", "for",
                            "and", "in", "on", "to", "with", "network", "result", "results"})
"""Words a part's name shares with every sibling ("... task", "... model"): no evidence."""


def _stems(name: str) -> tuple[set[str], str]:
    """The stems of a part name's own words (first five letters) and their initials."""
    words = [w for w in "".join(c if c.isalnum() else " " for c in _norm(name)).split()
             if w not in _GENERIC_WORDS]
    return {w[:5] for w in words if len(w) >= 4}, "".join(w[0] for w in words)


def _head_words(line: _Line) -> list[str]:
    """The words that name a line: a table row's first cell, a line's text before ":"."""
    text = line.heading if line.heading is not None else line.norm.lstrip("| ")
    text = text.split("|")[0].split(":")[0]
    return "".join(c if c.isalnum() else " " for c in text).split()[:6]


def _named_like(line: _Line, name: str) -> bool:
    """Whether a line's head names ``name`` in other words: a word of the same stem
    ("Classifier" for "Classification task") or its initials ("LM model" for "Language
    modeling task"). Numbers are no name."""
    stems, initials = _stems(name)
    words = [w for w in _head_words(line) if not w[0].isdigit()]
    return any(w[:5] in stems for w in words if len(w) >= 4 and w not in _GENERIC_WORDS) \
        or (len(initials) >= 2 and initials in words)


def _loose_part_range(lines: list[_Line], start: int, end: int, names: Sequence[str],
                      siblings: Sequence[str]) -> tuple[int, int] | None:
    """A part named in the student's own words (neither the pack's name nor a synonym):
    the last line whose head is named like this part and like no sibling, to the next
    line named like a sibling. Read only when every other way found nothing."""
    def mine(line: _Line) -> bool:
        return any(_named_like(line, n) for n in names) \
            and not any(_named_like(line, o) for o in siblings)

    # the last such line: an answer comes after its working, whose rows ("LM head",
    # "Classification head") are named like the parts too
    first = next((i for i in range(end - 1, start - 1, -1) if mine(lines[i])), None)
    if first is None:
        return None
    stop = next((i for i in range(first + 1, end)
                 if any(_named_like(lines[i], o) for o in siblings) and not mine(lines[i])), end)
    return first, stop


# -- finding each question's range ------------------------------------------------------------


@dataclass(frozen=True)
class _Range:
    start: int  # index of the line that opens it
    end: int  # exclusive
    inline: bool  # the opening line's text after its label holds answer text
    heading: str
    intro: tuple[int, int] = (0, 0)
    """Lines before the question's first part: conventions stated there hold for every part."""


class _Reader:
    """One report read against all the pack's questions (a section ends at the next one)."""

    def __init__(self, text: str, questions: Sequence[QuestionSpec]) -> None:
        self.questions = list(questions)
        self.targets = {q.id: target_of(q.headings, q.part) for q in questions}
        self.parents = {q.id: target_of(q.headings, None) for q in questions}
        lettered = lettered_numbers([*self.targets.values(), *self.parents.values()])
        phrases = [n for q in questions if q.part for n in q.names(q.part)]  # never "# **Q3**"
        text = split_run_in(split_run_in_headings(text, phrases),
                            [*self.targets.values(), *self.parents.values()])
        self.lines = read_lines(text, lettered)
        self.plain = _lines(text)
        self.all_phrases = [n for q in questions for p in q.headings for n in q.names(p)]

    def range_of(self, spec: QuestionSpec) -> _Range | str:
        """The lines of ``spec``'s answer, or why none were found."""
        target, parent = self.targets[spec.id], self.parents[spec.id]
        if target is not None:
            found = find_section(self.lines, target)
            if found is not None:
                return self._labelled(found)
        if parent is not None:
            found = find_section(self.lines, parent)
            if found is None:
                return f"no heading matching {list(spec.headings)}"
            if spec.part is None:
                return self._labelled(found)
            return self._part(spec, found[0], found[1])
        found = _phrase_section(self.plain, self.lines,
                                [n for h in spec.headings for n in spec.names(h)],
                                self.all_phrases)
        if found is None:
            return f"no heading matching {list(spec.headings)}"
        if spec.part is None:
            return self._labelled(found)
        return self._part(spec, found[0], found[1])

    def later_ranges(self, spec: QuestionSpec, first: _Range) -> list[_Range]:
        """Later sections entering ``spec``'s own label: a closing summary's row "| (c) | 25.77
        GB |". Read only when the body's section holds no number: a summary restates the
        answers, so where the body answers, the body's answer is graded."""
        target = self.targets[spec.id]
        if target is None:
            return []
        return [self._labelled(found) for found in sections_of(self.lines, target)
                if found[0] > first.start]

    def _labelled(self, found: tuple[int, int]) -> _Range:
        start, end = found
        line = self.lines[start]
        inline = not line.heading or bool(line.mark and re.match(
            r"^\W{0,3}[:=]", line.raw[line.mark.content:]))
        return _Range(start, end, inline, line.raw.strip())

    def _part(self, spec: QuestionSpec, head: int, end: int) -> _Range | str:
        assert spec.part is not None
        siblings = [n for q in self.questions
                    if q.part and q.headings == spec.headings and q.part != spec.part
                    for n in q.names(q.part)]
        part = next((found for name in spec.names(spec.part)
                     if (found := _part_range(self.plain, head + 1, end, name, siblings))), None)
        if part is None:
            part = _loose_part_range(self.plain, head + 1, end, spec.names(spec.part), siblings)
        if part is None:
            return f"no part '{spec.part}' in the section"
        starts = [found[0] for other in siblings
                  if (found := _part_range(self.plain, head + 1, end, other, [])) is not None]
        first = self.lines[part[0]]
        return _Range(part[0], part[1], not first.heading, self.lines[head].raw.strip(),
                      (head, min([part[0], *starts])))

    def sources(self, rng: _Range) -> list[Source]:
        out = []
        for i in range(rng.start, rng.end):
            line = self.lines[i]
            text = line.raw
            if i == rng.start and not rng.inline:
                continue
            skipped = 0
            if line.mark is not None and (line.opens or line.table):
                text = line.raw[line.mark.content:]
                if line.raw[:line.mark.content].count("**") % 2:
                    # "**Answer (I):** ... **9,437,184**": the label's closing "**" would
                    # open a bold run that pairs every later one wrongly
                    text = text.replace("**", "  ", 1)
                skipped = line.raw[:line.mark.content].count("|")
            elif line.heading:
                continue
            following = self.lines[i + 1].raw if i + 1 < rng.end else ""
            column, every_row = self._answer_column(i) if line.table else (None, True)
            value = None
            if not every_row and not (i + 1 == rng.end or not self.lines[i + 1].table) \
                    or not every_row and self.lines[rng.start].table:
                # a "Value" column of working: its last row concludes, the others' values
                # are conclusive steps (beating the expression beside them)
                column, value = None, column
            cell = None if column is None or column < skipped else column - skipped
            answers = line.table and (cell is not None or i == rng.start or line.opens)
            out.append(Source(line.number, text, answers, following, cell,
                              None if value is None or value < skipped else value - skipped,
                              line.code))
        return out

    def _answer_column(self, i: int) -> tuple[int | None, bool]:
        """The index (in ``row.split("|")``) of the column a table's header calls the answer,
        and whether every row's cell there answers: an "Answer", "Final" or "Total" column's does, a
        "Value" or "Result" column's only in the table's last row of the section (a table of
        working steps, its conclusion last). The header row is read as ``blocks`` reads it
        (over a ``|---|`` line, or a first row of names over rows of figures, as Word
        writes it)."""
        first = i
        while first > 0 and self.lines[first - 1].table:
            first -= 1
        last = i
        while last + 1 < len(self.lines) and self.lines[last + 1].table:
            last += 1
        table = table_of([line.raw for line in self.lines[first:last + 1]])
        if not table.header_rows or i == first:
            return None, True
        names = [_norm(c) for c in table.column_names()]
        for k, name in enumerate(names):
            if name.startswith(("answer", "final", "total")):  # a row's total is its count
                return k + 1, True
            if name.startswith(("result", "value")):
                return k + 1, False
        return None, True


def _last_label(text: str, phrase: str) -> int:
    """Where ``phrase`` last names an answer in ``text`` (not as an operand: "-ln p(mat)")."""
    best, start = -1, 0
    while True:
        at = _find_phrase(text[start:], phrase)
        if at < 0:
            return best
        at += start
        if not text[:at].rstrip().endswith(("ln", "log", "(")):
            best = at
        start = at + 1


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


def _own_candidates(found: list[Candidate], sources: Sequence[Source], spec: QuestionSpec,
                    questions: Sequence[QuestionSpec]) -> list[Candidate]:
    """Where a part holds two answers ("p(mat)" and the loss), the numbers that follow this
    one's label (the nearest label before each number, across lines); with no label of its
    own in the part, the numbers before any other's label."""
    if not spec.labels:
        return found
    own = [_norm(x) for x in spec.labels]
    others = [_norm(x) for q in questions if q.id != spec.id and q.headings == spec.headings
              and q.part == spec.part for x in q.labels]
    if not others:
        return found
    by_line: dict[int, list[Candidate]] = {}
    for c in found:
        by_line.setdefault(c.line, []).append(c)
    current: bool | None = None
    mine, unlabelled = [], []
    for src in sources:
        for c in by_line.get(src.number, []):
            upto = c.end if c.why == "formula" else c.column  # "-\ln \frac{...}" names the loss
            owner = _owner(_norm(c.line_text[:upto]), own, others)
            item = _named_item(c.line_text[:upto])
            if item is not None and _owner(_norm(item), own, others) is None:
                owner = current = None  # "、損失=0.1249": named, but by no answer's label
            current = owner if owner is not None else current
            (mine if current else unlabelled if current is None else []).append(c)
        owner = _owner(_norm(clean(src.text)), own, others)
        current = owner if owner is not None else current
    return mine or unlabelled


def extract_answers(report_text: str, questions: Sequence[QuestionSpec]) -> dict[str, Extracted]:
    """The final answer of each question's section, keyed by ``QuestionSpec.id``.

    Give it *all* the pack's questions: a section ends where another question's begins.
    """
    reader = _Reader(report_text, questions)
    results: dict[str, Extracted] = {}
    for spec in questions:
        rng = reader.range_of(spec)
        if isinstance(rng, str):
            results[spec.id] = Extracted(spec.id, False, reason=rng)
            continue
        for later in reader.later_ranges(spec, rng):
            if pick(candidates(reader.sources(rng), spec.symbols)) is not None:
                break
            rng = later  # the body's section holds no number: its summary row answers
        section = (rng.start + 1, rng.end)
        sources = reader.sources(rng)
        found = candidates(sources, spec.symbols)
        found = _own_candidates(found, sources, spec, questions)
        stated = conventions_in("\n".join(
            line.raw for line in [*reader.lines[rng.intro[0]:rng.intro[1]],
                                  *reader.lines[rng.start:rng.end]]))
        chosen = pick(found)
        if chosen is None:
            results[spec.id] = Extracted(spec.id, False, section=section, heading=rng.heading,
                                         reason="no number in the section", stated=stated)
            continue
        results[spec.id] = Extracted(
            spec.id, True, answer=chosen.text, line=chosen.line, why=chosen.why,
            parsed=chosen.parsed, candidates=tuple(found), section=section,
            heading=rng.heading, shotgun=shotgun(found, chosen), stated=stated)
    return results


def section_text(report_text: str, headings: str | Sequence[str],
                 part: str | None = None) -> str:
    """The text of the section opened by ``headings`` (and ``part``, a pack's
    `report_part` such as "(I)"), for a person to read, or "" if none.

    A labelled heading ("Question 2", "Q3 (c)") runs to the first line whose label leaves
    it (the next question, a "Task 3" heading, "References"); a phrase heading, as in
    grading, to the first line whose label names another question than the one it stands
    in. Sub-headings with no label stay.
    """
    phrases = (headings,) if isinstance(headings, str) else tuple(headings)
    raw = report_text.splitlines()
    target = target_of(phrases, part)
    if target is not None:
        lines = read_lines(split_run_in(report_text, [target]), lettered_numbers([target]))
        found = find_section(lines, target)
        if found is not None:
            return "\n".join(line.raw for line in lines[found[0]:found[1]]).strip()
    found = _phrase_section(_lines(report_text), read_lines(report_text), phrases, phrases)
    if found is None:
        return ""
    return "\n".join(raw[found[0]:found[1]]).strip()
