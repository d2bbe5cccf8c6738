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

from collections.abc import Sequence
from dataclasses import dataclass, replace

from calculators.answers.stated import conventions_in
from grader.written.blocks import Block, blocks, table_of
from grader.written.candidates import (
    TIER_BOLD,
    TIER_FINAL,
    Candidate,
    Source,
    candidates,
    environment_answer,
    only_value,
)
from grader.written.labels import parse_label, parse_part, read_mark
from grader.written.offered import pick, shotgun
from grader.written.owners import labelled_lines, own_candidates
from grader.written.phrases import (
    find_phrase,
    listed_part,
    loose_part_range,
    name_stems,
    named_span,
    norm,
    part_column,
    part_range,
    phrase_section,
    plain_lines,
    split_run_in_headings,
)
from grader.written.question_words import answer_lines
from grader.written.questions import Extracted, QuestionSpec
from grader.written.reading import (  # noqa: F401  (re-exported: existing imports)
    MAX_REPORT_BYTES,
    Report,
    ReportReadError,
    read_report,
)
from grader.written.sections import (
    Line,
    asked_kind,
    find_section,
    lettered_numbers,
    read_lines,
    sections_of,
    split_run_in,
    target_of,
)
from grader.written.vocabulary import (
    ANSWER_LINE,
    RELATIONS,
    ROMAN_VALUES,
    has_digit,
    is_answer_heading,
    is_table_row,
)

__all__ = [  # what callers import from here (grader/written/__init__.py, tests)
    "Candidate", "Extracted", "QuestionSpec", "extract_answers", "section_text",
    "split_run_in_headings",
]

# -- finding each question's range ------------------------------------------------------------


@dataclass(frozen=True)
class _Range:
    start: int  # index of the line that opens it
    end: int  # exclusive
    inline: bool  # the opening line's text after its label holds answer text
    heading: str
    intro: tuple[int, int] = (0, 0)
    """Lines before the question's first part: conventions stated there hold for every part."""
    span: tuple[int, int] | None = None
    """Where in its one line the range is: a part's piece of an answer line naming several."""


def _named_value(text: str, names: Sequence[str]) -> bool:
    """Whether a line is the part's name, its colon and a value alone ("Language modeling
    task: 21,018,401"); another name ("classification head: 402") is a step of it."""
    label, colon, rest = text.partition(":")
    return bool(colon) and norm(label.strip(" *_-•>")) in {norm(n) for n in names} \
        and only_value(rest, words=True)


def _value_then_working(text: str) -> bool:
    """Whether a part's opening line gives its value right after the label's colon, then
    the working in brackets: "(I): 9,437,184 (per matrix … = 98,304)", "Classification
    task: 10,963,800 (10,000,200 + 963,200 + 400)". The label before the colon (off the
    text, or the part's name) has no figure of its own."""
    label, colon, rest = text.partition(":")
    return bool(colon) and "(" in rest and not has_digit(label.strip(" *_()"))  \
        and only_value(rest.split("(")[0], words=True)


def _named_then_value(piece: str) -> bool:
    """Whether a piece of a line naming a part gives a value right after the name and its
    colon ("Language modeling task: **20,857,601** trainable parameters."): a short name
    with no figure, then a figure within the next few characters."""
    colon = piece.find(":")
    return 0 < colon <= 40 and not has_digit(piece[:colon]) \
        and has_digit(piece[colon + 1:colon + 8])


def _own_cell_on(rest: str) -> str:
    """A labelled row's text from its label on, up to the next cell that opens with a part
    of its own ("| Answer · (I) trainable **9,437,184** | Answer · (II) Adam states **75.5
    MB** |", a board's answer chips side by side): that cell answers its own part. A cell
    of a value ("25.77 GB") or a question's label is no such part."""
    at = rest.find("|")
    while 0 <= at < len(rest) - 1:
        cell = rest[at + 1:].split("|", 1)[0].strip()
        mark = read_mark(cell, False) if cell else None
        if mark is not None and (mark.answered or mark.letter_only or mark.roman_only):
            return rest[:at + 1]
        at = rest.find("|", at + 1)
    return rest


def _sums_up(piece: str) -> bool:
    """Whether a piece of a line naming a part ends its sentence on the total its working
    comes to ("For the language modeling task the total is 10,000,200 + 968,000 +
    10,000,200 = 20,968,400. For the classification task it is …"): a sentence a part,
    each the answer of its part. A lead-in ("For the language modeling task I let PyTorch
    count … (nlayers = 4). The same …") ends on no "= figure"."""
    stop = piece.rfind(". ")
    said = (piece[:stop] if stop >= 0 else piece).rstrip(" .*_")
    *_, total = said.rpartition("=")
    figure = total.strip(" *_").replace(",", "").replace(".", "", 1)
    return "=" in said and figure.isdigit()


def _states_after(rest: str) -> bool:
    """Whether a heading's text after its label gives a value ("## Q3 (c): 25.77 GB",
    "### (II) = 0.75"): a ":" or "=" within its first four characters, no word before it."""
    for ch in rest[:4]:
        if ch in ":=":
            return True
        if ch.isalnum() or ch == "_":
            return False
    return False


def _under_answer_headings(found: Sequence[Block]) -> set[int]:
    """The lines of the blocks under a heading that is only the answer word ("### Answer",
    "**Answer:**"), to the next heading: the student marks them as the answer, so their
    values beat the working before (a notebook exported to Markdown: code, its output, then
    "### Answer") or after them (the answer stated first)."""
    out: set[int] = set()
    under = named = False
    for block in found:
        if block.kind == "heading":
            under = is_answer_heading(block.text)
            named = under and "(" in block.text  # "Answer (e)(II)": that part's answer only
        elif under and (parse_label(block.text) is not None or named and _opens_part(
                f"{block.marker} {block.text}" if block.marker else block.text)):
            under = False  # "**Q3 (d)**" in bold (no heading to the blocks), "(III) ..."
        elif under and block.kind not in ("code", "table"):  # a table's header says
            out.update(range(block.line, block.end_line + 1))
    return out


def _opens_part(text: str) -> bool:
    """Whether ``text`` opens with a part's marker ("(III) 9,437,184 / ...")."""
    mark = read_mark(text, heading=False)
    return mark is not None and (mark.letter_only or mark.roman_only)


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
        asked = [*self.targets.values(), *self.parents.values()]
        self.lines = read_lines(text, lettered, kind=asked_kind(asked),
                                tasks=any(t is not None and t.kind == "task" for t in asked))
        self.plain = plain_lines(text)
        self.answered = _under_answer_headings(blocks(text)) | answer_lines(
            self.lines, lambda raw: ANSWER_LINE.match(raw) is not None) | {  # "Svar: 24,0 GB"
            line.number for line in self.lines if environment_answer(line.raw)} | {
            line.number for i, line in enumerate(self.lines)
            if i and _label_restated(line, self.lines[i - 1])}
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
        found = phrase_section(self.plain, self.lines,
                                [n for h in spec.headings for n in spec.names(h)],
                                self.all_phrases)
        if found is None:
            return f"no heading matching {list(spec.headings)}"
        if spec.part is None:
            return self._labelled(found)
        return self._part(spec, found[0], found[1])

    def later_ranges(self, spec: QuestionSpec, first: _Range) -> list[_Range]:
        """Later sections entering ``spec``'s label: a summary table's rows ("| Q3 (c) |
        25.77 GB |", "| Q3 — language model | 20,857,601 |"), wherever the table is. A table
        is one block whose rows each name their question: a row naming a part by a phrase
        (or in the student's words) answers that part. ``extract_answers`` says when a row
        beats the body."""
        target = self.targets[spec.id]
        if target is not None:
            return [self._labelled(found) for found in sections_of(self.lines, target)
                    if found[0] > first.start]
        parent = self.parents[spec.id]
        if parent is None or spec.part is None:
            return []
        out = []
        for start, end in sections_of(self.lines, parent):
            if start <= first.start or not self.lines[start].table:
                continue
            rows = next((j for j in range(start, end) if not self.lines[j].table), end)
            part = self._part(spec, start - 1, rows)  # the first row names the part too
            if not isinstance(part, str):
                out.append(part)
        return out

    def _labelled(self, found: tuple[int, int]) -> _Range:
        start, end = found
        line = self.lines[start]
        inline = not line.heading or bool(line.mark and _states_after(
            line.raw[line.mark.content:]))
        return _Range(start, end, inline, line.raw.strip())

    def _part(self, spec: QuestionSpec, head: int, end: int) -> _Range | str:
        assert spec.part is not None
        siblings = [n for q in self.questions
                    if q.part and q.headings == spec.headings and q.part != spec.part
                    for n in q.names(q.part)]
        stated_first = self._answer_line_part(spec, head, end, siblings)
        if stated_first is not None:
            return stated_first
        column = part_column(self.plain, head + 1, end, spec.names(spec.part), siblings)
        if column is not None:  # a table whose columns a caption's key names
            row, span = column
            return _Range(row, row + 1, True, self.lines[head].raw.strip(), (head, row), span)
        part = next((found for name in spec.names(spec.part)
                     if (found := part_range(self.plain, head + 1, end, name, siblings))), None)
        heading = self.plain[head].norm
        if part is None and any(find_phrase(heading, norm(n)) >= 0
                                for n in spec.names(spec.part)) \
                and not any(find_phrase(heading, norm(o)) >= 0 for o in siblings):
            # "### Question 3 — Language modeling task": the question's heading names the
            # part, and no line under it does
            part = next((found for name in spec.names(spec.part)
                         if (found := part_range(self.plain, head, end, name, siblings))), None)
        if part is None:
            loose = loose_part_range(self.plain, head + 1, end, spec.names(spec.part), siblings)
            summed = self._summing_sentence(spec, head, end, siblings)
            if summed is not None and (loose is None or loose[0] <= summed.start):
                return summed  # the working's summing line, no part named after it
            part = loose
        if part is None:
            part = self._listed_part(spec, head, end) or self._in_order(spec, head, end,
                                                                          siblings)
        if part is None:
            return f"no part '{spec.part}' in the section"
        # a labelled heading after the part's line opens another box ("## Q3.2" of a
        # Gradescope template after "Language modeling task: 20,963,600"): the part ends
        boxed = next((i for i in range(part[0] + 1, part[1])
                      if self.lines[i].heading and self.lines[i].opens), part[1])
        part = (part[0], boxed)
        starts = [found[0] for other in siblings
                  if (found := part_range(self.plain, head + 1, end, other, [])) is not None]
        first = self.lines[part[0]]
        if not first.table and not first.heading:
            # "Language modeling task: **20,857,601** trainable parameters. Classification
            # task: **10,807,802** …" after the working: one line names both parts in turn,
            # each its piece (the last named runs on to the part's end), its value right
            # after the name's colon, or a sentence a part ending on its total
            # (``_sums_up``); a line naming both otherwise only leads in ("For
            # the language modeling task I let PyTorch count … (nlayers = 4). The same
            # line for the classification task …")
            span = named_span(first.raw, spec.names(spec.part), siblings)
            if span is not None and (_named_then_value(piece := first.raw[span[0]:span[1]])
                                     or _sums_up(piece)):
                stop = part[0] + 1 if span[1] < len(first.raw) else part[1]
                return _Range(part[0], stop, True, self.lines[head].raw.strip(),
                              (head, part[0]), span)
        return _Range(part[0], part[1], not first.heading, self.lines[head].raw.strip(),
                      (head, min([part[0], *starts])))

    def _numbered(self, spec: QuestionSpec) -> tuple[int, int] | None:
        """(this part's numeral, how many parts) when the pack's parts of ``spec``'s heading
        are the numerals I to N, else None."""
        assert spec.part is not None
        numerals = {parse_part(q.part) for q in self.questions
                    if q.part and q.headings == spec.headings}
        values = sorted(ROMAN_VALUES.get(n[1] or "", 0) for n in numerals if n is not None)
        own = parse_part(spec.part)
        if own is None or own[1] is None or values != list(range(1, len(values) + 1)):
            return None
        return ROMAN_VALUES[own[1]], len(values)

    def _listed_part(self, spec: QuestionSpec, head: int, end: int) -> tuple[int, int] | None:
        """The part as an item of a list numbered one item a part ("1." for (I)), when the
        pack's parts of this heading are numerals I to N (``phrases.listed_part``)."""
        numbered = self._numbered(spec)
        return None if numbered is None else listed_part(self.plain, head + 1, end, *numbered)

    def _in_order(self, spec: QuestionSpec, head: int, end: int,
                  siblings: Sequence[str]) -> tuple[int, int] | None:
        """The part in a section that names none of its parts: the whole section when the
        pack names the answer (Q3 (a)(II)'s "probability" and "loss": told apart by their
        names; another part's prose before it, "(I) The model is trained …", holds none of
        them), else the k-th of as many answer lines as the pack asks parts, in order
        ("**Answer 3.5.** …", "**Answer 3.6.** …", "**Answer 3.7.** …" under "Part (e)",
        numbered by a LaTeX environment's own counter)."""
        assert spec.part is not None
        if spec.labels and end - head > 1:
            return head + 1, end  # its answers are told apart by their names
        if any(part_range(self.plain, head + 1, end, name, []) for name in siblings):
            return None  # the section names another part: this one is missing
        numbered = self._numbered(spec)
        if numbered is None:
            return None
        answers = [i for i in range(head + 1, end) if not self.lines[i].table
                   and (self.lines[i].number in self.answered
                        or ANSWER_LINE.match(self.lines[i].raw) is not None)
                   and any(ch.isdigit() for ch in self.lines[i].raw)]
        if len(answers) != numbered[1]:
            return None
        k = numbered[0] - 1
        return (answers[k - 1] + 1 if k else head + 1), answers[k] + 1

    def _answer_line_part(self, spec: QuestionSpec, head: int, end: int,
                          siblings: Sequence[str]) -> _Range | None:
        """The part's piece of an answer line that names several parts in turn, the answer
        stated before the working ("**Answer:** Language-model network: **21,018,401** ...
        Classifier network: **10,968,602** ..."): marked as the answer, it beats the working
        after it, whose rows ("LM head 200 × 50,001") are named like the parts too. Under an
        answer heading ("**Answer:**" on a line of its own) a line naming this part alone is
        its answer too: the same statement, a part a line."""
        assert spec.part is not None
        for i in range(head, end):
            line = self.lines[i]
            if line.table or not (line.number in self.answered or ANSWER_LINE.match(line.raw)):
                continue
            span = named_span(line.raw, spec.names(spec.part), siblings,
                              alone=line.number in self.answered)
            if span is not None:
                return _Range(i, i + 1, True, self.lines[head].raw.strip(), (head, i), span)
        return None

    def _summing_sentence(self, spec: QuestionSpec, head: int, end: int,
                          siblings: Sequence[str]) -> _Range | None:
        """The part's piece of the section's last line of prose naming several parts in turn
        ("In total the language-model network has 20,857,601 trainable parameters and the
        classifier 10,807,802."), where the pack's names open no part: the sentence that
        sums the working up, after a table whose rows and columns are named like the parts
        too. Read only when no part is named as the pack names it."""
        for i in range(end - 1, head, -1):
            line = self.lines[i]
            if line.table or line.code or line.heading:
                continue
            span = named_span(line.raw, spec.names(spec.part), siblings)
            if span is not None:
                return _Range(i, i + 1, True, self.lines[head].raw.strip(), (head, i), span)
        return None

    def found(self, rng: _Range, spec: QuestionSpec) -> list[Candidate]:
        """The candidates of a range that are ``spec``'s own (``owners``)."""
        sources = self.sources(rng, steps=not spec.labels,
                               names=spec.names(spec.part) if spec.part else ())
        found = own_candidates(candidates(sources, spec.symbols), sources, spec, self.questions)
        return labelled_lines(found, spec)

    def sources(self, rng: _Range, steps: bool = False,
                names: Sequence[str] = ()) -> list[Source]:
        """The range's lines as the candidates read them. ``steps``: the part asks one
        value, so a table row the next row names again is a step of it (a part asking two,
        p(mat) and the loss, names each in a row of its own). ``names``: the part's names
        (the pack's phrase and its synonyms)."""
        out = []
        one_value_steps = steps and self._steps_of_one(rng)
        for i in range(rng.start, rng.end):
            line = self.lines[i]
            text = line.raw
            if i == rng.start and not rng.inline:
                continue
            skipped = 0
            if line.mark is not None and (line.opens or line.table):
                text = line.raw[line.mark.content:]
                if line.table:
                    text = _own_cell_on(text)
                if line.raw[:line.mark.content].count("**") % 2:
                    # "**Answer (I):** ... **9,437,184**": the label's closing "**" would
                    # open a bold run that pairs every later one wrongly
                    text = text.replace("**", "  ", 1)
                skipped = line.raw[:line.mark.content].count("|")
            elif line.heading:
                continue
            following = self.lines[i + 1].raw if i + 1 < rng.end else ""
            column, every_row = self._answer_column(i) if line.table else (None, True)
            if one_value_steps and every_row and column is not None:
                every_row = False  # "| 1 | scores per head | … | **268,435,456** |" …
            value = None
            if not every_row and not (i + 1 == rng.end or not self.lines[i + 1].table) \
                    or not every_row and self.lines[rng.start].table:
                # a "Value" column of working: its last row concludes, the others' values
                # are conclusive steps (beating the expression beside them)
                column, value = None, column
            cell = None if column is None or column < skipped else column - skipped
            # a row the next row of the section names again ("| Q3 (d) per layer | … |"
            # over "| Q3 (d) | … | 14.497 billion |", a sheet's steps) is a step of it
            stepped = steps and line.opens and i + 1 < rng.end \
                and self.lines[i + 1].table and self.lines[i + 1].opens
            answers = line.table and not stepped and (cell is not None or line.opens or (
                i == rng.start and not self._named_again(i, rng.end)))
            piece = rng.span is not None and i == rng.start
            if piece:
                assert rng.span is not None
                text = line.raw[rng.span[0]:rng.span[1]]
            out.append(Source(line.number, text, answers, following, cell,
                              None if value is None or value < skipped else value - skipped,
                              line.code, piece or line.number in self.answered
                              # "Answer (d): 14.50 billion parameters": the label the
                              # section opened at is off the text, the answer word not;
                              # a line of working ("Answer (I): 8 × 6144 = …") is not one
                              or (i == rng.start and not line.table
                                  and bool(ANSWER_LINE.match(line.raw))
                                  and not any(r in text for r in RELATIONS))
                              # "Q3(e)(I): 9,437,184 (per matrix … = 98,304; …)",
                              # "Language modeling task: 20,963,600 (embedding … = …)": the
                              # value after the label's colon, its working in brackets after
                              or (i == rng.start and rng.inline and not line.table
                                  and _value_then_working(text))))
        if len(out) > 1 and not out[0].table and not out[0].code and (
                only_value(out[0].text) or out[0].text.lstrip(" *_").startswith(":")
                and only_value(out[0].text, words=True)
                or rng.inline and _named_value(out[0].text, names)):
            # "Q3 (c)" / "25.77 GB" / "48 × 16384² × 2 = ...": a value alone on the
            # section's first line is the answer stated first; the working follows it
            # (after the label's colon, with words that change nothing: "Question 1:
            # 22,696,960 total"; or after the part's name that opened the section:
            # "Language modeling task: 21,018,401" over its breakdown's lines)
            out[0] = replace(out[0], answer=True)
        return out

    def _steps_of_one(self, rng: _Range) -> bool:
        """Whether the tables of ``rng`` are the working of the one value its section asks:
        the whole section read (not one part's row), and no row of it in the section
        names a question or part. Then an "Answer" column answers in its last row only
        ("| 1 | scores per head | … | **268,435,456** |" … "| 3 | memory (fp16, 2 B) | … |
        **25.77 GB** |": Coda's numbered steps), as a "Value" column does."""
        if rng.inline:
            return False
        rows = [j for j in range(rng.start, rng.end) if self.lines[j].table]
        return len(rows) >= 3 and all(self.lines[j].mark is None for j in rows)

    def _named_again(self, i: int, end: int) -> bool:
        """Whether the table row at ``i`` names its part in its first cell as the next row
        does ("| Language modeling task | Embedding | 10,000,200 |" over "| Language
        modeling task | LM head | …"): a long table of the part's breakdown, whose first
        row is one step of it, not the part's answer row."""
        if i + 1 >= end or not self.lines[i + 1].table:
            return False
        this, below = self.lines[i].raw.split("|"), self.lines[i + 1].raw.split("|")
        return len(this) > 2 and len(below) > 2 and norm(this[1]) == norm(below[1]) != ""

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
        if not table.header_rows and _steps(table.rows):
            return 2, False
        if not table.header_rows or i == first:
            return None, True
        names = [norm(c) for c in table.column_names()]
        for k, name in enumerate(names):
            if name.startswith(("answer", "final", "total")):  # a row's total is its count
                return k + 1, True
            if name.startswith(("result", "value")):
                return k + 1, False
        return None, True



def _steps(rows: Sequence[Sequence[str]]) -> bool:
    """Whether a table with no header is working written as "step | value" rows (a
    Notepad answer lined up with tabs: "scores per layer | 48 x 16384 x 16384 = …",
    "memory | 24.0 GB"): three rows or more of two cells, a name (no question's label: a
    summary's rows answer each; each row's its own: a notebook's "In [3]:" / "Out[3]:"
    pairs repeat theirs) then a figure. Its value column reads as a "Value" column does:
    the last row concludes."""
    names = [" ".join("".join(ch for ch in r[0].lower() if ch.isalpha() or ch == " ").split())
             for r in rows]
    return len(rows) >= 3 and len(set(names)) == len(rows) and all(
        len(r) == 2 and name and read_mark(r[0], False) is None
        and any(ch.isdigit() for ch in r[1]) for r, name in zip(rows, names, strict=True))


def _label_restated(line: Line, above: Line) -> bool:
    """A line that restates the label of the part it is in with a value after it ("Q3
    (e)(I): 9,437,184 trainable parameters." under the working that opened with "Q3
    (e)(I): each adapted matrix …", a Jupyter Book's "Important" box): the student's answer
    to that part, as an "Answer:" line is."""
    mark = line.mark
    return (mark is not None and not line.table and bool(line.paths)
            and mark.paths == line.paths[:1] == above.paths[:1] and line.paths[0][1] != ""
            and line.raw[mark.content:].lstrip(" *_").startswith(":")
            and any(ch.isdigit() for ch in line.raw[mark.content:]))


def _row_beats(row: Candidate, body: Candidate, reader: _Reader, later: _Range) -> bool:
    """Whether a summary table's row answers instead of the body: the body holds working
    only (no value it marks: boxed, an answer line, an answer cell, bold) and the row is a
    table's answer cell. Where the body marks its answer, that is graded; a summary restates."""
    return body.tier < TIER_BOLD and row.tier == TIER_FINAL and reader.lines[later.start].table


def _named_by_title(found: Sequence[Candidate], chosen: Candidate | None,
                    title: str) -> Candidate | None:
    """Among a table row's values marked alike (a dashboard's tiles: "| Trainable params
    (encoder) **22,829,056** | LoRA trainable (r=8) **65,536** |"), the one whose cell the
    question's title names most ("Trainable parameters of the encoder"); else ``chosen``."""
    if chosen is None or not title or not is_table_row(chosen.line_text):
        return chosen
    peers = [c for c in found if c.line == chosen.line and c.tier == chosen.tier]
    if len(peers) < 2:
        return chosen
    words = name_stems(title)[0]

    def named(c: Candidate) -> int:
        cell = c.line_text[c.line_text.rfind("|", 0, c.column) + 1:c.column]
        return len(name_stems(cell)[0] & words)

    best = max(peers, key=named)
    return best if named(best) > named(chosen) else chosen


def extract_answers(report_text: str, questions: Sequence[QuestionSpec]) -> dict[str, Extracted]:
    """The final answer of each question's section, keyed by ``QuestionSpec.id``.

    Give it *all* the pack's questions: a section ends where another question's begins.
    """
    reader = _Reader(report_text, questions)
    results: dict[str, Extracted] = {}
    for spec in questions:
        rng = reader.range_of(spec)
        if isinstance(rng, str):  # no section in the body: a summary's row may still answer
            rows = reader.later_ranges(spec, _Range(-1, -1, False, ""))
            if not rows:
                results[spec.id] = Extracted(spec.id, False, reason=rng)
                continue
            rng = rows[0]
        body = rng
        found = reader.found(rng, spec)
        chosen = _named_by_title(found, pick(found), spec.title)
        for later in reader.later_ranges(spec, body):
            row_found = reader.found(later, spec)
            row = pick(row_found)
            if row is not None and (chosen is None or _row_beats(row, chosen, reader, later)):
                rng, found, chosen = later, row_found, row
                break
        section = (rng.start + 1, rng.end)
        stated = conventions_in("\n".join(
            line.raw for r in dict.fromkeys((body, rng))
            for line in [*reader.lines[r.intro[0]:r.intro[1]], *reader.lines[r.start:r.end]]))
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
        text = split_run_in(report_text, [target])
        tasks = target.kind == "task"
        lines = read_lines(text, lettered_numbers([target]), tasks=tasks)
        if not any(p[0] == target.kind for line in lines if line.opens for p in line.paths):
            # no label of the heading's kind anywhere ("Task 3.c" for "Q3 (c)"): the
            # report's label words name the pack's questions (``sections.asked_kind``);
            # where it has some, each word keeps its kind (the pack's others are unknown)
            lines = read_lines(text, lettered_numbers([target]), kind=target.kind, tasks=tasks)
        found = find_section(lines, target)
        if found is not None:
            return "\n".join(line.raw for line in lines[found[0]:found[1]]).strip()
    found = phrase_section(plain_lines(report_text), read_lines(report_text), phrases, phrases)
    if found is None:
        return ""
    return "\n".join(raw[found[0]:found[1]]).strip()
