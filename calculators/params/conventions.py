"""Named counting conventions: the ways students (and papers) actually count.

Each convention is a rule over the real model's parameters, chosen so that a
test can apply the same rule to ``named_parameters()`` of the real model. They
combine: ``"no_bias+no_layernorm"`` or ``["no_bias", "no_layernorm"]``.
"""

from __future__ import annotations

from collections.abc import Iterable

from calculators.errors import ConfigError
from calculators.params._spec import BIAS, EMBEDDING, NORM, OUT_PROJ, POSITION, Param

CONVENTIONS: dict[str, str] = {
    "exact": "every parameter once, as sum(p.numel() for p in model.parameters()) counts",
    "no_bias": "leave out the bias vectors of linear layers (LayerNorm parameters stay)",
    "no_layernorm": "leave out LayerNorm / RMSNorm weights and biases",
    "weights_only": "matrices only: leave out every 1-D parameter (biases, norms)",
    "no_out_proj": "leave out the attention output projection (weight and bias)",
    "no_position_embeddings": "leave out learned position embeddings (and T5's relative position bias)",
    "untied": "count a tied weight at every place it is used (e.g. the LM head again)",
    "no_embeddings": "leave out the embedding tables (token, position, token type)",
}


def conventions() -> dict[str, str]:
    """The convention names `count_parameters` accepts, with what each one means."""
    return dict(CONVENTIONS)


def parse(convention: str | Iterable[str] | None) -> frozenset[str]:
    """``"no_bias+untied"`` / ``["no_bias", "untied"]`` / ``None`` -> a validated set."""
    if convention is None:
        names: list[str] = []
    elif isinstance(convention, str):
        names = [c.strip() for c in convention.replace(",", "+").split("+") if c.strip()]
    else:
        names = [str(c).strip() for c in convention]
    unknown = [c for c in names if c not in CONVENTIONS]
    if unknown:
        raise ConfigError(
            f"unknown convention {unknown[0]!r}; known: {', '.join(CONVENTIONS)}",
            field="convention",
        )
    return frozenset(c for c in names if c != "exact")


def keeps(p: Param, conv: frozenset[str]) -> bool:
    """Whether the convention counts this parameter."""
    if p.tied_to is not None and "untied" not in conv:
        return False
    tags = p.tags
    if "no_bias" in conv and BIAS in tags:
        return False
    if "no_layernorm" in conv and NORM in tags:
        return False
    if "weights_only" in conv and len(p.shape) < 2:
        return False
    if "no_out_proj" in conv and OUT_PROJ in tags:
        return False
    if "no_position_embeddings" in conv and POSITION in tags:
        return False
    return not ("no_embeddings" in conv and EMBEDDING in tags)


def label(conv: frozenset[str]) -> str:
    return "+".join(c for c in CONVENTIONS if c in conv) or "exact"
