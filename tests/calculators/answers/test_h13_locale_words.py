"""Number words, byte units and digits of held-out-13's languages: Finnish '25,77 Gt'
(gigatavu) and '75,5 Mt', Romanian '0,302 miliarde', Tamil '1,449.7 கோடி' (crore). The words join the one
table (`calculators.answers._vocabulary`), each read at its value, and a long-scale word
that would be a guess stays unread."""

from __future__ import annotations

import pytest
from sympy import Rational

from calculators.answers import parse_answer
from calculators.answers._locale import shows_decimal_comma
from calculators.answers._vocabulary import AFTER_NUMBER
from grader.checks.answer import answer_key
from tests.calculators.answers.test_report_corpus import answer_check, manifest, pack

B = 10**9


@pytest.mark.parametrize(("text", "value"), [
    # Finnish
    ("3 tuhatta", 3_000), ("9,44 miljoonaa", 9_440_000), ("1 miljoona", 10**6),
    ("9,44 milj.", 9_440_000), ("14,497 miljardia", 14_497_000_000), ("1 miljardi", B),
    ("14,497 mrd.", 14_497_000_000),
    # Romanian
    ("0,302 miliarde", 302_000_000), ("1 miliard", B), ("9,44 milioane", 9_440_000),
    ("3 mii", 3_000), ("1 mie", 1_000), ("14,5 mld.", 14_500_000_000),
    # Czech
    ("14,497 mld.", 14_497_000_000), ("2 miliardy", 2 * B), ("1 miliarda", B),
    ("9,44 milionů", 9_440_000), ("3 tis.", 3_000), ("3 tisíc", 3_000),
    # Hungarian
    ("14,50 milliárd", 14_500_000_000), ("14,5 md", 14_500_000_000),
    ("9,44 millió", 9_440_000), ("3 ezer", 3_000),
    # Danish and Norwegian
    ("14,5 milliarder", 14_500_000_000), ("14,5 mia.", 14_500_000_000),
    ("14,5 mrd.", 14_500_000_000), ("9,44 millioner", 9_440_000), ("9,44 mio.", 9_440_000),
    ("9,44 mill.", 9_440_000), ("3 tusind", 3_000), ("3 tusen", 3_000),
    # Malay and Tagalog (decimal points)
    ("9.44 juta", 9_440_000), ("3 ribu", 3_000), ("14.5 bilyon", 14_500_000_000),
    ("9.44 milyon", 9_440_000), ("3 libo", 3_000),
    # Georgian
    ("14,5 მილიარდი", 14_500_000_000), ("14,5 მლრდ", 14_500_000_000),
    ("9,44 მილიონი", 9_440_000), ("9,44 მლნ", 9_440_000), ("3 ათასი", 3_000),
    # Tamil, Bengali, Hindi, Indian English: lakh 10^5, crore 10^7
    ("1,449.7 கோடி", 14_497_000_000), ("3 லட்சம்", 300_000), ("3 இலட்சம்", 300_000),
    ("3 ஆயிரம்", 3_000), ("14.5 பில்லியன்", 14_500_000_000),
    ("1449.7 কোটি", 14_497_000_000), ("3 লাখ", 300_000), ("3 লক্ষ", 300_000),
    ("3 হাজার", 3_000), ("1449.7 करोड़", 14_497_000_000), ("3 लाख", 300_000),
    ("1,449.7 crore", 14_497_000_000), ("3 lakh", 300_000),
])
def test_each_scale_word_is_read_at_its_value(text, value):
    parsed = parse_answer(text)
    assert (parsed.value, parsed.unit) == (value, None), parsed.reason


@pytest.mark.parametrize(("text", "value", "unit"), [
    ("25,77 Gt", Rational(2577, 100), "GB"), ("75,5 Mt", Rational(151, 2), "MB"),
    ("12 kt", 12, "kB"), ("2 Tt", 2, "TB"), ("512 tavua", 512, "B"),
    ("25,77 gigatavua", Rational(2577, 100), "GB"), ("75,5 megatavua", Rational(151, 2), "MB"),
    ("25,77 გიგაბაიტი", Rational(2577, 100), "GB"), ("25.77 ஜிகாபைட்", Rational(2577, 100), "GB"),
    ("75.5 মেগাবাইট", Rational(151, 2), "MB"),
])
def test_each_byte_unit_is_read(text, value, unit):
    parsed = parse_answer(text)
    assert (parsed.value, parsed.unit) == (value, unit), parsed.reason


def test_byte_unit_symbols_keep_their_case():
    assert parse_answer("25,77 gt").status == "unreadable"  # only "Gt" is gigatavu


@pytest.mark.parametrize("text", ["1536 kertaa", "1536 ori", "1536 krát", "1536 gange",
                                  "1536 ganger", "1536 beses", "1536 மடங்கு", "1536 গুণ"])
def test_factor_words(text):
    parsed = parse_answer(text)
    assert (parsed.value, parsed.unit) == (1536, "times"), parsed.reason


@pytest.mark.parametrize("text", [
    "2 bilion",  # 10^9 in Malay, 10^12 in Romanian and Czech
    "2 billió", "2 biljoona",  # long scale: 10^12 by the standard, 10^9 to a loan reader
])
def test_long_scale_words_stay_unread(text):
    assert parse_answer(text).status == "unreadable"


def test_a_scale_word_of_a_comma_language_shows_its_comma_is_decimal():
    assert shows_decimal_comma("14,497 mrd.") is True
    assert shows_decimal_comma("0,302 miliarde") is True
    assert shows_decimal_comma("14,497 mld.") is True
    assert shows_decimal_comma("14,497 milliárd") is True
    assert shows_decimal_comma("14,497 მილიარდი") is True
    assert parse_answer("14,497 milliarder").value == 14_497_000_000
    assert shows_decimal_comma("1,449 கோடி") is None  # Tamil writes a decimal point
    assert parse_answer("1,449 bilyon").value == 1_449 * B  # Tagalog too


HELD_OUT_13 = [
    ("h13-p3-docx-finnish", "q3c"), ("h13-p3-docx-finnish", "q3e2"),
    ("h13-p3-docx-romanian", "q3d"), ("h13-p3-txt-tamil", "q3d"),
    ("h13-p3-md-czech", "q3d"), ("h13-p3-txt-hungarian", "q3d"),
    ("h13-p3-docx-finnish", "q3d"), ("h13-p3-word-persian", "q3d"),
]


@pytest.mark.parametrize(("report", "key"), HELD_OUT_13)
def test_the_held_out_13_answers_check_as_the_manifest_says(report, key):
    entry = next(e for e in manifest() if e["id"] == report)
    want = entry["answers"][key]
    p = pack(entry["pack"])
    _question, check = answer_check(p, key)
    verdict = answer_key(check, key.partition(".")[0], p.reference).check(want["value"])
    assert (verdict.verdict, float(verdict.credit), verdict.convention) == (
        want["verdict"], want["credit"], want.get("convention")), verdict.message


def test_a_reader_gets_the_new_words_as_written():
    assert {"கோடி", "லட்சம்", "მილიარდი", "কোটি", "Gt", "Mt", "miliarde", "milliárd"} <= set(
        AFTER_NUMBER)
    assert "bilion" not in AFTER_NUMBER
