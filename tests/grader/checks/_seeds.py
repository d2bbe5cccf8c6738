"""Lab B's model families as the per-seed tests name them, the claims a text gives as
tuples, and the six runs of the lab's logs: the held-out batches' per-seed tests read
their tables and sentences through this one helper."""

from __future__ import annotations

from grader.checks.seedclaims import Families, parse_claims

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"],
                     "scratch": ["scratch", "random", "not pre-trained"]})

Row = tuple[str | None, int, float | None, int | None, float | None]
"""A claim as written: (family, seed, best validation, step, test)."""


def claims(text: str) -> list[Row]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


EXPECTED = [("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.840),
            ("pretrained", 3, 0.861, 1600, 0.850), ("scratch", 1, 0.712, 1800, 0.698),
            ("scratch", 2, 0.705, 2000, 0.699), ("scratch", 3, 0.720, 1600, 0.707)]
"""The six runs as tests/fixtures/report-corpus/logs/lab-b-runs.csv has them."""
