"""Where a sentence stops giving its answer and starts comparing it with something else.

Why: students put their answer in context in the same sentence: "The scores need 25.77
GB, i.e. about 3 times the 8 GB of a consumer GPU", "14.5 billion (roughly twice GPT-2
XL's 1.5B)", "0.065 % (vs 100 % for full fine-tuning)", "the loss is 0.2876, against
ln 5 = 1.609 for a uniform guess". Taking the last number of the sentence (or the last
one after "about" or "=") reads the thing compared with, not the answer. A TA reads the
value the sentence asserts; the numbers of the comparison are asides.

What counts as a comparison (``comparison_spans``), after a number the same sentence
has already given:

- an explicit comparison word: "vs", "versus", "compared with/to", "against",
  "relative to", "than", "as opposed to", or a bound ("under ten million", "below",
  "at most"): its noun phrase up to a comma, a verb or
  "=", or, set off by a comma or parenthesis ("0.2876, against ln 5 = 1.609"), to the
  end of the clause;
- set off by a comma, a dash or a parenthesis (with "i.e.", "about", "roughly" and the
  like in between): a multiple ("about 3 times the", "twice", "3× the"), a proportion
  ("0.07 % of the", "2/3 of a", "1 part in 3,000", "a fraction of"), or a contrast
  ("whereas", "while", "unlike"), to the end of the clause;
- a count that scopes the answer given before it ("37.7 MB for 48 layers", "0.2876 over
  the 5 words"), the count alone (a sentence of counts, "for 3 epochs with 2 GPUs", has
  no answer before them);
- a sentence that announces one, or opens on a bound: "For comparison, a consumer GPU has
  8 GB", "Under ten million, against fourteen and a half billion …", "That is
  about 3 times the 8 GB of a consumer GPU".

What is not: a chain ("= 25,769,803,776 B ≈ 25.77 GB", "= 48 × 0.537 GB = 25.77 GB"),
and a proportion that is the value of the expression before it ("75.5 MB / 115.98 GB,
i.e. 0.065 % of the full memory"). A clause ends at a sentence end, a comma followed by
a space ("3,000" is one number), or the parenthesis the comparison opened in.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from grader.written.vocabulary import SENTENCE_END, UNIT_WORDS, has_digit

_BOUND = r"under|below"
"""A bound the student compares with ("under ten million"), in a sentence or opening one."""
_EXPLICIT = re.compile(
    r"\b(?:vs\.?|versus|v\.|compared\s+(?:with|to)|in\s+comparison\s+(?:with|to)"
    rf"|as\s+opposed\s+to|against|relative\s+to|than|{_BOUND}|at\s+(?:most|least))(?!\w)",
    re.I)
_CONTRAST = re.compile(r"\b(?:whereas|while|unlike|instead\s+of)\b", re.I)
_MULTIPLE = re.compile(
    r"(?<![\w.,])\d(?:[\d,.]*\d)?\s*(?:times\b|-?fold\b|(?:×|x\b|\\times)(?!\s*\d))"
    r"|\b(?:twice|thrice|half|double|triple|quadruple)\b"
    r"|\b(?:two|three|four|five|six|seven|eight|nine|ten|a\s+hundred|a\s+thousand|hundreds|thousands)"
    r"\s+times\b", re.I)
_REFERENCE = re.compile(
    r"^\s*(?:(?:as\s+(?:much|many|large|big|long)\s+as|the|that\s+of|those\s+of|what|a|an"
    r"|of)\b|[A-Z]|\w+['’]s\b)")
"""After a multiple, the thing it is a multiple of ("3 times the 8 GB", "twice GPT-2's")."""
_PROPORTION = re.compile(
    r"(?<![\w.,])\d(?:[\d,.]*\d)?\s*(?:%|percent\b|per\s*cent\b)\s*of\b"
    r"|(?<![\w.,/])\d+\s*/\s*\d+\s+of\b"
    r"|\b(?:a|one|two|three)[\s-](?:half|third|quarter|fifth|tenth|hundredth|thousandth)s?\s+of\b"
    r"|(?<![\w.,])\d(?:[\d,.]*\d)?\s+(?:parts?\s+)?(?:in|per)\s+(?:every\s+)?\d"
    r"|\ba\s+(?:small\s+|tiny\s+|minor\s+)?fraction\s+of\b", re.I)
_SCOPE = re.compile(
    r"\b(?:for|over|across|in|with|on|from|per|among|between|of(?=\s+(?:all|the)\s))"
    r"\s+(?:all\s+|the\s+|each\s+of\s+the\s+)?"
    r"(\d{1,3}(?:,\d{3})+|\d+)(?![\d.,]*\d)\s+(?!(?:" + UNIT_WORDS + r"|x)\b)[A-Za-z][a-z-]*", re.I)
"""A count that scopes the answer before it ("37.7 MB for 48 layers", "over the 5 words",
"of all 48 layers"; not "a total of 48")."""
_FILLER = (r"(?:(?:i\.e\.|e\.g\.|that\s+is|so|just|only|about|approx\.?|approximately|roughly"
           r"|around|nearly|almost|some|close\s+to|more\s+than|less\s+than|over|under|barely"
           r"|well|still|≈|=|~|\\approx|\\sim)[\s,]*)*")
_APPOSITIVE = re.compile(
    r"(?:,|\(|\s[-–—]+\s?|\bi\.e\.|\bthat\s+is\b)\s*"
    r"(?:(?:which|that|this|it)\s+(?:is|are|was|means|makes|gives|takes)\s+)?" + _FILLER + r"$",
    re.I)
_ANNOUNCED = re.compile(
    r"^\W*(?:(?:for|by|in)\s+comparison|for\s+reference|for\s+context|to\s+compare"
    rf"|as\s+a\s+comparison|{_BOUND})\b", re.I)
_BACK_REFERENCE = re.compile(
    r"^\W*(?:this|that|it|which)\s+(?:is|means|makes|takes|needs|uses|amounts\s+to)\s+"
    + _FILLER + r"$", re.I)
_SHORT_END = re.compile(
    r",(?=\s)|:(?=\s)|[;)=≈]|\b(?:is|are|was|were|gives?|equals?|becomes?|comes\s+to|makes?|needs?"
    r"|takes?|yields?)\b", re.I)
_SHORT_END_NO_EQ = re.compile(
    r",(?=\s)|:(?=\s)|[;)]|\b(?:is|are|was|were|gives?|equals?|becomes?|comes\s+to|makes?|needs?"
    r"|takes?|yields?)\b", re.I)
_RELATIVE = re.compile(r"\b(?:which|that)\s+(?:is|are|was|means|makes|gives|takes)\s+"
                       + _FILLER + r"$", re.I)
_CLAUSE_END = re.compile(r"[,:](?=\s)|;")
_REACH = 300
"""Characters a comparison, and the words before it, may span (bounded: linear time)."""
_GAP = 120
"""Characters between the answer and a comparison that may set it off ("(", ", i.e. about")."""
_OPERAND = re.compile(r"(?:[/÷×*]|\\times|\\cdot|\\div|\bover\b)\s*\**\s*$")


def _sentences(text: str, pos: int) -> list[int]:
    """Start offsets of the sentences of ``text`` from ``pos`` (a line may hold several)."""
    return [pos] + [m.end() for m in SENTENCE_END.finditer(text, pos)]


def _unclosed_paren(gap: str) -> bool:
    return gap.count("(") > gap.count(")")


def _paren_end(text: str, start: int, stop: int) -> int:
    """Where the parenthesis open at ``start`` closes (or ``stop``)."""
    depth = 0
    for i in range(start, stop):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            if depth == 0:
                return i
            depth -= 1
    return stop


def _phrase_end(text: str, start: int, stop: int) -> int:
    """Where the noun phrase compared with ends: a comma, a verb, or an ``=`` that gives
    it a value of its own ("than H = 6144" and "against ln 5 = 1.609" run past theirs,
    "relative to 115.98 GB = 0.065 %" stops at it)."""
    m = _SHORT_END.search(text, start, stop)
    if m is None:
        return stop
    if m.group(0) in "=≈" and not has_digit(text[start:m.start()]):
        m = _SHORT_END_NO_EQ.search(text, m.end(), stop)
        return m.start() if m else stop
    return m.start()


def _clause_end(text: str, start: int, stop: int, in_paren: bool) -> int:
    if in_paren:
        return _paren_end(text, start, stop)
    m = _CLAUSE_END.search(text, start, stop)
    return m.start() if m else stop


def comparison_spans(text: str, numbers: Sequence[tuple[int, int]],
                     cells: bool = False) -> list[tuple[int, int]]:
    """Spans of ``text`` (one cleaned line) that compare the answer with something else.

    ``numbers``: the (start, end) of every number read on the line, in order; a
    comparison counts only after a number its sentence has already given (the answer),
    unless the sentence announces itself as one. ``cells``: the line is a table row, whose
    cells a comparison never runs across ("| (III) vs FFN | … | **0.065%** |": the label
    cell's "vs" compares nothing in the answer cell).
    """
    spans = _comparison_spans(text, numbers)
    if not cells:
        return spans
    clipped = []
    for a, b in spans:
        bar = text.find("|", a)
        clipped.append((a, b if bar < 0 else min(b, bar)))
    return _merged(clipped)


def _comparison_spans(text: str, numbers: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    if not numbers:
        return []
    # only the part of the line holding the numbers read (a line of pasted data: its end)
    region = max(0, min(n[0] for n in numbers) - _REACH)
    starts = _sentences(text, region)
    ends = [*starts[1:], len(text)]
    spans: list[tuple[int, int]] = []

    def sentence_of(pos: int) -> tuple[int, int]:
        k = bisect_right(starts, pos) - 1
        return starts[k], ends[k]

    by_end = sorted(numbers, key=lambda n: n[1])
    number_ends = [n[1] for n in by_end]

    def previous(pos: int, sentence_start: int) -> tuple[int, int] | None:
        k = bisect_right(number_ends, pos) - 1
        return by_end[k] if k >= 0 and by_end[k][0] >= sentence_start else None

    for sa, sb in zip(starts, ends, strict=True):
        if _ANNOUNCED.match(text[sa:min(sb, sa + 80)]):
            spans.append((sa, sb))

    counts = [m.span(1) for m in _SCOPE.finditer(text, region)]
    count_starts = {a for a, _b in counts}
    for count in counts:
        prev = previous(count[0], sentence_of(count[0])[0])
        if prev is not None and prev[0] not in count_starts:
            spans.append(count)  # the count alone: what follows may be the answer

    markers: list[tuple[int, int, str]] = []
    markers += [(m.start(), m.end(), "explicit") for m in _EXPLICIT.finditer(text, region)]
    markers += [(m.start(), m.end(), "contrast") for m in _CONTRAST.finditer(text, region)]
    markers += [(m.start(), m.end(), "multiple") for m in _MULTIPLE.finditer(text, region)]
    markers += [(m.start(), m.end(), "proportion") for m in _PROPORTION.finditer(text, region)]
    for start, end, what in sorted(markers):
        sa, sb = sentence_of(start)
        stop = min(sb, end + _REACH)
        prev = previous(start, sa)
        measure = what in ("multiple", "proportion")
        if prev is not None:
            gap = text[max(prev[1], start - _GAP):start]
            in_paren = _unclosed_paren(gap)
            appositive = _APPOSITIVE.search(gap) is not None or (
                what != "proportion" and _RELATIVE.search(gap) is not None)
            # "75.5 MB / 115.98 GB, i.e. 0.065 % of it": the proportion is the expression's value
            result = measure and not in_paren and _OPERAND.search(
                text[max(sa, prev[0] - 40):prev[0]]) is not None
            if appositive and not result:
                spans.append((start, _clause_end(text, end, stop, in_paren)))
                continue
            if what == "explicit":
                spans.append((start, _phrase_end(text, end, stop)))
                continue
        elif measure and start - sa <= _REACH and _BACK_REFERENCE.match(text[sa:start]) and (
                what == "proportion" or _REFERENCE.match(text[end:stop])):
            # "That is about 3 times the 8 GB of a consumer GPU." after the answer's sentence
            spans.append((start, _clause_end(text, end, stop, False)))
            continue
        if measure and (what == "proportion" or _REFERENCE.match(text[end:stop])):
            # "0.065 % of the 115.98 GB", "3 times the 8 GB": the reference, not the value
            spans.append((end, _phrase_end(text, end, stop)))
    return _merged(spans)


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def inside(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether [start, end) overlaps one of ``spans`` (sorted and disjoint, as
    ``comparison_spans`` gives them)."""
    k = bisect_right(spans, (end, -1)) - 1  # the last span starting before ``end``
    return k >= 0 and spans[k][1] > start
