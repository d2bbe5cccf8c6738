"""Batch grading: many submissions, a pool of workers or a Ray cluster, nothing lost.

`run_batch` is the driver (docs/batch.md): it reuses stored runs by content, re-scores
after a rubric change without executing, retries a lost worker once, and alone writes
the output folder.
"""

from grader.batch.driver import BatchOptions, BatchResult, Item, run_batch
from grader.batch.engines import LocalEngine, RayEngine
from grader.intake.sources import SourceError, collect

__all__ = ["BatchOptions", "BatchResult", "Item", "LocalEngine", "RayEngine", "SourceError",
           "collect", "run_batch"]
