"""Telemetry: the kernel's snapshots before and after the student's cells, checked.

The baseline (before the student's first cell) lists the kernel's own threads, modules
and hooks; after the cells, what the notebook left running is stopped (processes from
here, threads by the harness), what it patched is snapshotted and its hooks removed
before the probes. Each snapshot comes back as a file in the run's telemetry folder
and is checked (`grader.run.payload`) before use: one refused is kept, with the
reason, for the TA.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from grader.run import kernel_lifecycle as lifecycle
from grader.run import payload as checked
from grader.run.cell_loop import CellLoop
from grader.run.payload import BadPayload


class Telemetry(CellLoop):
    """Snapshots of the kernel, and what the grader keeps of its own failures."""

    def _snapshot(self, name: str) -> dict[str, Any] | None:
        """Take a telemetry snapshot in the kernel; what it wrote, checked, or None.

        The baseline lists the kernel's own threads (`self.threads`); every later snapshot
        first stops the notebook's other threads and processes (harness `_quiesce`)."""
        nonce = secrets.token_hex(8)
        extra = "" if name == "baseline" else f", {self.threads!r}, {self.sweep!r}"
        self._grader_cell(f"snapshot({self.paths.telemetry_mount!r}, {name!r}, {nonce!r}"
                          f"{extra})", lifecycle.PING_TIMEOUT + lifecycle.STOP_SECONDS, f"snapshot {name}")
        refused = len(self.bad_telemetry)
        snap = self._telemetry(f"{name}.json", lambda d: checked.check_snapshot(d, nonce))
        if name == "baseline":
            why = self.bad_telemetry[refused:]
            if snap is None:
                self.grader_failures.append(
                    "the grader's baseline snapshot, taken before the student's first cell, "
                    + (f"was refused ({why[0]})" if why else "did not come back")
                    + ": what the notebook changed in the kernel could not be checked")
            # Read apart from the snapshot: a baseline refused for a check of its own must
            # not leave the kernel's own threads unknown (and so stopped later).
            refused = len(self.bad_telemetry)
            self.threads = self._telemetry("threads.json",
                                           lambda d: checked.check_threads(d, nonce))
            if self.threads is None:
                why = self.bad_telemetry[refused:]
                self.grader_failures.append(
                    "the kernel's own threads could not be listed before the student's first "
                    "cell" + (f" ({why[0]})" if why else "") + ", so no thread the notebook "
                    "started was stopped before the probes")
        return snap

    def _telemetry(self, name: str, check: Any) -> Any:
        assert self.paths.telemetry is not None
        try:
            data = checked.load_json(self.paths.telemetry / "out" / name,
                                     checked.MAX_SNAPSHOT_JSON_BYTES)
            return None if data is None else check(data)
        except BadPayload as exc:
            self.bad_telemetry.append(str(exc))
            return None

    def _after_cells(self) -> None:
        """Stop what the notebook left running (its other processes, from outside; its
        threads, from the harness), snapshot what it patched, then remove its hooks, timers
        and scheduled callbacks before the probes."""
        killed = self.box.kill_strays()
        nonce, removed_nonce = secrets.token_hex(8), secrets.token_hex(8)
        hooks = (self.baseline or {}).get("hooks", {})
        self._grader_cell(
            f"after({self.paths.telemetry_mount!r}, {nonce!r}, {self.threads!r}, "
            f"{self.sweep!r}, json.loads({json.dumps(hooks)!r}), {removed_nonce!r})",
            lifecycle.PING_TIMEOUT + lifecycle.STOP_SECONDS, "after the student's cells")
        after = self._telemetry("after.json", lambda d: checked.check_snapshot(d, nonce))
        removed = self._telemetry("neutralised.json",
                                  lambda d: checked.check_removed(d, removed_nonce))
        stopped = dict((after or {}).pop("stopped", None) or {})
        stopped["killed"] = stopped.get("killed", 0) + killed
        self.running_threads = list(stopped.get("running", []))
        if stopped["killed"] or self.running_threads:
            # (a thread that ended when asked, tqdm's monitor say, is routine: telemetry only)
            running = ", ".join(self.running_threads)[:200]
            self._hit("processes", None, "the notebook left processes or threads running "
                      f"after its cells: {stopped['killed']} processes killed"
                      + (f"; threads that would not stop: {running}" if running else ""))
        self.telemetry = {"baseline": self.baseline, "after": after, "removed": removed}
        if killed or any(stopped.get(k) for k in ("stopped", "dormant", "running")):
            self.telemetry["stopped"] = stopped
        self._keep_failures()
        if after is None and self.hangs and self.hangs[-1]["outcome"] == "stuck":
            # the kernel no longer answers: a fresh one (the notebook replayed) for the probes
            self._after_probe_death()

    def _keep_failures(self) -> None:
        """What went wrong on the grader's side, in the telemetry the record is made from."""
        if self.bad_telemetry:
            self.telemetry["refused"] = self.bad_telemetry
        if self.grader_failures:
            self.telemetry["grader_failures"] = self.grader_failures
        if self.hangs:
            self.telemetry["hangs"] = self.hangs
