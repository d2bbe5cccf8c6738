"""parse_answer: every notation a student uses maps to one exact value and unit."""

from __future__ import annotations

import pytest
from sympy import E, Integer, Rational, Symbol, log

from calculators.answers import parse_answer

R = Rational

NUMBERS = [
    ("21,018,401", Integer(21018401)),
    ("21 018 401", Integer(21018401)),
    ("21'018'401", Integer(21018401)),
    ("21\u2009018\u2009401", Integer(21018401)),
    ("21{,}018{,}401", Integer(21018401)),
    ("21\\,018\\,401", Integer(21018401)),
    ("261, 200", Integer(261200)),
    ("**21,018,401**", Integer(21018401)),
    ("\\textbf{10,050,020}", Integer(10050020)),
    ("$22829056$", Integer(22829056)),
    ("0.75", R(3, 4)),
    ("0.75.", R(3, 4)),
    (".5", R(1, 2)),
    ("-3.25", R(-13, 4)),
    ("1.45e10", Integer(14500000000)),
    ("1.45E+10", Integer(14500000000)),
    ("6.5e-4", R(65, 100000)),
    ("1.45 x 10^10", Integer(14500000000)),
    ("1.45 × 10^10", Integer(14500000000)),
    ("1.45 \\times 10^{10}", Integer(14500000000)),
    ("1.45·10¹⁰", Integer(14500000000)),
    ("6.5 \\cdot 10^{-4}", R(65, 100000)),
    ("1.45*10**10", Integer(14500000000)),
    ("14.5 billion", Integer(14500000000)),
    ("14.5 billions", Integer(14500000000)),
    ("14.5B", Integer(14500000000)),
    ("14.5 G", Integer(14500000000)),
    ("9.4M", Integer(9400000)),
    ("9.4 million", Integer(9400000)),
    ("300k", Integer(300000)),
    ("2 thousand", Integer(2000)),
    ("1/1536", R(1, 1536)),
    ("\\frac{1}{1536}", R(1, 1536)),
    ("\\dfrac{3}{4}", R(3, 4)),
    ("2^{30}", Integer(2**30)),
    ("16384²", Integer(16384**2)),
    ("48 \\times 16384^2 \\times 2", Integer(25769803776)),
    ("4 × [3 × (512 × 512) + 2]", Integer(4 * (3 * 512 * 512 + 2))),
    ("512(32000 + (256 + 2))", Integer(512 * 32258)),
    ("\\sqrt{16}", Integer(4)),
    ("\\sqrt[3]{27}", Integer(3)),
    ("\\log_{10} 1000", Integer(3)),
    ("\\log_2(1024)", Integer(10)),
]


@pytest.mark.parametrize(("text", "value"), NUMBERS)
def test_numbers_read_exactly(text, value):
    parsed = parse_answer(text)
    assert parsed.ok, parsed.reason
    assert parsed.value == value
    assert parsed.unit is None


@pytest.mark.parametrize(
    ("text", "value", "unit", "nbytes"),
    [
        ("25.77 GB", R(2577, 100), "GB", Integer(25770000000)),
        ("25.77GB", R(2577, 100), "GB", Integer(25770000000)),
        ("$25.77\\text{ GB}$", R(2577, 100), "GB", Integer(25770000000)),
        ("24 GiB", Integer(24), "GiB", Integer(24 * 2**30)),
        ("24 gibibytes", Integer(24), "GiB", Integer(24 * 2**30)),
        ("75.5 MB", R(151, 2), "MB", Integer(75500000)),
        ("72 MiB", Integer(72), "MiB", Integer(72 * 2**20)),
        ("512 KiB", Integer(512), "KiB", Integer(512 * 1024)),
        ("3 kB", Integer(3), "kB", Integer(3000)),
        ("2 TB", Integer(2), "TB", Integer(2 * 10**12)),
        ("1 TiB", Integer(1), "TiB", Integer(2**40)),
        ("25,769,803,776 bytes", Integer(25769803776), "B", Integer(25769803776)),
        ("16 bits", Integer(16), "bit", Integer(2)),
        ("25.77 Gb", R(2577, 100), "Gbit", R(25770000000, 8)),
        ("25.77 billion bytes", Integer(25770000000), "B", Integer(25770000000)),
        ("48 × 16384^2 × 2 bytes", Integer(25769803776), "B", Integer(25769803776)),
    ],
)
def test_memory_units_keep_number_and_unit(text, value, unit, nbytes):
    parsed = parse_answer(text)
    assert parsed.ok, parsed.reason
    assert (parsed.value, parsed.unit, parsed.bytes) == (value, unit, nbytes)


def test_scale_letter_alone_is_a_scale_and_with_b_is_a_unit():
    assert parse_answer("25 G").value == 25 * 10**9 and parse_answer("25 G").unit is None
    assert parse_answer("25 GB").value == 25 and parse_answer("25 GB").unit == "GB"
    assert parse_answer("7 M").value == 7 * 10**6 and parse_answer("7 MB").unit == "MB"


def test_a_lone_b_is_read_as_billion_and_flagged():
    parsed = parse_answer("512 B")
    assert parsed.value == 512 * 10**9
    assert parsed.b_suffix and parsed.number == 512


def test_percent_is_stored_as_the_fraction_it_means():
    parsed = parse_answer("0.065 %")
    assert parsed.value == R(65, 100000)
    assert parsed.unit == "percent"
    assert parse_answer("0.065\\%").value == R(65, 100000)


@pytest.mark.parametrize(
    "text",
    [
        "≈ 0.75",
        "~0.75",
        "about 0.75",
        "approx. 0.75",
        "approximately 0.75",
        "\\approx 0.75",
        "p ≈ 0.75",
    ],
)
def test_approximate_markers_are_recorded(text):
    parsed = parse_answer(text)
    assert parsed.value == R(3, 4)
    assert parsed.approximate


@pytest.mark.parametrize(
    "text", ["p = 0.75", "P(mat) = 0.75", "$p=0.75$", "**p = 0.75**", "= 0.75"]
)
def test_a_leading_name_equals_is_stripped(text):
    parsed = parse_answer(text)
    assert parsed.value == R(3, 4)
    assert not parsed.approximate


def test_a_chain_answers_with_its_last_value():
    parsed = parse_answer("CE = -\\ln(0.75) \\approx 0.288")
    assert parsed.value == R(288, 1000)
    assert parsed.approximate


def test_noise_words_after_a_count_are_ignored():
    parsed = parse_answer("≈14.5 billion trainable parameters.")
    assert parsed.value == 14_500_000_000


def test_sig_figs_and_place_record_the_precision_written():
    assert (parse_answer("25.77 GB").sig_figs, parse_answer("25.77 GB").place) == (4, R(1, 100))
    assert parse_answer("0.065 %").sig_figs == 2
    assert parse_answer("1.45e10").sig_figs == 3
    assert parse_answer("24 GiB").sig_figs == 2
    assert parse_answer("21,018,401").sig_figs is None  # a bare integer is an exact count
    assert parse_answer("1.45 \\times 10^{10}").sig_figs == 3


def test_transcendental_answers_stay_exact():
    assert parse_answer("-\\ln 0.75").value == -log(R(3, 4))
    assert parse_answer("e^{3}").value == E**3
    assert parse_answer("\\exp(3)").value == E**3
    z = parse_answer("\\frac{e^{3}}{e^{0.5}+e^{0.1}+e^{3}+e^{0.2}+e^{1}}")
    assert z.value == E**3 / (E ** R(1, 2) + E ** R(1, 10) + E**3 + E ** R(1, 5) + E)


SYMBOLS = {
    "H": 6144,
    "L": 48,
    "d_model": 512,
    "n_{hid}": 200,
    "n_{tokens}": 32000,
    "T": 256,
    "h": 8,
}


@pytest.mark.parametrize(
    ("text", "expr", "value"),
    [
        ("48*(8*H**2 + 5*H)", 384 * Symbol("H") ** 2 + 240 * Symbol("H"), 14_496_989_184),
        ("$48 \\times (8H^2 + 5H)$", 384 * Symbol("H") ** 2 + 240 * Symbol("H"), 14_496_989_184),
        ("L(8H^2+5H)", Symbol("L") * (8 * Symbol("H") ** 2 + 5 * Symbol("H")), 14_496_989_184),
        ("n_{hid} \\times n_{hid} + n_{hid}", Symbol("n_hid") ** 2 + Symbol("n_hid"), 40_200),
        ("n_hid^2 + n_hid", Symbol("n_hid") ** 2 + Symbol("n_hid"), 40_200),
        ("\\frac{d_{model}}{h}", Symbol("d_model") / Symbol("h"), 64),
        ("hd_{model}", Symbol("h") * Symbol("d_model"), 4096),
    ],
)
def test_formulas_in_the_questions_symbols(text, expr, value):
    parsed = parse_answer(text, SYMBOLS)
    assert parsed.ok, parsed.reason
    assert (parsed.expr - expr).expand() == 0
    assert parsed.value == value
    assert parsed.is_formula


def test_report_b_formula_reads_to_the_notebook_count():
    text = "$24d_{model}^2 + d_{model}(n_{tokens} + T + 2) + 42d_{model}$"
    assert parse_answer(text, SYMBOLS).value == 22_829_056


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("4 × [3 × (512 × 512) + ...]", "it contains '...', so part of it is missing"),
        ("4 \\cdots 5", "it contains '...', so part of it is missing"),
        ("", "it is empty"),
        ("the answer", "'the' is not a number"),
        ("2 d_{ff}", "'d_ff' is not a number"),
        ("(1 + 2", "a bracket '(' is not closed"),
        ("(1 + 2]", "'(' is closed by ']'"),
        ("\\sum_{i} i", "it has '\\sum' where a number should be"),
        ("\\frac{1}{0}", "it divides by zero"),
        ("\\ln 0", "it takes the logarithm of a number that is not positive"),
    ],
)
def test_unreadable_answers_say_why(text, reason):
    parsed = parse_answer(text)
    assert parsed.status == "unreadable"
    assert parsed.reason == reason


def test_unknown_symbol_lists_the_questions_symbols():
    parsed = parse_answer("2 W", {"H": 1, "L": 2})
    assert parsed.reason == "'W' is not a number or one of the question's symbols (H, L)"


def test_to_dict_is_plain_data():
    data = parse_answer("≈ 25.77 GB").to_dict()
    assert data["value"] == "2577/100" and data["unit"] == "GB" and data["bytes"] == "25770000000"
    assert data["approximate"] is True and data["status"] == "ok"


@pytest.mark.parametrize(("text", "value"), [
    ("14_496_989_184", 14_496_989_184),  # Python's digit groups, as a student's code prints
    ("9_437_184", 9_437_184),
    ("0,7500", Rational(3, 4)),  # a decimal comma: no one groups the thousands of zero
    ("0,2876", Rational(2876, 10_000)),
    ("1,234", 1234),  # a comma after another digit still groups thousands
])
def test_digit_groups_and_a_decimal_comma_after_zero(text, value):
    assert parse_answer(text).value == value


@pytest.mark.parametrize("text", ["0,1,2", "12_34", "1_0000"])
def test_what_is_neither_a_group_nor_a_decimal_comma_is_not_read_as_one(text):
    assert parse_answer(text).value is None
