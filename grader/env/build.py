"""Build a pack's kernel environment: resolve to a lock, install the lock, layer it.

Resolution is pip's (`pip install --dry-run --report`, run by the grader's interpreter
against the grader's own environment, with the kernel packages pinned by a constraints
file): what it would install is exactly what the grader lacks, and a pack asking for
another torch, ipykernel or safetensors fails here with pip's own explanation. The lock
is that list of pins with their archive hashes; installing it (`--no-deps`, hashes
required) is uv's when uv is there (several times faster) or pip's, into a venv of the
grader's interpreter made without pip. A multi-machine batch writes the lock once
(`--lock-out`) and builds from it on every node (`--from-lock`): the same pins, the same
environment id.

Builds of one environment are serialised by a lock file; the manifest (`env.json`) is
written last, so a folder without it is an interrupted build and is started again.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from grader.env import (
    KERNEL_PACKAGES,
    LAYOUT,
    MANIFEST,
    EnvError,
    PackEnv,
    Spec,
    check_python,
    envs_dir,
    find,
    grader_site,
    interpreter,
    kernel_distributions,
    pointer,
)
from grader.record import write_atomic

LAYERS_MODULE = "_grader_layers"
PTH_FILE = "00-grader-layers.pth"
TIMEOUT_S = 1800


def installer(choice: str = "auto") -> list[str]:
    """The installer's argv prefix: uv (this environment's, else on PATH) or pip."""
    if choice not in ("auto", "uv", "pip"):
        raise EnvError(f"installer must be auto, uv or pip, not {choice!r}")
    if choice in ("auto", "uv"):
        here = Path(sys.executable).parent / "uv"
        uv = str(here) if here.exists() else shutil.which("uv")
        if uv:
            return [uv, "pip", "install"]
        if choice == "uv":
            raise EnvError("uv is not installed (pip install uv), or use --installer pip")
    return [sys.executable, "-m", "pip", "install"]


def _run(argv: list[str], what: str) -> str:
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S,
                              env=env, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise EnvError(f"{what} failed: {exc}") from None
    if done.returncode != 0:
        lines = [ln for ln in (done.stderr + "\n" + done.stdout).splitlines() if ln.strip()]
        detail = "\n".join(ln for ln in lines if "WARNING" not in ln)[-1500:]
        raise EnvError(f"{what} failed:\n{detail}")
    return done.stdout


def resolve(spec: Spec) -> list[dict[str, Any]]:
    """The pins the grader lacks for `spec`: [{name, version, url, sha256}], sorted."""
    check_python(spec)
    with tempfile.TemporaryDirectory(prefix="grader-env-") as tmp:
        constraints = Path(tmp) / "kernel.txt"
        constraints.write_text("".join(f"{n}=={v}\n" for n, v in kernel_distributions()))
        report = Path(tmp) / "report.json"
        _run([sys.executable, "-m", "pip", "install", "--dry-run", "--quiet",
              "--report", str(report), "--constraint", str(constraints), *spec.sources(),
              *spec.packages], f"resolving {', '.join(spec.packages)}")
        data = json.loads(report.read_text())
    pins = []
    for item in data.get("install", []):
        meta, info = item["metadata"], item.get("download_info", {})
        hashes = info.get("archive_info", {}).get("hashes", {})
        pins.append({"name": meta["name"], "version": meta["version"],
                     "url": info.get("url", ""), "sha256": hashes.get("sha256", "")})
    return sorted(pins, key=lambda p: p["name"].lower())


def lock_id(spec: Spec, pins: list[dict[str, Any]]) -> str:
    """The environment's folder name: the pack id and the hash of its pins and of the
    grader's kernel packages and interpreter."""
    import hashlib

    text = json.dumps({"pins": [(p["name"].lower(), p["version"], p["sha256"]) for p in pins],
                       "kernel": kernel_distributions(), "interpreter": interpreter(),
                       "grader_site": str(grader_site()), "layout": LAYOUT}, sort_keys=True)
    return f"{spec.pack_id}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def write_lock(path: Path, spec: Spec, pins: list[dict[str, Any]]) -> None:
    write_atomic(path, json.dumps({"pack": spec.pack_id, "table": spec.table_key(),
                                   "packages": list(spec.packages), "pins": pins,
                                   "resolved_with": dict(kernel_distributions())}, indent=2))


def read_lock(path: Path, spec: Spec) -> list[dict[str, Any]]:
    """Pins from a lock written by `write_lock` for this pack's table (same packages,
    same wheelhouse): a stale lock is refused rather than half-trusted. The grader's
    kernel packages may differ (a CUDA torch on the nodes): the environment's id is still
    this machine's, and `_verify` checks they stay the grader's."""
    try:
        data = json.loads(Path(path).read_text())
        pins = [{k: str(p[k]) for k in ("name", "version", "url", "sha256")}
                for p in data["pins"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise EnvError(f"lock {path}: not a lock written by `grader env build` ({exc})") from None
    if data.get("table") != spec.table_key():
        raise EnvError(f"lock {path} was written for another [environment] table or "
                       "wheelhouse; write it again with --lock-out")
    return pins


def _layers(env: Path) -> None:
    """Link the grader's kernel packages into ENV/kernel and write the .pth that orders
    the kernel's sys.path (see the package docstring)."""
    site = grader_site()
    kernel = env / "kernel"
    kernel.mkdir(exist_ok=True)
    for name, _version in kernel_distributions():
        dist = metadata.distribution(name)
        base = Path(str(dist.locate_file(""))).resolve()
        if base != site:
            continue  # installed elsewhere (the base interpreter's): already on the path
        tops = {Path(str(f)).parts[0] for f in dist.files or [] if Path(str(f)).parts}
        tops.add(Path(str(dist._path)).name)  # type: ignore[attr-defined] - its dist-info
        for top in sorted(tops):
            if top in ("..", "__pycache__") or top.endswith(".pth"):
                continue
            source, link = site / top, kernel / top
            if source.exists() and not link.exists():
                link.symlink_to(source)
    purelib = Path(subprocess.run(
        [str(env / "bin" / "python"), "-c",
         "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True, timeout=60).stdout.strip())
    (purelib / f"{LAYERS_MODULE}.py").write_text(
        '"""Written by `grader env build`: the grader\'s kernel packages before this\n'
        'environment\'s, the rest of the grader\'s after (grader/env/__init__.py)."""\n'
        "import os as _os, site as _site, sys as _sys\n"
        f"_KERNEL = {str(kernel)!r}\n"
        f"_GRADER = {str(site)!r}\n"
        "_here = _os.path.dirname(_os.path.abspath(__file__))\n"
        "_at = _sys.path.index(_here) if _here in _sys.path else 0\n"
        "if _KERNEL not in _sys.path:\n"
        "    _sys.path.insert(_at, _KERNEL)\n"
        "_site.addsitedir(_GRADER)\n")
    (purelib / PTH_FILE).write_text(f"import {LAYERS_MODULE}\n")


def _verify(env: Path) -> dict[str, str]:
    """Each kernel package, as the environment's interpreter imports it, is the grader's."""
    code = ("import importlib, json, os\n"
            f"print(json.dumps({{m: os.path.realpath(importlib.import_module(m).__file__) "
            f"for m in {list(KERNEL_PACKAGES)!r}}}))")
    out = subprocess.run([str(env / "bin" / "python"), "-c", code], capture_output=True,
                         text=True, timeout=300, check=False)
    if out.returncode != 0:
        raise EnvError(f"the built environment cannot import the kernel packages: "
                       f"{out.stderr.strip()[-800:]}")
    found = json.loads(out.stdout)
    site = str(grader_site())
    wrong = {m: f for m, f in found.items() if not f.startswith(site + os.sep)}
    if wrong:
        raise EnvError(f"the environment shadows the grader's kernel packages: {wrong}")
    return found


def build(spec: Spec, *, root: Path | None = None, tool: str = "auto",
          lock: Path | None = None, rebuild: bool = False,
          on_event: Callable[[str], None] | None = None) -> tuple[PackEnv, bool]:
    """Build (or find) the environment of `spec`; (environment, whether it was built now).
    `lock`: install these pins instead of resolving."""
    emit = on_event or (lambda _m: None)
    if spec.empty:
        raise EnvError("the pack's [environment] lists no packages: nothing to build")
    check_python(spec)
    root = root or envs_dir()
    root.mkdir(parents=True, exist_ok=True)
    if not rebuild and lock is None and (found := find(spec, root)) is not None:
        return found, False
    started = time.perf_counter()
    if lock is not None:
        pins = read_lock(lock, spec)
    else:
        emit(f"resolving {', '.join(spec.packages)}")
        pins = resolve(spec)
    resolved_s = time.perf_counter() - started
    name = lock_id(spec, pins)
    folder = root / name
    with open(root / f".{name}.lock", "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)  # another build of the same env waits here
        if rebuild or not (folder / MANIFEST).is_file():
            shutil.rmtree(folder, ignore_errors=True)
            manifest = _install(spec, folder, pins, tool, emit)
            manifest.update(resolve_seconds=round(resolved_s, 3),
                            seconds=round(time.perf_counter() - started, 3))
            write_atomic(folder / MANIFEST, json.dumps(manifest, indent=2))
            built = True
        else:
            built = False
        ptr = pointer(root, spec)
        write_atomic(ptr, json.dumps({"env": name, "pack": spec.pack_id}))
    env = find(spec, root)
    assert env is not None
    return env, built


def _install(spec: Spec, folder: Path, pins: list[dict[str, Any]], tool: str,
             emit: Callable[[str], None]) -> dict[str, Any]:
    base = getattr(sys, "_base_executable", sys.executable)
    emit(f"creating {folder}")
    _run([base, "-m", "venv", "--without-pip", str(folder)], "creating the venv")
    python = folder / "bin" / "python"
    argv = installer(tool)
    used = "uv" if Path(argv[0]).name == "uv" else "pip"
    install_s = 0.0
    if pins:
        requirements = folder / "lock.txt"
        requirements.write_text("".join(
            f"{p['name']}=={p['version']}" + (f" --hash=sha256:{p['sha256']}" if p["sha256"]
                                               else "") + "\n" for p in pins))
        hashed = all(p["sha256"] for p in pins)
        target = ["--python", str(python)]
        if used == "pip":  # pip's --python is a general option, before the command
            argv = [argv[0], "-m", "pip", "--python", str(python), "install"]
            target = []
        emit(f"installing {len(pins)} package(s) with {used}")
        started = time.perf_counter()
        _run([*argv, *target, "--no-deps", *(["--require-hashes"] if hashed else []),
              *spec.sources(), "-r", str(requirements)], f"installing with {used}")
        install_s = time.perf_counter() - started
    emit("linking the grader's kernel packages")
    _layers(folder)
    kernel = _verify(folder)
    return {"pack": spec.pack_id, "spec": spec.key(), "packages": list(spec.packages),
            "python": spec.python, "index_url": spec.index_url,
            "wheelhouse": str(spec.wheelhouse) if spec.wheelhouse else None,
            "pins": pins, "installer": used, "install_seconds": round(install_s, 3),
            "kernel_packages": dict(kernel_distributions()), "kernel_files": kernel,
            "interpreter": interpreter(), "grader_site": str(grader_site()),
            "layout": LAYOUT, "built_at": datetime.now(UTC).isoformat(timespec="seconds")}
