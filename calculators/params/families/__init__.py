"""One module per architecture family; `FAMILIES` maps each ``model_type`` to it."""

from __future__ import annotations

from calculators.params.families import (
    bert,
    bloom,
    distilbert,
    gpt2,
    gpt_neox,
    llama,
    mistral,
    opt,
    qwen2,
    t5,
    torch_encoder,
)
from calculators.params.families._family import Family

ALL: tuple[Family, ...] = (
    torch_encoder.FAMILY,
    bert.BERT,
    bert.ROBERTA,
    distilbert.FAMILY,
    gpt2.FAMILY,
    llama.FAMILY,
    mistral.FAMILY,
    qwen2.FAMILY,
    bloom.FAMILY,
    gpt_neox.FAMILY,
    opt.FAMILY,
    t5.FAMILY,
)

FAMILIES: dict[str, Family] = {f.model_type: f for f in ALL}

__all__ = ["ALL", "FAMILIES", "Family"]
