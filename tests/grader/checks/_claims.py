"""Lab A's model families as its pack names them, and the claim they give: the tests of
the claims' languages and held-out batches read sentences through this one helper."""

from __future__ import annotations

from grader.checks.claims import find_claim

LAB_A = {"pretrained": ["pretrained", "pre-trained"],
         "scratch": ["scratch", "randomly initiali", "random init", "not pre-trained",
                     "without pre-training"]}
FALLBACK = {"pretrained": ["fine-tuned", "fine tuned", "finetuned"]}


def better(text: str) -> str | None:
    """The model a text says does better ("equal" for neither), or None for no claim."""
    claim = find_claim(text, LAB_A, FALLBACK)
    return None if claim is None else (claim[0] or "equal")
