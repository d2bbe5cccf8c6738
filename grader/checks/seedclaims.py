"""Per-seed figures as students write them: (model, seed, best validation, step, test).

Why a reader of its own: lab B's T3/T4 ask, per seed and per model, for the best
validation accuracy, the step it was reached at and the test accuracy at that step.
Students write them as tables (one row per run, or one column per seed), as lists
("- seed 1: val 0.853 @ step 1,200, test 0.841") and as sentences ("for seed 2 the best
validation accuracy is 85.3% at step 1200, which gives 84.1% on the test set"). A reader
that takes the first number after "validation" takes the seed index for the accuracy,
and one that looks for a number after "test" misses a figure written before it. So each
number of a sentence gets a role first: the seed (after "seed"), the step (after "step"
or "iteration", or before "steps"), else an accuracy (a fraction or a percentage) whose
split is named just before it, since the previous accuracy ("validation accuracy is
0.853"), or just after it ("0.841 on the test set", "0.84 test accuracy"); "best" or
"peaks" alone names the validation figure. A number with no role is not read: a wrong
reading would tell an honest student that their figures disagree with their logs.

Tables are read by their headers: a row per run ("| Model | Seed | Best val acc | Step |
Test acc |", or the same written with spaces, as PDF text gives it), or a column per
seed ("| | Seed 1 | Seed 2 |" with a row per field).

The model is the family the sentence names first (a pack's `families` words; its
`fallback` words, e.g. "fine-tuned", unless in one phrase with another family's word:
"fine-tuned from scratch"), else the one named by the heading or label line above.
Sentences about averages are not per-seed claims. Every claim keeps the line its first
figure is on (1-based, counted from `first_line`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from grader.checks.patterns import MAX_LINE

VAL = r"val(?:id(?:ation)?)?|dev(?:elopment)?|eval(?:uation)?"
TEST = r"test(?:ing)?"
KEYWORD = re.compile(rf"(?<![a-z])(?:(?P<val>{VAL})|(?P<test>{TEST})|"
                     r"(?P<train>train(?:ing)?(?=[\s_-]*(?:acc|set|split|loss))))(?![a-z])",
                     re.IGNORECASE)
WEAK_VAL = re.compile(r"\b(?:best|peaks?|peaked|highest|max(?:imum)?)\b", re.IGNORECASE)
TRAIL = re.compile(rf"\s*\)?\s*(?:\(\s*)?(?:(?:on|in|for|at|of)\s+(?:the\s+)?)?"
                   rf"(?:held[- ]out\s+)?(?:(?P<val>{VAL})|(?P<test>{TEST}))(?![a-z])",
                   re.IGNORECASE)
CHAIN = re.compile(r"^\s*(?:acc\w*|set|split)?\s*(?:,|and|&|/|or)\s*(?:the\s+)?$", re.IGNORECASE)
SEED = re.compile(r"(?<![a-z])seed(?P<many>s)?[\s_#:=-]*(?:no\.?\s*|number\s*|of\s+)?"
                  r"(?P<n>\d+)(?![\d.]*\d)", re.IGNORECASE)
STEP_BEFORE = re.compile(r"(?<![a-z])(?:global[\s_]+)?(?:step|iteration|iter|update)s?"
                         r"[\s_#:=]*(?:no\.?\s*|number\s*)?$", re.IGNORECASE)
STEP_AFTER = re.compile(r"^\s*(?:training\s+)?(?:steps|iterations|iters|updates)\b",
                        re.IGNORECASE)
ORDINAL_STEP = re.compile(r"^\s*(?:training\s+)?(?:step|iteration|update)\b", re.IGNORECASE)
EPOCH = re.compile(r"(?<![a-z])epochs?[\s#:=]*$|^\s*epochs?\b", re.IGNORECASE)
NUM = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s*(k)(?![a-z]))?"
                 r"(\s*(?:%|percent\b|per\s+cent\b))?((?<=\d)(?:st|nd|rd|th)(?![a-z]))?"
                 r"(?![\w])(?!\.\d)", re.IGNORECASE)
AVERAGE = re.compile(r"\b(?:average|averaged|mean|median|std|standard deviation|"
                     r"across (?:all|the) (?:three |3 )?seeds|over (?:all|the) seeds)\b",
                     re.IGNORECASE)
SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z(*_])")
HEADING = re.compile(r"^\s*(?:#{1,6}\s+|\*\*[^*]+\*\*\s*:?\s*$|__[^_]+__\s*:?\s*$)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|\([a-z0-9]+\))\s+")
TABLE_RULE = re.compile(r":?-{2,}:?")
FIELDS = ("best_validation", "step", "test")
LABEL_CHARS = 60


@dataclass
class Claim:
    """What one run's figures are said to be; `line` is where the first figure is."""

    seed: int
    family: str | None
    line: int
    quote: str
    best_validation: float | None = None
    step: int | None = None
    test: float | None = None
    candidates: tuple[int, ...] = ()
    """Set when the pairing is not certain: the seeds the figures may belong to (`seed` is
    then only the likeliest); `why` says what made it uncertain."""
    why: str = ""

    def has(self) -> bool:
        return any(getattr(self, f) is not None for f in FIELDS)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "quote": self.quote, "seed": self.seed,
                               "family": self.family}
        out.update({f: getattr(self, f) for f in FIELDS if getattr(self, f) is not None})
        if self.candidates:
            out.update(certain=False, candidates=list(self.candidates), why=self.why)
        return out


BINDS = re.compile(r"^[\s,()-]*(?:(?:from|with|starting|on|a|an|the|randomly|random|"
                   r"initiali[sz]ed|weights|model|models|once|and|then|when|after|being|"
                   r"trained|also)[\s,()-]+)*$", re.IGNORECASE)
"""Words that may stand between "fine-tuned" and a family word of the same phrase
("fine-tuned from scratch", "the scratch model, once fine-tuned")."""


@dataclass
class Families:
    """Which model a text names: `words` per family; a `fallback` word ("fine-tuned",
    the pre-trained model in the labs) counts unless it is in one phrase with another
    family's word ("the model fine-tuned from scratch")."""

    words: dict[str, list[str]]
    fallback: dict[str, list[str]] = field(default_factory=dict)

    def mentions(self, text: str) -> list[tuple[int, str]]:
        """(offset, family) of each mention, in order; a word inside a longer word of
        another family ("pre-trained" in "not pre-trained") is that family's."""
        low = text.lower()
        spans = _spans(low, self.words)
        kept = [(s, e, n) for s, e, n in spans
                if not any(s2 <= s and e <= e2 and e2 - s2 > e - s and n2 != n
                           for s2, e2, n2 in spans)]
        for s, e, n in _spans(low, self.fallback):
            bound = any(n2 != n and (BINDS.match(low[e:s2]) if s2 >= e else
                                     BINDS.match(low[e2:s]) if e2 <= s else True)
                        for s2, e2, n2 in kept)
            if not bound:
                kept.append((s, e, n))
        return sorted((s, n) for s, _e, n in kept)

    def first(self, text: str) -> str | None:
        found = self.mentions(text)
        return found[0][1] if found else None


def _spans(low: str, words: dict[str, list[str]]) -> list[tuple[int, int, str]]:
    out = []
    for name, ws in words.items():
        for w in ws:
            for m in re.finditer(rf"(?<![a-z]){re.escape(w.lower())}", low):
                out.append((m.start(), m.end(), name))
    return out


@dataclass
class _Number:
    start: int
    end: int
    value: float
    role: str  # seed | seeds | step | epoch | acc | other


def _numbers(text: str) -> list[_Number]:
    """Every number of a sentence with its role; accuracies as fractions."""
    seeds = {m.start("n"): m for m in SEED.finditer(text)}
    out = []
    for m in NUM.finditer(text):
        whole, frac, kilo, pct = m.group(1), m.group(2), m.group(3), m.group(4)
        value = float(whole.replace(",", "") + (frac or ""))
        before = text[max(0, m.start() - 40):m.start()]
        after = text[m.end():m.end() + 30]
        if m.start() in seeds:
            role = "seeds" if seeds[m.start()].group("many") else "seed"
        elif (STEP_BEFORE.search(before) or STEP_AFTER.match(after)
              or (m.group(5) and ORDINAL_STEP.match(after))) and (kilo or not frac):
            role, value = "step", value * (1000 if kilo else 1)
        elif EPOCH.search(before) or EPOCH.match(after):
            role = "epoch"
        elif kilo:
            role = "other"
        elif pct:
            role, value = ("acc", value / 100) if value <= 100 else ("other", value)
        elif frac and value <= 1:
            role = "acc"
        elif frac and value <= 100:
            role, value = "acc", value / 100
        else:
            role = "other"
        out.append(_Number(m.start(), m.end(), value, role))
    return out


def _lead(context: str) -> list[str]:
    """The split(s) the words before a figure name: the last one, or a chain of them
    joined by "and" / "/" ("validation and test accuracy: 0.85, 0.84"); ["weak"] when
    only "best"/"peaks" does (validation, unless a split is named right after)."""
    keys = [(m.start(), m.end(), m.lastgroup) for m in KEYWORD.finditer(context)]
    if not keys:
        return ["weak"] if WEAK_VAL.search(context) else []
    chain = [keys[-1]]
    for k in reversed(keys[:-1]):
        if CHAIN.match(context[k[1]:chain[0][0]]) and k[2] != chain[0][2]:
            chain.insert(0, k)
        else:
            break
    return [str(k[2]) for k in chain]


def read_sentence(text: str) -> tuple[list[tuple[int, str | None, float]],
                                      list[tuple[int, int]], list[tuple[int, int]]]:
    """(accuracies as (offset, split or None when unnamed, value), steps as (offset, step),
    seeds as (offset, seed)) of one sentence."""
    numbers = _numbers(text)
    accs: list[tuple[int, str | None, float]] = []
    mark = 0  # where the words naming the next figure start
    queue: list[str] = []
    for i, n in enumerate(numbers):
        if n.role != "acc":
            continue
        lead = _lead(text[mark:n.start])
        nxt = next((x.start for x in numbers[i + 1:]), len(text))
        trail = TRAIL.match(text, n.end, nxt)
        role: str | None = None
        weak = lead == ["weak"]
        if lead and not weak:
            role, queue = lead[0], lead[1:]
            mark = n.end
        elif queue:
            role, queue = queue[0], queue[1:]
            mark = n.end
        elif trail:  # "peaks at 0.853 validation accuracy": the named split wins over "peaks"
            role = str(trail.lastgroup)
            mark = trail.end()
        else:
            role = "val" if weak else None
            mark = n.end
        if role != "train":
            accs.append((n.start, role, round(n.value, 6)))
    steps = [(n.start, int(n.value)) for n in numbers if n.role == "step"]
    seeds = [(n.start, int(n.value)) for n in numbers if n.role == "seed"]
    return accs, steps, seeds


def _name_unnamed(figures: list[tuple[int, str | None, float | int]]
                  ) -> list[tuple[int, str, float | int]]:
    """Figures of one run in one sentence with their field. An unnamed accuracy before a
    named test figure, where no validation figure is named, is the validation figure
    ("for seed 2 it is 86.1% at step 800, which gives 85.0% on the test set"); other
    unnamed ones are not read."""
    named = {key for _, key, _ in figures}
    out = []
    for i, (offset, key, value) in enumerate(figures):
        if key is None:
            later_test = any(k == "test" for _, k, _ in figures[i + 1:])
            if "best_validation" in named or not later_test:
                continue
            key = "best_validation"
            named.add(key)
        out.append((offset, key, value))
    return out


_SEP = r"\s*(?:,\s*(?:and\s+)?|and\s+|&\s*|/\s*)"
_ITEM = r"(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|\.\d+)(?:\s*k\b)?(?:\s*%)?"
SEED_LIST = re.compile(rf"(?<![a-z])seeds[\s#:=]*(?P<list>\d+(?:{_SEP}\d+)+)(?![\d.,]*\d)",
                       re.IGNORECASE)
FIGURE_LIST = re.compile(rf"(?<![\w.,]){_ITEM}(?:{_SEP}{_ITEM})+(?![\w.])(?!,\d)", re.IGNORECASE)


def respectively(text: str) -> list[tuple[int, str, int, float | int]] | None:
    """Figures listed in the order of a list of seeds ("best validation accuracies of
    0.853, 0.851 and 0.861 for seeds 1, 2 and 3, reached at steps 1200, 1400 and 1600,
    with test accuracies 0.841, 0.840 and 0.850"), as (offset, field, seed, value); None
    when the text names no list of seeds. A list is read only when it has one figure per
    seed and its field is named (the step by "step(s)", an accuracy by its split, as in a
    sentence); others are left out."""
    seeds_at = SEED_LIST.search(text)
    if seeds_at is None:
        return None
    seeds = [int(n) for n in re.findall(r"\d+", seeds_at.group("list"))]
    out: list[tuple[int, str, int, float | int]] = []
    mark = 0
    for m in FIGURE_LIST.finditer(text):
        if m.start() <= seeds_at.start("list") < m.end():
            continue
        items = re.findall(_ITEM, m.group(0), re.IGNORECASE)
        before, after = text[mark:m.start()], text[m.end():m.end() + 30]
        mark = m.end()
        if len(items) != len(seeds):
            continue
        if STEP_BEFORE.search(text[max(0, m.start() - 40):m.start()]) or STEP_AFTER.match(after):
            key = "step"
        else:
            lead = _lead(before)
            trail = TRAIL.match(text, m.end())
            split = lead[0] if lead and lead != ["weak"] else (
                str(trail.lastgroup) if trail else ("val" if lead == ["weak"] else None))
            key = {"val": "best_validation", "test": "test"}.get(str(split), "")
        if not key:
            continue
        values = [_cell_value(item, key) for item in items]
        if any(v is None for v in values) or (key == "step" and any(
                "." in item and not item.lower().endswith("k") for item in items)):
            continue  # a step is a whole number ("1.2k" aside)
        out += [(m.start(), key, seed, v) for seed, v in zip(seeds, values, strict=True)
                if v is not None]
    return out


Figure = tuple[int, str | None, float | int]
"""(offset in the sentence, field or None for an accuracy whose split is not named, value)."""


def _records(figures: list[Figure]) -> list[list[Figure]]:
    """The figures of one sentence cut into runs: a run holds at most one step and two
    accuracies, each field once, so a field met again starts the next run ("0.853 at step
    1200 (test 0.841) with seed 1, 0.851 at step 1400 (test 0.840) with seed 2")."""
    out: list[list[Figure]] = []
    for figure in figures:
        run = out[-1] if out else None
        keys = [k for _, k, _ in run] if run else []
        accs = [k for k in keys if k != "step"]
        key = figure[1]
        full = run is None or (key is not None and key in keys) or (
            key != "step" and (len(accs) >= 2 or (key is None and "best_validation" in keys
                                                  and "test" in keys)))
        if full:
            out.append([figure])
        else:
            run.append(figure)  # type: ignore[union-attr]
    return out


def _name_runs(runs: list[list[Figure]]) -> list[list[tuple[int, str, float | int]]]:
    """Each run's figures with their field: `_name_unnamed`, and a run whose accuracies are
    all unnamed takes the order of the last run before it that named as many ("seed 1 gives
    0.853 validation and 0.841 test; seed 2 gives 0.851 and 0.840")."""
    out = []
    pattern: list[str] = []
    for run in runs:
        accs = [k for _, k, _ in run if k != "step"]
        if accs and all(k is None for k in accs) and len(pattern) == len(accs):
            names = iter(pattern)
            run = [(o, k if k == "step" else next(names), v) for o, k, v in run]
        elif accs and all(k is not None for k in accs):
            pattern = [str(k) for k in accs]
        out.append(_name_unnamed(run))
    return out


@dataclass
class _Pairing:
    """Which seed each run of a sentence belongs to, and whether that is certain."""

    seeds: list[int | None]
    certain: bool
    why: str = ""


def _pair(runs: list[list[Figure]], seeds: list[tuple[int, int]], carried: int | None
          ) -> _Pairing:
    """Seeds to runs. A seed named inside a run's figures is that run's; the others stand
    between runs, and the pairing is certain when one reading places one seed with each
    run that lacks one: every seed before its figures ("for seed 2 it peaks at ...") or
    every seed after them ("peaks at 0.651 (step 2000, test 0.640) for seed 2"). No seed
    in the sentence: the seed carried from before, certain for a single run. Anything else
    (two seeds before one run, seeds listed together, runs without seeds) is not certain:
    the likeliest seed is kept (named last before the figure, else the first after it)."""
    n = len(runs)
    spans = [(run[0][0], run[-1][0]) for run in runs]
    inside: list[set[int]] = [set() for _ in runs]
    gaps: list[list[int]] = [[] for _ in range(n + 1)]
    for offset, seed in seeds:
        at = next((i for i, (a, b) in enumerate(spans) if a < offset < b), None)
        if at is not None:
            inside[at].add(seed)
        else:
            gaps[sum(1 for _, b in spans if b < offset)].append(seed)
    guess = []
    for a, _ in spans:
        before = [s for o, s in seeds if o < a]
        guess.append(before[-1] if before else (seeds[0][1] if seeds else carried))
    if not seeds:
        return _Pairing([carried] * n, n == 1 or carried is None,
                        "" if n == 1 else "the sentence gives figures of several runs and "
                        "names no seed")
    if any(len(found) > 1 for found in inside):
        return _Pairing(guess, False, "the figures of one run name two seeds")
    lacking = [i for i in range(n) if not inside[i]]
    for shift in (0, 1):  # 0: each seed before its run; 1: each seed after it
        used = {i + shift for i in lacking}
        if all(len(gaps[g]) == 1 for g in used) and all(
                not gaps[g] or g in used or set(gaps[g]) <= _neighbours(inside, g)
                for g in range(n + 1)):
            return _Pairing([next(iter(inside[i])) if inside[i] else gaps[i + shift][0]
                             for i in range(n)], True)
    named = [str(s) for s in dict.fromkeys(s for _, s in seeds)]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    runs_said = "one set of figures" if n == 1 else f"{n} sets of figures"
    return _Pairing(guess, False, f"the sentence names seed{'s' if len(named) > 1 else ''} "
                    f"{listed} for {runs_said}; which seed each figure belongs to is "
                    "not certain")


def _neighbours(inside: list[set[int]], gap: int) -> set[int]:
    """The seeds named inside the runs on either side of a gap (a seed named again)."""
    out: set[int] = set()
    for i in (gap - 1, gap):
        if 0 <= i < len(inside):
            out |= inside[i]
    return out


@dataclass
class _Unit:
    """A paragraph or list item joined into one string, with the line of each offset."""

    text: str
    starts: list[tuple[int, int]]  # (offset, line number)

    def line_at(self, offset: int) -> int:
        line = self.starts[0][1]
        for start, number in self.starts:
            if start > offset:
                break
            line = number
        return line


class _Reader:
    def __init__(self, families: Families) -> None:
        self.families = families
        self.claims: list[Claim] = []
        self.family: str | None = None  # from the heading or label above
        self.label_seed: int | None = None
        self.label_body: str | None = None  # "list" or "prose": what follows the label

    def add(self, seed: int | None, family: str | None, line: int, quote: str,
            key: str, value: float | int, open_claims: dict[Any, Claim]) -> Claim | None:
        if seed is None:
            return None
        claim = open_claims.get((family, seed))
        if claim is None or getattr(claim, key) not in (None, value):
            claim = Claim(seed, family, line, " ".join(quote.split())[:200])
            open_claims[(family, seed)] = claim
            self.claims.append(claim)
        if getattr(claim, key) is None:
            setattr(claim, key, value)
        return claim

    # -- prose ---------------------------------------------------------------------------

    def unit(self, unit: _Unit, open_claims: dict[Any, Claim]) -> bool:
        """Read one paragraph; True when it held a figure."""
        seed: int | None = self.label_seed
        family_here: str | None = None
        found = False
        for sentence, offset in _sentences(unit.text):
            if AVERAGE.search(sentence):
                continue
            for segment, seg_offset, family in self._segments(sentence):
                family_here = family or family_here
                fam = family_here or self.family
                listed = respectively(segment)
                if listed:  # "0.853, 0.851 and 0.861 for seeds 1, 2 and 3"
                    for o, key, run_seed, value in listed:
                        found = True
                        self.add(run_seed, fam, unit.line_at(offset + seg_offset + o),
                                 sentence, key, value, open_claims)
                    continue
                accs, steps, seeds = read_sentence(segment)
                figures: list[Figure] = sorted(
                    [(o, {"val": "best_validation", "test": "test"}.get(str(r)), v)
                     for o, r, v in accs] + [(o, "step", st) for o, st in steps],
                    key=lambda f: f[0])
                runs = _records(figures)
                pairing = _pair(runs, seeds, seed)
                candidates = tuple(dict.fromkeys(
                    [n for _, n in seeds] + ([seed] if seed is not None else [])))
                for run_seed, named in zip(pairing.seeds, _name_runs(runs), strict=True):
                    # an uncertain run is a claim of its own, never merged with another
                    target = open_claims if pairing.certain else {}
                    for o, key, value in named:
                        found = True
                        here = offset + seg_offset + o
                        claim = self.add(run_seed, fam, unit.line_at(here), sentence, key,
                                         value, target)
                        if claim is not None and not pairing.certain:
                            claim.candidates, claim.why = candidates, pairing.why
                if seeds:
                    seed = seeds[-1][1]
        return found

    def _segments(self, sentence: str) -> list[tuple[str, int, str | None]]:
        """The sentence cut where it turns to another model ("…, while the model trained
        from scratch peaks at 0.64…"), each piece with the family it names."""
        mentions = self.families.mentions(sentence)
        cuts: list[tuple[int, str]] = []
        for pos, name in mentions:
            if not cuts or cuts[-1][1] != name:
                cuts.append((pos, name))
        if len(cuts) < 2:
            return [(sentence, 0, cuts[0][1] if cuts else None)]
        pieces = [(sentence[:cuts[1][0]], 0, cuts[0][1])]
        for i in range(1, len(cuts)):
            end = cuts[i + 1][0] if i + 1 < len(cuts) else len(sentence)
            pieces.append((sentence[cuts[i][0]:end], cuts[i][0], cuts[i][1]))
        return pieces

    # -- tables --------------------------------------------------------------------------

    def table(self, rows: list[tuple[int, list[str]]]) -> None:
        rows = [(n, cells) for n, cells in rows
                if not all(TABLE_RULE.fullmatch(c) for c in cells if c)]
        if len(rows) < 2:
            return
        (_, header), body = rows[0], rows[1:]
        first = len(self.claims)
        header = [c.strip("*_ ").lower() for c in header]
        if header and _seed_cell(header[0]) is not None and 2 * sum(
                len(cells) == len(header) + 1 for _, cells in body) > len(body):
            # the empty top-left cell was lost (a PDF's table text): the header's first
            # cell is a seed, so it heads the first column of figures, not the labels
            header = ["", *header]
        seeds = [_seed_cell(c) for c in header[1:]]
        if _column_role(header[0]) == "seed" and len(header) > 2 and all(
                c.isdigit() for c in header[1:]):
            seeds = [int(c) for c in header[1:]]  # "| Seed | 1 | 2 | 3 |"
        if sum(s is not None for s in seeds) >= 2:  # one column per seed
            named = tuple(s for s in seeds if s is not None)
            for number, cells in body:
                label = cells[0] if cells else ""
                key = _column_role(label)
                fam = self.families.first(label) or self.family
                for seed, cell in zip(seeds, cells[1:], strict=False):
                    value = _cell_value(cell, key) if key in FIELDS else None
                    if seed is not None and value is not None:
                        claim = self.add(seed, fam, number, " | ".join(cells), key, value, {})
                        if claim is not None and len(cells) != len(header):
                            claim.candidates = named
                            claim.why = (f"the row has {len(cells)} cells and the header "
                                         f"{len(header)}, so which seed's column each "
                                         "figure is in is not certain")
            self._merge_columns(first)
            return
        roles = [_column_role(h) for h in header]
        column_family = [self.families.first(h) for h in header]
        for number, cells in body:
            text = " ".join(c for c, r in zip(cells, roles, strict=False) if r in (None, "model"))
            row_family = self.families.first(text) or self.family
            seed = next((_seed_cell(c, bare=True) for c, r in zip(cells, roles, strict=False)
                         if r == "seed"), None)
            if seed is None:
                seed = next((s for c in cells if (s := _seed_cell(c)) is not None), None)
            open_claims: dict[Any, Claim] = {}
            for cell, role, fam in zip(cells, roles, column_family, strict=False):
                if role in FIELDS:
                    value = _cell_value(cell, role)
                    if value is not None:
                        self.add(seed, fam or row_family, number, "| " + " | ".join(cells)
                                 + " |", role, value, open_claims)

    def plain_row(self, number: int, line: str, fields: list[str]) -> bool:
        """One row of a table written with spaces: its numbers, in the header's order."""
        cells = CELL.findall(line)
        if len(cells) != len(fields):
            return False
        row = dict(zip(fields, cells, strict=True))
        seed = _seed_cell(row.pop("seed"), bare=True)
        family = self.families.first(line) or self.family
        open_claims: dict[Any, Claim] = {}
        for key, cell in row.items():
            value = _cell_value(cell, key)
            if value is not None:
                self.add(seed, family, number, line, key, value, open_claims)
        return seed is not None

    def _merge_columns(self, first: int) -> None:
        """A column-per-seed table gives one claim per (row, seed): join them per run."""
        merged: dict[Any, Claim] = {}
        out = self.claims[:first]
        for claim in self.claims[first:]:
            run = (claim.family, claim.seed, bool(claim.candidates))
            have = merged.get(run)
            if have is None or any(getattr(have, f) is not None and getattr(claim, f)
                                   is not None for f in FIELDS):
                merged[run] = claim
                out.append(claim)
                continue
            for f in FIELDS:
                if getattr(claim, f) is not None:
                    setattr(have, f, getattr(claim, f))
        self.claims[:] = out


FIELD_WORDS = re.compile(rf"(?<![a-z])(?:(?P<seed>seed)|(?P<step>step|iter\w*)|"
                         rf"(?P<best_validation>{VAL})|(?P<test>{TEST}))(?![a-z])", re.IGNORECASE)
CELL = re.compile(r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?%?|\.\d+%?")


def _plain_header(line: str) -> list[str] | None:
    """The fields, in order, of a table written with spaces ("Model Seed Best val. acc.
    Step Test acc.", as PDF text and plain-text reports give it), or None."""
    if any(ch.isdigit() for ch in line) or "|" in line:
        return None
    fields: list[str] = []
    for m in FIELD_WORDS.finditer(line):
        name = str(m.lastgroup)
        if name not in fields:
            fields.append(name)
    return fields if "seed" in fields and len(fields) >= 3 else None


def _column_role(header: str) -> str | None:
    """What a table column holds, by the first word of its header that names a field
    ("Test acc at best val step" holds test accuracies)."""
    low = header.lower()
    words = [(m.start(), {"val": "best_validation", "test": "test"}.get(str(m.lastgroup)))
             for m in KEYWORD.finditer(low) if m.lastgroup != "train"]
    for word, role in (("seed", "seed"), ("step", "step"), ("iter", "step"),
                       ("model", "model"), ("init", "model"), ("run", "model")):
        pos = low.find(word)
        if pos >= 0:
            words.append((pos, role))
    words.sort(key=lambda w: w[0])
    return words[0][1] if words else None


def _seed_cell(cell: str, bare: bool = False) -> int | None:
    cell = cell.strip("*_ ")
    m = SEED.search(cell)
    if m:
        return int(m.group("n"))
    return int(cell) if bare and cell.isdigit() else None


def _cell_value(cell: str, role: str) -> float | int | None:
    cell = cell.strip("*_ ")
    if role == "step":
        m = re.fullmatch(r"(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(k)?", cell, re.IGNORECASE)
        if not m:
            return None
        return int(float(m.group(1).replace(",", "") + (m.group(2) or ""))
                   * (1000 if m.group(3) else 1))
    m = re.fullmatch(r"(\d+(?:\.\d+)?|\.\d+)\s*(%)?", cell)
    if not m:
        return None
    value = float(m.group(1))
    if m.group(2) or value > 1:
        value /= 100
    return round(value, 6) if 0 <= value <= 1 else None


def _sentences(text: str) -> list[tuple[str, int]]:
    out, start = [], 0
    for m in SENTENCE.finditer(text):
        out.append((text[start:m.start()], start))
        start = m.end()
    out.append((text[start:], start))
    return out


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _is_label(line: str) -> bool:
    """A heading, or a short line naming what follows ("Pre-trained model:", "Seed 1")."""
    if HEADING.match(line):
        return True
    stripped = LIST_ITEM.sub("", line).strip()
    return (len(stripped) <= LABEL_CHARS and not any(
        n.role in ("acc", "step") for n in _numbers(stripped))
        and (stripped.endswith(":") or bool(re.fullmatch(r"[*_]*seed\s*\d+[*_:.]*", stripped,
                                                          re.IGNORECASE))))


CAPTION = re.compile(r"^\s*[*_]*(?:table|tab\.)\s*\d+[*_]*\s*[:.—–-]", re.IGNORECASE)


def _caption(lines: list[str], at: int, step: int) -> str | None:
    """The caption ("Table 1: pre-trained model") on the nearest non-blank line before
    (`step` -1) or after (+1) a table's line `at`, or None: it names the table's model."""
    i = at + step
    while 0 <= i < len(lines) and not lines[i].strip():
        i += step
    if 0 <= i < len(lines) and CAPTION.match(lines[i]):
        return lines[i]
    return None


def parse_claims(text: str, families: Families | dict[str, list[str]],
                 first_line: int = 1) -> list[dict[str, Any]]:
    """Every per-seed claim of `text` (tables, lists, sentences), as dicts with `line`
    counted from `first_line` (the text's first line in the report as handed in)."""
    fams = families if isinstance(families, Families) else Families(families)
    reader = _Reader(fams)
    raw = [line[:MAX_LINE] for line in text.splitlines()]
    i = 0
    open_claims: dict[Any, Claim] = {}
    unit_lines: list[tuple[int, str]] = []

    def flush() -> None:
        nonlocal unit_lines
        if not unit_lines:
            return
        starts, parts, at = [], [], 0
        for number, part in unit_lines:
            starts.append((at, number))
            parts.append(part.strip())
            at += len(part.strip()) + 1
        # a label's body is a list or a paragraph: prose after its list, or a paragraph
        # without figures, is no longer about the label's seed
        body = "list" if LIST_ITEM.match(unit_lines[0][1]) else "prose"
        if reader.label_body not in (None, body):
            reader.label_seed = None
        reader.label_body = reader.label_body or body
        held = reader.unit(_Unit(" ".join(parts), starts), open_claims)
        if not held and body == "prose":
            reader.label_seed = None
        unit_lines = []

    while i < len(raw):
        line, number = raw[i], first_line + i
        if line.strip().startswith("|"):
            flush()
            block = []
            start = i
            while i < len(raw) and raw[i].strip().startswith("|"):
                block.append((first_line + i, _cells(raw[i])))
                i += 1
            above = reader.family
            caption = _caption(raw, start, -1) or _caption(raw, i - 1, 1)
            reader.family = (fams.first(caption) if caption else None) or above
            reader.table(block)
            reader.family = above
            continue
        fields = _plain_header(line)
        if fields and i + 1 < len(raw) and reader.plain_row(number + 1, raw[i + 1], fields):
            flush()
            i += 2
            while i < len(raw) and raw[i].strip() and reader.plain_row(first_line + i, raw[i],
                                                                        fields):
                i += 1
            continue
        i += 1
        if not line.strip():
            flush()
            continue
        if _is_label(line):
            flush()
            open_claims = {}
            label = LIST_ITEM.sub("", re.sub(r"^\s*#+\s*", "", line))
            heading = re.match(r"\s*#", line) is not None
            reader.family = fams.first(label) or (None if heading else reader.family)
            reader.label_body = None
            seed = SEED.search(label)
            reader.label_seed = int(seed.group("n")) if seed else None
            continue
        if LIST_ITEM.match(line):
            flush()
        unit_lines.append((number, line))
    flush()
    return [c.to_dict() for c in reader.claims if c.has()]
