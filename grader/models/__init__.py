"""Models for grading offline: a Hugging Face cache the sandbox mounts read-only.

Student code calls `from_pretrained("distilbert-base-uncased")` unchanged; with
`HF_HUB_OFFLINE=1` and `HF_HUB_CACHE` pointing at a folder laid out like the hub's
cache, that call resolves without a network. `seed_tiny` fills such a folder with
small real models built from config (tests, laptops, CI); `fetch` fills it from the
hub on a machine that has internet (a TA's grading server).
"""

from grader.models.cache import (
    CACHE_ENV,
    ModelCacheError,
    cache_dir,
    cached_models,
    install_snapshot,
)
from grader.models.tiny import TINY_MODELS, seed_tiny

__all__ = [
    "CACHE_ENV",
    "ModelCacheError",
    "TINY_MODELS",
    "cache_dir",
    "cached_models",
    "install_snapshot",
    "seed_tiny",
]
