"""Kernel shims: notebooks written for Colab, Kaggle or a lab machine, run unedited.

What is bridged, and how (the kernel side is `site/`, bound read-only into the sandbox
at `SHIMS_MOUNT` and loaded as an IPython extension when the kernel starts, so before
the grader's baseline snapshot: nothing it installs reads as tampering):

- `from google.colab import drive, files`: a stand-in package. `drive.mount()` makes
  `/content/drive/MyDrive` (and `My Drive`) the submission's folder; `files.upload()`
  uploads nothing (the files handed in are already there).
- `/content/...` and `/kaggle/working/...` are the working folder (links made by the
  sandbox, `grader.run.sandbox.ALIASES`).
- `!pip install` / `%pip install` of packages the kernel's environment has is skipped;
  of one it lacks, the cell fails at once with a message naming the pack's
  `[environment]` (the sandbox has no network: no wait for a timeout).
- `!wget`, `!curl` and `urllib.request` of a URL the pack maps to one of its files
  (`[assignment] downloads`) get that file; any other URL fails at once.
- Self-check calls left in a handed-in notebook: `import grader.notebook as grader;
  grader.check("q1c")` (ours; the sandbox hides the real grader) and otter-grader's
  `otter.Notebook(...).check/check_all/export` are no-ops that say so (`site/grader/`,
  `site/otter/`), so the cells after them still run.

Every bridge prints a line starting with `NOTE` on the cell's stderr; `applied()` reads
them back from the executed notebook into the record (`run.shims`), so a TA sees what
was bridged. A student can print such a line too: it is evidence, never a score.

What they must not weaken (docs/threat-model.md): the shims run as the student, in the
student's kernel, with nothing the student lacks; their files are read-only; the
download files are the pack's public files, bound read-only one by one; the network
stays closed (a mapped URL is a copy of a local file, never a connection).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from grader.pack import Pack, PackError

SITE = Path(__file__).parent / "site"
"""The kernel side: `grader_kernel_shims.py` (the extension) and `google/colab/`."""
SHIMS_MOUNT = "/opt/grader-shims"
DOWNLOADS_MOUNT = "/opt/grader-downloads"
EXTENSION = "grader_kernel_shims"
CONFIG_ENV = "GRADER_SHIMS"
NOTE = "[grader shim] "
"""How a shim's note starts (the kernel side prints the same)."""
MAX_NOTES = 50


def downloads(pack: Pack) -> dict[str, Path]:
    """URL -> the pack's file a notebook's download of it gets."""
    table = (pack.raw.get("assignment") or {}).get("downloads") or {}
    found = {}
    for url, rel in table.items():
        path = (pack.root / rel).resolve()
        if not path.is_file():
            raise PackError("assignment.downloads", f"{url}: {pack.root / rel} is not a file")
        found[str(url)] = path
    return found


def shim_sandbox(pack: Pack, box: Any) -> Any:
    """`box` with the shims loaded in its kernels and the pack's downloads bound."""
    inside = box.kind == "bwrap"
    mounts = [(str(SITE), SHIMS_MOUNT)] if inside else []
    mapped = {}
    for i, (url, path) in enumerate(sorted(downloads(pack).items())):
        where = f"{DOWNLOADS_MOUNT}/{i}-{path.name}" if inside else str(path)
        if inside:
            mounts.append((str(path), where))
        mapped[url] = where
    env = {**box.env, "PYTHONPATH": SHIMS_MOUNT if inside else str(SITE),
           CONFIG_ENV: json.dumps({"downloads": mapped, "pack": pack.id})}
    args = f"--IPKernelApp.extensions={EXTENSION}"
    return replace(box, mounts=tuple(dict.fromkeys((*box.mounts, *mounts))), env=env,
                   kernel_args=tuple(dict.fromkeys((*box.kernel_args, args))))


def applied(notebook: Any) -> list[dict[str, Any]]:
    """The shims' notes in an executed notebook: [{cell (0-based), note}], at most
    `MAX_NOTES`, each cut to 300 characters."""
    found: list[dict[str, Any]] = []
    for index, cell in enumerate(getattr(notebook, "cells", []) or []):
        for output in cell.get("outputs", []) or []:
            if output.get("output_type") != "stream" or output.get("name") != "stderr":
                continue
            text = output.get("text", "")
            text = "".join(text) if isinstance(text, list) else str(text)
            for line in text.splitlines():
                if line.startswith(NOTE) and len(found) < MAX_NOTES:
                    found.append({"cell": index, "note": line[len(NOTE):].strip()[:300]})
    return found
