"""Pairs ranked by evidence, and the groups they form.

Why points from bits: every piece of evidence is scored by how surprising it would be
if the two students had worked apart. A wrong output or number that k of n students
hold is worth log2(n / k) bits (zero once it is common: more than `common_share` of the
class); per question only the strongest behavioural fingerprint counts, since one wrong
function gives a wrong output on every hidden case. Code and free text give points for
their rarity-weighted containment (0 to 1) times their weight. The sum ranks the pairs;
`flag_score` marks those a TA should look at. Nothing here is a verdict: two students
may share a tutor, a study group the course allows, or a public snippet; the report
shows the evidence so a person can judge.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from grader.similarity import behaviour, code, written
from grader.similarity.classroom import Classroom
from grader.similarity.settings import Settings


@dataclass
class Pair:
    a: str
    b: str
    score: float
    flagged: bool
    parts: dict[str, float]
    behaviour: list[dict[str, Any]] = field(default_factory=list)
    numbers: list[dict[str, Any]] = field(default_factory=list)
    code: dict[str, Any] | None = None
    prose: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "score": round(self.score, 2),
                "flagged": self.flagged, "parts": {k: round(v, 2) for k, v in self.parts.items()},
                "behaviour": self.behaviour, "numbers": self.numbers, "code": self.code,
                "prose": self.prose}


@dataclass
class Result:
    pairs: list[Pair]
    clusters: list[dict[str, Any]]
    settings: Settings
    students: dict[str, str]
    """Key -> the file the student handed in."""
    source: str
    seconds: dict[str, float]
    notes: list[str]
    candidates: int
    baselines: dict[str, float] = field(default_factory=dict)
    """The class's code and text containment at `baseline_quantile`: what counts above."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "transformer-grader/similarity/1",
            "statement": STATEMENT, "source": self.source, "students": len(self.students),
            "candidates": self.candidates, "baselines": self.baselines,
            "seconds": self.seconds, "notes": self.notes,
            "settings": self.settings.model_dump(),
            "clusters": self.clusters, "pairs": [p.to_dict() for p in self.pairs]}


STATEMENT = ("Evidence for a person to weigh, never a verdict: a high score says two "
             "submissions share things that students working apart rarely share. Students "
             "may have worked together as allowed, shared a tutor or a public snippet; read "
             "the evidence and talk to them before concluding anything.")


def _clusters(pairs: list[Pair]) -> list[dict[str, Any]]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for p in pairs:
        if p.flagged:
            parent[find(p.a)] = find(p.b)
    groups: dict[str, set[str]] = defaultdict(set)
    for x in list(parent):
        groups[find(x)].add(x)
    out = []
    for members in groups.values():
        if len(members) >= 3:
            inside = [p for p in pairs if p.flagged and p.a in members and p.b in members]
            out.append({"members": sorted(members),
                        "pairs": [[p.a, p.b] for p in inside],
                        "score": round(max(p.score for p in inside), 2)})
    return sorted(out, key=lambda c: -c["score"])


def _quantile(values: list[float], q: float) -> float:
    """The q-quantile of `values` (0 for none), kept at most 0.9 so a class of copies
    cannot raise the bar past what a copy reaches."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return min(0.9, ordered[min(len(ordered) - 1, int(q * len(ordered)))])


def _excess(value: float, base: float) -> float:
    """How far above the class's usual similar pair, 0 to 1."""
    return max(0.0, value - base) / (1.0 - base)


def find_similar(classroom: Classroom, settings: Settings) -> Result:
    """Every pair worth a look, ranked, with its evidence; clusters of three or more."""
    clock: dict[str, float] = {}
    notes: list[str] = []
    start = time.perf_counter()
    code_index = code.build_index(classroom, settings)
    clock["code"] = time.perf_counter() - start
    t = time.perf_counter()
    beh_index = behaviour.build_index(classroom, settings)
    clock["behaviour"] = time.perf_counter() - t
    t = time.perf_counter()
    text_index = written.build_index(classroom, settings)
    clock["written"] = time.perf_counter() - t
    if not any(w.run_dir for w in classroom.works):
        notes.append("No stored runs were found: outputs on the hidden cases were not "
                     "compared (code and written answers only).")
    seeds = {w.record.run.seed for w in classroom.works if w.record is not None}
    if len(seeds) > 1:
        notes.append(f"The records come from {len(seeds)} different hidden-input seeds: "
                     "outputs are comparable only between students of one seed.")
    if len(classroom.works) < 20:
        notes.append(f"Only {len(classroom.works)} submissions: rarity means little in a class "
                     "this small (a share of two is not surprising), and code more than half "
                     "of them share is not subtracted as the course's own.")
    if classroom.starter.notebook is None:
        notes.append("The pack's template was not found: starter code is subtracted only "
                     "where more than half the class shares it.")
    t = time.perf_counter()
    n = len(classroom.works)
    common = max(settings.common_min, settings.common_share * n)
    beh_pairs = behaviour.candidate_pairs(beh_index, settings)
    candidates = (code.candidate_pairs(code_index) | beh_pairs
                  | written.candidate_pairs(text_index, common, settings.pair_share))

    def rarity(k: int) -> float:
        return behaviour.bits(k, n, settings) * settings.number_weight

    found = []
    for a, b in candidates:
        found.append((a, b, code.containment(code_index, a, b),
                      written.text_containment(text_index, a, b)))
    base_code = _quantile([f[2] for f in found if f[2]], settings.baseline_quantile)
    base_text = _quantile([f[3] for f in found if f[3]], settings.baseline_quantile)
    baselines = {"code": round(base_code, 4), "text": round(base_text, 4)}

    pairs = []
    for a, b, code_c, text_c in found:
        # only a pair sharing an uncommon fingerprint can score on behaviour
        beh = behaviour.compare(beh_index, a, b, settings) if (a, b) in beh_pairs else []
        nums = written.compare_numbers(text_index, a, b, rarity)
        parts = {
            "behaviour": sum(e["score"] for e in beh),
            "numbers": sum(x["bits"] for x in nums),
            "code": settings.code_weight * _excess(code_c, base_code),
            "text": settings.text_weight * _excess(text_c, base_text),
        }
        score = sum(parts.values())
        if score < settings.show_score:
            continue
        pairs.append(Pair(a, b, score, score >= settings.flag_score, parts, beh, nums))
    pairs.sort(key=lambda p: (-p.score, p.a, p.b))
    clock["pairs"] = time.perf_counter() - t
    kept = pairs[:settings.max_pairs]
    for p in kept:  # the side-by-side evidence, for the pairs listed only
        p.code = code.compare(code_index, p.a, p.b)
        p.prose = written.compare_prose(text_index, p.a, p.b)
    clock["total"] = time.perf_counter() - start
    return Result(kept, _clusters(pairs), settings, {w.key: w.name for w in classroom.works},
                  classroom.source, {k: round(v, 3) for k, v in clock.items()}, notes,
                  len(candidates), baselines)
