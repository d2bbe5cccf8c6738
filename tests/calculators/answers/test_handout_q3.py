"""STAT8021 A3, Part 3, Q3 (a)-(e): every reasonable form is accepted, near-misses are named.

Expected values are computed here from the handout (L = 48, H = 6144, h = 48,
S_max = 16,384, fp16 scores, LoRA r = 8 on W_Q and W_V, Adam 8 bytes/param).
Credit policy under test: a correct value or a correct rounding of it earns 1;
``close`` earns Tolerance.close_credit (3/4); a listed Alternative earns its own
credit; the built-in unit conventions earn Tolerance.convention_credit (1/2).
"""

from __future__ import annotations

import pytest
from sympy import Integer, Rational, log

from calculators.answers import Alternative, Tolerance, check_answer
from tests.calculators.answers.q3 import (
    CE,
    FFN,
    LORA,
    LORA_ADAM,
    ONE_HEAD,
    P_MAT,
    RANK,
    RATIO,
    SCORES,
    Count,
    H,
    L,
    Memory,
)

R = Rational


def test_the_expected_values_are_what_the_handout_implies():
    assert SCORES.bytes == 25_769_803_776 == 24 * 2**30
    assert FFN == 14_496_989_184  # 48 * (8H^2 + 5H)
    assert LORA == 9_437_184
    assert LORA_ADAM.bytes == 75_497_472 == 72 * 2**20
    assert (RATIO.p, RATIO.q) == (32, 49157)
    assert 0.7500 < float(P_MAT) < 0.7501
    assert 0.2876 < float(CE) < 0.2877


def grade(answer, expected, **kw):
    return check_answer(answer, expected, **kw)


# -- (a)(II) ------------------------------------------------------------------------

P_FORMS = [
    "p = 0.75",
    "0.75",
    "≈ 0.75",
    "0.7500",
    "75 %",
    "75.00%",
    "$p = \\frac{e^{3}}{e^{0.5}+e^{0.1}+e^{3}+e^{0.2}+e^{1}}$",
    "e^3/(e^0.5+e^0.1+e^3+e^0.2+e)",
    "\\frac{e^3}{e^{0.5} + e^{0.1} + e^3 + e^{0.2} + e} \\approx 0.750",
]


@pytest.mark.parametrize("answer", P_FORMS)
def test_a_probability_forms_are_correct(answer):
    verdict = grade(answer, P_MAT)
    assert (verdict.verdict, verdict.credit) == ("correct", 1), verdict.message


CE_LOG10 = Alternative(
    "log10",
    -log(P_MAT, 10),
    R(1, 2),
    "Your loss, {got}, uses log base 10; cross-entropy uses the natural log ({expected}).",
)
CE_FORMS = [
    "-\\ln 0.75",
    "-\\ln(0.75)",
    "\\ln(1/0.75)",
    "-log(0.75)",
    "0.288",
    "0.29",
    "CE ≈ 0.2876",
]


@pytest.mark.parametrize("answer", CE_FORMS)
def test_a_cross_entropy_forms_are_correct(answer):
    verdict = grade(answer, CE, alternatives=[CE_LOG10])
    assert (verdict.verdict, verdict.credit) == ("correct", 1), verdict.message


def test_a_cross_entropy_from_a_rounded_probability_is_close():
    verdict = grade("-\\ln(0.7497)", CE, alternatives=[CE_LOG10])
    assert (verdict.verdict, verdict.credit) == ("close", R(3, 4))


@pytest.mark.parametrize("answer", ["0.125", "-\\log_{10} 0.75", "0.1249"])
def test_a_cross_entropy_in_log10_is_named(answer):
    verdict = grade(answer, CE, alternatives=[CE_LOG10])
    assert (verdict.verdict, verdict.convention, verdict.credit) == ("convention", "log10", R(1, 2))


@pytest.mark.parametrize("answer", ["0.2", "1.386", "-\\ln 0.2"])
def test_a_wrong_losses_are_wrong(answer):
    assert grade(answer, CE, alternatives=[CE_LOG10]).verdict == "wrong"


# -- (c) ---------------------------------------------------------------------------

PER_HEAD = Alternative(
    "per_head",
    ONE_HEAD,
    R(1, 4),
    "Your answer, {got}, is the size of one head's score matrix; the question asks for all 48 heads.",
)
C_FORMS = [
    "25.77 GB",
    "≈ 25.77 GB",
    "25.8 GB",
    "26 GB",
    "$25.77\\text{ GB}$",
    "25.769803776 GB",
    "24 GiB",
    "25,769,803,776 bytes",
    "2.577 \\times 10^{10} bytes",
    "25,769.8 MB",
    "0.02577 TB",
    "48 × 16384^2 × 2 bytes",
    "about 25.77 gigabytes",
]


@pytest.mark.parametrize("answer", C_FORMS)
def test_c_memory_forms_are_correct(answer):
    verdict = grade(answer, SCORES, alternatives=[PER_HEAD])
    assert (verdict.verdict, verdict.credit) == ("correct", 1), verdict.message
    assert verdict.expected == 25_769_803_776 and verdict.unit == "bytes"


@pytest.mark.parametrize(
    ("answer", "verdict", "convention", "credit"),
    [
        ("24 GB", "convention", "gib_vs_gb", R(1, 2)),
        ("25.77 GiB", "convention", "gib_vs_gb", R(1, 2)),
        ("25.77 Gb", "convention", "bits_vs_bytes", R(1, 2)),
        ("206.2 GB", "convention", "bits_vs_bytes", R(1, 2)),
        ("536,870,912 bytes", "convention", "per_head", R(1, 4)),
        ("0.54 GB", "convention", "per_head", R(1, 4)),
        ("0.5 GiB", "convention", "per_head", R(1, 4)),
        ("25.77", "close", None, R(3, 4)),
        ("25.7 GB", "close", None, R(3, 4)),
        ("25,769.8 GB", "wrong", None, 0),
        ("1.5 GB", "wrong", None, 0),
        ("3 GB", "wrong", None, 0),
        ("12.88 GB", "wrong", None, 0),
    ],
)
def test_c_near_misses_are_diagnosed(answer, verdict, convention, credit):
    result = grade(answer, SCORES, alternatives=[PER_HEAD])
    assert (result.verdict, result.convention, result.credit) == (verdict, convention, credit), (
        result.message
    )


def test_c_bytes_written_with_a_lone_b_are_bytes_in_a_memory_question():
    assert grade("25,769,803,776 B", SCORES).verdict == "correct"


# -- (d) ---------------------------------------------------------------------------

NO_BIAS = Alternative(
    "no_biases", Count(L * 8 * H * H), R(3, 4), "Your count, {got}, leaves out the biases."
)
ONE_LAYER = Alternative(
    "one_layer", Count(8 * H * H + 5 * H), R(1, 4), "Your count, {got}, is for one layer only."
)
D_ALTS = [NO_BIAS, ONE_LAYER]
D_FORMS = [
    "14.5 billion",
    "≈14.5 billion parameters",
    "14.497 billion",
    "14,496,989,184",
    "14 496 989 184",
    "1.45e10",
    "1.45 x 10^10",
    "1.45 \\times 10^{10}",
    "14.5B",
    "14.5 G",
    "14.5 bil",  # a phone note's abbreviation
    "14.5 bln",
    "48*(8*H**2 + 5*H)",
    "$L(8H^2 + 5H)$",
    "48 \\times (8 \\times 6144^2 + 5 \\times 6144)",
]


@pytest.mark.parametrize("answer", D_FORMS)
def test_d_parameter_count_forms_are_correct(answer):
    verdict = grade(answer, Count(FFN), alternatives=D_ALTS, symbols={"H": H, "L": L})
    assert (verdict.verdict, verdict.credit) == ("correct", 1), verdict.message


def test_d_a_bare_number_is_correct_when_the_question_asks_in_billions():
    assert grade("14.5", (R(FFN, 10**9), "billion")).verdict == "correct"
    assert (
        grade("14.5", Count(FFN)).verdict == "wrong"
    )  # without the question's unit it is 10^9 off


@pytest.mark.parametrize(
    ("answer", "verdict", "convention", "credit"),
    [
        ("14,495,514,624", "convention", "no_biases", R(3, 4)),
        ("302,020,608", "convention", "one_layer", R(1, 4)),
        ("14.5 million", "wrong", None, 0),
        ("14.4 billion", "wrong", None, 0),
        ("14,496,989,000", "close", None, R(3, 4)),
        ("7.2 billion", "wrong", None, 0),
    ],
)
def test_d_near_misses_are_diagnosed(answer, verdict, convention, credit):
    result = grade(answer, Count(FFN), alternatives=D_ALTS)
    assert (result.verdict, result.convention, result.credit) == (verdict, convention, credit)


# -- (e) ---------------------------------------------------------------------------

E1_ALTS = [
    Alternative(
        "one_layer", Count(2 * 2 * RANK * H), R(1, 4), "Your count, {got}, is for one layer."
    ),
    Alternative(
        "one_matrix", Count(L * 2 * RANK * H), R(1, 2), "Your count, {got}, adapts one matrix."
    ),
    Alternative(
        "qkvo", Count(L * 4 * 2 * RANK * H), R(1, 2), "Your count, {got}, adapts four matrices."
    ),
]
E1_FORMS = [
    "9,437,184",
    "9.44 million",
    "9.4M",
    "≈ 9.4 million",
    "48 × 2 × 8 × (6144 + 6144)",
    "2 \\cdot 48 \\cdot 2 \\cdot 8 \\cdot 6144",
    "L \\times 2 \\times (r H + H r)",
]


@pytest.mark.parametrize("answer", E1_FORMS)
def test_e1_lora_count_forms_are_correct(answer):
    verdict = grade(answer, Count(LORA), alternatives=E1_ALTS, symbols={"L": L, "H": H, "r": RANK})
    assert (verdict.verdict, verdict.credit) == ("correct", 1), verdict.message


@pytest.mark.parametrize(
    ("answer", "convention"),
    [("196,608", "one_layer"), ("4,718,592", "one_matrix"), ("18,874,368", "qkvo")],
)
def test_e1_near_misses_follow_a_named_convention(answer, convention):
    assert grade(answer, Count(LORA), alternatives=E1_ALTS).convention == convention


E2_FORMS = ["75.5 MB", "75,497,472 bytes", "72 MiB", "0.0755 GB", "≈75.5 MB", "9,437,184 × 8 bytes"]


@pytest.mark.parametrize("answer", E2_FORMS)
def test_e2_adam_memory_forms_are_correct(answer):
    verdict = grade(answer, LORA_ADAM)
    assert (verdict.verdict, verdict.credit) == ("correct", 1), verdict.message


def test_e2_megabytes_for_mebibytes_is_the_gib_convention():
    verdict = grade("72 MB", LORA_ADAM)
    assert (verdict.verdict, verdict.convention) == ("convention", "gib_vs_gb")


def test_e2_one_state_only_is_an_alternative():
    one_state = Alternative("one_state", Memory(LORA * 4), R(1, 2), "Only one Adam state: {got}.")
    verdict = grade("37.7 MB", LORA_ADAM, alternatives=[one_state])
    assert (verdict.verdict, verdict.convention, verdict.message) == (
        "convention",
        "one_state",
        "Only one Adam state: 37.7 MB.",
    )


# (III) asks for "a rough percentage or factor": the question widens its correct band
# to 1 % and lists the inverse factor as a fully credited way of answering.
ROUGH = Tolerance(relative=R(1, 100))
INVERSE = Alternative("factor", 1 / RATIO, 1, "Your answer, {got}, gives the factor FFN/LoRA.")
E3_FORMS = [
    "0.065 %",
    "0.065%",
    "≈ 0.065 %",
    "about 1/1536",
    "≈ 0.00065",
    "6.5 \\times 10^{-4}",
    "0.0651 %",
]


@pytest.mark.parametrize("answer", E3_FORMS)
def test_e3_ratio_forms_are_correct(answer):
    verdict = grade(answer, RATIO, tolerance=ROUGH, alternatives=[INVERSE])
    assert (verdict.verdict, verdict.credit) == ("correct", 1), verdict.message


def test_e3_ratio_forms_under_the_default_tolerance():
    assert grade("0.065 %", RATIO).verdict == "correct"  # right to the 2 figures written
    assert (grade("about 1/1536", RATIO).verdict, grade("about 1/1536", RATIO).credit) == (
        "close",
        R(3, 4),
    )


@pytest.mark.parametrize("answer", ["1536", "1536x", "1536 times", "≈ 1536×", "1536 veces",
                                    "1536 fois", "1536 mal", "1536 vezes", "1536倍"])
def test_e3_the_inverse_factor_is_accepted_as_a_convention(answer):
    verdict = grade(answer, RATIO, tolerance=ROUGH, alternatives=[INVERSE])
    assert (verdict.verdict, verdict.convention, verdict.credit) == ("convention", "factor", 1)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [("0.65%", "wrong"), ("0.065", "close"), ("6.5%", "wrong"), ("2%", "wrong")],
)
def test_e3_near_misses(answer, verdict):
    assert grade(answer, RATIO, tolerance=ROUGH, alternatives=[INVERSE]).verdict == verdict


def test_expected_as_value_unit_pair():
    assert grade("24 GiB", (R(25769803776, 10**9), "GB")).verdict == "correct"
    assert grade("0.065", (R(LORA * 100, FFN), "%")).verdict == "correct"
    assert grade("75,497,472", (LORA * 8, "bytes")).verdict == "close"  # no unit written


def test_expected_values_are_exact_integers():
    verdict = grade("25.77 GB", SCORES)
    assert verdict.expected == Integer(25_769_803_776)
    assert verdict.got == Integer(25_770_000_000)
