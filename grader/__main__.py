"""``python -m grader`` is the ``grader`` command."""

from grader.cli import run

run()
