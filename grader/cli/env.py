"""``grader env``: build a pack's kernel environment once per machine, or show it.

Grading never installs anything: a pack with `[environment] packages` needs
`grader env build PACK` run once on each machine that grades it (grader/env). Exit
codes: 0 built or already there; 2 a pack or environment that cannot be built as
written (the message names the key, or quotes pip).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

env_app = typer.Typer(
    help="Kernel environments of packs: the packages a pack's notebooks import beyond the "
    "grader's own.",
    no_args_is_help=True,
    epilog="Examples: grader env build reference/attention-module-hw | "
    "grader env build attention-module-hw --lock-out env.lock | "
    "grader env build attention-module-hw --from-lock env.lock --json | "
    "grader env show attention-module-hw",
)

_ENVS = typer.Option("--envs", help="Where environments live (default: $GRADER_ENVS, else "
                     "~/.cache/transformer-grader/envs).")


@env_app.command("build")
def build(
    assignment: Annotated[str, typer.Argument(help="A pack id or folder.")],
    packs_dir: Annotated[Path | None, typer.Option(help="Where packs live.")] = None,
    envs: Annotated[Path | None, _ENVS] = None,
    installer: Annotated[str, typer.Option(help="auto (uv when installed, else pip), uv or "
                                                "pip.")] = "auto",
    lock_out: Annotated[Path | None, typer.Option(
        help="Also write the resolved pins here, for other machines (--from-lock).")] = None,
    from_lock: Annotated[Path | None, typer.Option(
        help="Install these pins (written by --lock-out) instead of resolving.",
        exists=True, dir_okay=False)] = None,
    rebuild: Annotated[bool, typer.Option(help="Build again even if it exists.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Build the pack's environment once (nothing to do when it is there already).

    Example: grader env build reference/attention-module-hw
    """
    from grader.env import spec_for
    from grader.env.build import build as build_env
    from grader.env.build import write_lock
    from grader.pack import resolve_pack

    pack = resolve_pack(assignment, packs_dir)
    spec = spec_for(pack)
    console = Console(stderr=True)
    with console.status("building") as status:
        env, built = build_env(spec, root=envs, tool=installer, lock=from_lock,
                               rebuild=rebuild, on_event=lambda m: status.update(escape(m)))
    if lock_out is not None:
        write_lock(lock_out, spec, env.manifest["pins"])
    result = {"pack": pack.id, "env": env.id, "path": str(env.path), "built": built,
              "python": str(env.python), "installer": env.manifest.get("installer"),
              "seconds": env.manifest.get("seconds") if built else 0.0,
              "packages": env.manifest.get("packages"),
              "pins": [f"{p['name']}=={p['version']}" for p in env.manifest.get("pins", [])],
              "lock": str(lock_out) if lock_out else None}
    if as_json:
        typer.echo(json.dumps(result, indent=2))
        return
    what = (f"built in {result['seconds']:.1f} s with {result['installer']}" if built
            else "already built")
    Console().print(f"[green]{escape(pack.id)}[/]: {escape(env.id)} {what}\n"
                    f"  {escape(str(env.path))}\n  pins: "
                    f"{escape(', '.join(result['pins']) or '(none beyond the grader)')}",
                    highlight=False)


@env_app.command("show")
def show(
    assignment: Annotated[str, typer.Argument(help="A pack id or folder.")],
    packs_dir: Annotated[Path | None, typer.Option(help="Where packs live.")] = None,
    envs: Annotated[Path | None, _ENVS] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the manifest as JSON.")] = False,
) -> None:
    """Whether the pack's environment is built here, and what it holds (exit 1 if not).

    Example: grader env show attention-module-hw --json
    """
    from grader.env import build_command, find, spec_for
    from grader.pack import resolve_pack

    pack = resolve_pack(assignment, packs_dir)
    spec = spec_for(pack)
    env = None if spec.empty else find(spec, envs)
    if as_json:
        typer.echo(json.dumps({"pack": pack.id, "needs": list(spec.packages),
                               "env": env.id if env else None,
                               "manifest": env.manifest if env else None}, indent=2))
    elif spec.empty:
        typer.echo(f"{pack.id}: no [environment] packages; kernels use the grader's own")
    elif env is None:
        typer.echo(f"{pack.id}: not built here; run `{build_command(spec)}`")
    else:
        typer.echo(f"{pack.id}: {env.id} at {env.path}")
    if not spec.empty and env is None:
        raise typer.Exit(1)
