"""`grader pack export-public`: the part of a pack a student may have.

The rubric is filtered as TOML, not as text: `pack.toml` is parsed with tomlkit, the
private fields are deleted from the document wherever and however they are written
(`key = ...`, dotted keys `expected.calc = ...`, an inline table whose arrays span
lines, a `[questions.checks.expected]` sub-table, an inline `checks = [{...}]` array),
and the document is written back with its comments and layout. The result is parsed
again and refused if any private field survived.

Private fields (`PRIVATE_PATHS`, the structural form of `grader.pack.PRIVATE_KEYS`):
`[assignment] reference` and `solution`, `[data] hidden`, and `expected` of every
check and of every `conventions[]` entry of a check. A comment on the line of a
private field goes with it; other comments are kept as written, so a rubric must not
spell its answer key in a comment.
"""

from __future__ import annotations

import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tomlkit

from grader.pack import PACK_FILE, Pack, PackError

ANY = "*"
"""A path step matching every element of an array of tables."""
PRIVATE_PATHS: tuple[tuple[str, ...], ...] = (
    ("assignment", "reference"),
    ("assignment", "solution"),
    ("data", "hidden"),
    ("questions", ANY, "rubric"),
    ("questions", ANY, "checks", ANY, "expected"),
    ("questions", ANY, "checks", ANY, "conventions", ANY, "expected"),
)
"""Where the private fields sit in a rubric; the last step is the key dropped."""
HEADER = "# Public part of the pack, written by `grader pack export-public`.\n"


def _parents(node: Any, steps: tuple[str, ...]) -> Iterator[Any]:
    """The tables that hold the last step of a path (arrays expanded at `ANY`)."""
    if not steps:
        yield node
        return
    step, rest = steps[0], steps[1:]
    if step == ANY:
        if isinstance(node, list):
            for item in node:
                yield from _parents(item, rest)
        return
    if isinstance(node, dict) and step in node:
        yield from _parents(node[step], rest)


def private_fields(raw: Any) -> list[str]:
    """Dotted names of the private fields still present in a parsed rubric."""
    found = []
    for path in PRIVATE_PATHS:
        for parent in _parents(raw, path[:-1]):
            if isinstance(parent, dict) and path[-1] in parent:
                found.append(".".join(path))
    return found


def public_rubric(text: str) -> str:
    """`pack.toml` text without its private fields, comments and layout kept."""
    try:
        doc = tomlkit.parse(text)
    except tomlkit.exceptions.ParseError as exc:
        raise PackError(PACK_FILE, str(exc)) from None
    for path in PRIVATE_PATHS:
        for parent in list(_parents(doc, path[:-1])):
            if isinstance(parent, dict) and path[-1] in parent:
                del parent[path[-1]]
    out = tomlkit.dumps(doc)
    left = private_fields(tomllib.loads(out))
    if left:  # a layout tomlkit could not edit: refuse rather than leak
        raise PackError(left[0], "could not be removed from the public rubric; "
                        "write it as a plain `key = value` line")
    return out


def export_public(pack: Pack, dest: Path) -> list[Path]:
    """Write the public part of `pack` to `dest`; returns the files written."""
    if pack.is_public:
        raise PackError("pack", f"{pack.root} is already a public part")
    if dest.exists() and any(dest.iterdir()):
        raise PackError("dest", f"{dest} exists and is not empty")
    rubric = public_rubric((pack.root / PACK_FILE).read_text(encoding="utf-8"))
    private = {p.resolve() for p in (pack.reference_path, pack.solution) if p is not None}
    private_dirs = {p.parent for p in private if p.parent != pack.root.resolve()}
    private |= {p.resolve() for role, p in pack.data.items() if role == "hidden"}
    wanted = [pack.template, *pack.probes, *pack.public_files, *_student_side(pack)]
    written = []
    for src in dict.fromkeys(wanted):
        resolved = src.resolve()
        if resolved in private or any(d in resolved.parents or d == resolved for d in private_dirs):
            raise PackError("assignment.public_files", f"{src} is private; refusing to export it")
        target = dest / resolved.relative_to(pack.root.resolve())
        if target.exists():  # already copied with a folder named before it
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, target)
        else:
            shutil.copy2(src, target)
        written.append(target)
    (dest / PACK_FILE).write_text(HEADER + rubric, encoding="utf-8")
    written.append(dest / PACK_FILE)
    return written


def _student_side(pack: Pack) -> list[Path]:
    """What a student's copy needs besides the template notebook and public files: the
    starter's own files that `[assignment] files` takes (a module beside the notebook,
    `template/dl4nlp/transformer_layers.py`), the files `[assignment] downloads` serves
    to `!wget`, and the `[environment]` wheelhouse, without which `grader env build`
    cannot make the kernel environment on the student's laptop offline."""
    out: list[Path] = []
    assignment = pack.raw.get("assignment", {})
    if pack.files and pack.template.parent != pack.root:
        out += [t.source for t in pack.student_files(pack.template.parent, pack.template).taken]
    for target in (assignment.get("downloads") or {}).values():
        out.append(pack.root / target)
    wheelhouse = (pack.raw.get("environment") or {}).get("wheelhouse")
    if wheelhouse:
        out.append(pack.root / wheelhouse)
    return [p for p in out if p.exists()]
