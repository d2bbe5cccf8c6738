"""Settings of the HTTP service, declared once with units, defaults and an "off" value.

A course runs the service on its own server, so every limit a public endpoint needs
(body sizes, rate, queue, timeouts) is a setting here, read from ``GRADER_SERVICE_*``
environment variables and overridable from ``grader serve`` options.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

ENV_PREFIX = "GRADER_SERVICE_"
ROOT = Path(__file__).resolve().parents[2]


def templates_dir() -> Path:
    """Where the page templates live: ``$GRADER_TEMPLATES``, else the checkout's
    ``templates/``, else the copy a wheel installs (``grader/_templates``)."""
    if env := os.environ.get("GRADER_TEMPLATES"):
        return Path(env)
    checkout = ROOT / "templates"
    return checkout if checkout.is_dir() else Path(__file__).resolve().parents[1] / "_templates"


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    """Interface to bind; loopback unless a course deliberately exposes it."""
    port: int = 8000
    """TCP port."""
    packs_dir: Path | None = None
    """Folder of assignment packs looked in first; each sub-folder with a pack.toml is
    served, then those along the rest of the pack search path ($GRADER_PACKS,
    ./reference, the installed examples), first id found wins."""
    max_body_bytes: int = 64 * 1024
    """Largest JSON or form body (bytes) on every endpoint but the notebook upload."""
    max_upload_bytes: int = 5 * 1024 * 1024
    """Largest notebook upload (bytes)."""
    rate_per_minute: int = 120
    """Requests a client (by IP) may make per minute; 0 turns the limit off."""
    rate_burst: int = 30
    """Requests a client may make at once before the per-minute rate applies."""
    compute_timeout_s: float = 5.0
    """Wall-clock limit of one calculator or answer computation; it is killed after this."""
    compute_workers: int = 2
    """Processes that run calculator and answer computations."""
    cache_entries: int = 512
    """Calculator responses kept (identical requests are answered from memory); 0 = off."""
    selfcheck_workers: int = 1
    """Notebooks self-checked at the same time."""
    selfcheck_queue: int = 8
    """Notebooks waiting beyond those running; a full queue answers 503."""
    selfcheck_per_client: bool = True
    """Each client (by address) has at most one self-check running and one waiting; a
    further upload answers 429, and a free worker takes the client served longest ago.
    Off (every upload its own client, first come first served) only behind a proxy
    that hides the students' addresses."""
    selfcheck_share_s: float = 30.0
    """While another client's notebook waits for a worker, a self-check that has run this
    long is stopped (``failed``, saying why) so that the waiting one starts; 0 = never.
    A client alone on the server always gets ``selfcheck_timeout_s``."""
    selfcheck_timeout_s: float = 300.0
    """Wall-clock limit of one self-check (kernel start, cells, probes, checks); past it
    the job ends ``failed`` and its worker process, kernel included, is killed."""
    selfcheck_warm: int = 0
    """Warm sandboxed kernels each self-check worker keeps ready per pack (``grader serve
    --warm N``, docs/warm-kernels.md): an upload starts on a kernel that has already
    imported the pack's ``[environment] warm`` modules. 0: every self-check starts cold."""
    selfcheck_jobs_kept: int = 200
    """Finished self-check jobs remembered (oldest forgotten first)."""
    sandbox: str = "auto"
    """Sandbox of self-check runs: auto/bwrap (required by default) or none (trusted use only)."""
    token: str | None = None
    """Bearer token for the TA endpoints (the job list); None disables them."""

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> Settings:
        """Defaults, then ``GRADER_SERVICE_<FIELD>`` variables, then ``overrides`` (not None)."""
        env = dict(os.environ if env is None else env)
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is not None and raw != "":
                values[f.name] = _convert(f.name, raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values)


def _convert(name: str, raw: str) -> Any:
    default = getattr(Settings(), name)
    try:
        if name == "packs_dir":
            return Path(raw)
        if isinstance(default, bool):
            return raw.lower() in ("1", "true", "yes")
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
    except ValueError:
        raise ValueError(f"{ENV_PREFIX}{name.upper()}: cannot read {raw!r}") from None
    return raw
