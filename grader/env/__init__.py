"""Kernel environments per pack: `[environment] packages = [...]` in a pack's TOML.

A pack whose notebook imports what the grader does not carry (matplotlib, h5py) names
those packages; `grader env build PACK` installs them once per machine into a folder of
their own, and every kernel of that pack runs that folder's interpreter inside the same
sandbox. Grading never installs anything: a run whose environment is not built stops
with the command that builds it (`EnvMissing`, a `PackError`).

Why layered, not a copy of the grader's environment. The probes need the grader's own
torch, ipykernel and safetensors (the harness checks `safetensors.torch.save_file` is
the library's file; probes and the reference must agree on torch), so a pack may add
packages but never replace those. An environment is a venv of the grader's interpreter
holding only the pack's extra packages; a `.pth` file of its site-packages orders the
kernel's `sys.path` as

1. `ENV/kernel/`: links to the grader's kernel packages (torch, ipykernel, safetensors
   and everything they require, as installed in the grader's environment): nothing a
   pack installs can shadow them, even a wheel that ships a `torch/` folder;
2. `ENV/lib/pythonX.Y/site-packages`: the pack's packages (a pack may bring a newer
   numpy or matplotlib than the grader's);
3. the grader's own site-packages: everything else the grader's kernel had before.

Content-addressed (see `grader.env.build`): an environment's folder is named by the
hash of its lock (the resolved pins the grader lacks) and of the grader's kernel
packages and interpreter; a pack finds its environment through the hash of its
`[environment]` table (`by-spec/`), so changing the pack, the wheelhouse or the
grader's torch asks for a rebuild. The grader's process never imports a pack's
packages: resolution and installation run pip or uv as subprocesses.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import sysconfig
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from grader.pack import Pack, PackError
from grader.pack.rubric import EnvironmentTable

ENVS_ENV = "GRADER_ENVS"
"""Where built environments live, unless `--envs DIR` says otherwise."""
KERNEL_PACKAGES = ("torch", "ipykernel", "safetensors")
"""The grader's, always: the probes and the harness depend on them."""
LAYOUT = 1
"""Bumped when the layering changes: every environment is rebuilt."""
MANIFEST = "env.json"
"""Written last into a built environment: a folder without it is unfinished."""


class EnvError(PackError):
    """A pack's environment cannot be built or used as written."""

    def __init__(self, message: str) -> None:
        super().__init__("environment", message)


class EnvMissing(EnvError):
    """The pack needs an environment that is not built on this machine."""


def envs_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """`--envs DIR`, else `$GRADER_ENVS`, else `~/.cache/transformer-grader/envs`."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    if os.environ.get(ENVS_ENV):
        return Path(os.environ[ENVS_ENV]).expanduser().resolve()
    return (Path.home() / ".cache" / "transformer-grader" / "envs").resolve()


def grader_site() -> Path:
    """The grader's own site-packages: where its kernel packages are installed."""
    return Path(sysconfig.get_paths()["purelib"]).resolve()


@cache
def kernel_distributions() -> tuple[tuple[str, str], ...]:
    """(name, version) of the kernel packages and everything they require, as installed
    here (markers evaluated for this interpreter), sorted."""
    env = default_environment()
    seen: dict[str, str] = {}
    todo = list(KERNEL_PACKAGES)
    while todo:
        name = canonicalize_name(todo.pop())
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # an optional requirement not installed here
        seen[name] = dist.version
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({**env, "extra": ""}):
                todo.append(req.name)
    return tuple(sorted(seen.items()))


def interpreter() -> dict[str, str]:
    """What the environment's venv is made from (the grader's own interpreter)."""
    base = getattr(sys, "_base_executable", sys.executable)
    return {"python": platform.python_version(), "implementation": sys.implementation.name,
            "executable": os.path.realpath(base), "platform": sysconfig.get_platform()}


@dataclass(frozen=True)
class Spec:
    """A pack's `[environment]` table, resolved against this machine's grader."""

    pack_id: str
    packages: tuple[str, ...]
    python: str | None = None
    index_url: str | None = None
    wheelhouse: Path | None = None
    benign: tuple[str, ...] = ()
    root: Path = field(default=Path("."), compare=False)
    """The pack's folder (for the command a missing environment names)."""

    @property
    def empty(self) -> bool:
        return not self.packages

    def sources(self) -> list[str]:
        """Index options for pip and uv alike: a wheelhouse alone is offline."""
        args: list[str] = []
        if self.wheelhouse is not None:
            args += ["--find-links", str(self.wheelhouse)]
            if self.index_url is None:
                args.append("--no-index")
        if self.index_url is not None:
            args += ["--index-url", self.index_url]
        return args

    def table_key(self) -> str:
        """Hash of the pack's side alone: the table and the wheelhouse's files. A lock
        carries it, so that a node whose torch is another build (CUDA workers of a CPU
        head) can install the same pins."""
        wheels = sorted((p.name, p.stat().st_size) for p in self.wheelhouse.iterdir()
                        if p.is_file()) if self.wheelhouse and self.wheelhouse.is_dir() else []
        text = json.dumps({"packages": sorted(self.packages), "python": self.python,
                           "index_url": self.index_url, "wheelhouse": wheels}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    def key(self) -> str:
        """Hash of what decides the environment before resolving: the table and the
        wheelhouse (`table_key`), and this machine's grader kernel packages, interpreter
        and layout."""
        text = json.dumps({"table": self.table_key(), "kernel": kernel_distributions(),
                           "interpreter": interpreter(), "grader_site": str(grader_site()),
                           "layout": LAYOUT}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:20]


def spec_for(pack: Pack) -> Spec:
    """The pack's environment table (its rubric was validated when the pack loaded)."""
    table = EnvironmentTable.model_validate(pack.raw.get("environment", {}))
    wheelhouse = None
    if table.wheelhouse is not None:
        wheelhouse = (pack.root / table.wheelhouse).resolve()
        if not wheelhouse.is_dir():
            raise EnvError(f"wheelhouse {table.wheelhouse!r}: {wheelhouse} is not a folder")
    return Spec(pack_id=pack.id, packages=tuple(table.packages), python=table.python,
                index_url=table.index_url, wheelhouse=wheelhouse, benign=tuple(table.benign),
                root=pack.root)


def check_python(spec: Spec) -> None:
    """The kernel runs the grader's interpreter: a pack asking for another is an error."""
    if spec.python is None:
        return
    wanted = spec.python if spec.python[:1] in "<>=!~" else f"=={spec.python}.*"
    have = platform.python_version()
    if have not in SpecifierSet(wanted):
        raise EnvError(f"python {spec.python!r}: the grader runs Python {have}, and pack "
                       "environments use the grader's interpreter (its torch is compiled for "
                       "it); grade this pack with a grader installed on a matching Python")


@dataclass(frozen=True)
class PackEnv:
    """A built environment: its folder and what it holds."""

    path: Path
    manifest: dict[str, Any]

    @property
    def id(self) -> str:
        return self.path.name

    @property
    def python(self) -> Path:
        return self.path / "bin" / "python"

    def read_only(self) -> tuple[str, ...]:
        """Host folders the sandbox binds read-only for this environment's kernel: the
        environment (its python's prefix, bound by the sandbox anyway) and the grader's
        site-packages, which its `.pth` puts on the path and its links point into."""
        return (str(self.path), str(grader_site()))


def pointer(root: Path, spec: Spec) -> Path:
    return root / "by-spec" / f"{spec.key()}.json"


def find(spec: Spec, root: Path | None = None) -> PackEnv | None:
    """The built environment for `spec` on this machine, or None."""
    root = root or envs_dir()
    try:
        name = json.loads(pointer(root, spec).read_text())["env"]
        folder = root / str(name)
        manifest = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not (folder / "bin" / "python").exists():
        return None
    return PackEnv(folder, manifest)


def build_command(spec: Spec) -> str:
    return f"grader env build {spec.root}"


def require(pack: Pack, root: Path | None = None) -> PackEnv | None:
    """The pack's environment (None when it needs none); `EnvMissing` naming the command
    that builds it when it is not built here. Never builds anything."""
    spec = spec_for(pack)
    if spec.empty:
        return None
    check_python(spec)
    env = find(spec, root)
    if env is None:
        raise EnvMissing(
            f"pack {pack.id!r} needs a kernel environment ({', '.join(spec.packages)}) that "
            f"is not built on this machine; build it once with `{build_command(spec)}`"
            + (f" --envs {root}" if root else "") + " (grading never installs packages)")
    return env


def kernel_sandbox(pack: Pack, box: Any, root: Path | None = None) -> Any:
    """`box` (a `grader.run.sandbox.Sandbox`) running this pack's kernels: its
    environment's interpreter with the folders it needs bound read-only, and the kernel
    shims (grader.run.kernel_side.shims) for its downloads. Raises `EnvMissing`."""
    from grader.run.kernel_side.shims import shim_sandbox

    env = require(pack, root)
    if env is not None:
        box = replace(box, python=str(env.python),
                      read_only=tuple(dict.fromkeys((*box.read_only, *env.read_only()))))
    return shim_sandbox(pack, box)


def describe(pack: Pack, root: Path | None = None) -> str | None:
    """The environment id a record names (None when the pack needs none or it is missing)."""
    try:
        spec = spec_for(pack)
        env = None if spec.empty else find(spec, root)
    except PackError:
        return None
    return env.id if env is not None else None


def pack_benign(pack: Pack) -> tuple[str, ...]:
    """The pack's `[environment] benign` patterns (grader/checks/tamper.py)."""
    return tuple(EnvironmentTable.model_validate(pack.raw.get("environment", {})).benign)


def kernel_evidence(pack: Pack, run: Any, executed: bool) -> dict[str, Any]:
    """`run.shims` of the record: what the shims bridged (their notes in the executed
    notebook) and the kernel changes not counted as tampering; {} when there is none."""
    from grader.checks.tamper import benign_changes
    from grader.run.kernel_side.shims import applied

    if not executed or not run.cells:
        return {}
    notes = applied(run.executed)
    notes += [{"cell": None, "note": f"not tampering: {change}"}
              for change in benign_changes(run.telemetry, pack_benign(pack))]
    return {"shims": notes} if notes else {}


def env_record(pack: Pack) -> dict[str, str]:
    """`environment.pack_env` of the record: {} when the pack has no environment."""
    env_id = describe(pack)
    return {"pack_env": env_id} if env_id else {}
