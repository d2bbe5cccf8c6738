"""Numbers written in English words: ``fourteen and a half billion``, ``twenty-five point
seven seven GB``, ``nine million four hundred thirty-seven thousand one hundred
eighty-four``.

Why: a student who writes the answer out in words means the number; read as words it is
"'fourteen' is not a number". The words are turned into the figures a student would have
typed, a scale word at the end kept as a word (``14.5 billion``), so the precision
written and the scale are read as for figures. Only a run that starts with a number word
is read ("a half" alone, "point" alone are words); pure string operations.
"""

from __future__ import annotations

from fractions import Fraction

_UNITS = {w: i for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen"))}
_TENS = {w: 10 * i for i, w in enumerate(
    ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"), start=2)}
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_FRACTIONS = {"half": Fraction(1, 2), "quarter": Fraction(1, 4)}
_PUNCTUATION = ".,;:!?)"


SCALE_WORDS = tuple(_SCALES)
"""The scale words a number written out may end with ("fourteen and a half billion")."""


def number_word(word: str) -> bool:
    """Whether `word` is an English number word ("fourteen", "twenty-five")."""
    w = word.lower()
    if "-" in w:
        tens, _, unit = w.partition("-")
        return tens in _TENS and unit in _UNITS and 0 < _UNITS[unit] < 10
    return w in _UNITS or w in _TENS


def _value(words: list[str]) -> tuple[Fraction, str | None, int] | None:
    """(value, the scale word it ends with or None, words used) of a run of number words."""
    total, current = Fraction(0), Fraction(0)
    scale_word: str | None = None
    k = 0
    while k < len(words):
        w = words[k].lower()
        nxt = [x.lower() for x in words[k + 1:k + 3]]
        if number_word(w):
            tens, _, unit = w.partition("-")
            current += _TENS[tens] + _UNITS[unit] if unit else _UNITS.get(w, _TENS.get(w, 0))
        elif w == "hundred" and k:
            current *= 100
        elif w in _SCALES and k:
            total += current * _SCALES[w]
            current = Fraction(0)
            scale_word = words[k]
            k += 1
            continue
        elif w == "point" and k and nxt[:1] and nxt[0] in _UNITS and _UNITS[nxt[0]] < 10:
            digits = ""
            k += 1
            while k < len(words) and words[k].lower() in _UNITS and _UNITS[words[k].lower()] < 10:
                digits += str(_UNITS[words[k].lower()])
                k += 1
            current += Fraction(int(digits), 10 ** len(digits))
            scale_word = None
            continue
        elif w == "and" and k and nxt[:1] == ["a"] and nxt[1:] and nxt[1] in _FRACTIONS:
            current += _FRACTIONS[nxt[1]]
            k += 3
            scale_word = None
            continue
        elif not (w == "and" and k and nxt[:1] and number_word(nxt[0])):
            break  # "and" between number words ("one hundred and five") is skipped
        scale_word = None
        k += 1
    if not k:
        return None
    return total + current, scale_word, k


def _figures(value: Fraction) -> str | None:
    """A decimal string for a value with a finite decimal expansion, else None."""
    for places in range(0, 13):
        scaled = value * 10**places
        if scaled.denominator == 1:
            text = str(scaled.numerator).rjust(places + 1, "0")
            return text if not places else f"{text[:-places]}.{text[-places:]}"
    return None


def spelled_numbers(text: str) -> str:
    """The text with each run of English number words written in figures."""
    words = text.split(" ")
    if not any(number_word(w.strip(_PUNCTUATION)) for w in words):
        return text
    out: list[str] = []
    i = 0
    while i < len(words):
        bare = words[i].strip(_PUNCTUATION)
        if not number_word(bare):
            out.append(words[i])
            i += 1
            continue
        run = []
        for w in words[i:]:
            run.append(w.rstrip(_PUNCTUATION))
            if w != w.rstrip(_PUNCTUATION):
                break  # punctuation ends the run
        read = _value(run)
        if read is None:
            out.append(words[i])
            i += 1
            continue
        value, scale, used = read
        tail = words[i + used - 1][len(run[used - 1]):]  # punctuation after the last word
        if scale is not None:
            mantissa = _figures(value / _SCALES[scale.lower()])
            figures = None if mantissa is None else f"{mantissa} {scale}"
        else:
            figures = _figures(value)
        out.append((figures or " ".join(run[:used])) + tail)
        i += used
    return " ".join(out)
