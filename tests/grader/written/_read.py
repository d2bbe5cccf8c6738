"""What the held-out family tests ask of a text: each question's answer as read, and each
run's per-seed figures as read."""

from __future__ import annotations

from grader.checks.seedclaims import Families, parse_claims
from grader.written import QuestionSpec, extract_answers

FAMILIES = Families({"pretrained": ["pre-trained", "pretrained"], "scratch": ["scratch"]})
Run = tuple[str | None, int, float | None, int | None, float | None]


def answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


def runs(text: str) -> list[Run]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]
