"""Transfer lab A has no probe: its checks read the report and the notebook's printed lines.

A pack names at least one probe file; this one defines nothing the kernel could call.
"""
