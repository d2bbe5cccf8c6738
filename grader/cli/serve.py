"""``grader serve``: run the calculator service and self-check pages with uvicorn."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def serve(
    host: Annotated[str | None, typer.Option(
        help="Interface to bind [default: 127.0.0.1, or GRADER_SERVICE_HOST].")] = None,
    port: Annotated[int | None, typer.Option(
        help="TCP port [default: 8000, or GRADER_SERVICE_PORT].")] = None,
    packs_dir: Annotated[Path | None, typer.Option(help="Folder of assignment packs.")] = None,
    sandbox: Annotated[str | None, typer.Option(
        help="Self-check sandbox: auto (bubblewrap, required) or none (trusted use only).")] = None,
    warm: Annotated[int | None, typer.Option(
        help="Warm kernels kept ready per self-check worker and pack, so an upload runs at "
             "once [default: 0 (cold), or GRADER_SERVICE_SELFCHECK_WARM].")] = None,
) -> None:
    """Serve the calculators, answer checks and notebook self-check over HTTP.

    Every limit is a GRADER_SERVICE_* environment variable (docs/service.md); these
    options override the environment. Examples:

      grader serve

      GRADER_SERVICE_TOKEN=s3cret grader serve --host 0.0.0.0 --port 8080

      grader serve --warm 1
    """
    import uvicorn

    from grader.service.app import create_app
    from grader.service.settings import Settings

    settings = Settings.from_env(host=host, port=port, packs_dir=packs_dir, sandbox=sandbox,
                                 selfcheck_warm=warm)
    typer.echo(f"serving on http://{settings.host}:{settings.port} (API docs at /docs)")
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port,
                log_level="info", proxy_headers=False)
