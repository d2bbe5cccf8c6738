"""Number words and unit symbols in the languages students of this course write: one table.

Why: a report written in Greek says ``14,50 δισεκατομμύρια``, one in Ukrainian ``14,497
млрд`` and ``0,537 ГБ``, one in Thai ``14.50 พันล้าน``, one in Swahili ``mara 1536``. Each
is a number the student meant exactly; read with English words only, each is "'млрд' is not
a number". The words used to live in four places (the scale words in ``units``, the scale
words of comma locales in ``_locale``, French byte units in ``units``, factor words in
``parse``) and grew one report at a time; here every language is one entry, so what a
language lacks shows, and a word two languages share with different values is an error
at import (``_merge``), not a silent pick.

What each entry holds:

- ``scales``: a word after a number that multiplies it by a power of ten, long and
  abbreviated (``млрд``, ``δισ.``: the reader strips the period).
- ``leading_scales``: the same, written before the number (Swahili: ``bilioni 14,5``).
- ``units``: byte units whose case matters (``ГБ`` is gigabytes, as ``GB`` is; the Finnish
  ``Gt`` is gigatavu, where a lowercase ``gt`` is nothing);
  ``unit_words``: long names, read whatever the case (``гигабайтов``).
- ``factors``: a word after a number saying it is a factor (``1536 разів``, ``1536倍``);
  ``leading_factors``: before it (Swahili ``mara 1536``, Hebrew ``פי 1536``).
- ``factor_prepositions``: a word before a number that ends with a factor word
  (Russian ``в 1536 раз``, Ukrainian ``у 1536 разів``).
- ``noise``: words that may follow an answer and change nothing ("parameters").
- ``approx``: a word before an answer saying it is rounded ("about", ``περίπου``, ``约``).
- ``decimal_comma``: the language writes a decimal comma, so one of its scale words after a
  number says that number's comma is a decimal one (``14,497 млрд``); None where it writes
  neither consistently (Arabic and Persian write the Arabic decimal separator).

Deliberately left out, because a reading would be a guess:

- A lone Cyrillic ``Б``: by the Russian standard it is *byte*, but a student used to the
  Latin ``14.5B`` means *billion*; the Latin ``B`` is read as billion and the checker
  reconsiders it for memory, but a Cyrillic one that could be either is left unread.
  ``Гб``, ``Мб``, ``Кб`` likewise: gigabits by the Latin pattern (``Gb``), gigabytes in
  everyday Russian.
- Long-scale *billion* words: the Hebrew ``ביליון`` and the Russian ``биллион`` are 10^12
  by their standards and 10^9 in loan use; the Spanish ``billón`` (10^12) and the English
  ``billion`` (10^9, also what a German or French ``Billion`` is read as) stay as they were.
- ``bilion``: 10^9 in Malay, 10^12 in Romanian and Czech (long scale); the Hungarian
  ``billió``, the Finnish ``biljoona`` and the Danish ``billion`` are 10^12 as well, and a
  student writing with the English word in mind means 10^9. Likewise ``mil.`` (the Czech
  million, the Spanish thousand) and ``trilion``.
- Chinese ``兆``: 10^12 in Japan and Taiwan, 10^6 (mega) on the mainland.
- The Hindi ``अरब`` is 10^9 (a hundred crore); it is also the Hindi for "Arab", but after a
  number it is the scale. The Urdu ``ارب`` is left out: no report in the course uses it.

Lookups fold what a writer may or may not type: case, the Latin and Greek accents
(``δισεκατομμυρια``, Greek capitals drop the tonos), Hebrew points, Arabic short vowels and
the tatweel, and the Arabic and Persian forms of ``ي``/``ی`` and ``ك``/``ک``. Marks that are
letters' vowels (Thai, Devanagari) are kept: ``ล้าน`` without its marks is another word.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Language:
    """The number words and unit symbols of one language (see the module docstring)."""

    name: str
    decimal_comma: bool | None
    scales: Mapping[str, int] = field(default_factory=dict)
    leading_scales: Mapping[str, int] = field(default_factory=dict)
    units: Mapping[str, str] = field(default_factory=dict)
    unit_words: Mapping[str, str] = field(default_factory=dict)
    factors: frozenset[str] = frozenset()
    leading_factors: frozenset[str] = frozenset()
    factor_prepositions: frozenset[str] = frozenset()
    noise: frozenset[str] = frozenset()
    approx: frozenset[str] = frozenset()


def _inflected(stems: Mapping[str, str], endings: Iterable[str]) -> dict[str, str]:
    """Each stem with each ending (``гигабайт`` + ``ов``): the case forms of a unit's name."""
    ends = tuple(endings)
    return {stem + end: unit for stem, unit in stems.items() for end in ends}


_K, _M, _G, _T = 10**3, 10**6, 10**9, 10**12

# the byte units written in Cyrillic, Russian and Ukrainian alike (Ukrainian binary
# prefixes with і, Russian with и); lowercase as the Latin "gb"/"mb" are read
_CYRILLIC_UNITS = {
    "КБ": "kB", "кБ": "kB", "МБ": "MB", "ГБ": "GB", "ТБ": "TB", "мб": "MB", "гб": "GB",
    "тб": "TB", "Кбайт": "kB", "кбайт": "kB", "Мбайт": "MB", "Гбайт": "GB", "Тбайт": "TB",
    "КиБ": "KiB", "МиБ": "MiB", "ГиБ": "GiB", "ТиБ": "TiB",
    "КіБ": "KiB", "МіБ": "MiB", "ГіБ": "GiB", "ТіБ": "TiB",
}  # fmt: skip

LANGUAGES: tuple[Language, ...] = (
    Language(
        "English", decimal_comma=False,
        approx=frozenset({"about", "approx", "approximately", "roughly", "around", "circa", "ca", "nearly"}),
        scales={"thousand": _K, "million": _M, "billion": _G, "trillion": _T,
                "thousands": _K, "millions": _M, "billions": _G, "trillions": _T, "bn": _G,
                "bil": _G, "bln": _G, "mln": _M},
        factors=frozenset({"times", "x", "fold"}),
        noise=frozenset({
            "parameters", "parameter", "params", "param", "trainable", "weights", "in",
            "total", "memory", "approximately", "approx", "roughly", "of", "the", "model",
            "smaller", "larger", "bigger", "less", "more", "fewer", "overall", "only",
            "nats", "nat"}),  # a loss in nats is the natural log the question asks for
    ),
    Language(  # South Asia writes a decimal point: lakh (10^5), crore (10^7)
        "Indian English", decimal_comma=False,
        scales={"lakh": 10**5, "lakhs": 10**5, "crore": 10**7, "crores": 10**7},
    ),
    Language(
        "Hindi", decimal_comma=False,
        approx=frozenset({"लगभग", "करीब", "क़रीब"}),
        scales={"हज़ार": _K, "हजार": _K, "लाख": 10**5, "करोड़": 10**7, "करोड": 10**7,
                "अरब": _G, "खरब": 10**11, "मिलियन": _M, "बिलियन": _G, "ट्रिलियन": _T},
        unit_words={"बाइट": "B", "किलोबाइट": "kB", "मेगाबाइट": "MB", "गीगाबाइट": "GB",
                    "गिगाबाइट": "GB", "टेराबाइट": "TB", "केबी": "kB", "एमबी": "MB",
                    "जीबी": "GB", "टीबी": "TB"},
        factors=frozenset({"गुना"}),
        noise=frozenset({"पैरामीटर", "पैरामीटर्स"}),
    ),
    Language(
        "Spanish", decimal_comma=True,
        approx=frozenset({"aproximadamente", "aprox", "unos", "cerca"}),
        scales={"mil": _K, "millón": _M, "millon": _M, "millones": _M, "millardo": _G,
                "millardos": _G, "billón": _T, "billones": _T},
        factors=frozenset({"veces"}),
        noise=frozenset({"parámetros", "parametros"}),
    ),
    Language(
        "German", decimal_comma=True,
        approx=frozenset({"ungefähr", "etwa", "ca", "rund"}),
        scales={"tausend": _K, "million": _M, "millionen": _M, "milliarde": _G,
                "milliarden": _G, "mio": _M, "mrd": _G},
        factors=frozenset({"mal"}),
        noise=frozenset({"parameter"}),
    ),
    Language(  # octet is byte ("0,537 Go", "75,5 Mo", "12 Ko", "75 497 472 octets")
        "French", decimal_comma=True,
        approx=frozenset({"environ"}),
        scales={"mille": _K, "million": _M, "milliard": _G, "milliards": _G, "md": _G,
                "mds": _G},
        units={"octet": "B", "octets": "B", "Ko": "kB", "Mo": "MB", "Go": "GB", "To": "TB"},
        unit_words={"kilooctet": "kB", "megaoctet": "MB", "mégaoctet": "MB",
                    "gigaoctet": "GB", "teraoctet": "TB", "téraoctet": "TB"},
        factors=frozenset({"fois"}),
        noise=frozenset({"paramètres"}),
    ),
    Language(
        "Italian", decimal_comma=True,
        approx=frozenset({"circa"}),
        scales={"mille": _K, "milione": _M, "milioni": _M, "miliardo": _G, "miliardi": _G},
        factors=frozenset({"volte"}),
        noise=frozenset({"parametri"}),
    ),
    Language(
        "Portuguese", decimal_comma=True,
        scales={"mil": _K, "milhão": _M, "milhões": _M, "bilhão": _G, "bilhões": _G},
        factors=frozenset({"vezes"}),
    ),
    Language(
        "Dutch", decimal_comma=True,
        scales={"duizend": _K, "miljoen": _M, "miljard": _G},
        factors=frozenset({"keer"}),
    ),
    Language(
        "Swedish", decimal_comma=True,
        scales={"tusen": _K, "miljon": _M, "miljoner": _M, "milj": _M, "miljard": _G,
                "miljarder": _G, "mdr": _G},
        factors=frozenset({"gånger"}),
        noise=frozenset({"parametrar"}),
    ),
    Language(
        "Polish", decimal_comma=True,
        scales={"tys": _K, "tysięcy": _K, "milion": _M, "miliony": _M, "milionów": _M,
                "mld": _G, "miliard": _G, "miliardy": _G, "miliardów": _G},
        factors=frozenset({"razy"}),
    ),
    Language(
        "Turkish", decimal_comma=True,
        scales={"milyon": _M, "milyar": _G},
        factors=frozenset({"kat", "kez"}),
    ),
    Language(
        "Indonesian", decimal_comma=True,
        approx=frozenset({"sekitar", "kira-kira"}),
        scales={"ribu": _K, "juta": _M, "miliar": _G},
        factors=frozenset({"kali"}),
    ),
    Language(
        "Vietnamese", decimal_comma=True,
        approx=frozenset({"khoảng"}),
        scales={"nghìn": _K, "ngàn": _K, "triệu": _M, "tỷ": _G, "tỉ": _G},
        factors=frozenset({"lần"}),
    ),
    Language(
        "Russian", decimal_comma=True,
        approx=frozenset({"примерно", "около", "приблизительно", "порядка"}),
        scales={"тыс": _K, "тысяча": _K, "тысячи": _K, "тысяч": _K,
                "млн": _M, "миллион": _M, "миллиона": _M, "миллионов": _M,
                "млрд": _G, "миллиард": _G, "миллиарда": _G, "миллиардов": _G,
                "трлн": _T, "триллион": _T, "триллиона": _T, "триллионов": _T},
        units=_CYRILLIC_UNITS,
        unit_words=_inflected(
            {"байт": "B", "килобайт": "kB", "мегабайт": "MB", "гигабайт": "GB",
             "терабайт": "TB", "кибибайт": "KiB", "мебибайт": "MiB", "гибибайт": "GiB",
             "тебибайт": "TiB"}, ("", "а", "ов", "ы")),
        factors=frozenset({"раз", "раза"}),
        factor_prepositions=frozenset({"в", "во"}),
        noise=frozenset({"параметров", "параметра", "параметры", "меньше", "больше"}),
    ),
    Language(
        "Ukrainian", decimal_comma=True,
        approx=frozenset({"приблизно", "близько", "майже"}),
        scales={"тис": _K, "тисяча": _K, "тисячі": _K, "тисяч": _K,
                "мільйон": _M, "мільйона": _M, "мільйони": _M, "мільйонів": _M,
                "мільярд": _G, "мільярда": _G, "мільярди": _G, "мільярдів": _G,
                "трильйон": _T, "трильйона": _T, "трильйони": _T, "трильйонів": _T},
        units=_CYRILLIC_UNITS,
        unit_words=_inflected(
            {"байт": "B", "кілобайт": "kB", "мегабайт": "MB", "гігабайт": "GB",
             "терабайт": "TB", "кібібайт": "KiB", "мебібайт": "MiB", "гібібайт": "GiB",
             "тебібайт": "TiB"}, ("", "а", "и", "ів")),
        factors=frozenset({"раз", "рази", "разів"}),
        factor_prepositions=frozenset({"в", "у"}),
        noise=frozenset({"параметрів", "параметри", "менше", "більше"}),
    ),  # "млн", "млрд", "трлн" are the Russian abbreviations too
    Language(
        "Greek", decimal_comma=True,
        approx=frozenset({"περίπου", "περ"}),
        scales={"χιλιάδα": _K, "χιλιάδες": _K, "χιλ": _K,
                "εκατομμύριο": _M, "εκατομμύρια": _M, "εκατ": _M,
                "δισεκατομμύριο": _G, "δισεκατομμύρια": _G, "δισ": _G,
                "τρισεκατομμύριο": _T, "τρισεκατομμύρια": _T, "τρισ": _T},
        unit_words={"μπάιτ": "B"},
        factors=frozenset({"φορές"}),
        noise=frozenset({"παράμετροι", "παραμέτρους", "παραμέτρων"}),
    ),
    Language(  # no spaces between words: see ``segment``
        "Thai", decimal_comma=False,
        approx=frozenset({"ประมาณ"}),
        scales={"พัน": _K, "หมื่น": 10**4, "แสน": 10**5, "ล้าน": _M, "สิบล้าน": 10**7,
                "ร้อยล้าน": 10**8, "พันล้าน": _G, "หมื่นล้าน": 10**10, "แสนล้าน": 10**11,
                "ล้านล้าน": _T},
        unit_words={"ไบต์": "B", "กิโลไบต์": "kB", "เมกะไบต์": "MB", "กิกะไบต์": "GB",
                    "เทระไบต์": "TB"},
        factors=frozenset({"เท่า"}),
        noise=frozenset({"พารามิเตอร์", "ตัว"}),
    ),
    Language(
        "Hebrew", decimal_comma=False,
        approx=frozenset({"בערך", "כ"}),
        scales={"אלף": _K, "אלפים": _K, "מיליון": _M, "מיליונים": _M, "מיליארד": _G,
                "מיליארדים": _G, "טריליון": _T},
        unit_words={"בייט": "B", "בייטים": "B"},
        leading_factors=frozenset({"פי"}),
        noise=frozenset({"פרמטרים"}),
    ),
    Language(
        "Arabic", decimal_comma=None,
        approx=frozenset({"حوالي", "تقريبا", "نحو"}),
        scales={"ألف": _K, "الف": _K, "آلاف": _K, "الاف": _K, "مليون": _M, "ملايين": _M,
                "مليار": _G, "مليارات": _G, "تريليون": _T, "ترليون": _T},
        unit_words={"بايت": "B", "كيلوبايت": "kB", "ميغابايت": "MB", "ميجابايت": "MB",
                    "جيجابايت": "GB", "غيغابايت": "GB", "جيغابايت": "GB", "تيرابايت": "TB"},
        factors=frozenset({"مرة", "ضعف", "ضعفا"}),
        noise=frozenset({"معامل", "معاملات", "معلمة", "معلمات"}),
    ),
    Language(
        "Persian", decimal_comma=None,
        approx=frozenset({"حدود", "تقریبا", "تقریباً"}),
        scales={"هزار": _K, "میلیون": _M, "میلیارد": _G, "تریلیون": _T},
        unit_words={"بایت": "B", "کیلوبایت": "kB", "مگابایت": "MB", "گیگابایت": "GB",
                    "ترابایت": "TB"},
        factors=frozenset({"برابر"}),
        noise=frozenset({"پارامتر"}),
    ),
    Language(  # tavu is byte: "25,77 Gt" (gigatavu), "75,5 Mt"; biljoona (10^12) left out
        "Finnish", decimal_comma=True,
        approx=frozenset({"noin"}),
        scales={"tuhat": _K, "tuhatta": _K, "miljoona": _M, "miljoonaa": _M, "milj": _M,
                "miljardi": _G, "miljardia": _G, "mrd": _G},
        units={"kt": "kB", "Mt": "MB", "Gt": "GB", "Tt": "TB"},
        unit_words=_inflected(
            {"tavu": "B", "kilotavu": "kB", "megatavu": "MB", "gigatavu": "GB",
             "teratavu": "TB"}, ("", "a", "ä", "ua")),
        factors=frozenset({"kertaa"}),
        noise=frozenset({"parametria", "parametrit"}),
    ),
    Language(  # bilion is 10^12 in Romanian, 10^9 in Malay: left out
        "Romanian", decimal_comma=True,
        approx=frozenset({"aproximativ", "circa"}),
        scales={"mie": _K, "mii": _K, "milion": _M, "milioane": _M,
                "miliard": _G, "miliarde": _G, "mld": _G},
        factors=frozenset({"ori"}),
        noise=frozenset({"parametri"}),
    ),
    Language(  # bilion (10^12, long scale) left out; "mil." (Czech million, Spanish mil) too
        "Czech", decimal_comma=True,
        approx=frozenset({"přibližně", "asi", "cca"}),
        scales={"tisíc": _K, "tisíce": _K, "tis": _K, "milion": _M, "miliony": _M,
                "milionů": _M, "miliarda": _G, "miliardy": _G, "miliard": _G, "mld": _G},
        factors=frozenset({"krát", "krat"}),
    ),
    Language(  # billió is 10^12 (long scale): left out
        "Hungarian", decimal_comma=True,
        approx=frozenset({"körülbelül", "mintegy"}),
        scales={"ezer": _K, "millió": _M, "milliárd": _G, "md": _G, "mrd": _G},
    ),
    Language(  # billion is 10^12 in Danish: it stays the English 10^9
        "Danish", decimal_comma=True,
        approx=frozenset({"cirka", "omkring"}),
        scales={"tusind": _K, "tusinde": _K, "million": _M, "millioner": _M, "mio": _M,
                "milliard": _G, "milliarder": _G, "mia": _G, "mrd": _G},
        factors=frozenset({"gange"}),
    ),
    Language(
        "Norwegian", decimal_comma=True,
        approx=frozenset({"cirka", "omtrent"}),
        scales={"tusen": _K, "million": _M, "millioner": _M, "mill": _M, "mio": _M,
                "milliard": _G, "milliarder": _G, "mrd": _G},
        factors=frozenset({"ganger"}),
    ),
    Language(  # bilion left out (see Romanian); juta is Indonesian's too
        "Malay", decimal_comma=False,
        scales={"ribu": _K, "juta": _M},
        factors=frozenset({"kali"}),
    ),
    Language(
        "Tagalog", decimal_comma=False,
        approx=frozenset({"mga"}),
        scales={"libo": _K, "milyon": _M, "bilyon": _G, "trilyon": _T},
        factors=frozenset({"beses"}),
    ),
    Language(
        "Georgian", decimal_comma=True,
        approx=frozenset({"დაახლოებით"}),
        scales={"ათასი": _K, "მილიონი": _M, "მლნ": _M, "მილიარდი": _G,
                "მლრდ": _G, "ტრილიონი": _T, "ტრლნ": _T},
        unit_words={"ბაიტი": "B", "კილობაიტი": "kB", "მეგაბაიტი": "MB", "გიგაბაიტი": "GB",
                    "ტერაბაიტი": "TB"},
        factors=frozenset({"ჯერ"}),
    ),
    Language(  # South Asian scales: lakh 10^5, crore 10^7
        "Tamil", decimal_comma=False,
        approx=frozenset({"சுமார்", "ஏறத்தாழ"}),
        scales={"ஆயிரம்": _K, "லட்சம்": 10**5, "இலட்சம்": 10**5, "கோடி": 10**7,
                "மில்லியன்": _M, "பில்லியன்": _G, "டிரில்லியன்": _T},
        unit_words={"பைட்": "B", "கிலோபைட்": "kB", "மெகாபைட்": "MB", "ஜிகாபைட்": "GB",
                    "டெராபைட்": "TB"},
        factors=frozenset({"மடங்கு"}),
    ),
    Language(
        "Bengali", decimal_comma=False,
        approx=frozenset({"প্রায়"}),
        scales={"হাজার": _K, "লাখ": 10**5, "লক্ষ": 10**5, "কোটি": 10**7,
                "মিলিয়ন": _M, "বিলিয়ন": _G, "ট্রিলিয়ন": _T},
        unit_words={"বাইট": "B", "কিলোবাইট": "kB", "মেগাবাইট": "MB", "গিগাবাইট": "GB",
                    "টেরাবাইট": "TB"},
        factors=frozenset({"গুণ"}),
    ),
    Language(
        "Swahili", decimal_comma=False,
        approx=frozenset({"takriban", "karibu"}),
        scales={"elfu": _K, "milioni": _M, "bilioni": _G, "trilioni": _T},
        leading_scales={"elfu": _K, "milioni": _M, "bilioni": _G, "trilioni": _T},
        leading_factors=frozenset({"mara"}),
        noise=frozenset({"vigezo"}),
    ),
    Language(  # Simplified and Traditional; the myriads: 万 10^4, 亿 10^8
        "Chinese", decimal_comma=False,
        approx=frozenset({"约", "約", "大约", "大約"}),
        scales={"千": _K, "万": 10**4, "萬": 10**4, "百万": _M, "百萬": _M, "千万": 10**7,
                "千萬": 10**7, "亿": 10**8, "億": 10**8, "十亿": _G, "十億": _G},
        unit_words={"字节": "B", "位元組": "B", "千字节": "kB", "兆字节": "MB",
                    "吉字节": "GB", "太字节": "TB"},
        factors=frozenset({"倍"}),
        noise=frozenset({"个", "個", "参数", "參數", "个参数", "個參數"}),
    ),
    Language(
        "Japanese", decimal_comma=False,
        approx=frozenset({"約", "およそ"}),
        scales={"千": _K, "万": 10**4, "百万": _M, "億": 10**8, "十億": _G},
        unit_words={"バイト": "B", "キロバイト": "kB", "メガバイト": "MB", "ギガバイト": "GB",
                    "テラバイト": "TB", "キビバイト": "KiB", "メビバイト": "MiB",
                    "ギビバイト": "GiB"},
        factors=frozenset({"倍"}),
        noise=frozenset({"パラメータ", "パラメーター", "個"}),
    ),
    Language(
        "Korean", decimal_comma=False,
        approx=frozenset({"약", "대략"}),
        scales={"천": _K, "만": 10**4, "백만": _M, "천만": 10**7, "억": 10**8, "십억": _G,
                "조": _T},
        unit_words={"바이트": "B", "킬로바이트": "kB", "메가바이트": "MB", "기가바이트": "GB",
                    "테라바이트": "TB", "키비바이트": "KiB", "메비바이트": "MiB",
                    "기비바이트": "GiB"},
        factors=frozenset({"배"}),
        noise=frozenset({"개", "매개변수", "파라미터"}),
    ),
)  # fmt: skip


# -- folding and the merged tables -------------------------------------------------------

def _optional_mark(ch: str) -> bool:
    """A mark a writer may leave out: a Latin/Greek/Cyrillic accent, a Hebrew point, an
    Arabic short vowel, or the Arabic tatweel (a stretch, no letter)."""
    o = ord(ch)
    return (0x0300 <= o <= 0x036F or 0x0591 <= o <= 0x05C7 and ch not in "\u05be\u05c0\u05c3\u05c6"
            or 0x0610 <= o <= 0x061A or 0x064B <= o <= 0x065F or o in (0x0670, 0x0640))


_LETTER_FOLDS = str.maketrans({"ي": "ی", "ى": "ی", "ك": "ک", "ς": "σ"})


def key(word: str) -> str:
    """The form a word is looked up by: lowercase, optional marks dropped, NFC."""
    if word.isascii():
        return word.lower()
    low = unicodedata.normalize("NFD", word.lower())
    bare = "".join(ch for ch in low if not _optional_mark(ch))
    return unicodedata.normalize("NFC", bare).translate(_LETTER_FOLDS)


def _merge(tables: Iterable[tuple[str, Mapping[str, object]]], *, fold: bool) -> dict:
    """One table from the languages' tables; a word two languages give different values
    is a mistake in the data, raised at import."""
    out: dict = {}
    for language, table in tables:
        for word, value in table.items():
            k = key(word) if fold else word
            if out.get(k, value) != value:
                raise ValueError(f"{language}: {word!r} is {value}, another language says "
                                 f"{out[k]}")
            out[k] = value
    return out


SCALES: dict[str, int] = _merge(((lang.name, lang.scales) for lang in LANGUAGES), fold=True)
"""Folded word -> the power of ten it multiplies a number by."""
LEADING_SCALES: dict[str, int] = _merge(
    ((lang.name, lang.leading_scales) for lang in LANGUAGES), fold=True)
UNITS: dict[str, str] = _merge(((lang.name, lang.units) for lang in LANGUAGES), fold=False)
"""Exact spelling (case matters) -> canonical byte unit."""
UNIT_WORDS: dict[str, str] = _merge(
    ((lang.name, lang.unit_words) for lang in LANGUAGES), fold=True)
FACTORS: frozenset[str] = frozenset(key(w) for lang in LANGUAGES for w in lang.factors)
LEADING_FACTORS: frozenset[str] = frozenset(
    key(w) for lang in LANGUAGES for w in lang.leading_factors)
FACTOR_PREPOSITIONS: frozenset[str] = frozenset(
    key(w) for lang in LANGUAGES for w in lang.factor_prepositions)
APPROX: frozenset[str] = frozenset(key(w) for lang in LANGUAGES for w in lang.approx)
NOISE: frozenset[str] = frozenset(key(w) for lang in LANGUAGES for w in lang.noise)

_ENGLISH = {key(w) for lang in LANGUAGES if lang.name == "English" for w in lang.scales}
COMMA_SIGNS: dict[str, int] = {
    key(w): v for lang in LANGUAGES if lang.decimal_comma for w, v in lang.scales.items()
    if key(w) not in _ENGLISH}
"""Scale words of languages that write a decimal comma: one after a number says its comma is
a decimal one. A word English shares ("million") names the scale and not the locale."""


def scale(word: str) -> int | None:
    """The power of ten a scale word after a number stands for, in any language."""
    return SCALES.get(key(word))


def leading_scale(word: str) -> int | None:
    """The power of ten a scale word written before its number stands for (Swahili)."""
    return LEADING_SCALES.get(key(word))


def unit(word: str) -> str | None:
    """The canonical byte unit a spelling in another language or script stands for."""
    return UNITS.get(word) or UNIT_WORDS.get(key(word))


def is_factor(word: str) -> bool:
    return key(word) in FACTORS


def is_leading_factor(word: str) -> bool:
    return key(word) in LEADING_FACTORS


def is_factor_preposition(word: str) -> bool:
    return key(word) in FACTOR_PREPOSITIONS


def is_approx(word: str) -> bool:
    return key(word) in APPROX


def is_noise(word: str) -> bool:
    return key(word) in NOISE


def is_comma_sign(word: str) -> bool:
    return key(word) in COMMA_SIGNS


# -- scripts written without spaces -------------------------------------------------------

def unspaced(ch: str) -> bool:
    """Thai, kana, Han and Hangul: scripts that write a number's words onto what follows
    ("14.50 พันล้านพารามิเตอร์", "145亿个参数", "145억개")."""
    o = ord(ch)
    return (0x0E00 <= o <= 0x0E7F or 0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x9FFF
            or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF)


_UNSPACED_WORDS = frozenset(
    w for w in (*SCALES, *UNIT_WORDS, *FACTORS, *NOISE) if w and unspaced(w[0]))
_LONGEST = max(len(w) for w in _UNSPACED_WORDS)


def segment(word: str) -> list[str]:
    """A run of an unspaced script cut into the table's words, longest first
    (``พันล้านพารามิเตอร์`` -> ``พันล้าน``, ``พารามิเตอร์``); what follows the last word
    found stays one piece. A run that starts with no known word is returned whole."""
    pieces: list[str] = []
    at = 0
    while at < len(word):
        low = key(word[at:at + _LONGEST])
        size = next((n for n in range(len(low), 0, -1) if low[:n] in _UNSPACED_WORDS), 0)
        if not size:
            break
        pieces.append(word[at:at + size])
        at += size
    if at < len(word):
        pieces.append(word[at:])
    return pieces


# -- for readers that look for an answer's end in a report's text ---------------------------

AFTER_NUMBER: tuple[str, ...] = tuple(sorted(
    {w for lang in LANGUAGES
     for w in (*lang.scales, *lang.units, *lang.unit_words, *lang.factors)},
    key=lambda w: (-len(w), w)))
"""Every scale word, unit and factor word of the table as it is written, longest first (so
that an alternation built from it takes ``พันล้าน`` before ``พัน``): a report reader that
decides where a written answer ends ("0,537 ГБ", not "0,537") needs the same words as the
parser that reads it."""
