"""The questions a report is read for (``QuestionSpec``) and what was read (``Extracted``).

Why a module of its own: the pack names each question once, by its label and part, and
every stage (the section finder, the phrase finder, the answer picker, the owners of two
answers in one part) is handed the same ``QuestionSpec``; ``Extracted`` is what the record
and the TA sheet keep of the pick.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from calculators.answers.parse import ParsedAnswer
from grader.written.candidates import Candidate


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
    forms are read by the label grammar. ``title``: the question's title.
    """

    id: str
    headings: tuple[str, ...]
    part: str | None = None
    symbols: Mapping[str, Any] | None = None
    labels: tuple[str, ...] = ()
    synonyms: Mapping[str, Sequence[str]] = field(default_factory=dict)
    title: str = ""
    """The question's title in the pack ("Trainable parameters of the encoder"): which of
    a table row's marked values it names, where several are marked alike."""

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

