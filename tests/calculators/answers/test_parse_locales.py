"""Numbers as other locales and words write them (issue 26, held-out-6): a decimal comma
after any digit, dots grouping the thousands, scale words of comma locales, two scale
words in a row, and numbers in English words. What could be either stays English unless
the answer, or the caller who read the report, shows a decimal comma."""

from __future__ import annotations

import pytest
from sympy import Integer, Rational

from calculators.answers import parse_answer
from calculators.answers._locale import localise, shows_decimal_comma
from calculators.answers._words import spelled_numbers


@pytest.mark.parametrize(("text", "value", "unit"), [
    ("25,77 GB", Rational(2577, 100), "GB"),  # a comma before two digits groups nothing
    ("75,5 MB", Rational(151, 2), "MB"),
    ("9.437.184", Integer(9_437_184), None),  # two dots: groups, whatever the locale
    ("21.018.401", Integer(21_018_401), None),
    ("1.234,5", Rational(12345, 10), None),  # dots, then the decimal comma
    ("[0,5; 0,1; 3,0]", None, None),  # decimals, not numbers 0 to 5 (a list: no value)
])
def test_forms_that_show_a_decimal_comma_are_read_with_one(text, value, unit):
    parsed = parse_answer(text)
    if value is None:
        assert localise(text) == "[0.5; 0.1; 3.0]"
    else:
        assert (parsed.value, parsed.unit) == (value, unit), parsed.reason


def test_a_scale_word_of_a_comma_locale_makes_its_comma_a_decimal_one():
    parsed = parse_answer("14,497 mil millones")  # Spanish: 14.497 × 10^3 × 10^6
    assert parsed.value == 14_497_000_000 and parsed.sig_figs == 5
    assert parse_answer("14,5 Milliarden").value == 14_500_000_000
    assert parse_answer("14,5 milliards").value == 14_500_000_000
    assert parse_answer("2 billones").value == 2 * 10**12  # the Spanish billón is 10^12
    # two scale words, the larger last, multiply (British "thousand million" too)
    assert parse_answer("14.5 thousand million").value == 14_500_000_000
    assert parse_answer("14.5 million thousand").value is None  # not a scale


@pytest.mark.parametrize(("text", "value"), [
    ("9,437,184", 9_437_184),  # a lone English grouping stays nine million
    ("14,497", 14_497),  # either: English unless something shows a comma locale
    ("1,234", 1_234),
    ("14,496,989,184 parameters", 14_496_989_184),
    ("1,234.5", Rational(12345, 10)),
])
def test_what_could_be_either_is_english_unless_shown(text, value):
    assert parse_answer(text).value == value


def test_a_loss_in_nats_is_the_number():
    # "0.2876 nats" (held-out-19): the natural log the cross-entropy question asks for
    assert parse_answer("0.2876 nats").value == Rational(2876, 10000)
    assert parse_answer("0.2876 nat").value == Rational(2876, 10000)


def test_the_caller_who_read_the_report_decides_what_could_be_either():
    assert parse_answer("14,497 billion", decimal_comma=True).value == 14_497_000_000
    assert parse_answer("1.500", decimal_comma=True).value == 1500
    assert parse_answer("1.500", decimal_comma=False).value == Rational(3, 2)
    assert parse_answer("9,437,184", decimal_comma=True).value == 9_437_184  # unambiguous
    # the report's own numbers say which convention it follows
    assert shows_decimal_comma("p = 0,7500 y la pérdida 0,2876") is True
    assert shows_decimal_comma("p = 0.7500, 9,437,184 parameters") is False
    assert shows_decimal_comma("0,7500 and 0.2876") is None  # both: no sign
    assert shows_decimal_comma("14,497 mil millones") is True


@pytest.mark.parametrize("text", ["0,1,2", "2026.11.27", "1.2.3"])
def test_what_is_no_number_in_either_convention_is_left_as_written(text):
    assert localise(text) == text


@pytest.mark.parametrize(("text", "value", "sig_figs"), [
    ("fourteen and a half billion", 14_500_000_000, 3),
    ("about fourteen and a half billion parameters", 14_500_000_000, 3),
    ("twenty-five point seven seven GB", Rational(2577, 100), 4),
    ("nine million four hundred thirty-seven thousand one hundred eighty-four", 9_437_184, None),
    ("one hundred and five", 105, None),
    ("zero point seven five", Rational(3, 4), 2),
])
def test_numbers_in_english_words(text, value, sig_figs):
    parsed = parse_answer(text)
    assert (parsed.value, parsed.sig_figs) == (value, sig_figs), parsed.reason


def test_words_that_are_no_number_stay_words():
    assert spelled_numbers("a half of it, point taken") == "a half of it, point taken"
    assert spelled_numbers("fourteen billion, roughly") == "14 billion, roughly"
    assert parse_answer("the answer").status == "unreadable"


@pytest.mark.parametrize(("text", "value", "unit"), [
    ("14,497 Mrd.", 14_497_000_000, None),  # German Milliarden
    ("9,44 Mio.", 9_440_000, None),
    ("14,5 Md", 14_500_000_000, None),  # French milliards
    ("0,537 Go", Rational(537, 1000), "GB"),  # French gigaoctets
    ("75,5 Mo", Rational(151, 2), "MB"),
    ("12 Ko", 12, "kB"),
    ("75 497 472 octets", 75_497_472, "B"),
    ("2 gigaoctets", 2, "GB"),
    ("2.577E+10 bytes", 25_770_000_000, "B"),  # Excel's E notation
])
def test_scale_abbreviations_and_units_of_other_languages(text, value, unit):
    parsed = parse_answer(text)
    assert (parsed.value, parsed.unit) == (value, unit), parsed.reason


@pytest.mark.parametrize(("text", "value"), [("2,7876", "2.7876"), ("26,7791", "26.7791"),
                                             ("0,41504", "0.41504")])
def test_a_comma_before_four_digits_or_more_is_a_decimal_comma(text, value):
    # no thousands group has four digits: a French or German student's decimal comma
    assert shows_decimal_comma(text) is True
    assert localise(text) == value


@pytest.mark.parametrize(("text", "value"), [
    ("14,497 tỷ", 14_497_000_000), ("14.50 अरब", 14_500_000_000), ("1.45 करोड़", 14_500_000),
    ("14,5 miliar", 14_500_000_000), ("14,5 miljard", 14_500_000_000),
    ("14,5 mld", 14_500_000_000), ("2 lakh", 200_000), ("94,37,184", 9_437_184),
    ("1,45,00,00,000", 1_450_000_000),
])
def test_scale_words_and_digit_groups_of_the_corpus_newer_languages(text, value):
    # Vietnamese, Hindi, Indonesian, Dutch, Polish; Indian grouping (lakh: 94,37,184)
    assert parse_answer(text).value == value


def test_indian_grouping_shows_a_decimal_point():
    assert shows_decimal_comma("94,37,184 parameters and 0.065 %") is False


@pytest.mark.parametrize(("text", "value"), [
    ("۰٫۷۵", Rational(3, 4)),  # Persian digits and the Arabic decimal separator
    ("١٤٫٥ مليار", Integer(14_500_000_000)),  # Arabic-Indic digits and the Arabic scale word
    ("१४.५", Rational(29, 2)),  # Devanagari
    ("๑๕๓๖", Integer(1536)),  # Thai
])
def test_digits_of_other_scripts_are_read_as_the_student_typed_them(text, value):
    """A Persian student types '۰٫۷۵' into `answers check` as into the report: the parser
    reads it as the report reader does (held-out-13's Persian report)."""
    assert parse_answer(text).value == value


def test_digits_that_are_not_decimal_digits_are_still_no_number():
    assert parse_answer("①②③").status == "unreadable"
    assert parse_answer("²³").value != 23


def test_a_tex_tie_before_a_unit_is_a_space_not_about():
    # Mathpix writes "25.77 \mathrm{~GB}" (held-out-20); a tie before \text{} too
    assert parse_answer(r"25.77 \mathrm{~GB}").value == Rational(2577, 100)
    assert parse_answer(r"\approx 25.77~\text{GB}").value == Rational(2577, 100)
    assert parse_answer("~25.77 GB").approximate  # a tilde before the number is "about"
