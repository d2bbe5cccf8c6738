"""Reports: read one (``read_report``), quote a section (``section_text``) and find each
question's final answer (``extract_answers``). The one place the grader reads reports and
finds their sections.

Reports converted from PDF keep little structure: headings come as
``# 2 Question 2``, ``# **Question 3**``, ``## 1 Question 1 & Task 1`` or a plain
``Q3 (d)`` line, and the answer is somewhere in prose, bold, or at the end of a
``$$ ... = $$`` block. A question is therefore described by the phrases that open
its section (``QuestionSpec.headings``) and, when a section answers several parts,
by the phrase that opens the part (``QuestionSpec.part``). Inside that range the
answer is the last *conclusive* number: bold, the result of an ``=``/``≈``, or
after "total"/"therefore"; failing that, the last number. Every candidate is kept,
so a TA can see what else was considered.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from calculators.answers.parse import ParsedAnswer, parse_answer
from calculators.answers.reading import (  # noqa: F401  (re-exported: existing imports)
    MAX_REPORT_BYTES,
    Report,
    ReportReadError,
    read_report,
)

# -- questions and candidates ---------------------------------------------------------------


@dataclass(frozen=True)
class QuestionSpec:
    """Where a question's answer is: the phrases that open its section, and optionally its part.

    ``QuestionSpec("Q3-lm", ("Question 3",), part="language modeling task")`` reads the
    part of the "Question 3" section that starts at a line beginning with "Language
    modeling task" and ends where a sibling part (same headings) begins.
    """

    id: str
    headings: tuple[str, ...]
    part: str | None = None
    symbols: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.headings, str):
            object.__setattr__(self, "headings", (self.headings,))


@dataclass(frozen=True)
class Candidate:
    text: str
    line: int
    why: str  # "bold", "after =", "after 'total'", "number"
    conclusive: bool
    parsed: ParsedAnswer | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "line": self.line,
            "why": self.why,
            "conclusive": self.conclusive,
        }


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
        }


# -- headings ---------------------------------------------------------------------------

_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BOLD_LINE = re.compile(r"^\s*\*\*([^*]{0,60}[A-Za-z][^*]{0,60})\*\*\s*[:.]?\s*$")
_LABEL = re.compile(r"\b(question|task|exercise|problem|part|q)\s*(\d+)")
_LEADING_NUMBER = re.compile(r"^(\d+)((?:\.\d+)*)\b")
_LEADING_MARKERS = re.compile(r"^(?:[-•*+]\s+|\(?[ivx]+\)\s+|\d+(?:\.\d+)*[.)]?\s+)+")
_END_WORDS = ("references", "bibliography", "appendix", "acknowledg")


def _norm(text: str) -> str:
    s = text.lower().replace("\\_", "_")
    s = re.sub(r"[*`#$\\]", " ", s)
    s = re.sub(r"\s*\(\s*", "(", s)
    s = re.sub(r"\s*\)", ")", s)
    return " ".join(s.split()).strip(" :.")


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
        m = _MD_HEADING.match(raw) or _BOLD_LINE.match(raw)
        heading = _norm(m.group(1)) if m else None
        norm = _norm(raw)
        norm = _LEADING_MARKERS.sub("", norm) if heading is None else heading
        out.append(_Line(idx, raw, heading, norm))
    return out


def _labels(text: str) -> set[tuple[str, str]]:
    return {(("question" if w == "q" else w), n) for w, n in _LABEL.findall(text)}


def _opens(line: _Line, phrases: Sequence[str]) -> int | None:
    """Where the section-opening phrase ends in ``line.norm``, or None."""
    for phrase in phrases:
        p = _norm(phrase)
        if line.heading is not None:
            idx = _find_phrase(line.heading, p)
            if idx >= 0:
                return len(line.norm)  # a heading line holds no answer
        else:
            stripped = _LEADING_NUMBER.sub("", line.norm).strip()
            if _find_phrase(stripped, p) == 0:
                return len(line.norm) - len(stripped) + len(p)
    return None


def _ends_section(
    line: _Line, own: _Line, own_phrases: Sequence[str], other_phrases: Sequence[str]
) -> bool:
    if any(_opens(line, [p]) is not None for p in other_phrases if p not in own_phrases):
        return True
    text = line.heading if line.heading is not None else line.norm
    own_text = own.heading if own.heading is not None else own.norm
    if line.heading is None:
        starts_label = _LABEL.match(text)
        if starts_label:
            return (
                ("question" if starts_label.group(1) == "q" else starts_label.group(1)),
                starts_label.group(2),
            ) not in _labels(own_text)
        own_part = re.search(r"\(([a-h])\)\s*$", _norm(own_phrases[0])) if own_phrases else None
        other_part = re.match(r"^\(([a-h])\)", text)
        return bool(own_part and other_part and own_part.group(1) != other_part.group(1))
    if text.startswith(_END_WORDS):
        return True
    labels = _labels(text)
    if labels and not labels & _labels(own_text):
        return True
    num = _LEADING_NUMBER.match(text)
    if num:
        own_num = _LEADING_NUMBER.match(own_text)
        if own_num:
            return num.group(1) != own_num.group(1)
        return not num.group(2)
    return False


def _opening(lines: list[_Line], headings: Sequence[str]) -> tuple[int, int] | None:
    """(index of the first line opening a section for ``headings``, column of its inline answer)."""
    for i, line in enumerate(lines):
        col = _opens(line, headings)
        if col is not None:
            return i, col
    return None


def _section(
    lines: list[_Line], spec: QuestionSpec, all_phrases: Sequence[str]
) -> tuple[int, int, int] | None:
    """(index of the heading line, column where its inline answer starts, end index exclusive)."""
    opening = _opening(lines, spec.headings)
    if opening is None:
        return None
    i, col = opening
    end = len(lines)
    for j in range(i + 1, len(lines)):
        if (lines[j].heading is not None or lines[j].norm) and _ends_section(
            lines[j], lines[i], spec.headings, all_phrases
        ):
            end = j
            break
    return i, col, end


NEXT_QUESTION = re.compile(r"^[#>*\s\d.]*\**\s*(?:question|q)\s*\d+\b", re.IGNORECASE)


def section_text(report_text: str, headings: str | Sequence[str]) -> str:
    """The text of the section opened by ``headings``, for a person to read, or "" if none.

    It runs from the section's heading to the next "Question N" / "QN" line: sub-headings
    such as "Results of Task 7" inside an answer stay with it, as a TA reads it.
    """
    phrases = (headings,) if isinstance(headings, str) else tuple(headings)
    opening = _opening(_lines(report_text), phrases)
    if opening is None:
        return ""
    first = opening[0]
    raw = report_text.splitlines()
    last = next((i for i in range(first + 1, len(raw)) if NEXT_QUESTION.match(raw[i])), len(raw))
    return "\n".join(raw[first:last]).strip()


def _part_range(
    lines: list[_Line], start: int, end: int, spec: QuestionSpec, siblings: Sequence[str]
) -> tuple[int, int] | None:
    assert spec.part is not None
    own = _norm(spec.part)

    def begins(line: _Line, phrase: str) -> bool:
        text = line.heading if line.heading is not None else line.norm
        return _find_phrase(_LEADING_MARKERS.sub("", text), phrase) == 0

    first = next((i for i in range(start, end) if begins(lines[i], own)), None)
    if first is None:
        first = next((i for i in range(start, end) if _find_phrase(lines[i].norm, own) >= 0), None)
    if first is None:
        return None
    others = [_norm(s) for s in siblings if _norm(s) != own]
    stop = next((i for i in range(first + 1, end) if any(begins(lines[i], o) for o in others)), end)
    return first, stop


# -- candidates ---------------------------------------------------------------------------

_UNIT_WORDS = (
    r"KiB|MiB|GiB|TiB|kB|KB|MB|GB|TB|Gb|Mb|bytes?|bits?|billions?|millions?|thousands?"
    r"|trillions?|bn|[kKMBGT](?![A-Za-z])"
)
_CANDIDATE = re.compile(
    r"(?<![\w.,^_])(?<!\^\{)(?<!_\{)"
    r"(\d{1,3}(?:(?:,\s?|['’ \u2009\u202f]|\{,\})\d{3})+(?!\d)|\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?"
    r"(?:\s*(?:\\?%|(?:" + _UNIT_WORDS + r")\b))?"
)
_BOLD_SPANS = re.compile(r"\*\*(.+?)\*\*|\\textbf\{([^{}]*)\}|\\mathbf\{([^{}]*)\}")
_KEYWORDS = re.compile(
    r"\b(total|therefore|thus|hence|answer|result|gives|overall|altogether)\b", re.I
)
_OPERATOR_AFTER = re.compile(r"^\s*[$*}]*\s*(?:[-+×*/^·÷²³⁴⁵⁶⁷⁸⁹]|\\times|\\cdot|\\div|\(|\\frac)")
_EQ_BEFORE = re.compile(r"(?<![=<>!])=\s*(?:\$|\*|\\textbf\{|\\mathbf\{|\{|\s)*$")
_APPROX_BEFORE = re.compile(
    r"(?:≈|\\approx|~|\b(?:about|approximately|approx\.?|roughly|around))"
    r"\s*(?:\$|\*|\\textbf\{|\\mathbf\{|\{|\s)*$",
    re.I,
)
_TAG = re.compile(r"(?:\\tag\{|\[)\s*$")


def _candidates(
    lines: list[_Line], start: int, end: int, inline_col: int | None, spec: QuestionSpec
) -> list[Candidate]:
    out: list[Candidate] = []
    for i in range(start, end):
        line = lines[i]
        if i == start and inline_col is not None:
            if line.heading is not None:
                continue
            raw = _inline_remainder(line.raw, spec)
            if raw is None:
                continue
        elif line.heading is not None:
            continue
        else:
            raw = line.raw
        bold = [m.span() for m in _BOLD_SPANS.finditer(raw)]
        for m in _CANDIDATE.finditer(raw):
            s, e = m.span()
            before, after = raw[:s], raw[e:]
            if _TAG.search(before) or re.match(r"^\s*\]", after):
                continue  # \tag{1}, citations [4]
            if re.search(r"\(\s*$", before) and re.match(r"^\s*\)", after) and len(m.group(0)) <= 2:
                continue  # equation number "(5)"
            if not before.strip() and re.match(r"^[.)]\s", after):
                continue  # a list marker "1. "
            is_bold = any(bs <= s and e <= be for bs, be in bold)
            after_eq = bool(_EQ_BEFORE.search(before))
            sentence = re.split(r"[.;:]\s", before)[-1]
            keyword = _KEYWORDS.search(sentence)
            operand = bool(_OPERATOR_AFTER.match(after)) or bool(
                re.search(r"[-+×*/^·÷]\s*[$*{]*\s*$", before)
            )
            if is_bold:
                why, conclusive = "bold", True
            elif after_eq and not operand:
                why, conclusive = "after =", True
            elif _APPROX_BEFORE.search(before) and not operand:
                why, conclusive = "after ≈", True
            elif keyword and not operand:
                why, conclusive = f"after '{keyword.group(1).lower()}'", True
            else:
                why, conclusive = "number", False
            text = " ".join(m.group(0).replace("{,}", ",").split())
            out.append(
                Candidate(text, line.number, why, conclusive, parse_answer(text, spec.symbols))
            )
    return out


def _inline_remainder(raw: str, spec: QuestionSpec) -> str | None:
    """The text after a plain-text label: "Q3 (d): 14.5 billion" -> ": 14.5 billion"."""
    low = raw.lower()
    for phrase in spec.headings:
        pattern = r"\s*".join(re.escape(ch) for ch in phrase.lower() if not ch.isspace())
        m = re.search(pattern, low)
        if m:
            return raw[m.end() :]
    return None


def extract_answers(report_text: str, questions: Sequence[QuestionSpec]) -> dict[str, Extracted]:
    """The final answer of each question's section, keyed by ``QuestionSpec.id``."""
    lines = _lines(report_text)
    all_phrases = [p for q in questions for p in q.headings]
    results: dict[str, Extracted] = {}
    for spec in questions:
        found = _section(lines, spec, all_phrases)
        if found is None:
            results[spec.id] = Extracted(
                spec.id, False, reason=f"no heading matching {list(spec.headings)}"
            )
            continue
        head, col, end = found
        heading = lines[head].raw.strip()
        start, inline = head, col
        if spec.part is not None:
            siblings = [q.part for q in questions if q.part and q.headings == spec.headings]
            part = _part_range(lines, head + 1, end, spec, siblings)  # type: ignore[arg-type]
            if part is None:
                results[spec.id] = Extracted(
                    spec.id,
                    False,
                    section=(head + 1, end),
                    heading=heading,
                    reason=f"no part '{spec.part}' in the section",
                )
                continue
            start, end, inline = part[0], part[1], None
        candidates = _candidates(lines, start, end, inline, spec)
        if not candidates:
            results[spec.id] = Extracted(
                spec.id,
                False,
                section=(start + 1, end),
                heading=heading,
                reason="no number in the section",
            )
            continue
        conclusive = [c for c in candidates if c.conclusive]
        pick = (conclusive or candidates)[-1]
        results[spec.id] = Extracted(
            spec.id,
            True,
            answer=pick.text,
            line=pick.line,
            why=pick.why,
            parsed=pick.parsed,
            candidates=tuple(candidates),
            section=(start + 1, end),
            heading=heading,
        )
    return results
