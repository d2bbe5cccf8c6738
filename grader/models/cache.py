"""Where the grader's Hugging Face cache lives, and how a model is put into it.

One setting decides which cache a run uses: `--hf-cache DIR` on the command line,
else the `GRADER_HF_CACHE` environment variable, else
`~/.cache/transformer-grader/hub`. The layout is the hub's own (huggingface_hub 2.x):
`models--<org>--<name>/refs/main` holds a 40-hex revision and
`models--<org>--<name>/snapshots/<revision>/` holds the files. No `blobs/` folder
is needed for offline loading, so snapshots hold plain files.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

CACHE_ENV = "GRADER_HF_CACHE"


class ModelCacheError(ValueError):
    """A cache that is missing, unreadable or lacks a model the pack needs."""


def cache_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The cache a run uses: the explicit folder, else the environment, else the default."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser().resolve()
    return (Path.home() / ".cache" / "transformer-grader" / "hub").resolve()


def repo_folder(cache: Path, repo_id: str) -> Path:
    return cache / ("models--" + repo_id.replace("/", "--"))


def _revision(folder: Path) -> str:
    """A content hash of the snapshot, so re-seeding identical files changes nothing."""
    digest = hashlib.sha1()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def install_snapshot(cache: Path, repo_id: str, files: Path) -> Path:
    """Copy the files of `files/` into the cache as `repo_id`; return the snapshot folder.

    Files are made world-readable: `save_pretrained` writes 0600 files, and the
    sandboxed kernel runs as another uid that must read them.
    """
    revision = _revision(files)
    repo = repo_folder(cache, repo_id)
    snapshot = repo / "snapshots" / revision
    if not snapshot.is_dir():
        tmp = repo / "snapshots" / f".{revision}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(files, tmp)
        os.replace(tmp, snapshot)
    (repo / "refs").mkdir(parents=True, exist_ok=True)
    ref = repo / "refs" / "main"
    ref.write_text(revision, encoding="ascii")
    for path in [cache, *cache.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return snapshot


def cached_models(cache: Path) -> dict[str, Path]:
    """Repo id -> the snapshot `refs/main` points at, for every model in the cache."""
    found: dict[str, Path] = {}
    if not cache.is_dir():
        return found
    for repo in sorted(cache.glob("models--*")):
        ref = repo / "refs" / "main"
        if not ref.is_file():
            continue
        snapshot = repo / "snapshots" / ref.read_text(encoding="ascii").strip()
        if snapshot.is_dir():
            found[repo.name[len("models--"):].replace("--", "/")] = snapshot
    return found


def require(cache: Path, repo_ids: list[str]) -> None:
    """Fail before any kernel starts when the pack needs a model the cache lacks."""
    have = cached_models(cache)
    missing = [name for name in repo_ids if name not in have]
    if missing:
        raise ModelCacheError(
            f"the model cache {cache} lacks {', '.join(missing)}: run "
            f"`grader models seed --tiny {cache}` (small models for tests and laptops) or "
            f"`grader models fetch {' '.join(missing)} --hf-cache {cache}` on a machine "
            "with internet")
