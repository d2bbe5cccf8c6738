"""``grader serve``: run the calculator service and self-check pages with uvicorn."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from grader.cli.options import PacksDirOpt

SERVICE_EXTRA = ("the service needs the `service` extra (FastAPI, uvicorn): "
                 "pip install 'transformer-grader[service,grading]'")


def serve(
    host: Annotated[str | None, typer.Option(
        help="Interface to bind [default: 127.0.0.1, or GRADER_SERVICE_HOST].")] = None,
    port: Annotated[int | None, typer.Option(
        help="TCP port [default: 8000, or GRADER_SERVICE_PORT].")] = None,
    packs_dir: PacksDirOpt = None,
    sandbox: Annotated[str | None, typer.Option(
        help="Self-check sandbox: auto (bubblewrap, required) or none (trusted use only).")] = None,
    warm: Annotated[int | None, typer.Option(
        help="Warm kernels kept ready per self-check worker and pack, so an upload runs at "
             "once [default: 0 (cold), or GRADER_SERVICE_SELFCHECK_WARM].")] = None,
) -> None:
    """Serve the calculators, answer checks and notebook self-check over HTTP.

    The packs served are those along the pack search path every command uses
    (--packs-dir, $GRADER_PACKS, ./reference, the installed examples; first id wins).
    Every limit is a GRADER_SERVICE_* environment variable (docs/service.md); these
    options override the environment. Examples:

      grader serve

      GRADER_SERVICE_TOKEN=s3cret grader serve --host 0.0.0.0 --port 8080

      grader serve --packs-dir /srv/packs --warm 1
    """
    try:
        import uvicorn

        from grader.service.app import create_app, load_packs
        from grader.service.settings import Settings
    except ImportError as exc:  # an install without the extra: say which, not a traceback
        typer.echo(f"error: {SERVICE_EXTRA} (missing: {exc.name})", err=True)
        raise typer.Exit(2) from None

    if packs_dir is not None and not Path(packs_dir).is_dir():
        raise typer.BadParameter(f"{packs_dir} is not a folder", param_hint="--packs-dir")
    settings = Settings.from_env(host=host, port=port, packs_dir=packs_dir, sandbox=sandbox,
                                 selfcheck_warm=warm)
    packs = load_packs(settings.packs_dir)
    typer.echo("packs: " + (", ".join(f"{p.id} ({'public part' if p.is_public else 'full'}, "
                                      f"{p.root})" for p in packs.values()) or "none found"))
    typer.echo(f"serving on http://{settings.host}:{settings.port} (API docs at /docs)")
    uvicorn.run(create_app(settings, packs), host=settings.host, port=settings.port,
                log_level="info", proxy_headers=False)
