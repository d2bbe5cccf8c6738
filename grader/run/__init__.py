"""Run: a notebook executed in a sandboxed kernel, then the pack's probes in it.

`sandbox` builds the bubblewrap jail (`sandbox_processes` finds and kills its
processes), `limits` names its limits, `runner` drives the kernel through nbclient
from rooms of its own (`kernel_lifecycle`, `guarded_client`, `cell_loop`, `telemetry`,
`probes`, sharing `run_state`), `kernel_side` is the code sent into the kernel as
text, and `result` holds the types a run hands to checks (no nbclient, no torch there).
"""
