"""Reading a Hugging Face style config dict with the library's own defaults.

A ``config.json`` often leaves out fields whose class default applies
(``type_vocab_size`` of BERT, ``n_inner`` of GPT-2). `Reader` applies the same
defaults the transformers config class would, accepts the attribute aliases
(``n_head`` / ``num_attention_heads``), and raises a `ConfigError` that names
the field for anything that is not a sensible size.
"""

from __future__ import annotations

from typing import Any

from calculators.errors import ConfigError, UnsupportedConfig


class Reader:
    def __init__(self, data: dict[str, Any], family: str) -> None:
        self.data = data
        self.family = family

    def _raw(self, key: str, aliases: tuple[str, ...]) -> tuple[str, Any]:
        for k in (key, *aliases):
            if k in self.data and self.data[k] is not None:
                return k, self.data[k]
        return key, None

    def int(
        self,
        key: str,
        default: int | None = None,
        *,
        aliases: tuple[str, ...] = (),
        minimum: int = 1,
    ) -> int:
        name, value = self._raw(key, aliases)
        if value is None:
            if default is None:
                raise ConfigError(f"is required for a {self.family} config", field=key)
            value = default
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise ConfigError(f"must be an integer, got {value!r}", field=name)
        if value < minimum:
            raise ConfigError(f"must be at least {minimum}, got {value}", field=name)
        return value

    def optional_int(self, key: str, *, aliases: tuple[str, ...] = ()) -> int | None:
        _, value = self._raw(key, aliases)
        return None if value is None else self.int(key, aliases=aliases)

    def bool(self, key: str, default: bool, *, aliases: tuple[str, ...] = ()) -> bool:
        name, value = self._raw(key, aliases)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ConfigError(f"must be true or false, got {value!r}", field=name)
        return value

    def str(self, key: str, default: str) -> str:
        name, value = self._raw(key, ())
        if value is None:
            return default
        if not isinstance(value, str):
            raise ConfigError(f"must be a string, got {value!r}", field=name)
        return value

    def require(self, ok: bool, field: str, message: str) -> None:
        if not ok:
            raise ConfigError(message, field=field)

    def unsupported_if(self, bad: bool, field: str, message: str) -> None:
        if bad:
            raise UnsupportedConfig(
                f"{message}; the {self.family} calculator does not model it", field=field
            )

    def divides(self, heads_key: str, heads: int, dim_key: str, dim: int) -> None:
        if dim % heads:
            raise ConfigError(f"{heads} does not divide {dim_key} = {dim}", field=heads_key)
