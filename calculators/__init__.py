"""Exact, explained Transformer arithmetic: parameter counts, LoRA sizes, memory, loss, FLOPs.

Every result is exact (Python ints, sympy rationals), carries a breakdown that
adds up to its total, a formula in named sizes, and an explanation; each can
render itself as a rich table (``.table()``) and as JSON (``.to_json()``).
"""

from calculators.errors import CalculatorError, ConfigError, UnsupportedConfig
from calculators.lora import LoraCount, lora_matrices, lora_parameters
from calculators.params import ParameterCount, conventions, count_parameters, registry_names

__all__ = [
    "CalculatorError",
    "ConfigError",
    "LoraCount",
    "ParameterCount",
    "UnsupportedConfig",
    "conventions",
    "count_parameters",
    "lora_matrices",
    "lora_parameters",
    "registry_names",
]
