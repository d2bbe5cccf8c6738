"""The thresholds of `grader similarity`, with their defaults and where a pack tunes them.

Why a file of its own in the pack (`<pack>/similarity.toml`, optional) rather than a table
of pack.toml: these numbers are about a class, not about grading; changing them must not
change a rubric digest, re-score anything or invalidate a stored run. Every key is
documented in docs/similarity.md; an unknown key is an error naming it, as in pack.toml.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

FILE = "similarity.toml"


class SimilarityError(ValueError):
    """A settings file or a grades folder that cannot be read; the message says why."""


class Settings(BaseModel):
    """What counts, how much, and when a pair is flagged for a TA."""

    model_config = ConfigDict(extra="forbid")

    # rarity: evidence shared by many students is a common mistake, not a source
    common_share: float = Field(0.1, gt=0, le=1, description=(
        "a wrong output, error or number held by more than this share of the class (and "
        "by more than common_min students) is common: shown, never scored"))
    common_min: int = Field(3, ge=2, description="a group this small is never common")

    # code
    k: int = Field(15, ge=3, description="tokens per k-gram")
    window: int = Field(5, ge=1, description="winnowing window: matches of k + window - 1 "
                                             "tokens or more are always found")
    code_common_share: float = Field(0.5, gt=0, le=1, description=(
        "code fingerprints found in more than this share of the class are subtracted, like "
        "the starter code"))
    pair_share: float = Field(0.05, gt=0, le=1, description=(
        "only code fingerprints and shingles held by at most this share of the class (and "
        "at most 10 students in a small class) propose candidate pairs"))
    code_weight: float = Field(10.0, ge=0, description="points for code containment 1.0")
    code_min_tokens: int = Field(40, ge=0, description=(
        "students with fewer tokens of their own code than this get no code score (too "
        "little written to compare)"))

    # behaviour
    output_weight: float = Field(1.0, ge=0, description="per bit of a shared wrong output (exact)")
    tolerance_weight: float = Field(0.8, ge=0, description="per bit of a wrong output shared "
                                                           "within the check's tolerance")
    error_weight: float = Field(0.7, ge=0, description="per bit of a shared error message")
    ops_weight: float = Field(0.25, ge=0, description="per bit of a shared rare set of operators")

    # written answers
    number_weight: float = Field(1.0, ge=0, description="per bit of a shared wrong number")
    text_weight: float = Field(8.0, ge=0, description="points for free-text containment 1.0")
    shingle: int = Field(3, ge=1, description="words per shingle of free text")
    text_min_words: int = Field(12, ge=1, description="answers shorter than this (after the "
                                                      "question's words go) are not compared")

    baseline_quantile: float = Field(0.9, ge=0, lt=1, description=(
        "code and text containment count only above this quantile of the class's candidate "
        "pairs (students of one course write alike: what most similar pairs share is the "
        "course's idiom, not a copy)"))

    # the report
    flag_score: float = Field(8.0, ge=0, description="a pair at or above this is flagged")
    show_score: float = Field(3.0, ge=0, description="pairs below this are left out")
    max_pairs: int = Field(200, ge=1, description="pairs listed at most")


def load_settings(pack_root: Path | None, overrides: dict[str, object] | None = None) -> Settings:
    """The pack's `similarity.toml` (if any) over the defaults, then `overrides`."""
    data: dict[str, object] = {}
    if pack_root is not None and (pack_root / FILE).is_file():
        try:
            data = tomllib.loads((pack_root / FILE).read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise SimilarityError(f"{pack_root / FILE}: {exc}") from None
    data.update(overrides or {})
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise SimilarityError(f"{FILE}: {where}: {first['msg']}") from None
