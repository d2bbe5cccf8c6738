"""Number words and unit symbols in the student's language (held-out-12): Greek
'14,50 δισεκατομμύρια', Thai '14.50 พันล้าน', Ukrainian '14,497 млрд', '0,537 ГБ' and
'75,5 МБ', Swahili 'mara 1536'. The fix is the family, one table for every language the
course's students write (`calculators.answers._vocabulary`): each word is read at its
value here, written the way a report writes it, and what would be a guess stays unread."""

from __future__ import annotations

import pytest
from sympy import Rational

from calculators.answers import parse_answer
from calculators.answers._lexer import NAME, NUM, tokenize
from calculators.answers._locale import shows_decimal_comma
from calculators.answers._vocabulary import AFTER_NUMBER, Language, _merge, segment
from grader.checks.answer import answer_key
from tests.calculators.answers.test_report_corpus import answer_check, manifest, pack

B = 10**9


@pytest.mark.parametrize(("text", "value"), [
    # Greek, long and abbreviated; capitals drop the tonos, a final sigma is σ
    ("14,50 δισεκατομμύρια", 14_500_000_000), ("1 δισεκατομμύριο", B),
    ("14,50 ΔΙΣΕΚΑΤΟΜΜΥΡΙΑ", 14_500_000_000), ("14,5 δισ.", 14_500_000_000),
    ("14,5 ΔΙΣ.", 14_500_000_000), ("9,44 εκατομμύρια", 9_440_000), ("9,44 εκατ.", 9_440_000),
    ("2 χιλιάδες", 2_000), ("3 χιλ.", 3_000), ("2 τρισεκατομμύρια", 2 * 10**12),
    ("2 τρισ.", 2 * 10**12),
    # Russian
    ("14,497 млрд", 14_497_000_000), ("14,497 миллиарда", 14_497_000_000),
    ("5 миллиардов", 5 * B), ("9,44 млн", 9_440_000), ("9,44 миллиона", 9_440_000),
    ("3 тыс.", 3_000), ("3 тысячи", 3_000), ("2 трлн", 2 * 10**12),
    ("2 триллиона", 2 * 10**12),
    # Ukrainian
    ("14,497 мільярда", 14_497_000_000), ("5 мільярдів", 5 * B), ("9,44 мільйона", 9_440_000),
    ("3 тис.", 3_000), ("3 тисячі", 3_000), ("2 трильйони", 2 * 10**12),
    # Thai: no spaces, combining marks
    ("14.50 พันล้าน", 14_500_000_000), ("14.50พันล้าน", 14_500_000_000),
    ("3 พัน", 3_000), ("2 หมื่น", 20_000), ("2 แสน", 200_000), ("9.44 ล้าน", 9_440_000),
    ("2 ล้านล้าน", 2 * 10**12),
    # Hebrew, Arabic (vowel marks and the tatweel optional), Persian
    ("14.5 מיליארד", 14_500_000_000), ("9.44 מיליון", 9_440_000), ("3 אלף", 3_000),
    ("14.5 מִילְיַארְד", 14_500_000_000),
    ("14.5 مليار", 14_500_000_000), ("14.5 مِلْيَار", 14_500_000_000),
    ("14.5 مليـــار", 14_500_000_000), ("9.44 مليون", 9_440_000), ("3 آلاف", 3_000),
    ("3 ألف", 3_000), ("2 تريليون", 2 * 10**12),
    ("14.5 میلیارد", 14_500_000_000), ("14.5 ميليارد", 14_500_000_000),
    ("9.44 میلیون", 9_440_000), ("3 هزار", 3_000),
    # Hindi (Devanagari): अरब is 10^9, खरब 10^11
    ("14.50 अरब", 14_500_000_000), ("1.45 खरब", 145_000_000_000),
    ("14.5 बिलियन", 14_500_000_000), ("9.44 मिलियन", 9_440_000), ("3 हज़ार", 3_000),
    # Chinese, Japanese, Korean: the myriads (万 10^4, 亿 10^8)
    ("145亿", 14_500_000_000), ("145億", 14_500_000_000), ("14.5十亿", 14_500_000_000),
    ("944万", 9_440_000), ("9.44百万", 9_440_000), ("3千", 3_000),
    ("145억", 14_500_000_000), ("14.5십억", 14_500_000_000), ("944만", 9_440_000),
    ("2조", 2 * 10**12),
    # Swahili: after the number, and before it as Swahili writes it
    ("14.5 bilioni", 14_500_000_000), ("bilioni 14.5", 14_500_000_000),
    ("milioni 9.44", 9_440_000), ("elfu 3", 3_000), ("trilioni 2", 2 * 10**12),
    # European languages of the corpus, and the ones added with them
    ("14,5 miljarder", 14_500_000_000), ("9,44 miljoner", 9_440_000), ("3 tusen", 3_000),
    ("14,5 milyar", 14_500_000_000), ("14,5 Milliarden", 14_500_000_000),
    ("14.5 billions", 14_500_000_000),
])
def test_each_scale_word_is_read_at_its_value(text, value):
    parsed = parse_answer(text)
    assert (parsed.value, parsed.unit) == (value, None), parsed.reason


@pytest.mark.parametrize(("text", "value", "unit"), [
    ("0,537 ГБ", Rational(537, 1000), "GB"), ("75,5 МБ", Rational(151, 2), "MB"),
    ("12 КБ", 12, "kB"), ("12 кБ", 12, "kB"), ("2 ТБ", 2, "TB"), ("24 ГиБ", 24, "GiB"),
    ("24 ГіБ", 24, "GiB"), ("72 МіБ", 72, "MiB"), ("12 КиБ", 12, "KiB"),
    ("25,77 Гбайт", Rational(2577, 100), "GB"), ("75,5 Мбайт", Rational(151, 2), "MB"),
    ("25,77 гигабайта", Rational(2577, 100), "GB"), ("75,5 мегабайтов", Rational(151, 2), "MB"),
    ("25,77 гігабайтів", Rational(2577, 100), "GB"), ("512 байтів", 512, "B"),
    ("512 байт", 512, "B"),
    ("25.77 กิกะไบต์", Rational(2577, 100), "GB"), ("512 ไบต์", 512, "B"),
    ("25.77 جيجابايت", Rational(2577, 100), "GB"), ("75.5 ميغابايت", Rational(151, 2), "MB"),
    ("25.77 گیگابایت", Rational(2577, 100), "GB"), ("75.5 مگابایت", Rational(151, 2), "MB"),
    ("25.77 गीगाबाइट", Rational(2577, 100), "GB"), ("75.5 एमबी", Rational(151, 2), "MB"),
    ("25.77 吉字节", Rational(2577, 100), "GB"), ("75.5 兆字节", Rational(151, 2), "MB"),
    ("25.77 ギガバイト", Rational(2577, 100), "GB"), ("24 ギビバイト", 24, "GiB"),
    ("25.77 기가바이트", Rational(2577, 100), "GB"), ("75.5 메가바이트", Rational(151, 2), "MB"),
    ("0,537 Go", Rational(537, 1000), "GB"), ("2 kilooctets", 2, "kB"),
])
def test_each_byte_unit_is_read_in_its_script(text, value, unit):
    parsed = parse_answer(text)
    assert (parsed.value, parsed.unit) == (value, unit), parsed.reason


@pytest.mark.parametrize("text", [
    "mara 1536", "פי 1536", "×1536", "1536 разів", "у 1536 разів", "в 1536 раз меньше",
    "1536 раза", "1536 φορές", "1536 เท่า", "1536เท่า", "1536 गुना", "1536 ضعف",
    "1536 برابر", "1536倍", "1536배", "1536 kali", "1536 lần", "1536 keer", "1536 razy",
    "1536 gånger", "1536 veces", "1536x", "1536 times",
])
def test_a_factor_word_before_or_after_the_number_says_it_is_a_factor(text):
    parsed = parse_answer(text)
    assert (parsed.value, parsed.unit) == (1536, "times"), parsed.reason


def test_the_words_that_follow_an_answer_in_its_language_change_nothing():
    assert parse_answer("14,50 δισεκατομμύρια παράμετροι").value == 14_500_000_000
    assert parse_answer("14,497 млрд параметрів").value == 14_497_000_000
    assert parse_answer("14.50 พันล้าน พารามิเตอร์").value == 14_500_000_000
    assert parse_answer("14.50 พันล้านพารามิเตอร์").value == 14_500_000_000  # no space
    assert parse_answer("145亿个参数").value == 14_500_000_000
    assert parse_answer("145億パラメータ").value == 14_500_000_000
    assert parse_answer("145억 개").value == 14_500_000_000


def test_a_leading_word_is_one_only_directly_before_its_number():
    parsed = parse_answer("mara 1536")
    assert parsed.display == "mara 1536" and parsed.sig_figs is None  # an exact factor
    assert parse_answer("mara").status == "unreadable"
    assert parse_answer("mara 1536 times").status == "unreadable"  # said twice: no guess
    assert parse_answer("bilioni 14.5 GB").status == "unreadable"
    assert parse_answer("у 1536").status == "unreadable"  # a preposition needs its factor word
    assert parse_answer("mara * 2", {"mara": 3}).value == 6  # a question's own symbol


@pytest.mark.parametrize("text", [
    "512 Б",  # bytes by the Russian standard, billion to a Latin-keyboard habit
    "2 Гб", "2 Мб",  # gigabits like "Gb", gigabytes in everyday Russian
    "2 ביליון", "2 биллион",  # long-scale 10^12 by the standard, 10^9 in loan use
    "2 兆",  # 10^12 in Japan and Taiwan, 10^6 on the mainland
])
def test_what_would_be_a_guess_stays_unread(text):
    assert parse_answer(text).status == "unreadable"


def test_what_the_parser_did_before_for_long_scale_words_is_kept():
    assert parse_answer("2 billones").value == 2 * 10**12  # Spanish billón
    assert parse_answer("2 billion").value == 2 * B  # English, and a German/French Billion
    assert parse_answer("14.50 अरब").value == 14_500_000_000  # Hindi arab is 10^9


def test_a_scale_word_of_a_comma_language_shows_a_decimal_comma_and_one_of_a_point_language_not():
    assert shows_decimal_comma("14,497 млрд") is True
    assert shows_decimal_comma("14,497 мільярда") is True
    assert shows_decimal_comma("14,497 δισεκατομμύρια") is True
    assert parse_answer("14,497 млрд").value == 14_497_000_000  # not 14497 × 10^9
    assert shows_decimal_comma("14,497 พันล้าน") is None  # Thai writes a decimal point
    assert shows_decimal_comma("14,497 million") is None  # English shares it: no sign
    assert parse_answer("14,497 bilioni").value == 14_497 * B  # Swahili: a point language


def test_unspaced_runs_are_cut_into_the_tables_words_longest_first():
    assert segment("พันล้านพารามิเตอร์") == ["พันล้าน", "พารามิเตอร์"]
    assert segment("ล้านล้าน") == ["ล้านล้าน"]
    assert segment("億个参数") == ["億", "个参数"]
    assert segment("億什么") == ["億", "什么"]  # what follows stays one piece
    assert segment("什么") == ["什么"]


def test_a_word_two_languages_read_differently_is_an_error_in_the_table():
    tables = [("A", Language("A", True, scales={"billón": 10**12}).scales),
              ("B", Language("B", False, scales={"billon": 10**9}).scales)]
    with pytest.raises(ValueError, match="billon"):
        _merge(tables, fold=True)  # the accent folds: the same word, two values


HELD_OUT_12 = [
    ("h12-p3-word-greek", "q3d"), ("h12-p3-docx-thai", "q3d"),
    ("h12-p3-docx-ukrainian", "q3c"), ("h12-p3-docx-ukrainian", "q3d"),
    ("h12-p3-docx-ukrainian", "q3e2"), ("h12-p3-docx-swahili", "q3e3"),
]


@pytest.mark.parametrize(("report", "key"), HELD_OUT_12)
def test_the_held_out_12_answers_in_their_language_check_as_the_manifest_says(report, key):
    entry = next(e for e in manifest() if e["id"] == report)
    want = entry["answers"][key]
    p = pack(entry["pack"])
    _question, check = answer_check(p, key)
    verdict = answer_key(check, key.partition(".")[0], p.reference).check(want["value"])
    assert (verdict.verdict, float(verdict.credit), verdict.convention) == (
        want["verdict"], want["credit"], want.get("convention")), verdict.message


def test_a_reader_gets_the_words_as_written_and_a_longer_word_before_its_prefix():
    assert {"ГБ", "млрд", "δισεκατομμύρια", "พันล้าน", "अरब", "1536倍"[-1]} <= set(AFTER_NUMBER)
    assert AFTER_NUMBER.index("พันล้าน") < AFTER_NUMBER.index("พัน")
    assert AFTER_NUMBER.index("миллиардов") < AFTER_NUMBER.index("млрд")
    assert "Б" not in AFTER_NUMBER and "兆" not in AFTER_NUMBER


@pytest.mark.parametrize(("text", "value"), [
    ("περίπου 14,5 δισ.", 14_500_000_000), ("примерно 25,77 ГБ", Rational(2577, 100)),
    ("приблизно 14,5 млрд", 14_500_000_000), ("ประมาณ14.5พันล้าน", 14_500_000_000),
    ("כ 14.5 מיליארד", 14_500_000_000), ("حوالي 14.5 مليار", 14_500_000_000),
    ("takriban bilioni 14.5", 14_500_000_000), ("लगभग 14.5 अरब", 14_500_000_000),
    ("約145億", 14_500_000_000), ("大约145亿个参数", 14_500_000_000),
    ("약 145억", 14_500_000_000), ("etwa 14,5 Mrd.", 14_500_000_000),
    ("about 25.77 GB", Rational(2577, 100)),
])
def test_a_word_for_about_in_the_students_language_marks_the_answer_rounded(text, value):
    parsed = parse_answer(text)
    assert (parsed.value, parsed.approximate) == (value, True), parsed.reason


def test_a_number_typed_onto_a_cjk_or_thai_word_is_its_own_number():
    assert [(t.kind, t.text) for t in tokenize("約145億")] == [
        (NAME, "約"), (NUM, "145"), (NAME, "億")]
    assert [t.kind for t in tokenize("d_model2")] == [NAME]  # a Latin name keeps its digits
