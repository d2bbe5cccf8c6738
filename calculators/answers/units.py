"""Units and scale words a student may write after a number, as exact data.

Memory units follow the standard: kB/MB/GB/TB are powers of 10, KiB/MiB/GiB/TiB
are powers of 2, and a byte is 8 bits. Prefixes are exact integers, so "24 GiB"
and "25.77 GB" can be compared in bytes without a float in sight. The byte units
themselves are ``calculators.units``' tables; this module adds bits and spellings.

Scale words (``thousand``, ``million``, ``billion``, ``k``, ``M``, ``B``, ``G``)
multiply a count; they are not units. ``GB`` is a unit, ``G`` alone is a scale.
A lone ``B`` is the one real ambiguity ("14.5B" parameters, "512 B" of memory):
the reader takes it as *billion* and records that it did, and the checker reads
it as bytes when the question is about memory.
"""

from __future__ import annotations

import re

from sympy import Integer, Rational

from calculators.answers import _vocabulary
from calculators.units import BINARY, DECIMAL

# canonical unit -> bytes per unit (exact); the byte units are those of calculators.units
BYTES_PER_UNIT: dict[str, Rational] = {
    **{("bit" if u == "B" else f"{u[0]}bit"): Rational(n, 8) for u, n in DECIMAL.items()},
    **{u: Integer(n) for u, n in {**DECIMAL, **BINARY}.items()},
}

# how the power behind each unit is written in a message ("10^9 bytes", "2^30 bytes")
UNIT_POWER_TEXT: dict[str, str] = {
    **{u: f"10^{len(str(n)) - 1} bytes" for u, n in DECIMAL.items() if u != "B"},
    **{u: f"2^{n.bit_length() - 1} bytes" for u, n in BINARY.items() if u != "B"},
}

# decimal unit <-> binary unit of the same rank (the GB/GiB confusion)
_RANKS = list(zip(list(DECIMAL)[1:], list(BINARY)[1:], strict=True))
DECIMAL_BINARY_PAIRS: dict[str, str] = {**dict(_RANKS), **{b: d for d, b in _RANKS}}

# bit unit <-> byte unit of the same prefix (the bits/bytes confusion)
BIT_BYTE_PAIRS: dict[str, str] = {
    "bit": "B",
    "kbit": "kB",
    "Mbit": "MB",
    "Gbit": "GB",
    "Tbit": "TB",
    "B": "bit",
    "kB": "kbit",
    "MB": "Mbit",
    "GB": "Gbit",
    "TB": "Tbit",
}

UNIT_LONG_NAMES: dict[str, str] = {
    "bit": "bits",
    "kbit": "kilobits",
    "Mbit": "megabits",
    "Gbit": "gigabits",
    "Tbit": "terabits",
    "B": "bytes",
    "kB": "kilobytes",
    "MB": "megabytes",
    "GB": "gigabytes",
    "TB": "terabytes",
    "KiB": "kibibytes",
    "MiB": "mebibytes",
    "GiB": "gibibytes",
    "TiB": "tebibytes",
}

# Spellings matched exactly (case matters: Gb is gigabits, GB gigabytes).
_EXACT_SPELLINGS: dict[str, str] = {
    "bit": "bit",
    "bits": "bit",
    "kbit": "kbit",
    "kbits": "kbit",
    "kb": "kbit",
    "Kb": "kbit",
    "Mbit": "Mbit",
    "Mbits": "Mbit",
    "Mb": "Mbit",
    "Gbit": "Gbit",
    "Gbits": "Gbit",
    "Gb": "Gbit",
    "Tbit": "Tbit",
    "Tbits": "Tbit",
    "Tb": "Tbit",
    "byte": "B",
    "bytes": "B",
    "Byte": "B",
    "Bytes": "B",
    "kB": "kB",
    "KB": "kB",
    "MB": "MB",
    "mb": "MB",
    "GB": "GB",
    "gb": "GB",
    "TB": "TB",
    "tb": "TB",
    "KiB": "KiB",
    "kiB": "KiB",
    "MiB": "MiB",
    "GiB": "GiB",
    "TiB": "TiB",
    "Gbyte": "GB",
    "Gbytes": "GB",
    "GBytes": "GB",
    "Mbyte": "MB",
    "Mbytes": "MB",
    "MBytes": "MB",
}

# Long spellings matched case-insensitively.
_WORD_SPELLINGS: dict[str, str] = {
    "kilobit": "kbit",
    "megabit": "Mbit",
    "gigabit": "Gbit",
    "terabit": "Tbit",
    "kilobyte": "kB",
    "megabyte": "MB",
    "gigabyte": "GB",
    "terabyte": "TB",
    "kibibyte": "KiB",
    "mebibyte": "MiB",
    "gibibyte": "GiB",
    "tebibyte": "TiB",
}

# One- or two-letter suffixes, case-sensitive: "14.5B", "9.4M", "300k".
_SCALE_SUFFIXES: dict[str, int] = {
    "k": 10**3,
    "K": 10**3,
    "M": 10**6,
    "B": 10**9,
    "G": 10**9,
    "T": 10**12,
    "Bn": 10**9,
}

SCALE_NAMES: dict[int, str] = {
    10**3: "thousand",
    10**6: "million",
    10**9: "billion",
    10**12: "trillion",
}


def memory_unit(word: str) -> str | None:
    """The canonical memory unit for a spelling ("GiB", "gigabytes", "Gb", "ГБ", "Go"), or
    None; spellings of other languages and scripts are ``_vocabulary``'s."""
    if word in _EXACT_SPELLINGS:
        return _EXACT_SPELLINGS[word]
    found = _WORD_SPELLINGS.get(word.lower()) or _vocabulary.unit(word)
    if found is None and word[-1:] in "sS":  # "gigabytes", "kilooctets"
        found = _WORD_SPELLINGS.get(word[:-1].lower()) or _vocabulary.unit(word[:-1])
    return found


def scale_word(word: str) -> int | None:
    """The power of ten a scale word or suffix stands for ("billion" -> 10**9, "млрд",
    "δισεκατομμύρια"), or None; the words of every language are ``_vocabulary``'s."""
    if word in _SCALE_SUFFIXES:
        return _SCALE_SUFFIXES[word]
    return _vocabulary.scale(word)


def is_memory_unit(unit: str | None) -> bool:
    return unit is not None and unit in BYTES_PER_UNIT


def is_bit_unit(unit: str | None) -> bool:
    return unit in ("bit", "kbit", "Mbit", "Gbit", "Tbit")


def to_bytes(value: Rational, unit: str) -> Rational:
    """``value`` in ``unit`` as exact bytes."""
    return value * BYTES_PER_UNIT[unit]


def from_bytes(nbytes: Rational, unit: str) -> Rational:
    """Exact bytes expressed in ``unit``."""
    return nbytes / BYTES_PER_UNIT[unit]


def normalize_expected_unit(unit: str) -> tuple[str, Rational]:
    """Read the unit of an expected ``(value, unit)`` pair.

    Returns ``(kind, factor)`` where kind is ``"memory:<unit>"``, ``"scale:<word>"``,
    ``"percent"`` or ``"plain"``; factor turns the value into base units (bytes for
    memory, a plain count or ratio otherwise).
    """
    text = unit.strip()
    mem = "B" if text == "B" else memory_unit(text)
    if mem is not None:
        return f"memory:{mem}", BYTES_PER_UNIT[mem]
    scale = scale_word(text)
    if scale is not None:
        return f"scale:{SCALE_NAMES.get(scale, text)}", Integer(scale)
    if text in ("%", "percent", "per cent"):
        return "percent", Rational(1, 100)
    return "plain", Integer(1)


# siunitx (``\SI{25.77}{\giga\byte}``, ``\qty{...}{...}``, ``\si{\mega\byte}``): the macros
# a unit argument is made of, spelled the way a student writes the unit in plain text.
SIUNITX_PREFIXES: dict[str, str] = {
    "kilo": "k", "mega": "M", "giga": "G", "tera": "T",
    "kibi": "Ki", "mebi": "Mi", "gibi": "Gi", "tebi": "Ti",
}  # fmt: skip
SIUNITX_UNITS: dict[str, str] = {"byte": "B", "bit": "bit", "percent": "%"}
_SI_TOKEN = re.compile(r"\\([A-Za-z]+)\s*|([^\\{}]+)")


def siunitx_unit(spec: str) -> str:
    r"""A siunitx unit argument as plain text: ``\giga\byte`` -> ``GB``, ``\gibi\byte`` ->
    ``GiB``, ``\percent`` -> ``%``; a bare ``\byte`` is ``bytes`` (a lone ``B`` reads as
    *billion*); literal text (``GB``) is kept. Unknown macros keep their name."""
    out, prefix = [], ""
    for macro, literal in _SI_TOKEN.findall(spec):
        if literal:
            out.append(prefix + literal.strip())
            prefix = ""
        elif macro in SIUNITX_PREFIXES:
            prefix += SIUNITX_PREFIXES[macro]
        else:
            unit = SIUNITX_UNITS.get(macro, macro)
            if not prefix and unit == "B":
                unit = "bytes"
            out.append(prefix + unit)
            prefix = ""
    return " ".join(w for w in out if w) + prefix
