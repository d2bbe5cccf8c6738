"""Run: a notebook executed in a sandboxed kernel, then the pack's probes in it.

`sandbox` builds the bubblewrap jail, `limits` names its limits, `runner` drives the
kernel through nbclient, `kernel_side` is the code sent into the kernel as text, and
`result` holds the types a run hands to checks (no nbclient, no torch there).
"""
