"""What a Ray task ships: content, never a path of the driver's that a worker must read.

The driver resolves the pack in its own folder (`-a stat8021-a3` may find
`./reference/stat8021-a3`, a relative path) and names submissions as the TA typed them
(`subs/alice.ipynb`). A worker node runs its tasks in the folder `ray start` ran in,
perhaps on another machine, where those paths mean nothing, or something else. So:

- the pack (its folder, and the files given with `--data`) travels once per batch as a
  tar archive in Ray's object store (`pack_bundle`); each worker process unpacks it once
  into a private temporary folder (`unpack_bundle`) and loads the pack from there. A
  pack environment is found by its table and wheelhouse, not by the pack's folder
  (`grader.env.Spec.key`), so the unpacked copy finds the node's environment;
- a submission (its notebook, its reports and the files the pack takes beside it, with
  the files refused and why) travels in its task as bytes (`Parcel`), written to a
  private folder for the grading and removed after; the record names the driver's paths,
  as a local grading does.

What stays a path, the same absolute one on every node, is what is too big to ship per
batch or is built per node: the model cache (bound read-only into the kernel) and the
pack's kernel environment (built on each node from one lock). `node_facts` reports both
(and the grader's version, code and sandbox) from each node before the first task, so a
node that lacks one is named before anything runs (grader.batch.engines).
"""

from __future__ import annotations

import atexit
import hashlib
import io
import os
import platform
import shutil
import socket
import tarfile
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from grader.batch.work import Task

SKIPPED = frozenset({"__pycache__", ".ipynb_checkpoints", ".ruff_cache", ".git",
                     ".pytest_cache"})
"""Folders of tools, not of the pack: never shipped (the wheel leaves them out too)."""
PACK_MEMBER = "pack"
DATA_MEMBER = "data"


@dataclass(frozen=True)
class Bundle:
    """What a worker needs to know of a shipped pack archive (the archive itself travels
    apart, once, through the object store): its sha256 and where the `--data` files are."""

    digest: str
    data: tuple[tuple[str, str], ...] = ()
    """(role, member path in the archive) for each `--data` file."""


def _tar_filter(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    if SKIPPED.intersection(PurePosixPath(info.name).parts):
        return None
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def pack_bundle(root: str | os.PathLike[str],
                data: tuple[tuple[str, str], ...] = ()) -> tuple[bytes, Bundle]:
    """The pack at `root` and the `data` files (role, path) as a tar archive, and its
    `Bundle`.

    Links are followed (a pack may link a data file kept elsewhere): the worker gets the
    content, whatever the link pointed at on the driver's machine."""
    buffer = io.BytesIO()
    members = []
    with tarfile.open(fileobj=buffer, mode="w", dereference=True, format=tarfile.PAX_FORMAT) as tar:
        tar.add(os.fspath(root), arcname=PACK_MEMBER, filter=_tar_filter)
        for i, (role, path) in enumerate(data):
            member = f"{DATA_MEMBER}/{i}/{Path(path).name}"
            tar.add(os.fspath(path), arcname=member, recursive=False, filter=_tar_filter)
            members.append((role, member))
    archive = buffer.getvalue()
    return archive, Bundle(hashlib.sha256(archive).hexdigest(), tuple(members))


_SCRATCH: list[Path] = []
_UNPACKED: dict[str, Path] = {}


def scratch() -> Path:
    """This process's private folder (mode 0700) for shipped packs and submissions,
    removed when the process exits."""
    if not _SCRATCH:
        folder = Path(tempfile.mkdtemp(prefix="grader-shipped-"))
        _SCRATCH.append(folder)
        atexit.register(shutil.rmtree, folder, True)
    return _SCRATCH[0]


def _extract(archive: bytes, dest: Path) -> None:
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r") as tar:
        if hasattr(tarfile, "data_filter"):  # 3.11.4+: no absolute paths, links out, devices
            tar.extractall(dest, filter="data")
            return
        for member in tar.getmembers():  # older 3.11: the same refusals, by hand
            target = (dest / member.name).resolve()
            if not (member.isfile() or member.isdir()) or not target.is_relative_to(
                    dest.resolve()):
                raise ValueError(f"refused archive member {member.name!r}")
        tar.extractall(dest)


def unpack_bundle(archive: bytes, digest: str) -> Path:
    """The folder holding the unpacked bundle (`pack/`, `data/`): unpacked once per
    process and digest, checked against the digest the driver computed."""
    if digest in _UNPACKED:
        return _UNPACKED[digest]
    if hashlib.sha256(archive).hexdigest() != digest:
        raise ValueError("the shipped pack archive does not match its digest")
    dest = scratch() / f"pack-{digest[:16]}"
    tmp = Path(tempfile.mkdtemp(prefix=".unpack-", dir=scratch()))
    _extract(archive, tmp)
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(tmp, dest)
    _UNPACKED[digest] = dest
    return dest


def shipped_task(task: Task, bundle: Bundle, unpacked: Path) -> Task:
    """`task` with its pack and `--data` files in the unpacked bundle."""
    return replace(task, pack_root=str(unpacked / PACK_MEMBER),
                   data=tuple((role, str(unpacked / member)) for role, member in bundle.data))


@dataclass(frozen=True)
class Parcel:
    """One submission's files as bytes, with what the driver decided about them."""

    notebook: tuple[str, bytes] | None = None
    reports: tuple[tuple[str, bytes], ...] = ()
    files: tuple[tuple[str, bytes], ...] | None = None
    """(path relative to the notebook's folder, content) of each file the pack takes;
    None when the driver took none from a folder (grade_task's default applies)."""
    refused: tuple[dict[str, str], ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


def make_parcel(task: Task, student_files: Any | None) -> Parcel:
    """`task`'s submission as a `Parcel`, read on the driver. `student_files` is the
    pack's `StudentFiles` for the task's folder (None when the task names none)."""
    from grader.batch.work import notebook_problem

    notebook, extra = None, {}
    if task.notebook:
        path = Path(task.notebook)
        try:
            notebook = (path.name, path.read_bytes())
        except OSError:  # unreadable here: the record says why, as a local grading's does
            extra["problem"] = notebook_problem(path) or f"{path.name} could not be read"
    reports = tuple((Path(r).name, Path(r).read_bytes()) for r in task.reports)
    files = refused = None
    if student_files is not None:
        files = tuple((f.path, Path(f.source).read_bytes()) for f in student_files.taken)
        refused = tuple(dict(r) for r in student_files.refused)
    return Parcel(notebook=notebook, reports=reports, files=files, refused=refused or (),
                  extra=extra)


def _inside(base: Path, relative: str) -> Path:
    target = (base / relative).resolve()
    if not target.is_relative_to(base.resolve()) or PurePosixPath(relative).is_absolute():
        raise ValueError(f"refused shipped path {relative!r}")
    return target


def unpack_parcel(task: Task, parcel: Parcel, folder: Path) -> tuple[Task, Any | None]:
    """Write `parcel` under `folder`; the task pointing at the copies, and the
    `StudentFiles` to grade with (None: the task's default)."""
    from grader.intake.files import StudentFiles, TakenFile

    notebook = ""
    if parcel.notebook is not None:
        name, content = parcel.notebook
        path = _inside(folder / "notebook", name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        notebook = str(path)
    elif task.notebook:  # the driver could not read it: let the worker say so, by name
        notebook = str(folder / "notebook" / Path(task.notebook).name)
    reports = []
    for i, (name, content) in enumerate(parcel.reports):
        path = _inside(folder / "reports" / str(i), name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        reports.append(str(path))
    files = None
    if parcel.files is not None:
        base = folder / "files"
        base.mkdir(parents=True, exist_ok=True)
        taken = []
        for relative, content in parcel.files:
            path = _inside(base, relative)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
            taken.append(TakenFile(path=relative, source=path,
                                   sha256=hashlib.sha256(content).hexdigest(),
                                   bytes=len(content)))
        files = StudentFiles(folder=base, taken=taken, refused=[dict(r) for r in parcel.refused])
    extra = {**{k: v for k, v in task.extra.items() if k != "folder"}, **parcel.extra}
    return replace(task, notebook=notebook, reports=tuple(reports), extra=extra), files


def node_facts(task: Task, bundle: Bundle | None = None,
               archive: bytes | None = None) -> dict[str, Any]:
    """What decides whether this node grades `task` as the driver expects: the grader's
    version and code, the sandbox, the model cache, the pack's environment, and the
    execution digest that sums them (a cache key part). Run on each node before the
    first task (and on the driver, for the values to compare with)."""
    import ray  # noqa: F401 - a node without Ray runs no task; here for the node id

    from grader import __version__
    from grader.batch.keys import code_digest, execution_digest
    from grader.models.cache import cached_models

    facts: dict[str, Any] = {"host": socket.gethostname(), "cwd": os.getcwd(),
                             "python": platform.python_version(), "grader": __version__,
                             "code": code_digest(), "problems": []}
    try:
        facts["node"] = ray.get_runtime_context().get_node_id()
    except Exception:  # noqa: BLE001 - the driver itself, outside a task
        facts["node"] = None
    if task.sandbox != "none":
        from grader.run.sandbox import bwrap_works

        facts["sandbox"] = bwrap_works()  # None when it runs
    hf = Path(task.hf_cache) if task.hf_cache else None
    facts["hf_cache"] = {"path": str(hf) if hf else None, "exists": bool(hf and hf.is_dir())}
    if bundle is not None and archive is not None:
        shipped = shipped_task(task, bundle, unpack_bundle(archive, bundle.digest))
    else:
        shipped = task
    from grader.batch.work import _pack

    pack = _pack(shipped)
    have = cached_models(hf) if hf else {}
    facts["models"] = {m: (have[m].name if m in have else None) for m in pack.models}
    environment: str | None = None
    if (pack.raw.get("environment") or {}).get("packages"):
        from grader.env import EnvError, require

        try:
            env = require(pack)
            environment = env.id if env is not None else None
        except EnvError as exc:
            what = str(exc).split(";")[0]  # its command names this node's unpacked copy
            facts["problems"].append(
                f"{what}; build it on this node from the head's lock: `grader env build "
                f"{pack.id} --from-lock LOCK` (docs/batch.md, Packs with a kernel environment)")
    facts["environment"] = environment
    facts["execution"] = execution_digest(pack, hf)
    return facts
