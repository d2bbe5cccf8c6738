"""Cache keys: what decides whether a stored run can stand for a new one.

A run depends on the submission's bytes, on what the pack makes the kernel do (probes,
the files beside the notebook, the reference's hidden cases, the data, limits, the
models in the cache, each check kind's `execution()` settings), on the hidden-input
seed, the mode, and the grader's own code that shapes a run: the kernel-side harness,
the runner and sandbox, and the check kinds (`code_digest`). So a fix to any of those
re-runs what it must. It does not depend on points, tolerances or credit tables:
changing those re-scores the stored runs (`rubric_digest` tells a record is stale)
without executing anything. docs/batch.md has the table of what invalidates what.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import calculators
import grader
from grader import __version__
from grader.checks.kind import Kind
from grader.checks.registry import kind, kinds
from grader.models.cache import cached_models
from grader.pack import PACK_FILE, Pack

CODE_PARTS = ("run", "cases.py")
"""The grader's code whose change can change a run: the sandbox, limits, runner and
kernel-side harness, and how probe inputs are written. The modules of the check kinds
that ask the kernel something (`Kind.probes` overridden) count too, with the modules
each names in `Kind.run_modules` (how a model's weights are cut into shards for the probe
channel, say); kinds that only score do not, so a fix there re-scores without a kernel."""
SCORING_PARTS = ((grader, ("checks", "evaluate", "grade.py", "written", "record.py", "cases.py")),
                 (calculators, (".",)))
"""The code that turns a run into a record: check kinds, the clean evaluator of exported
weights, the scoring loop, answer reading, the record, and the calculators that compute
answer keys."""


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A hash of the grader's source files that shape a run (`CODE_PARTS`)."""
    root = Path(grader.__file__).parent
    asking = {Path(inspect.getfile(module)) for k in kinds().values()
              if type(k).probes is not Kind.probes
              for module in (inspect.getmodule(type(k)),
                             *map(importlib.import_module, k.run_modules))}
    files = [f for part in CODE_PARTS for f in (
        sorted((root / part).rglob("*.py")) if (root / part).is_dir() else [root / part])]
    return _tree_digest([*files, *sorted(asking)])


def execution_digest(pack: Pack, hf_cache: Path | None) -> str:
    """Everything of the pack and environment that changes a run, as one hash: a rebuilt
    pack environment (another lock) or a changed file behind `[assignment] downloads`
    runs the notebooks again."""
    spec: dict[str, Any] = {
        "grader": __version__, "code": code_digest(), "pack": pack.id,
        "fingerprint": pack.fingerprint(),
        "data": {role: _file_digest(path) for role, path in sorted(pack.data.items())},
        "limits": pack.limits.to_dict(),
        "probes": [[q.id, c.kind, kind(c.kind).execution(c)] for q, c in pack.checks()
                   if kind(c.kind).execution(c)],
    }
    if (pack.raw.get("environment") or {}).get("packages"):
        from grader.env import describe  # the built environment's id: its lock's content

        spec["environment"] = describe(pack)
    downloads = (pack.raw.get("assignment") or {}).get("downloads") or {}
    if downloads:  # what `!wget` of each mapped URL gets, public file or not
        spec["downloads"] = {url: _file_digest(pack.root / target)
                             if (pack.root / target).is_file() else None
                             for url, target in sorted(downloads.items())}
    if pack.models and hf_cache is not None:
        have = cached_models(hf_cache)
        spec["models"] = {m: have[m].name if m in have else None for m in pack.models}
    return hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()


def _tree_digest(files: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=1)
def scoring_digest() -> str:
    """A hash of the code that turns a run into a record (`SCORING_PARTS`): a fix there
    re-scores stored runs, without a kernel."""
    files = []
    for package, parts in SCORING_PARTS:
        root = Path(package.__file__).parent
        for part in parts:
            base = root / part
            files += sorted(base.rglob("*.py")) if base.is_dir() else [base]
    return _tree_digest(files)


def rubric_digest(pack: Pack) -> str:
    """The rubric as written, and the scoring code: a record scored under another one is
    re-scored."""
    digest = hashlib.sha256((pack.root / PACK_FILE).read_bytes())
    digest.update(scoring_digest().encode())
    return digest.hexdigest()[:16]


def pack_file_digest(pack: Pack) -> str:
    """sha256 of the pack's `pack.toml` as written: the manifest's record of which rubric
    (and which visibility rules) graded a batch."""
    return _file_digest(pack.root / PACK_FILE)


def submission_key(execution: str, notebook: Path | None, reports: Sequence[Path], *, mode: str,
                   seed: int | None, quick: bool, files: str = "") -> str:
    """The cache key of one submission's run. `files` is the digest of the student's files
    taken beside the notebook (`StudentFiles.digest`): a module changed after a run, or
    one added, runs the notebook again. Without files the key is what it always was, so
    stored runs of packs that take none stay valid."""
    digest = hashlib.sha256()
    for part in (execution, mode, str(seed), str(quick)):
        digest.update(part.encode())
        digest.update(b"\0")
    for path in [notebook, *reports]:
        digest.update(hashlib.sha256(path.read_bytes()).digest() if path else b"no notebook")
    if files:
        digest.update(b"files\0" + files.encode())
    return digest.hexdigest()[:32]
