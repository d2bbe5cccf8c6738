"""Messages are what a student reads: their wording is pinned, word for word."""

from __future__ import annotations

from sympy import E, Rational, exp

from calculators.answers import Alternative, check_answer, lint_arithmetic
from tests.calculators.answers.q3 import SCORES, Count

R = Rational


def message(answer, expected, **kw) -> str:
    return check_answer(answer, expected, **kw).message


def test_correct_exact():
    assert message("21,018,401", Count(21_018_401)) == "Your answer, 21,018,401, is correct."


def test_correct_to_the_figures_written():
    assert message("≈ 25.77 GB", SCORES) == (
        "Your answer, 25.77 GB, is correct to the 4 significant figures you wrote."
    )


def test_gib_written_as_gb():
    assert message("24 GB", SCORES) == (
        "You wrote 24 GB, but 24 is the size in GiB (2^30 bytes); in GB (10^9 bytes) it is 25.77 GB."
    )


def test_gb_written_as_gib():
    assert message("25.77 GiB", SCORES) == (
        "You wrote 25.77 GiB, but 25.77 is the size in GB (10^9 bytes); in GiB (2^30 bytes) "
        "it is 24 GiB."
    )


def test_bits_labelled_for_bytes():
    assert message("25.77 Gb", SCORES) == (
        "You wrote 25.77 Gb (gigabits), but your number is the size in gigabytes: write 25.77 GB."
    )


def test_bits_counted_as_bytes():
    assert message("206.2 GB", SCORES) == (
        "Your answer, 206.2 GB, counts bits, not bytes: divide by 8 to get 25.77 GB."
    )


def test_missing_memory_unit():
    assert (
        message("25.77", SCORES)
        == "Your answer, 25.77, has no unit; as 25.77 GB it would be correct."
    )


def test_power_of_ten():
    assert message("14.5 million", Count(14_496_989_184)) == (
        "Your answer, 14.5 million, is 1,000 times too small; check the powers of ten "
        "(expected 14,496,989,184)."
    )


def test_close():
    p = E**3 / (exp(R(1, 2)) + exp(R(1, 10)) + E**3 + exp(R(1, 5)) + E)
    assert message("0.7497", p) == (
        "Your answer, 0.7497, is close to 0.75 but off by 0.046 %, more than the rounding of what "
        "you wrote allows."
    )


def test_wrong():
    assert message("1.5 GB", SCORES) == "Your answer, 1.5 GB, does not match the expected 25.77 GB."


def test_alternative_message_is_filled_in():
    alt = Alternative(
        "no_ffn_no_bias",
        Count(20_578_304),
        R(1, 4),
        "Your count, {got}, leaves out the feed-forward layers and all biases.",
    )
    verdict = check_answer("20,578,304", Count(21_018_401), alternatives=[alt])
    assert (
        verdict.message
        == "Your count, 20,578,304, leaves out the feed-forward layers and all biases."
    )
    assert (verdict.verdict, verdict.convention, verdict.credit) == (
        "convention",
        "no_ffn_no_bias",
        R(1, 4),
    )


def test_unreadable():
    assert message("4 × [3 × (512 × 512) + ...]", Count(1)) == (
        "We could not read your answer: it contains '...', so part of it is missing."
    )


def test_symbolic():
    from sympy import Symbol

    d = Symbol("d_model")
    assert message("24 d_{model}^2", 24 * d**2, symbols={"d_model": 512}) == (
        "Your formula, 24 d_{model}^2, is correct."
    )
    assert message("12 d_{model}^2", 24 * d**2, symbols={"d_model": 512}) == (
        "Your formula, 12 d_{model}^2, is not equivalent to the expected one."
    )


def test_slip_message():
    (slip,) = lint_arithmetic("so 120,000 + 600 + 40,000 + 200 = **160,000** parameters")
    assert slip.message == "Line 1: 120,000 + 600 + 40,000 + 200 is 160,800, not 160,000."


def test_a_rough_figure_is_judged_at_the_precision_written():
    """Tolerance(rough=True): "a rough percentage is enough" (STAT8021 Q3(e)(III)). The
    value is the ratio of two calculator counts, never typed in."""
    from calculators import ffn_parameters, lora_matrices
    from calculators.answers import Tolerance

    lora = lora_matrices(shapes=[[6144, 6144], [6144, 6144]], r=8, n_layers=48).total
    ratio = (R(lora) / ffn_parameters(hidden=6144, n_layers=48).value * 100, "%")
    rough = Tolerance(rough=True)
    assert message("0.07 %", ratio, tolerance=rough) == (
        "Your answer, 0.07 %, is correct to the 1 significant figure you wrote.")
    assert check_answer("0.07 %", ratio).verdict == "wrong"  # not rough: one figure is too few
    got = check_answer("0.066 %", ratio, tolerance=rough)
    assert (got.verdict, got.credit) == ("close", R(3, 4))
    assert got.message == (
        "Your answer, 0.066 %, is right to 1 significant figure, not to the 2 you wrote (the "
        "value is 0.0651 %); a rough figure is judged at the precision you write.")
    # significant figures, not decimal places: 0.1 % is no rounding of 0.0651 %
    assert check_answer("0.1 %", ratio, tolerance=rough).verdict == "wrong"
    # an integer is judged to its digits, a formula to three figures
    factor = (ffn_parameters(hidden=6144, n_layers=48).value / R(lora), "times")
    assert check_answer("1536 times", factor, tolerance=rough).verdict == "correct"
    assert check_answer("1500 times", factor, tolerance=rough).verdict == "correct"
    assert check_answer("1/1536", 1 / factor[0], tolerance=rough).verdict == "correct"
    # the precision written is judged before a relative band
    band = Tolerance(relative=R(1, 100), rough=True)
    assert check_answer("0.0645 %", ratio, tolerance=band).verdict == "close"
    assert check_answer("0.0645 %", ratio, tolerance=Tolerance(relative=R(1, 100))
                        ).verdict == "correct"
