"""Code beyond the template: winnowed fingerprints, indexed, the starter code subtracted.

Why an index and not all pairs: 500 students make 124,750 pairs; a fingerprint found in
two to a few dozen notebooks names the pairs worth comparing, as in MOSS. Each
fingerprint is posted under the students who have it; pairs are enumerated only from
fingerprints held by at most `pair_df_max` students, and each such candidate pair is
then scored on everything the two share. A copy shares many fingerprints two or three
students hold, so a low cap loses no copy and keeps the candidates few.

What makes two students alike must be theirs: the pack's template notebook and
template modules are fingerprinted the same way and subtracted, and so is whatever more
than `code_common_share` of the class has (the setup code everyone copies from the
handout, a helper the lecture gave out). What remains is weighted by rarity,
log2(1 + n / df), so a fragment three students share weighs more than one twenty share.
The score is the weighted containment of the smaller student's code in the other's:
copying a part of a classmate's notebook is found even when the copier wrote more.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from nbformat import NotebookNode

from grader.similarity.classroom import Classroom, Work
from grader.similarity.settings import Settings
from grader.similarity.winnow import Fingerprint, fingerprints, kgrams, normalise, winnow


@dataclass
class Unit:
    """A piece of a student's code: a notebook cell (named by its tag) or a module."""

    name: str
    source: str


@dataclass
class CodePrint:
    units: list[Unit]
    tokens: int
    spans: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)
    """Fingerprint hash -> (unit index, first line, last line) where it occurs."""


def notebook_units(nb: NotebookNode | None) -> list[Unit]:
    """The code cells of a notebook, each named by its first tag or its 1-based number."""
    if nb is None:
        return []
    units = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and cell.source.strip():
            tags = cell.metadata.get("tags", [])
            units.append(Unit(tags[0] if tags else f"cell {index + 1}", cell.source))
    return units


def work_units(work: Work) -> list[Unit]:
    return notebook_units(work.notebook) + [Unit(p, s) for p, s in sorted(work.modules.items())]


def template_hashes(classroom: Classroom, settings: Settings) -> set[int]:
    units = notebook_units(classroom.starter.notebook) + [
        Unit(p, s) for p, s in classroom.starter.modules.items()]
    return {f.hash for u in units for f in fingerprints(u.source, settings.k, settings.window)}


def fingerprint_work(work: Work, template: set[int], settings: Settings,
                     seen: dict[str, tuple[int, list[Fingerprint]]] | None = None) -> CodePrint:
    """The student's own fingerprints (the template's taken out), by unit. `seen` caches
    by cell text: most cells of a class are the handout's, or a copy's, and a class of 500
    tokenizes each distinct cell once."""
    units = work_units(work)
    print_ = CodePrint(units, 0)
    cache = {} if seen is None else seen
    for i, unit in enumerate(units):
        if unit.source not in cache:
            tokens = normalise(unit.source)
            kept = winnow(kgrams(tokens, settings.k), settings.window)
            cache[unit.source] = (len(tokens), [f for f in kept if f.hash not in template])
        count, own = cache[unit.source]
        if own:
            print_.tokens += count
        for f in own:
            print_.spans.setdefault(f.hash, []).append((i, f.first, f.last))
    return print_


@dataclass
class CodeIndex:
    prints: dict[str, CodePrint]
    weight: dict[int, float]
    """Fingerprint -> its rarity weight; fingerprints too common to count are absent."""
    totals: dict[str, float]
    postings: dict[int, list[str]]
    pair_df_max: int
    typical: float
    """The median student's weight of own code: a student who wrote less than half of
    that reaches containment 1.0 only in proportion (three lines in common with anyone
    who wrote them the same way is not a copy)."""


def build_index(classroom: Classroom, settings: Settings) -> CodeIndex:
    template = template_hashes(classroom, settings)
    seen: dict[str, tuple[int, list[Fingerprint]]] = {}
    prints = {w.key: fingerprint_work(w, template, settings, seen) for w in classroom.works}
    n = len(prints)
    postings: dict[int, list[str]] = defaultdict(list)
    for key, p in prints.items():
        if p.tokens < settings.code_min_tokens:
            continue
        for h in p.spans:
            postings[h].append(key)
    common = max(2.0, settings.code_common_share * n)
    weight = {h: math.log2(1 + n / len(keys)) for h, keys in postings.items()
              if len(keys) <= common}
    totals = {key: sum(weight.get(h, 0.0) for h in p.spans) for key, p in prints.items()}
    own = sorted(t for t in totals.values() if t > 0)
    typical = own[len(own) // 2] if own else 0.0
    return CodeIndex(prints, weight, totals, dict(postings),
                     pair_df_max=int(max(10, settings.pair_share * n)), typical=typical)


def candidate_pairs(index: CodeIndex) -> set[tuple[str, str]]:
    pairs: set[tuple[str, str]] = set()
    for h, keys in index.postings.items():
        if h in index.weight and 2 <= len(keys) <= index.pair_df_max:
            ordered = sorted(keys)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1:]:
                    pairs.add((a, b))
    return pairs


def _lines(spans: list[tuple[int, int, int]]) -> dict[int, set[int]]:
    by_unit: dict[int, set[int]] = defaultdict(set)
    for unit, first, last in spans:
        by_unit[unit].update(range(first, last + 1))
    return by_unit


def containment(index: CodeIndex, a: str, b: str) -> float:
    """The rarity-weighted share of the smaller student's own code (at least half the
    class median's) that the other has too: 0 to 1."""
    weight = index.weight
    shared = sum(weight.get(h, 0.0) for h in index.prints[a].spans.keys()
                 & index.prints[b].spans.keys())
    smaller = max(min(index.totals[a], index.totals[b]), 0.5 * index.typical)
    return min(1.0, shared / smaller) if smaller > 0 else 0.0


def compare(index: CodeIndex, a: str, b: str) -> dict[str, Any] | None:
    """The code evidence of a pair: its containment and the matching lines of each
    student's units (for side-by-side display); None when they share nothing rare."""
    pa, pb = index.prints[a], index.prints[b]
    shared = [h for h in pa.spans.keys() & pb.spans.keys() if h in index.weight]
    if not shared:
        return None
    value = containment(index, a, b)
    lines_a = _lines([s for h in shared for s in pa.spans[h]])
    lines_b = _lines([s for h in shared for s in pb.spans[h]])
    regions = []
    for name in sorted({pa.units[u].name for u in lines_a} | {pb.units[u].name for u in lines_b}):
        ua = next((i for i, u in enumerate(pa.units) if u.name == name), None)
        ub = next((i for i, u in enumerate(pb.units) if u.name == name), None)
        regions.append({
            "unit": name,
            "a": _unit_view(pa, ua, lines_a), "b": _unit_view(pb, ub, lines_b)})
    return {"containment": round(value, 4), "shared": len(shared), "regions": regions}


def _unit_view(p: CodePrint, unit: int | None, lines: dict[int, set[int]]) -> dict[str, Any]:
    if unit is None:
        return {"lines": [], "source": ""}
    return {"lines": sorted(lines.get(unit, set())), "source": p.units[unit].source}
