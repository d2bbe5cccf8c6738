"""``create_app(settings)``: the calculator service and self-check pages as one FastAPI app.

Start-up loads the packs once (restart the service after editing one), starts the
compute workers and the self-check queue; shutdown stops both, killing their worker
processes and any kernel still running (uvicorn runs the shutdown on SIGTERM and
SIGINT). Nothing a request sends is computed in this process: calculators and answer
checks run in the compute workers, self-checks in the self-check workers, each with
a wall-clock limit. Everything a request can exhaust is bounded by `Settings` (see
docs/service.md).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI

from grader import __version__
from grader.pack import PACK_FILE, Pack, PackError, load_pack, pack_search_path
from grader.service import api_answers, api_calc, api_selfcheck, errors, pages
from grader.service.compute import Computer
from grader.service.errors import ERROR_RESPONSES, ErrorBody
from grader.service.ratelimit import LimitsMiddleware
from grader.service.selfcheck import SelfCheckQueue
from grader.service.settings import Settings

log = logging.getLogger("grader.service")
UPLOAD_PATHS = ("/v1/selfcheck", "/selfcheck")


def load_packs(packs_dir: Path | None = None) -> dict[str, Pack]:
    """Every loadable pack along the pack search path, by id; first found wins.

    The same path every `grader` command looks pack ids up on
    (`grader.pack.pack_search_path`): ``packs_dir`` (``--packs-dir``,
    ``GRADER_SERVICE_PACKS_DIR``) first, then ``$GRADER_PACKS``, ``./reference`` and the
    examples installed with the grader. So a wheel installed on a course server serves
    its example packs from any folder, and a course's exported public pack of the same
    id, given in ``--packs-dir``, is served instead of the full example (issue 27 item
    4: the service once looked only in the checkout's ``reference/``). A broken pack is
    logged and skipped."""
    packs: dict[str, Pack] = {}
    for _, base in pack_search_path(packs_dir):
        for folder in sorted(p for p in base.glob("*") if (p / PACK_FILE).is_file()):
            try:
                pack = load_pack(folder)
            except PackError as exc:
                log.warning("skipping the pack in %s: %s", folder, exc)
                continue
            packs.setdefault(pack.id, pack)
    return packs


def create_app(settings: Settings | None = None,
               packs: dict[str, Pack] | None = None) -> FastAPI:
    """The app; `packs` when the caller has loaded them already (`grader serve` lists
    them before it starts), else `load_packs(settings.packs_dir)`."""
    settings = settings or Settings.from_env()
    packs = load_packs(settings.packs_dir) if packs is None else packs
    computer = Computer(settings.compute_workers, settings.compute_timeout_s,
                        settings.cache_entries)
    selfcheck = SelfCheckQueue(packs, workers=settings.selfcheck_workers,
                               size=settings.selfcheck_queue, keep=settings.selfcheck_jobs_kept,
                               sandbox=settings.sandbox,
                               timeout_s=settings.selfcheck_timeout_s,
                               warm=settings.selfcheck_warm,
                               per_client=settings.selfcheck_per_client,
                               share_s=settings.selfcheck_share_s)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        computer.start()
        selfcheck.start()
        try:
            yield
        finally:
            selfcheck.stop()
            computer.close()

    # docs_url=None: Swagger UI loads its script from a CDN (blank offline); /docs is
    # pages.py's own page built from the same schema (apidocs.py). No ReDoc either.
    app = FastAPI(title="transformer-grader service", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="Exact Transformer calculators, answer checks and notebook "
                  "self-checks. Errors are JSON: {\"error\": {code, field, message}}.",
                  responses={code: {"model": ErrorBody, "description": text}
                             for code, text in ERROR_RESPONSES.items()})
    app.state.settings, app.state.packs = settings, packs
    app.state.computer, app.state.selfcheck = computer, selfcheck
    app.state.attempts = api_answers.DailyAttempts()
    errors.install(app)
    app.include_router(api_calc.router)
    app.include_router(api_answers.router)
    app.include_router(api_selfcheck.router)
    app.include_router(pages.make_router())

    @app.get("/healthz", tags=["service"], summary="Liveness probe (not rate limited)")
    def healthz() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    app.add_middleware(LimitsMiddleware, per_minute=settings.rate_per_minute,
                       burst=settings.rate_burst, max_body_bytes=settings.max_body_bytes,
                       max_upload_bytes=settings.max_upload_bytes, upload_paths=UPLOAD_PATHS)
    return app
