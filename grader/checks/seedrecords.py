"""Per-seed claims as they are collected: what one run's figures are said to be.

Why apart from the readers: a run's figures come one at a time, from a sentence, a list
item or a table cell, and the rule that joins them must be the same for all: figures of
one (model, seed) join one claim until a field comes again with another value, which
starts the next claim (the same seed written twice is two claims, each checked).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from grader.checks.seedwords import FIELDS, Families


@dataclass
class Claim:
    """What one run's figures are said to be; `line` is where the first figure is."""

    seed: int
    family: str | None
    line: int
    quote: str
    best_validation: float | None = None
    step: int | None = None
    test: float | None = None
    candidates: tuple[int, ...] = ()
    """Set when the pairing is not certain: the seeds the figures may belong to (`seed` is
    then only the likeliest); `why` says what made it uncertain."""
    why: str = ""

    def has(self) -> bool:
        """Whether any figure was read (a seed alone is no claim)."""
        return any(getattr(self, f) is not None for f in FIELDS)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "quote": self.quote, "seed": self.seed,
                               "family": self.family}
        out.update({f: getattr(self, f) for f in FIELDS if getattr(self, f) is not None})
        if self.candidates:
            out.update(certain=False, candidates=list(self.candidates), why=self.why)
        return out


class Claims:
    """The claims read so far from one text, and the model the text names above the
    figures being read (a heading, a label line, a table's caption)."""

    def __init__(self, families: Families) -> None:
        self.families = families
        self.claims: list[Claim] = []
        self.family: str | None = None  # from the heading or label above

    def add(self, seed: int | None, family: str | None, line: int, quote: str,
            key: str, value: float | int, open_claims: dict[Any, Claim]) -> Claim | None:
        """Set `key` of the open claim of (family, seed), or of a new one when that field
        already holds another value; None when no seed is known (not read)."""
        if seed is None:
            return None
        claim = open_claims.get((family, seed))
        if claim is None or getattr(claim, key) not in (None, value):
            claim = Claim(seed, family, line, " ".join(quote.split())[:200])
            open_claims[(family, seed)] = claim
            self.claims.append(claim)
        if getattr(claim, key) is None:
            setattr(claim, key, value)
        return claim
