"""The vocabulary every architecture is described in: one `Param` per real tensor.

A family lists the parameters of the real model, with their real names and
shapes, so that tests can compare name by name with ``named_parameters()`` and
LoRA can match ``target_modules`` the way peft does. Shapes are written once
over a `Dims` namespace whose entries are plain ints (fast totals) or sympy
symbols (the formula), so the two can never disagree.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sympy

# Tags that conventions filter on; each mirrors how a test classifies the real
# parameter by its owning module (see tests/calculators/realmodels.py).
BIAS = "bias"  # additive bias of a Linear/Conv1D (not of a norm)
NORM = "norm"  # weight or bias of a LayerNorm / RMSNorm
EMBEDDING = "embedding"  # owned by an nn.Embedding
POSITION = "position"  # learned position embedding or relative position bias
OUT_PROJ = "out_proj"  # attention output projection

# Module kinds (what the owning module is), used by LoRA target matching.
LINEAR, CONV1D, EMBED, NORM_KIND, PACKED_MHA, OTHER = (
    "linear",
    "conv1d",
    "embedding",
    "norm",
    "mha_in_proj",
    "other",
)


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter tensor of the real model, possibly repeated over layers.

    ``name`` is the real parameter name; ``{i}`` in it stands for the layer
    index 0..repeat-1. ``tied_to`` names the parameter whose storage this one
    shares: PyTorch counts it once, the ``untied`` convention counts it again.
    """

    name: str
    shape: tuple[Any, ...]
    component: str
    kind: str
    tags: frozenset[str] = frozenset()
    repeat: Any = 1
    tied_to: str | None = None

    @property
    def module(self) -> str:
        return self.name.rsplit(".", 1)[0] if "." in self.name else ""

    @property
    def leaf(self) -> str:
        return self.name.rsplit(".", 1)[-1]

    def size(self) -> Any:
        """Elements in one copy of the tensor (int or sympy expression)."""
        return math.prod(self.shape) if self.shape else 1

    def count(self) -> Any:
        return self.size() * self.repeat

    def names(self) -> list[str]:
        """Expanded real names, one per layer."""
        if "{i}" not in self.name:
            return [self.name]
        return [self.name.replace("{i}", str(i)) for i in range(int(self.repeat))]

    def with_prefix(self, prefix: str) -> Param:
        if not prefix:
            return self
        tied = f"{prefix}{self.tied_to}" if self.tied_to else None
        return Param(
            prefix + self.name, self.shape, self.component, self.kind, self.tags, self.repeat, tied
        )


class Dims:
    """Named sizes of a model: ints for counting, or sympy symbols for the formula.

    Families write ``n.d_model * 4`` once; with ``symbolic=False`` that is an
    int, with ``symbolic=True`` the sympy expression ``4*d_model``.
    """

    __slots__ = ("values", "symbolic")

    def __init__(self, values: dict[str, int], symbolic: bool = False) -> None:
        self.values = values
        self.symbolic = symbolic

    def __getattr__(self, name: str) -> Any:
        values = self.values
        if name not in values:
            raise AttributeError(name)
        return symbol(name) if self.symbolic else values[name]


_SYMBOLS: dict[str, sympy.Symbol] = {}


def symbol(name: str) -> sympy.Symbol:
    """The one sympy symbol used for a named size everywhere in the package."""
    sym = _SYMBOLS.get(name)
    if sym is None:
        sym = _SYMBOLS[name] = sympy.Symbol(name, positive=True, integer=True)
    return sym


def _tags(*extra: str, base: Iterable[str] = ()) -> frozenset[str]:
    return frozenset((*base, *extra))


def linear(
    name: str,
    d_in: Any,
    d_out: Any,
    component: str,
    *,
    bias: bool = True,
    tags: Iterable[str] = (),
    repeat: Any = 1,
    kind: str = LINEAR,
) -> list[Param]:
    """nn.Linear: weight (d_out, d_in) and bias (d_out,). Conv1D stores (d_in, d_out)."""
    wshape = (d_in, d_out) if kind == CONV1D else (d_out, d_in)
    out = [Param(f"{name}.weight", wshape, component, kind, _tags(base=tags), repeat)]
    if bias:
        out.append(Param(f"{name}.bias", (d_out,), component, kind, _tags(BIAS, base=tags), repeat))
    return out


def norm(name: str, d: Any, component: str, *, bias: bool = True, repeat: Any = 1) -> list[Param]:
    """LayerNorm (weight and bias) or RMSNorm (weight only, ``bias=False``)."""
    out = [Param(f"{name}.weight", (d,), component, NORM_KIND, frozenset({NORM}), repeat)]
    if bias:
        out.append(Param(f"{name}.bias", (d,), component, NORM_KIND, frozenset({NORM}), repeat))
    return out


def embedding(
    name: str,
    num: Any,
    dim: Any,
    component: str,
    *,
    position: bool = False,
    repeat: Any = 1,
    tied_to: str | None = None,
) -> list[Param]:
    tags = {EMBEDDING, POSITION} if position else {EMBEDDING}
    return [Param(f"{name}.weight", (num, dim), component, EMBED, frozenset(tags), repeat, tied_to)]


def tied_linear_weight(
    name: str, num: Any, dim: Any, component: str, *, tied_to: str | None
) -> list[Param]:
    """An output projection (LM head) whose weight is the input embedding when tied.

    The duplicate is owned by an nn.Linear, so it is not an 'embedding' for the
    conventions: counting untied adds a matrix, and no_embeddings keeps it.
    """
    return [Param(f"{name}.weight", (num, dim), component, LINEAR, frozenset(), 1, tied_to)]


def layer(prefix: str, params: list[Param], n_layers: Any) -> list[Param]:
    """Repeat per-layer params over ``n_layers`` under ``prefix.{i}.``."""
    return [
        Param(f"{prefix}.{{i}}.{p.name}", p.shape, p.component, p.kind, p.tags, n_layers, None)
        for p in params
    ]
