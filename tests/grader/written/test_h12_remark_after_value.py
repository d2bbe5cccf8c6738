"""A value followed by a remark in parentheses that defines its unit ("25.77 GB (1 GB =
10^9 bytes)"): the "=" inside the remark continues no chain of working, so the value
stays the section's conclusion (held-out-12's RFC-style memo, as its family)."""

from __future__ import annotations

import pytest

from grader.written import QuestionSpec, extract_answers

Q3C = [QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",))]
WORKING = "Q3 (c)\n   bytes = 2 * 12,884,901,888 = 25,769,803,776\n\n"


@pytest.mark.parametrize("line", [
    "   Result: 25.77 GB (1 GB = 10^9 bytes)",
    "   Memory: 25.77 GB (decimal, 1 GB = 10^9 B)",
    "   ≈ 25.77 GB (using 1 GB = 10^9 bytes)",
    "   = 25.77 GB (where 1 GB = 1000^3 bytes)",
    "   So the scores take 25.77 GB (1 GB = (10^3)^3 bytes).",
])
def test_a_unit_defined_in_parentheses_after_the_value_leaves_it_the_answer(line: str) -> None:
    got = extract_answers(WORKING + line + "\nQ3 (d)\n14.50 billion\n", Q3C)
    assert got["q3c"].answer == "25.77 GB"


def test_an_equals_after_the_parenthesis_still_continues_the_chain() -> None:
    text = ("Q3 (c)\n   scores: 12,884,901,888 (all heads) = 25,769,803,776 bytes = 25.77 GB\n"
            "Q3 (d)\n14.50 billion\n")
    assert extract_answers(text, Q3C)["q3c"].answer == "25.77 GB"
