"""Cache keys: what decides whether a stored run can stand for a new one.

A run depends on the submission's bytes, on what the pack makes the kernel do (probes,
the files beside the notebook, the reference's hidden cases, the data, limits, the
models in the cache), on the hidden-input seed, the mode, and the grader's version.
It does not depend on points, tolerances or credit tables: changing those re-scores
the stored runs (`rubric_digest` tells a record is stale) without executing anything.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from grader import __version__
from grader.models.cache import cached_models
from grader.pack import PACK_FILE, Pack

PROBE_SETTINGS = ("target", "evaluate", "model", "tokenizer", "family", "family_not",
                  "dataset", "count", "max_length")
"""Check settings that change what a probe is asked; the rest only change scoring."""


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def execution_digest(pack: Pack, hf_cache: Path | None) -> str:
    """Everything of the pack and environment that changes a run, as one hash."""
    spec: dict[str, Any] = {
        "grader": __version__, "pack": pack.id, "fingerprint": pack.fingerprint(),
        "data": {role: _file_digest(path) for role, path in sorted(pack.data.items())},
        "limits": pack.limits.to_dict(),
        "probes": [[q.id, c.kind, {k: c.settings.get(k) for k in PROBE_SETTINGS}]
                   for q in pack.questions for c in q.checks if c.kind in ("tensor", "finetune")],
    }
    if pack.models and hf_cache is not None:
        have = cached_models(hf_cache)
        spec["models"] = {m: have[m].name if m in have else None for m in pack.models}
    return hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()


def rubric_digest(pack: Pack) -> str:
    """The rubric as written: a record scored under another one is re-scored."""
    return hashlib.sha256((pack.root / PACK_FILE).read_bytes()).hexdigest()[:16]


def submission_key(execution: str, notebook: Path | None, reports: Sequence[Path], *, mode: str,
                   seed: int | None, quick: bool) -> str:
    digest = hashlib.sha256()
    for part in (execution, mode, str(seed), str(quick)):
        digest.update(part.encode())
        digest.update(b"\0")
    for path in [notebook, *reports]:
        digest.update(hashlib.sha256(path.read_bytes()).digest() if path else b"no notebook")
    return digest.hexdigest()[:32]
