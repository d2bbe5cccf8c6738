"""Fill the grader's cache with real checkpoints from the hub, on a machine with internet.

Grading itself never downloads (the sandbox has no network and `HF_HUB_OFFLINE=1`);
a TA runs this once on the grading server, then every run resolves offline. It
downloads only what `from_pretrained` needs (config, weights as safetensors,
tokenizer files), and makes the files readable by the sandbox's user.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

ALLOW = ["*.json", "*.safetensors", "*.txt", "*.model", "merges.txt", "vocab.*"]


class FetchError(RuntimeError):
    """A model that could not be downloaded (offline, unknown name, no safetensors)."""


def fetch_models(cache: Path, names: list[str],
                 on_event: Callable[[str], None] | None = None) -> dict[str, Path]:
    """Download each model into `cache` (the hub's own layout); name -> snapshot folder."""
    if os.environ.get("HF_HUB_OFFLINE") == "1":
        raise FetchError("HF_HUB_OFFLINE=1 is set: unset it to download")
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HfHubHTTPError, LocalEntryNotFoundError

    emit = on_event or (lambda _msg: None)
    cache.mkdir(parents=True, exist_ok=True)
    done: dict[str, Path] = {}
    for name in names:
        emit(f"fetching {name}")
        try:
            folder = snapshot_download(name, cache_dir=str(cache), allow_patterns=ALLOW,
                                       etag_timeout=10)
        except (HfHubHTTPError, LocalEntryNotFoundError, OSError, ValueError) as exc:
            raise FetchError(f"{name}: {type(exc).__name__}: {exc}") from None
        done[name] = Path(folder)
    for path in [cache, *cache.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)
    return done
