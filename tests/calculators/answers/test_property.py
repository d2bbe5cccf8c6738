"""Property: a value formatted in any supported style parses back to exactly that value."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from sympy import Integer, Rational

from calculators.answers import parse_answer
from calculators.answers.units import BYTES_PER_UNIT

SEPARATORS = [",", " ", "'", "\u2009", "{,}", ", "]


def grouped(n: int, sep: str) -> str:
    return f"{n:,}".replace(",", sep)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(0, 10**15),
    sep=st.sampled_from(SEPARATORS),
    wrap=st.sampled_from(["{}", "**{}**", "${}$", "{}."]),
)
def test_grouped_integers(n, sep, wrap):
    text = wrap.format(grouped(n, sep))
    parsed = parse_answer(text)
    assert parsed.ok, (text, parsed.reason)
    assert parsed.value == n


@settings(max_examples=150, deadline=None)
@given(whole=st.integers(0, 10**9), frac=st.integers(0, 10**6), digits=st.integers(1, 6))
def test_decimals(whole, frac, digits):
    frac_text = str(frac % 10**digits).zfill(digits)
    text = f"{whole:,}.{frac_text}"
    assert parse_answer(text).value == Rational(int(f"{whole}{frac_text}"), 10**digits)


MANTISSA = st.integers(1, 99_999).map(lambda m: Rational(m, 10**4))  # 0.0001 .. 9.9999
EXPONENT = st.integers(-30, 30)


@settings(max_examples=150, deadline=None)
@given(
    m=MANTISSA,
    e=EXPONENT,
    style=st.sampled_from(
        [
            "{m}e{e}",
            "{m}E{e}",
            "{m} x 10^{e}",
            "{m} × 10^{{{e}}}",
            "{m} \\times 10^{{{e}}}",
            "{m}*10**{e}",
            "{m} \\cdot 10^{{{e}}}",
        ]
    ),
)
def test_scientific(m, e, style):
    m_text = format(float(m), ".4f").rstrip("0").rstrip(".")
    text = style.format(m=m_text, e=e)
    parsed = parse_answer(text)
    assert parsed.ok, (text, parsed.reason)
    assert parsed.value == Rational(m_text) * Integer(10) ** e


SCALES = {
    "thousand": 10**3,
    "million": 10**6,
    "billion": 10**9,
    "k": 10**3,
    "M": 10**6,
    "B": 10**9,
    "G": 10**9,
}


@settings(max_examples=150, deadline=None)
@given(
    m=st.integers(1, 999_999),
    places=st.integers(0, 3),
    word=st.sampled_from(sorted(SCALES)),
    space=st.booleans(),
)
def test_scale_words(m, places, word, space):
    number = Rational(m, 10**places)
    text = f"{format(float(number), f'.{places}f')}{' ' if space else ''}{word}"
    parsed = parse_answer(text)
    assert parsed.ok, (text, parsed.reason)
    assert parsed.value == number * SCALES[word]
    assert parsed.unit is None


SPELLED = {
    "GB": "GB", "GiB": "GiB", "MB": "MB", "MiB": "MiB", "kB": "kB", "KiB": "KiB", "TB": "TB",
    "TiB": "TiB", "bytes": "B", "gigabytes": "GB", "Gb": "Gbit", "bits": "bit",
}  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    m=st.integers(0, 10**7),
    places=st.integers(0, 3),
    spelled=st.sampled_from(sorted(SPELLED)),
    space=st.booleans(),
)
def test_memory_units(m, places, spelled, space):
    number = Rational(m, 10**places)
    text = f"{format(float(number), f',.{places}f')}{' ' if space else ''}{spelled}"
    parsed = parse_answer(text)
    assert parsed.ok, (text, parsed.reason)
    unit = SPELLED[spelled]
    assert (parsed.value, parsed.unit) == (number, unit)
    assert parsed.bytes == number * BYTES_PER_UNIT[unit]


@settings(max_examples=100, deadline=None)
@given(m=st.integers(1, 99_999), places=st.integers(1, 4))
def test_percent(m, places):
    number = Rational(m, 10**places)
    text = f"{format(float(number), f'.{places}f')} %"
    parsed = parse_answer(text)
    assert (parsed.value, parsed.unit) == (number / 100, "percent")


@settings(max_examples=100, deadline=None)
@given(
    p=st.integers(1, 10**6),
    q=st.integers(1, 10**6),
    style=st.sampled_from(["{p}/{q}", "\\frac{{{p}}}{{{q}}}", "about {p}/{q}"]),
)
def test_fractions(p, q, style):
    assert parse_answer(style.format(p=p, q=q)).value == Rational(p, q)
