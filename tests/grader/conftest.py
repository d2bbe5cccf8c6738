"""Grading tests use the session fixtures of `tests/conftest.py` (`pack`, `graded`).

They live one level up so tests/grader and tests/report share one grading pass;
the names below stay importable from here for the tests that import them.
"""

from tests.conftest import FAST, PACK_DIR, ROOT, SAMPLES, SECRET, Graded, needs_bwrap

__all__ = ["FAST", "PACK_DIR", "ROOT", "SAMPLES", "SECRET", "Graded", "needs_bwrap"]
