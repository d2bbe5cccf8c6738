"""Errors raised by the calculators.

    CalculatorError (ValueError)       anything wrong with what was asked
     ├── ConfigError                   a config field is missing, mistyped or out of range
     └── UnsupportedConfig             a valid option the calculator does not model

Every error names the offending ``field`` so that a CLI or an HTTP service can
point at it ("n_heads: 12 does not divide d_model 100") instead of printing a
traceback. Errors pickle with their fields, so process pools can carry them.
"""

from __future__ import annotations


class CalculatorError(ValueError):
    """Base class: a request the calculators cannot answer, with the field to blame."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message

    def __reduce__(self):
        return (_rebuild, (type(self), self.message, self.field))


def _rebuild(cls, message, field):
    return cls(message, field=field)


class ConfigError(CalculatorError):
    """A config value is missing, of the wrong type, or impossible (negative, not dividing)."""


class UnsupportedConfig(CalculatorError):
    """The config is valid for its library, but uses an option these formulas do not model.

    Raised rather than returning a number that would be silently wrong.
    """
