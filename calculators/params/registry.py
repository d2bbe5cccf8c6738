"""A small offline registry of real ``config.json`` files, so that
``count_parameters("bert-base-uncased")`` needs no network and no transformers.

Each entry is the checkpoint's published ``config.json`` (fields that matter for
sizes and structure), stored under ``calculators/registry/``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from calculators.errors import ConfigError

# short name -> (file, hub id)
ENTRIES: dict[str, tuple[str, str]] = {
    "bert-base-uncased": ("bert-base-uncased.json", "google-bert/bert-base-uncased"),
    "distilbert-base-uncased": (
        "distilbert-base-uncased.json",
        "distilbert/distilbert-base-uncased",
    ),
    "roberta-base": ("roberta-base.json", "FacebookAI/roberta-base"),
    "gpt2": ("gpt2.json", "openai-community/gpt2"),
    "gpt2-medium": ("gpt2-medium.json", "openai-community/gpt2-medium"),
    "TinyLlama-1.1B": ("tinyllama-1.1b.json", "TinyLlama/TinyLlama-1.1B-Chat-v1.0"),
    "Llama-2-7b": ("llama-2-7b.json", "meta-llama/Llama-2-7b-hf"),
    "bloom-560m": ("bloom-560m.json", "bigscience/bloom-560m"),
    "pythia-160m": ("pythia-160m.json", "EleutherAI/pythia-160m"),
    "opt-125m": ("opt-125m.json", "facebook/opt-125m"),
    "t5-small": ("t5-small.json", "google-t5/t5-small"),
    "Mistral-7B-v0.1": ("mistral-7b-v0.1.json", "mistralai/Mistral-7B-v0.1"),
    "Qwen2-0.5B": ("qwen2-0.5b.json", "Qwen/Qwen2-0.5B"),
    "Qwen2-7B-Instruct": ("qwen2-7b-instruct.json", "Qwen/Qwen2-7B-Instruct"),
}


def _aliases() -> dict[str, str]:
    out: dict[str, str] = {}
    for short, (_, hub_id) in ENTRIES.items():
        for name in (short, hub_id, hub_id.split("/", 1)[1]):
            out[name.lower()] = short
    return out


_ALIASES = _aliases()


def names() -> list[str]:
    """Short names of the registry's checkpoints."""
    return list(ENTRIES)


def hub_id(name: str) -> str:
    return ENTRIES[resolve_name(name)][1]


def resolve_name(name: str) -> str:
    short = _ALIASES.get(name.strip().lower())
    if short is None:
        raise ConfigError(
            f"{name!r} is not in the offline registry; known: {', '.join(ENTRIES)}. "
            "Pass a config dict or a config.json path instead.",
            field="model",
        )
    return short


@cache
def _load(short: str) -> dict[str, Any]:
    path = resources.files("calculators") / "registry" / ENTRIES[short][0]
    return json.loads(path.read_text(encoding="utf-8"))


def load(name: str) -> dict[str, Any]:
    """The stored config dict of a registry checkpoint (a fresh copy)."""
    return dict(_load(resolve_name(name)))
