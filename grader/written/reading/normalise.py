"""One normalisation for every reader: superscripts kept visible, then NFKC.

NFKC folds what browsers and equation editors emit into the digits and letters the
answer parser reads (mathematical bold 𝟏𝟎,𝟎𝟓𝟎 -> 10,050, the ligature ﬁ -> fi, no-break
spaces -> spaces). It would also fold ``16,384²`` into ``16,3842``, a different number,
so Unicode superscripts and subscripts are first spelled ``^2`` / ``_k``.
"""

from __future__ import annotations

import re
import unicodedata

_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", "0123456789+-=()ni", strict=True))
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜ", "0123456789+-=()aeoxhklmnpst", strict=True))
_SUP_RUN = re.compile("[" + "".join(_SUPERSCRIPTS) + "]+")
_SUB_RUN = re.compile("[" + "".join(_SUBSCRIPTS) + "]+")
_SIMPLE = re.compile(r"^[\w.]+$")


def raised(text: str, mark: str) -> str:
    """``^2``, ``^(-3)``: a superscript (or ``_k`` subscript) that stays one token."""
    text = text.strip()
    return f"{mark}{text}" if _SIMPLE.match(text) else f"{mark}({text})"


def normalise(text: str) -> str:
    """Superscript/subscript runs spelled out, then NFKC; line breaks are kept as they are."""
    text = _SUP_RUN.sub(lambda m: raised("".join(_SUPERSCRIPTS[c] for c in m.group()), "^"), text)
    text = _SUB_RUN.sub(lambda m: raised("".join(_SUBSCRIPTS[c] for c in m.group()), "_"), text)
    return unicodedata.normalize("NFKC", text)


LOST_GLYPHS = re.compile("[\ufffd\ue000-\uf8ff]|\\(cid:\\d+\\)")
LOST_NOTE = (
    "some symbols, probably mathematics, could not be recovered from the PDF; "
    "check equations by eye"
)
