"""Exact parameter counts of Transformer architectures."""

from calculators.params.conventions import conventions
from calculators.params.count import ParameterCount, count_parameters
from calculators.params.registry import names as registry_names

__all__ = ["ParameterCount", "conventions", "count_parameters", "registry_names"]
