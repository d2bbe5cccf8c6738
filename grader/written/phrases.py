"""Sections whose heading names no label: phrases ("Language modeling task"), found as a
heading or a line's start, and parts named in the student's own words.

Why apart from ``sections``: a label is read by its grammar (``labels``), a phrase only by
its words, normalised (case, markup, British spellings) and matched on word boundaries; a
phrase section still ends where a label names another question (``sections``' lines).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from grader.written.asides import _paren_end
from grader.written.blocks import Table, ascii_rule, cells, table_of
from grader.written.labels import parse_part
from grader.written.sections import END, SOFT_BREAK, Line
from grader.written.vocabulary import (
    LEADING_MARKERS,
    MD_HEADING,
    QUESTION_LABEL,
    TABLE_SEPARATOR,
    TOTAL_WORDS,
    heading_text,
    kind_of,
    stem,
)

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
    wanted = [n for p in phrases if len(n := norm(p)) > 4]  # a phrase, no "(I)" marker

    def split(m: re.Match[str]) -> str:
        head = LEADING_MARKERS.sub("", norm(m.group(3)))
        if any(find_phrase(head, w) == 0 for w in wanted):
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


def norm(text: str) -> str:
    s = text.lower().replace("\\_", "_")
    s = " ".join(s.translate(_MARKUP_BLANKS).split())  # one space each, so:
    s = s.replace("( ", "(").replace(" (", "(").replace(" )", ")")
    for british, american in _AMERICAN.items():
        s = s.replace(british, american)
    return " ".join(s.split()).strip(" :.")


_MARKUP_BLANKS = str.maketrans(dict.fromkeys("*`#$\\", " "))
_AMERICAN = {"modelling": "modeling", "labelling": "labeling", "isation": "ization",
             "normalis": "normaliz", "tokenis": "tokeniz"}
"""British spellings read as the pack writes them ("Language modelling task")."""


def find_phrase(text: str, phrase: str) -> int:
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
class PlainLine:
    number: int  # 1-based
    raw: str
    heading: str | None  # normalised heading text for a Markdown or bold heading line
    norm: str  # normalised text with list markers stripped


def plain_lines(text: str) -> list[PlainLine]:
    out = []
    for idx, raw in enumerate(text.splitlines(), start=1):
        text = heading_text(raw)
        heading = norm(text) if text is not None else None
        plain = norm(raw)
        plain = LEADING_MARKERS.sub("", plain) if heading is None else heading
        out.append(PlainLine(idx, raw, heading, plain))
    return out


def _labels(text: str) -> set[tuple[str, str]]:
    return {(kind_of(w), n) for w, n in QUESTION_LABEL.findall(text)}


def _opens(line: PlainLine, phrases: Sequence[str]) -> int | None:
    """Where the section-opening phrase ends in ``line.norm``, or None."""
    for phrase in phrases:
        p = norm(phrase)
        if line.heading is not None:
            if find_phrase(line.heading, p) >= 0:
                return len(line.norm)  # a heading line holds no answer
        else:
            stripped = line.norm.strip()  # list and section numbers are off already
            if find_phrase(stripped, p) == 0:
                return len(line.norm) - len(stripped) + len(p)
    return None


def _ends_section(j: int, i: int, plain: Sequence[PlainLine], labelled: Sequence[Line],
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


def _phrase_opening(lines: list[PlainLine], headings: Sequence[str]) -> tuple[int, int] | None:
    """(index of the first line opening a section for ``headings``, column of its inline answer)."""
    for i, line in enumerate(lines):
        col = _opens(line, headings)
        if col is not None:
            return i, col
    return None


def phrase_section(lines: list[PlainLine], labelled: Sequence[Line], headings: Sequence[str],
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


def _begins(line: PlainLine, phrase: str) -> bool:
    """Whether ``line`` (a heading, a line, a table row's first cell) starts with ``phrase``."""
    text = line.heading if line.heading is not None else line.norm.lstrip("| ")
    return find_phrase(LEADING_MARKERS.sub("", text), phrase) == 0


def part_range(lines: list[PlainLine], start: int, end: int, part: str,
                siblings: Sequence[str]) -> tuple[int, int] | None:
    own = norm(part)
    first = next((i for i in range(start, end) if _begins(lines[i], own)), None)
    inside = first is None  # named inside its line: "语言建模任务（Language modeling task）："
    if first is None:
        first = next((i for i in range(start, end) if find_phrase(lines[i].norm, own) >= 0), None)
    if first is None:
        return None
    others = [norm(s) for s in siblings if norm(s) != own]
    # a sibling named as this part was (inside its line, the pack's name in brackets
    # after the student's) ends it as a sibling at a line's start does
    stop = next((i for i in range(first + 1, end)
                 if any(_begins(lines[i], o) or ((inside or o.startswith("("))
                                                and find_phrase(lines[i].norm, o) >= 0)
                        for o in others)), end)
    return first, stop


def _item_number(raw: str) -> tuple[int, int] | None:
    """(indent, number) of a numbered list item's line ("1. LoRA …", "  2) Adam …"), else None."""
    text = raw.lstrip(" \t")
    digits = len(text) - len(text.lstrip("0123456789"))
    if not 0 < digits <= 2 or text[digits:digits + 2] not in (". ", ") "):
        return None
    return len(raw) - len(text), int(text[:digits])


def listed_part(lines: list[PlainLine], start: int, end: int, value: int,
                count: int) -> tuple[int, int] | None:
    """Item ``value`` of a list numbered 1 to ``count`` that holds the section's parts, one
    item a part: "1. LoRA parameters: … 2. Adam: … 3. Comparison: …" under "## Q3 (e)", as
    Word's list numbering writes the (I), (II), (III) the handout asks for. Only a list of
    exactly one item per part, numbered in order at one indent, counts: a list of working
    steps has its own length."""
    items = [(i, found) for i in range(start, end) if (found := _item_number(lines[i].raw))]
    if not items:
        return None
    indent = items[0][1][0]
    top = [(i, n) for i, (ind, n) in items if ind == indent]
    if [n for _, n in top] != list(range(1, count + 1)) or not 1 <= value <= count:
        return None
    first = top[value - 1][0]
    stop = top[value][0] if value < count else end
    return first, stop


_GENERIC_WORDS = frozenset({"task", "model", "models", "part", "the", "a", "an", "of", "for",
                            "and", "in", "on", "to", "with", "network", "result", "results",
                            "trainable", "parameters"})
"""Words a part's name shares with every sibling ("... task", "... model"): no evidence;
nor "trainable parameters", which every part's count says ("trainable" would be named
like "Pre-training")."""


def name_stems(name: str) -> tuple[set[str], str]:
    """The stems of a part name's own words (first five letters) and their initials."""
    words = [w for w in "".join(c if c.isalnum() else " " for c in norm(name)).split()
             if w not in _GENERIC_WORDS]
    return {w[:5] for w in words if len(w) >= 4}, "".join(w[0] for w in words)


def _head_words(line: PlainLine) -> list[str]:
    """The words that name a line: a table row's first cell, a line's text before ":"."""
    text = line.heading if line.heading is not None else line.norm.lstrip("| ")
    text = text.split("|")[0].split(":")[0]
    return "".join(c if c.isalnum() else " " for c in text).split()[:6]


def _named_like(line: PlainLine, name: str) -> bool:
    """Whether a line's head names ``name`` in other words: a word of the same stem
    ("Classifier" for "Classification task") or its initials ("LM model" for "Language
    modeling task"). Numbers are no name."""
    stems, initials = name_stems(name)
    words = [w for w in _head_words(line) if not w[0].isdigit()]
    return any(stem(w) in stems for w in words if len(w) >= 4 and w not in _GENERIC_WORDS) \
        or (len(initials) >= 2 and initials in words)


def loose_part_range(lines: list[PlainLine], start: int, end: int, names: Sequence[str],
                      siblings: Sequence[str]) -> tuple[int, int] | None:
    """A part named in the student's own words (neither the pack's name nor a synonym):
    the last line whose head is named like this part and like no sibling, to the next
    line named like a sibling. Read only when every other way found nothing."""
    def mine(line: PlainLine) -> bool:
        return any(_named_like(line, n) for n in names) \
            and not any(_named_like(line, o) for o in siblings) and not _aside(line.raw)

    # the last such line: an answer comes after its working, whose rows ("LM head",
    # "Classification head") are named like the parts too
    first = next((i for i in range(end - 1, start - 1, -1) if mine(lines[i])), None)
    if first is None:
        return None
    stop = next((i for i in range(first + 1, end)
                 if any(_named_like(lines[i], o) for o in siblings) and not mine(lines[i])), end)
    return first, stop



def _aside(raw: str) -> bool:
    """Whether a line is a remark in brackets ("(jadi the LM model is about 2x bigger,
    because of the output layer …)"): it speaks of a part, it does not answer it. The
    bracket that opens it must be the one that closes it ("(I) … (fp32)" is no remark)."""
    text = raw.strip(" \t*_")
    return text.startswith("(") and text.endswith(")") \
        and _paren_end(text, 1, len(text)) == len(text) - 1


def _words_at(text: str) -> list[tuple[int, str]]:
    """Each word of ``text`` (a run of letters and digits), lower-cased, with where it starts."""
    out: list[tuple[int, str]] = []
    start = None
    for i, ch in enumerate(f"{text} "):
        if ch.isalnum():
            start = i if start is None else start
        elif start is not None:
            out.append((start, text[start:i].lower()))
            start = None
    return out


def _names_word(word: str, name: str) -> bool:
    """Whether one word names ``name`` as ``_named_like`` reads a line's head: a word of
    the same stem or the name's initials."""
    if word[0].isdigit() or word in _GENERIC_WORDS:
        return False
    stems, initials = name_stems(name)
    return (len(word) >= 4 and stem(word) in stems) or (len(initials) >= 2 and word == initials)


def named_span(text: str, names: Sequence[str], siblings: Sequence[str],
               alone: bool = False) -> tuple[int, int] | None:
    """Where a line naming several parts in turn speaks of this one ("Answer: Language-model
    network: 21,018,401 ... Classifier network: 10,968,602 ..."): from the first word named
    like this part (and like no sibling) to the next word named like a sibling. None unless
    the line names this part and a sibling: a line naming one part is that part's section.
    ``alone``: a line naming this part and no sibling is read too, to its end (the answer's
    lines under "**Answer:**", one part a line)."""
    def mine(word: str) -> bool:
        return any(_names_word(word, n) for n in names) \
            and not any(_names_word(word, o) for o in siblings)

    def theirs(word: str) -> bool:
        return any(_names_word(word, o) for o in siblings) \
            and not any(_names_word(word, n) for n in names)

    words = _words_at(text)
    start = next((at for at, word in words if mine(word)), None)
    if start is None or not (alone or any(theirs(word) for _, word in words)):
        return None
    return start, next((at for at, word in words if at > start and theirs(word)), len(text))


def _markers(text: str) -> list[tuple[int, int, tuple[str | None, str | None]]]:
    """The part markers in brackets in a line ("(a)", "(II)"), read by the label grammar
    (``parse_part``): where each starts and ends, and the (letter, numeral) it says."""
    out = []
    at = text.find("(")
    while at >= 0:
        close = text.find(")", at)
        if close < 0:
            break
        marker = parse_part(text[at:close + 1]) if close - at <= 6 else None
        if marker is not None:
            out.append((at, close + 1, marker))
        at = text.find("(", at + 1)
    return out


def _owner_of(text: str, names: Sequence[str], siblings: Sequence[str]) -> bool | None:
    """Whether ``text`` names this part (True) or a sibling (False): by a name the pack gives
    it, or a word named like it (``_names_word``: "Classifier", "LM"); None for neither or
    both."""
    plain = norm(text)
    words = [w for _, w in _words_at(plain)]

    def named(part: Sequence[str]) -> bool:
        return any(find_phrase(plain, norm(n)) >= 0 or any(_names_word(w, n) for w in words)
                   for n in part)

    mine, theirs = named(names), named(siblings)
    return None if mine == theirs else mine


def _legend(lines: Sequence[PlainLine], start: int, end: int, names: Sequence[str],
            siblings: Sequence[str]) -> dict[tuple[str | None, str | None], bool]:
    """The markers a caption or a line of prose gives the parts, and whether each stands
    for this part (True) or a sibling (False): the marker first ("Figure 1. (a) Language
    modeling task: ... (b) Classification task: ...") or after the name ("the LM (a) and
    the classifier (b)"), the form read from what stands before the first marker."""
    keys: dict[tuple[str | None, str | None], bool] = {}
    for line in lines[start:end]:
        if line.raw.lstrip().startswith("|"):
            continue
        found = _markers(line.norm)
        if len(found) < 2:
            continue  # a key gives two parts or more
        after_name = _owner_of(line.norm[:found[0][0]], names, siblings) is not None
        for k, (left, right, marker) in enumerate(found):
            piece = line.norm[found[k - 1][1] if k else 0:left] if after_name \
                else line.norm[right:found[k + 1][0] if k + 1 < len(found) else None]
            owner = _owner_of(piece, names, siblings)
            if owner is not None:
                keys.setdefault(marker, owner)
    return keys


def _column_owner(name: str, names: Sequence[str], siblings: Sequence[str],
                  keys: dict[tuple[str | None, str | None], bool]) -> bool | None:
    """Whose column a header cell names: a marker the legend gave a part ("(a)"), or the
    part itself ("Language modeling task", "LM"); None for a column of neither
    ("Component")."""
    marker = parse_part(name) if name.strip(" *_") else None
    if marker is not None:
        return keys.get(marker)
    return _owner_of(name, names, siblings)


def part_column(lines: list[PlainLine], start: int, end: int, names: Sequence[str],
                siblings: Sequence[str]) -> tuple[int, tuple[int, int]] | None:
    """A part that is a table's column ("| Component | (a) | (b) |" under a caption saying
    what (a) and (b) are, or "| | Language modeling task | Classification task |"): the
    line of the table's concluding row (named so: "Trainable total", "Sum",
    ``TOTAL_WORDS``) and the span of the part's cell in it; a table of working with no
    such row is no answer (a sentence after it sums it up). Read only where no line of the section starts with the part's name
    (then that line is its section), and where a sibling has a column too: a table of one
    part's working has no column per part.

    Why: a table's meaning may be given by its caption alone, so every row names a
    component and no cell the part; the last row's cells are then both parts' answers, and
    the last of them was read as both (held-out-9's lab A with its figure caption)."""
    own = [norm(n) for n in names]
    others = [s for s in siblings if norm(s) not in own]
    if not others or any(_begins(lines[i], p) for i in range(start, end) for p in own):
        return None
    keys = _legend(lines, start, end, names, others)
    i = start
    while i < end:
        if not lines[i].raw.lstrip().startswith("|"):
            i += 1
            continue
        j = i
        while j < end and lines[j].raw.lstrip().startswith("|"):
            j += 1
        found = _column_answer(lines, i, j, names, others, keys)
        if found is not None:
            return found
        i = j
    return None


def _column_answer(lines: Sequence[PlainLine], first: int, stop: int, names: Sequence[str],
                   siblings: Sequence[str], keys: dict[tuple[str | None, str | None], bool]
                   ) -> tuple[int, tuple[int, int]] | None:
    """The concluding cell of the table on lines ``first``..``stop`` in this part's column."""
    table = table_of([line.raw for line in lines[first:stop]])
    body = [i for i in range(first, stop)
            if not TABLE_SEPARATOR.match(lines[i].raw) and not ascii_rule(lines[i].raw)]
    if keys:
        found = _row_answer(table, body, lines, names, siblings, keys)
        if found is not None:
            return found
    if not table.header_rows:
        return None
    owners = [_column_owner(name, names, siblings, keys) for name in table.column_names()]
    if owners.count(True) != 1 or False not in owners:
        return None
    k = owners.index(True)
    body = [i for i in body[table.header_rows:]
            if k < len(cols := cells(lines[i].raw)) and any(c.isdecimal() for c in cols[k])]
    totals = [i for i in body
              if TOTAL_WORDS & {w for _, w in _words_at(norm(cells(lines[i].raw)[0]))}]
    if not totals:
        return None  # rows of working only: the sentence after them sums them up
    return totals[-1], _cell_span(lines[totals[-1]].raw, k)


def _row_answer(table: Table, body: Sequence[int], lines: Sequence[PlainLine],
                names: Sequence[str], siblings: Sequence[str],
                keys: dict[tuple[str | None, str | None], bool]) -> tuple[int, tuple[int, int]] | None:
    """The part's cell where the table's rows are the parts, each named by the marker a
    caption keys to it ("| (a) | 20,968,400 |"): in the column named total
    (``TOTAL_WORDS``), else the row's last cell with a figure."""
    rows = body[table.header_rows:]
    owners = [_column_owner(cells(lines[i].raw)[0], names, siblings, keys)
              if parse_part(cells(lines[i].raw)[0]) else None for i in rows]
    if owners.count(True) != 1 or False not in owners:
        return None
    row = rows[owners.index(True)]
    values = cells(lines[row].raw)
    heads = [{w for _, w in _words_at(norm(c))} for c in table.column_names()]
    filled = [k for k in range(1, len(values)) if any(c.isdecimal() for c in values[k])]
    totals = [k for k in filled if k < len(heads) and TOTAL_WORDS & heads[k]]
    if not filled:
        return None
    return row, _cell_span(lines[row].raw, (totals or filled)[-1])


def _cell_span(raw: str, k: int) -> tuple[int, int]:
    """Where cell ``k`` (as ``cells`` counts them) of a table row stands in the row."""
    bars = [at for at, ch in enumerate(raw) if ch == "|"]
    lead = 1 if raw.lstrip().startswith("|") else 0
    left = bars[k + lead - 1] + 1 if k + lead >= 1 else 0
    right = bars[k + lead] if k + lead < len(bars) else len(raw)
    return left, right
