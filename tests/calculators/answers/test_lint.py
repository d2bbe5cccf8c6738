"""lint_arithmetic on written equations: slips are found, algebra and rounding are not slips."""

from __future__ import annotations

import pytest

from calculators.answers import lint_arithmetic

NOT_SLIPS = [
    "r = 16",
    "$n_{token} = 50,001$ and $n_{hid} = 200$",
    "$d_k = d_v = d_{model}/h = 512/8 = 64$",
    "$n_{hid} \\times n_{hid} + n_{hid} = 200 \\times 200 + 200 = 40,200$",
    "$p = e^3/(e^{0.5}+e^{0.1}+e^3+e^{0.2}+e) = 0.7500$",
    "48 × 16384^2 × 2 = 25,769,803,776 bytes = 25.77 GB = 24 GiB",
    "25,769,803,776 bytes = 24 GB",
    "9,437,184 / 14,496,989,184 × 100 = 0.065%",
    "1/1536 = 0.065%",
    "$CE = -\\ln(0.75) = 0.2877$",
    "accuracy = 0.85",
    "5/6 = 0.83 and 1/3 = 0.333 and 2^{10} = 1024, 2^{30} = 1,073,741,824",
    "16384^2 = 268 million",
    "3 × 10^8 = 300 million",
    "lr=2e-4, batch_size = 32",
    "x = 3 + 4 = 7",
    "$$\\text{total} = 24 \\times 512^2 = 6,291,456$$",
    "f(2) = 4 and Var(X) = 1",
    "$num\\_samples * MAX\\_EPOCH/MAX\\_SENTENCES = 1125$",
    "0.1 + 0.2 = 0.3",
    "10/3 = 3.33 ; e^3 = 20.09 ; \\sqrt{2} = 1.414",
    "2 = 2",
    "$2d_{model} + 512 = 1536$",
    "$512 + 2d_{model} = 1536$",
    "$4 N = 16$",
    "$= 24 d_{model}^2 + 42 d_{model}$",
    "(a) 2 + 2 = 4",
    "$\\frac{1}{2} = 0.5$",
    "3 x 4 = 12",
    "$(256 + 2) \\cdot 512 = 132,096$",
    "$$\na = 2 + 3\n  = 5\n$$",
    "2 + 2 ≈ 5",
    "```\ntotal = 2 + 2 == 5\nx = 1 + 1 = 3\n```",
    "LoraConfig(r=16, lora_alpha=32, lora_dropout=0.05)",
    "https://example.com/?a=1&b=2",
]


@pytest.mark.parametrize("text", NOT_SLIPS)
def test_not_a_slip(text):
    assert lint_arithmetic(text) == []


SLIPS = [
    ("2 + 2 = 5", "2 + 2", "5", 4),
    ("200 × 200 × 3 = 12,000", "200 × 200 × 3", "12,000", 120_000),
    ("$\\frac{1}{2} = 0.25$", "\\frac{1}{2}", "0.25", 0.5),
    ("the total is 3 x 4 = 13 parameters", "3 x 4", "13", 12),
    ("16384^2 = 200 million", "16384^2", "200 million", 268_435_456),
    ("$n_{hid} \\times n_{hid} = 200 \\times 200 = 4,000$", "200 \\times 200", "4,000", 40_000),
    ("48 × 16384^2 × 2 bytes = 2.58 GB", "48 × 16384^2 × 2 bytes", "2.58 GB", 25.769803776),
    ("$$\\sqrt{16} = 5$$", "\\sqrt{16}", "5", 4),
]


@pytest.mark.parametrize(("text", "left", "written", "true"), SLIPS)
def test_slip(text, left, written, true):
    (slip,) = lint_arithmetic(text)
    assert (slip.left, slip.written, float(slip.true_value)) == (left, written, true)


def test_equation_block_over_lines_reports_its_first_line():
    text = "intro\n$$\na = 2 + 3\n  = 6\n$$\n"
    (slip,) = lint_arithmetic(text)
    assert (slip.line, slip.end_line, slip.true_value) == (2, 5, 5)


def test_result_on_the_next_line():
    text = "So we get\n\n$$1 + 2 =$$\n\n**4**\n\ndone"
    (slip,) = lint_arithmetic(text)
    assert (slip.line, slip.end_line, slip.written) == (3, 5, "4")


def test_slip_to_dict():
    (slip,) = lint_arithmetic("2 + 2 = 5")
    assert slip.to_dict() == {
        "line": 1,
        "end_line": 1,
        "text": "2 + 2 = 5",
        "left": "2 + 2",
        "written": "5",
        "true_value": "4",
        "written_value": "5",
        "message": "Line 1: 2 + 2 is 4, not 5.",
    }
