"""Code that runs inside the student's kernel, sent there as cell source.

Nothing here is imported by the grader's own logic: the runner reads these files as
text. They import only the standard library, torch and safetensors (what the
notebook's environment already has), and they keep no state between cells, so a
student's cell that ran before them has nothing of theirs to tamper with.
"""

from pathlib import Path

HARNESS_SOURCE = (Path(__file__).parent / "harness.py").read_text()
