"""Exact, explained Transformer arithmetic: parameter counts, LoRA sizes, memory, loss, FLOPs.

Every result is exact (Python ints, sympy rationals), carries a breakdown that
adds up to its total, a formula in named sizes, and an explanation; each can
render itself as a rich table (``.table()``) and as JSON (``.to_json()``).

    >>> import calculators as calc
    >>> calc.count_parameters("gpt2", head="causal-lm").total
    124439808
"""

from calculators._result import Memory, Result
from calculators.errors import CalculatorError, ConfigError, UnsupportedConfig
from calculators.ffn import ffn_parameters
from calculators.flops import GPU_PEAK_FLOPS, forward_flops_per_token, gpu_hours, training_flops
from calculators.lora import LoraCount, lora_matrices, lora_parameters
from calculators.loss import CrossEntropy, Softmax, cross_entropy, softmax
from calculators.memory import (
    activation_memory,
    attention_scores_memory,
    kv_cache_memory,
    optimizer_state_memory,
    training_memory,
)
from calculators.params import ParameterCount, count_parameters, registry_names
from calculators.scale import conventions, largest_layer, weight_memory
from calculators.units import GB, KB, MB, TB, GiB, KiB, MiB, Quantity, TiB

__all__ = [
    "GB",
    "GPU_PEAK_FLOPS",
    "KB",
    "MB",
    "TB",
    "CalculatorError",
    "ConfigError",
    "CrossEntropy",
    "GiB",
    "KiB",
    "LoraCount",
    "Memory",
    "MiB",
    "ParameterCount",
    "Quantity",
    "Result",
    "Softmax",
    "TiB",
    "UnsupportedConfig",
    "activation_memory",
    "attention_scores_memory",
    "conventions",
    "count_parameters",
    "cross_entropy",
    "ffn_parameters",
    "forward_flops_per_token",
    "gpu_hours",
    "kv_cache_memory",
    "largest_layer",
    "lora_matrices",
    "lora_parameters",
    "optimizer_state_memory",
    "registry_names",
    "softmax",
    "training_flops",
    "training_memory",
    "weight_memory",
]
