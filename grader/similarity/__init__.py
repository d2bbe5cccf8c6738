"""Similarity a TA can act on: pairs of submissions ranked by shared evidence.

Three kinds of evidence, each read from what grading already stored (nothing runs):
behaviour (`behaviour.py`: the same wrong outputs, errors and operators on the hidden
cases), code beyond the template (`code.py` over `winnow.py`), and written answers
(`written.py`: shared unusual wrong numbers and phrasing). `rank.py` turns them into
one score per pair and groups; `render.py` writes the TA's HTML and JSON. The report
is evidence for a person, never a verdict (docs/similarity.md).
"""

from __future__ import annotations

from grader.similarity.classroom import Classroom, class_from_notebooks, load_class
from grader.similarity.rank import STATEMENT, Pair, Result, find_similar
from grader.similarity.settings import Settings, SimilarityError, load_settings

__all__ = ["STATEMENT", "Classroom", "Pair", "Result", "Settings", "SimilarityError",
           "class_from_notebooks", "find_similar", "load_class", "load_settings"]
