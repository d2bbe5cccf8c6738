"""`grader pack export-public`: the part of a pack a student may have."""

from __future__ import annotations

import shutil
from pathlib import Path

from grader.pack import PACK_FILE, PRIVATE_KEYS, Pack, PackError


def export_public(pack: Pack, dest: Path) -> list[Path]:
    """Write the public part of `pack` to `dest`; returns the files written."""
    if pack.is_public:
        raise PackError("pack", f"{pack.root} is already a public part")
    if dest.exists() and any(dest.iterdir()):
        raise PackError("dest", f"{dest} exists and is not empty")
    private = {p.resolve() for p in (pack.reference_path, pack.solution) if p is not None}
    private_dirs = {p.parent for p in private if p.parent != pack.root.resolve()}
    wanted = [pack.template, *pack.probes, *pack.public_files]
    written = []
    for src in wanted:
        resolved = src.resolve()
        if resolved in private or any(d in resolved.parents or d == resolved for d in private_dirs):
            raise PackError("assignment.public_files", f"{src} is private; refusing to export it")
        target = dest / src.relative_to(pack.root)
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, target)
        else:
            shutil.copy2(src, target)
        written.append(target)
    text = (pack.root / PACK_FILE).read_text(encoding="utf-8")
    kept = [line for line in text.splitlines()
            if not any(line.strip().startswith(f"{key} ") or line.strip().startswith(f"{key}=")
                       for key in PRIVATE_KEYS)]
    header = "# Public part of the pack, written by `grader pack export-public`.\n"
    (dest / PACK_FILE).write_text(header + "\n".join(kept) + "\n", encoding="utf-8")
    written.append(dest / PACK_FILE)
    return written
