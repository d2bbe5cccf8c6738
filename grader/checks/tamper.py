"""Tamper evidence: what the notebook changed in its kernel, for the TA to see.

Anchors that run their tests inside the student's kernel can be defeated from it
(an IPython hook, a patched `torch.allclose`). Here that earns nothing, since
comparisons run in the grader, but a TA still wants to know: it is either a
misunderstanding or an attempt. The harness snapshots the kernel before the first
student cell and after the last; this module lists the differences.

Benign changes. Course notebooks routinely run `%load_ext autoreload`, `%autoreload 2`
and `%matplotlib inline`, which register IPython event callbacks: flagging them marked
every record of a Colab starter as tampered. `BENIGN` lists, by name (fnmatch
patterns), the callbacks of such libraries; a pack adds its own with
`[environment] benign`. A benign change is not a flag but is still listed in the
record (`run.shims`), and the allow-list changes only what is *reported*: before the
probes, the runner still removes every hook the baseline did not have, benign or not
(a notebook that names its own hook `IPython.extensions.autoreload...` hides a flag,
never a hook).
"""

from __future__ import annotations

import fnmatch
import re
from typing import Any

WATCHED = ("builtins.", "torch.", "shell.")
KERNEL_REBINDS = frozenset({"builtins.input", "builtins.raw_input"})
"""Names ipykernel itself rebinds for every execution (stdin forwarding): not tampering."""
BENIGN = (
    "IPython.extensions.autoreload.*",  # %load_ext autoreload, %autoreload 2
    "IPython.extensions.storemagic.*",  # %store
    "matplotlib_inline.backend_inline.*",  # %matplotlib inline
    "IPython.core.pylabtools.*",  # %matplotlib, %pylab
    "ipympl.*",  # %matplotlib widget
    # `import matplotlib.pyplot` under IPython registers its redraw after every cell
    "matplotlib.pyplot._draw_all_if_interactive",
    "autotime.*",  # %load_ext autotime
    "line_profiler.*", "memory_profiler.*",  # %lprun, %memit
)
"""Callbacks of magics and extensions course notebooks use (fnmatch on their names)."""


def _library_wrapper(wrap: dict[str, Any] | None, old_id: int) -> bool:
    """torch rebinding its own function to a wrapper of it (`torch.manual_seed` once
    transformers is imported): the wrapper wraps the very object the baseline saw and
    was written inside torch, not in a notebook cell."""
    if not wrap or wrap.get("wrapped") != old_id:
        return False
    return re.search(r"/(site|dist)-packages/torch/", str(wrap.get("file", ""))) is not None


def _benign(flag: str, patterns: tuple[str, ...]) -> bool:
    """Whether a hook flag ("added events.x: NAME") names a benign callback."""
    if not flag.startswith("added ") or ": " not in flag:
        return False
    name = flag.split(": ", 1)[1]
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def diff_telemetry(telemetry: dict[str, Any], benign: tuple[str, ...] | list[str] = ()
                   ) -> list[str]:
    """One line per change: hooks and transformers added, tracers set, functions replaced;
    hooks of `BENIGN` libraries and of the pack's `benign` patterns left out."""
    patterns = (*BENIGN, *benign)
    return [f for f in _changes(telemetry) if not _benign(f, patterns)]


def benign_changes(telemetry: dict[str, Any], benign: tuple[str, ...] | list[str] = ()
                   ) -> list[str]:
    """The changes `diff_telemetry` leaves out as benign, for the record's evidence."""
    patterns = (*BENIGN, *benign)
    return [f for f in _changes(telemetry) if _benign(f, patterns)]


def _changes(telemetry: dict[str, Any]) -> list[str]:
    before, after = telemetry.get("baseline"), telemetry.get("after")
    if not before and telemetry.get("grader_failures"):
        # refused or lost before the student's first cell: nothing to compare with, and not
        # the notebook's doing (the record's `flags.grader` says why, for a TA)
        return []
    if not before or not after:
        return ["the grader's telemetry did not come back (cell execution was interfered with)"]
    flags = []
    hooks_before, hooks_after = before.get("hooks", {}), after.get("hooks", {})
    for key, names in hooks_after.items():
        extra = list(names)
        for name in hooks_before.get(key, []):
            if name in extra:
                extra.remove(name)
        flags.extend(f"added {key}: {name}" for name in extra)
    for kind in ("trace", "profile"):
        if after.get(kind) and after.get(kind) != before.get(kind):
            flags.append(f"sys.set{kind} installed: {after[kind]}")
    ids_before, ids_after = before.get("ids", {}), after.get("ids", {})
    changed = sorted(k for k, v in ids_after.items()
                     if k in ids_before and ids_before[k] != v and k.startswith(WATCHED)
                     and k not in KERNEL_REBINDS
                     and not _library_wrapper(after.get("wraps", {}).get(k), ids_before[k]))
    added = sorted(k for k in ids_after if k not in ids_before and k.startswith("builtins."))
    flags.extend(f"replaced {name}" for name in changed)
    flags.extend(f"added {name}" for name in added)
    return flags
