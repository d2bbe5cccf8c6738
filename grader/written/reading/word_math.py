"""Office Math (``m:oMath``) written linearly: where students write ``N = 12 × d^2``,
Word stores no runs, only the structure of the formula."""

from __future__ import annotations

import re
from typing import Any

from grader.written.reading.normalise import raised
from grader.written.reading.word_xml import M

_FUNCTIONS = {"ln", "log", "exp", "sin", "cos", "tan", "max", "min", "softmax", "lim"}


def _math(el: Any) -> str:
    """Office Math as linear text: x^2, (a)/(b), sqrt(x), x_k, ∑_(i=1)^n x_i, ln(x)."""
    tag = el.tag
    if tag == f"{M}t":
        return el.text or ""

    def part(name: str) -> str:
        found = el.find(f"{M}{name}")
        return "" if found is None else _math(found)

    def prop(name: str, default: str) -> str:
        found = el.find(f"{M}{tag.split('}')[1]}Pr/{M}{name}")
        return found.get(f"{M}val", default) if found is not None else default

    def script(name: str, mark: str) -> str:
        text = part(name).strip()
        return f"{mark}({text})" if re.search(r"[_^]", text) else raised(text, mark)

    if tag == f"{M}sSup":
        return part("e") + script("sup", "^")
    if tag == f"{M}sSub":
        return part("e") + script("sub", "_")
    if tag == f"{M}sSubSup":
        return part("e") + script("sub", "_") + script("sup", "^")
    if tag == f"{M}sPre":
        return script("sub", "_") + script("sup", "^") + part("e")
    if tag == f"{M}f":
        if prop("type", "bar") == "noBar":
            return f"({part('num')} over {part('den')})"
        return f"({part('num')})/({part('den')})"
    if tag == f"{M}rad":
        degree = part("deg").strip()
        return f"root({degree}, {part('e')})" if degree else f"sqrt({part('e')})"
    if tag == f"{M}nary":
        sub, sup = part("sub").strip(), part("sup").strip()
        limits = (raised(sub, "_") if sub else "") + (raised(sup, "^") if sup else "")
        return f"{prop('chr', '∫')}{limits} {part('e')}"
    if tag == f"{M}func":
        name, arg = part("fName").strip(), part("e").strip()
        return f"{name}{arg}" if arg.startswith("(") else f"{name}({arg})"
    if tag in (f"{M}limLow", f"{M}limUpp"):
        mark = "_" if tag == f"{M}limLow" else "^"
        return part("e") + raised(part("lim"), mark)
    if tag == f"{M}eqArr":  # equations stacked and aligned: one after the other
        return "; ".join(_math(e) for e in el.findall(f"{M}e"))
    if tag == f"{M}m":  # a matrix, row by row
        rows = [", ".join(_math(e) for e in mr.findall(f"{M}e")) for mr in el.findall(f"{M}mr")]
        return "[" + "; ".join(rows) + "]"
    if tag == f"{M}d":
        inner = prop("sepChr", ",").join(_math(e) for e in el.findall(f"{M}e"))
        return prop("begChr", "(") + inner + prop("endChr", ")")
    if tag in (f"{M}acc", f"{M}bar", f"{M}groupChr", f"{M}box", f"{M}borderBox", f"{M}phant"):
        return part("e")  # x̂, x̄, a brace under x: the x is what is read
    if tag.endswith("Pr"):
        return ""
    return "".join(_math(child) for child in el.iterchildren() if isinstance(child.tag, str))
