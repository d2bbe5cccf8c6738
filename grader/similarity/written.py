"""Written answers: shared unusual wrong numbers, and shared phrasing in free text.

Why wrong numbers: a right answer is what everyone should write; two students who
both write 51.54 GB where the key is 25.77 GB (fp32 bytes for fp16), or the same
arithmetic slip, share something the question did not give them. The grader's
`answer` checks already read each number and judged it (verdict, convention, slips:
the record's evidence), so a number's fingerprint is what the student wrote,
normalised (spaces, thousands separators, case), with the convention and slips the
checker found. Without records (notebooks alone) a line is wrong when its numbers are
none of the solution's for that question.

Why shingles without the question's words: every answer to "decoder-only versus
encoder-only" says decoder, encoder and only. The words of the question (its title
and the template's cell) and common function words are removed first; what is left
is cut into shingles of `shingle` consecutive words, weighted by rarity in the class
as code fingerprints are, so a stock phrase half the class uses weighs little.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from nbformat import NotebookNode

from grader.similarity.classroom import Classroom, Work
from grader.similarity.settings import Settings

_STOP_TEXT = (
    "a an the and or but if then so of to in on at by for with from as is are was were be "
    "been being it its this that these those there here we you they he she i me my our your "
    "their can could would should will may might must do does did not no than too very also "
    "just which who whom what when where why how all any each both more most other some such "
    "only own same into over under again further once about between through during before "
    "after above below up down out off s t")
STOPWORDS = frozenset(_STOP_TEXT.split())
_WORD = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*")
_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _number_key(text: str) -> str:
    """What a student wrote, normalised: case, spaces, thousands separators."""
    return re.sub(r"(?<=\d),(?=\d{3})", "", re.sub(r"\s+", " ", text.strip().lower()))


def _numbers(text: str) -> list[tuple[float, str]]:
    """(value, the word right after it: its unit, or '') for each number of the text."""
    found = []
    for m in _NUMBER.finditer(text):
        try:
            value = float(m.group().replace(",", ""))
        except ValueError:
            continue
        unit = re.match(r"\s*([A-Za-z%]+)", text[m.end():])
        found.append((value, unit.group(1).lower() if unit else ""))
    return found


def _same(mine: tuple[float, str], right: tuple[float, str]) -> bool:
    """The solution's number, to its rounding, in the same unit when both name one."""
    return math.isclose(mine[0], right[0], rel_tol=5e-3) and (
        not mine[1] or not right[1] or mine[1] == right[1])


@dataclass
class Number:
    question: str
    slot: str
    """Which answer of the question (a check's index, or the answer line)."""
    shown: str
    key: str
    verdict: str


@dataclass
class Prose:
    question: str
    text: str
    shingles: dict[int, list[int]] = field(default_factory=dict)
    """Shingle hash -> indices of the sentences it occurs in."""
    sentences: list[str] = field(default_factory=list)


def _tagged(nb: NotebookNode | None) -> dict[str, str]:
    """Markdown cells by their first tag."""
    if nb is None:
        return {}
    cells: dict[str, str] = {}
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if cell.cell_type == "markdown" and tags:
            cells[tags[0]] = cell.source
    return cells


def _own_lines(text: str, template: str) -> list[str]:
    """The lines a student wrote: the template's lines (and their unfilled labels) gone."""
    given = {ln.strip() for ln in template.splitlines() if ln.strip()}
    own = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s in given:
            continue
        for g in given:  # a filled-in label, "Answer: 25.77 GB" of "Answer:"
            if g.endswith(":") and s.startswith(g):
                s = s[len(g):].strip()
                break
        if s:
            own.append(s)
    return own


def numbers_of(work: Work, classroom: Classroom) -> list[Number]:
    """The student's numeric answers with verdicts: from the evidence of the record's
    checks of written answers (`Kind.evidence_of` "answers"),
    else from the notebook's tagged cells against the solution's."""
    from grader.checks.registry import with_evidence

    found: list[Number] = []
    answering = with_evidence("answers")
    if work.record is not None:
        for q in work.record.questions:
            for i, check in enumerate(q.checks):
                ev = check.evidence
                if check.kind not in answering or not isinstance(ev, dict) \
                        or not ev.get("answer"):
                    continue
                extra = [str(ev.get("convention") or "")] + sorted(
                    str(s.get("kind", s) if isinstance(s, dict) else s)
                    for s in ev.get("slips") or [])
                key = _number_key(str(ev["answer"])) + "|" + "|".join(extra)
                found.append(Number(q.id, str(i), str(ev["answer"]), key,
                                    str(ev.get("verdict") or check.status)))
        if found:
            return found
    template = _tagged(classroom.starter.notebook)
    solution = _tagged(classroom.starter.solution)
    for tag, text in _tagged(work.notebook).items():
        if tag not in template:
            continue
        right = _numbers("\n".join(_own_lines(solution.get(tag, ""), template[tag])))
        for i, line in enumerate(_own_lines(text, template[tag])):
            mine = _numbers(line)
            if not mine or len(_words(line)) > 12:
                continue  # prose, not an answer line
            wrong = not all(any(_same(v, r) for r in right) for v in mine)
            found.append(Number(tag, f"line {i + 1}", line, _number_key(line),
                                "wrong" if wrong else "correct"))
    return found


def _hash(words: list[str]) -> int:
    return int.from_bytes(hashlib.blake2b(" ".join(words).encode(), digest_size=8).digest(),
                          "big")


def prose_of(work: Work, classroom: Classroom, settings: Settings) -> list[Prose]:
    """Free-text answers by question: the tagged markdown cells (what the student wrote
    beyond the template), or the report section a manual check quoted."""
    template = _tagged(classroom.starter.notebook)
    texts: dict[str, str] = {}
    for tag, text in _tagged(work.notebook).items():
        if tag in template:
            texts[tag] = "\n".join(_own_lines(text, template[tag]))
    if work.record is not None:
        for q in work.record.questions:
            for check in q.checks:
                ev = check.evidence
                if isinstance(ev, dict) and ev.get("answer_text") and not texts.get(q.id):
                    texts[q.id] = str(ev["answer_text"])
    found = []
    for qid, text in texts.items():
        given = set(_words(classroom.starter.titles.get(qid, "") + " " + template.get(qid, "")))
        sentences = [s.strip() for s in _SENTENCE.split(text) if s.strip()]
        prose = Prose(qid, text, sentences=sentences)
        kept = 0
        for index, sentence in enumerate(sentences):
            words = [w for w in _words(sentence) if w not in STOPWORDS and w not in given
                     and not _NUMBER.fullmatch(w)]
            kept += len(words)
            for i in range(len(words) - settings.shingle + 1):
                prose.shingles.setdefault(_hash(words[i:i + settings.shingle]), []).append(index)
        if kept >= settings.text_min_words:
            found.append(prose)
    return found


@dataclass
class WrittenIndex:
    n: int
    numbers: dict[str, list[Number]]
    number_holders: dict[tuple[str, str, str], list[str]]
    prose: dict[str, dict[str, Prose]]
    weight: dict[tuple[str, int], float]
    totals: dict[tuple[str, str], float]


def build_index(classroom: Classroom, settings: Settings) -> WrittenIndex:
    n = len(classroom.works)
    numbers = {w.key: numbers_of(w, classroom) for w in classroom.works}
    holders: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for key, items in numbers.items():
        for item in items:
            if item.verdict != "correct":
                holders[(item.question, item.slot, item.key)].append(key)
    prose = {w.key: {p.question: p for p in prose_of(w, classroom, settings)}
             for w in classroom.works}
    df: dict[tuple[str, int], int] = defaultdict(int)
    for answers in prose.values():
        for qid, p in answers.items():
            for h in p.shingles:
                df[(qid, h)] += 1
    common = max(2.0, settings.code_common_share * n)
    weight = {k: math.log2(1 + n / d) for k, d in df.items() if d <= common}
    totals = {(key, qid): sum(weight.get((qid, h), 0.0) for h in p.shingles)
              for key, answers in prose.items() for qid, p in answers.items()}
    return WrittenIndex(n, numbers, dict(holders), prose, weight, totals)


def candidate_pairs(index: WrittenIndex, common: float, pair_share: float
                    ) -> set[tuple[str, str]]:
    """Pairs sharing a wrong number held by few, or a rare shingle."""
    pairs: set[tuple[str, str]] = set()
    for keys in index.number_holders.values():
        if 2 <= len(keys) <= common:
            pairs.update(_pairs(keys))
    posting: dict[tuple[str, int], list[str]] = defaultdict(list)
    for key, answers in index.prose.items():
        for qid, p in answers.items():
            for h in p.shingles:
                if (qid, h) in index.weight:
                    posting[(qid, h)].append(key)
    cap = max(10, pair_share * index.n)
    for keys in posting.values():
        if 2 <= len(keys) <= cap:
            pairs.update(_pairs(keys))
    return pairs


def _pairs(keys: list[str]) -> set[tuple[str, str]]:
    ordered = sorted(set(keys))
    return {(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1:]}


def compare_numbers(index: WrittenIndex, a: str, b: str, rarity: Any) -> list[dict[str, Any]]:
    """Wrong numbers both wrote, each with how many students wrote it and its bits."""
    mine = {(x.question, x.slot, x.key): x for x in index.numbers.get(a, [])
            if x.verdict != "correct"}
    shared = []
    for y in index.numbers.get(b, []):
        slot = (y.question, y.slot, y.key)
        if y.verdict != "correct" and slot in mine:
            holders = len(index.number_holders[slot])
            if rarity(holders) > 0:  # a common wrong number says nothing
                shared.append({"question": y.question, "a": mine[slot].shown, "b": y.shown,
                               "verdict": y.verdict, "holders": holders,
                               "bits": rarity(holders)})
    return shared


def text_containment(index: WrittenIndex, a: str, b: str) -> float:
    """Mean over the questions both answered in words of the rarity-weighted containment."""
    pa, pb = index.prose.get(a, {}), index.prose.get(b, {})
    both = pa.keys() & pb.keys()
    total = 0.0
    for qid in both:
        shared = sum(index.weight.get((qid, h), 0.0)
                     for h in pa[qid].shingles.keys() & pb[qid].shingles.keys())
        smaller = min(index.totals[(a, qid)], index.totals[(b, qid)])
        total += min(1.0, shared / smaller) if smaller > 0 else 0.0
    return total / len(both) if both else 0.0


def compare_prose(index: WrittenIndex, a: str, b: str) -> list[dict[str, Any]]:
    """Per question both answered in words: weighted containment and the sentences that
    share rare shingles."""
    out = []
    pa, pb = index.prose.get(a, {}), index.prose.get(b, {})
    for qid in sorted(pa.keys() & pb.keys()):
        x, y = pa[qid], pb[qid]
        shared = [h for h in x.shingles.keys() & y.shingles.keys() if (qid, h) in index.weight]
        if not shared:
            continue
        smaller = min(index.totals[(a, qid)], index.totals[(b, qid)])
        if smaller <= 0:
            continue
        containment = min(1.0, sum(index.weight[(qid, h)] for h in shared) / smaller)
        sa = sorted({i for h in shared for i in x.shingles[h]})
        sb = sorted({i for h in shared for i in y.shingles[h]})
        out.append({"question": qid, "containment": round(containment, 4),
                    "a": [x.sentences[i] for i in sa], "b": [y.sentences[i] for i in sb],
                    "a_text": x.text, "b_text": y.text})
    return out
