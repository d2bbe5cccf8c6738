"""No false slips on ordinary report writing: words inside a sum, subscripts, scientific notation."""

from __future__ import annotations

import pytest

from calculators.answers import lint_arithmetic


@pytest.mark.parametrize("text", [
    "Embeddings: 32000 × 512 + 258 × 512 + LayerNorm 2 × 512 = 16,517,120.",
    "$\\mathrm{softmax}(z)_2 = e^{3}/(e^{0.5}+e^{0.1}+e^{3}+e^{0.2}+e^{1}) = 0.750$",
    "(III) 7.55 × 10^7 / 1.16 × 10^11 = **6.5 × 10^-4**",
])
def test_no_false_slip(text):
    assert lint_arithmetic(text) == []


def test_a_real_slip_beside_them_is_still_found():
    slips = lint_arithmetic("7.55 × 10^7 / 1.16 × 10^11 = 6.5 × 10^-3\n2 × 512 = 1,000\n")
    assert [s.line for s in slips] == [1, 2]
