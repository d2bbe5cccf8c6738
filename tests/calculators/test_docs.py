"""docs/calculators.md is a doctest: its worked examples are computed by the library."""

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "calculators.md"


def test_calculators_doc_examples():
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 15
    assert result.failed == 0
