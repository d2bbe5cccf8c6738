"""Probes: the pack's calls of the student's code, in the same kernel, after the cells.

Each probe's inputs go into the io folder (created only when the probes start); the
harness calls the student's function and writes its payload there; what comes back is
checked against what the harness writes (`grader.run.payload`), so a payload that does
not fit is that probe's failure, never the grader's. A probe that kills the kernel is
followed by a fresh kernel (the notebook replayed) while the run has restarts and
budget left.
"""

from __future__ import annotations

import functools
import json
import shutil
from pathlib import Path
from typing import Any

from grader.run import kernel_lifecycle as lifecycle
from grader.run import payload as checked
from grader.run.payload import BadPayload
from grader.run.result import ProbePayload, ProbeRequest
from grader.run.telemetry import Telemetry


class Probes(Telemetry):
    """The probes of a run, after the student's cells and the telemetry."""

    def _probe(self, request: ProbeRequest) -> ProbePayload:
        out = self.paths.io / "out"
        for stale in (f"{request.check_id}.json", f"{request.check_id}.safetensors"):
            (out / stale).unlink(missing_ok=True)  # only this probe's own writes count
        inputs = self.paths.io / "in" / f"{request.check_id}.safetensors"
        shutil.copyfile(request.inputs, inputs)
        inputs.chmod(0o644)  # safetensors writes 0600; the kernel's user must read it
        if self.running_threads:
            return ProbePayload(request.check_id, "invalid", _PROBE_FAILED["threads"].format(
                ", ".join(self.running_threads)[:200]))
        call = (f"probe({self.paths.io_mount!r}, {request.check_id!r}, {request.target!r}, "
                f"{request.source!r}, {self.threads!r}, {self.sweep!r})")
        outcome = self._grader_cell(call, self.limits.probe_timeout + lifecycle.STOP_SECONDS,
                                    f"probe {request.check_id}")
        inputs.unlink(missing_ok=True)  # later probes' code cannot read this one's inputs
        refused = self._refused()
        # Nothing of the notebook may run once the harness has written: a process still
        # there was started after the harness stopped the others.
        late = self.box.kill_strays()
        if outcome == "died":
            self._hit("kernel_died", None, f"while probing {request.check_id}")
        elif outcome not in ("ok", "error"):
            self._hit("probe_timeout", None, request.check_id)
        if refused or late:
            payload = ProbePayload(request.check_id, "invalid", _PROBE_FAILED["refused"].format(
                refused or f"{late} processes of the notebook were running after it"))
        else:
            payload = self._payload(request, outcome)
        if outcome in ("died", "stuck"):
            self._after_probe_death()
        return payload

    def _refused(self) -> str:
        """The harness's reason for refusing its own output (lifecycle.REFUSED in the cell's error
        reply), or ""."""
        assert self.side is not None
        content = (self.side.reply or {}).get("content", {})
        evalue = str(content.get("evalue", ""))
        if content.get("status") == "error" and evalue.startswith(lifecycle.REFUSED):
            return checked.clean_text(evalue[len(lifecycle.REFUSED):], 300)
        return ""

    def _after_probe_death(self) -> None:
        """A fresh kernel for the next probes, the notebook replayed, if the run has a restart
        and budget left; else the remaining probes are not run (`kernel_gone`)."""
        if self.limits.notebook_timeout and self.spent >= self.limits.notebook_timeout:
            self._stop()
            self.kernel_gone = ("the notebook's time budget was used up, so the kernel was "
                                "not started again after it died")
            return
        if not self._restart(len(self.cells)):
            self.kernel_gone = (f"the kernel died or hung {self.restarts + 1} times and was "
                                "not restarted again")
            return
        if self.limits.notebook_timeout and self.spent >= self.limits.notebook_timeout:
            self._hit("notebook_timeout", None, "the replay after a probe killed the kernel "
                      "used up the notebook's budget")
        # the replayed cells may have installed their hooks again
        hooks = (self.baseline or {}).get("hooks", {})
        self._grader_cell(f"neutralise({self.paths.telemetry_mount!r}, "
                          f"json.loads({json.dumps(hooks)!r}), 'replay')", lifecycle.PING_TIMEOUT)

    def _payload(self, request: ProbeRequest, outcome: str) -> ProbePayload:
        """What the probe wrote, checked against what the harness writes (`grader.run.payload`):
        a payload that does not fit is this probe's failure, with the reason."""
        cid = request.check_id
        sent, params = _sent(request.inputs)

        @functools.cache
        def hidden() -> str:  # read only if a message needs scrubbing
            # the run's own folders are no one's business either
            return "\0".join([checked.hidden_texts(params), self.paths.io_mount,
                              self.paths.telemetry_mount])

        try:
            data = checked.load_json(self.paths.io / "out" / f"{cid}.json",
                                     checked.MAX_PROBE_JSON_BYTES)
            if data is None:
                status = {"died": "died", "stuck": "timeout", "timeout": "timeout"}.get(
                    outcome, "missing")
                return ProbePayload(cid, status, _PROBE_FAILED[status])
            cases = checked.check_probe(data, cid, sent, hidden)
            tensors = checked.check_tensors(
                checked.load_tensors(self.paths.io / "out" / f"{cid}.safetensors"), cases)
        except BadPayload as exc:
            return ProbePayload(cid, "invalid", f"{_PROBE_FAILED['invalid']} ({exc}).")
        ops = {name: case.pop(checked.OPS_KEY) for name, case in cases.items()
               if checked.OPS_KEY in case}
        return ProbePayload(cid, "ok", cases=cases, tensors=tensors, ops=ops)


def _sent(inputs: Path) -> tuple[list[str], dict[str, Any]]:
    """The case names of a probe's inputs, and their parameters (whose texts are kept out
    of messages)."""
    from safetensors import safe_open

    with safe_open(str(inputs), framework="pt") as fh:
        params = json.loads((fh.metadata() or {}).get("params", "{}"))
    return list(params), params


_PROBE_FAILED = {
    "died": "The kernel died while the grader called your code.",
    "timeout": "Your code did not return within the probe's time limit.",
    "missing": "The grader's probe did not report back: the notebook interfered with cell "
               "execution, or the kernel could not run it (see the tamper evidence).",
    "invalid": "The grader refused what the probe sent back: it is not what the grader's "
               "harness writes, so the notebook interfered with it",
    "refused": "The grader did not use what the probe found: {}.",
    "threads": "Not run: threads the notebook started kept running after the grader stopped "
               "them ({}); the grader does not call your code while they run. Threads must "
               "end with the cell that starts them.",
}
