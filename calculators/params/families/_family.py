"""What a family module provides to `count_parameters`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from calculators.params._config import Reader
from calculators.params._spec import Dims, Param

Flags = dict[str, Any]


@dataclass(frozen=True, eq=False)  # hashed by identity: one object per family
class Family:
    """An architecture family.

    ``read`` turns a config dict into (flags, sizes): sizes are the named
    dimensions that appear as symbols in formulas; flags are everything else the
    structure depends on. ``build`` lists the real parameters for one head.
    ``heads`` maps our head names to the transformers class that builds them
    (used by tests and by error messages).
    """

    model_type: str
    title: str
    heads: dict[str, str]
    read: Callable[[Reader], tuple[Flags, dict[str, int]]]
    build: Callable[[Flags, Dims, str], list[Param]]
    symbols_doc: dict[str, str]
