"""Per-seed figures read out of one sentence: each accuracy with its split, each step, each seed.

Why apart from the pairing: what a sentence says (this figure is a test accuracy, that
number is a step) and which seed it is said of are two questions, and mixing them is
how a reader takes the seed index for an accuracy. Here a sentence's figures get their
field ("validation accuracy is 0.853", "0.841 on the test set", "peaks at" alone naming
validation) and are cut into runs, one per set of (best validation, step, test);
`grader.checks.seedpairing` then says whose runs they are. Figures listed in the order
of a list of seeds ("... for seeds 1, 2 and 3, respectively") are read here too, since
the list names their seeds itself.
"""

from __future__ import annotations

import re

from grader.checks.seedwords import (
    AND_WORDS,
    CHAIN,
    KEYWORD,
    ORDINAL_SEED,
    ORDINALS,
    SEEDS_WORDS,
    STEP_AFTER,
    STEP_BEFORE,
    TEST,
    TRAIL,
    VAL,
    WEAK_VAL,
    cell_value,
    read_numbers,
)


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


LEGEND = re.compile(rf"\s*\(\s*(?:{VAL}|{TEST})(?:\s*(?:/|,|&|and)\s*(?:{VAL}|{TEST}))+"
                    r"\s*(?:acc\w*\.?\s*)?\)", re.IGNORECASE)
"""A legend in parentheses after figures joined by "/" ("0.851 / 0.840 (val / test)"):
it names each of them in order, not only the figure it follows."""
JOINED = re.compile(r"\s*(?:/|,|&|and)\s*", re.IGNORECASE)


def read_sentence(text: str) -> tuple[list[tuple[int, str | None, float]],
                                      list[tuple[int, int]], list[tuple[int, int]]]:
    """(accuracies as (offset, split or None when unnamed, value), steps as (offset, step),
    seeds as (offset, seed)) of one sentence."""
    numbers = read_numbers(text)
    accs: list[tuple[int, str | None, float]] = []
    mark = 0  # where the words naming the next figure start
    queue: list[str] = []
    for i, n in enumerate(numbers):
        if n.role != "acc":
            continue
        legend = LEGEND.match(text, n.end)
        if legend:
            splits = [str(m.lastgroup) for m in KEYWORD.finditer(legend.group())]
            group = numbers[i + 1 - len(splits):i + 1] if len(splits) <= i + 1 else []
            joined = (len(set(splits)) == len(splits) == len(group)
                      and all(x.role == "acc" for x in group)
                      and all(JOINED.fullmatch(text[a.end:b.start])
                              for a, b in zip(group, group[1:], strict=False)))
            if joined:  # each figure its split, in the legend's order
                names = dict(zip((x.start for x in group), splits, strict=True))
                accs = [(o, names.get(o, r), v) for o, r, v in accs]
            # otherwise the legend names no figure for certain: this one stays unnamed
            accs.append((n.start, splits[-1] if joined else None, round(n.value, 6)))
            mark, queue = legend.end(), []
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
    seeds += [(m.start(), ORDINALS[(m.group("before") or m.group("after")).lower()])
              for m in ORDINAL_SEED.finditer(text)]  # "the second seed"
    return accs, steps, sorted(seeds)


def counts_only(text: str) -> bool:
    """Whether the only figures of a sentence are numbers of steps ("… that 2000 steps on
    the small labelled set cannot learn", "which it cannot teach in 2000 steps"): no
    accuracy, no seed, no word of a best, a peak or a split. Such a number is how long
    training ran, not the step of a run's best; read with the seed an earlier sentence
    named ("… still rising at the end for seed 2."), it is a claim the logs contradict.
    A step named before its number ("at step 1400", "Step: 1400") is a position, and
    still read."""
    numbers = read_numbers(text)
    steps = [n for n in numbers if n.role == "step"]
    if not steps or any(n.role in ("acc", "seed", "seeds") for n in numbers):
        return False
    if KEYWORD.search(text) or WEAK_VAL.search(text) or ORDINAL_SEED.search(text):
        return False
    return all(STEP_AFTER.match(text[n.end:]) and not STEP_BEFORE.search(
        text[max(0, n.start - 40):n.start]) for n in steps)


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


_SEP = rf"\s*(?:,\s*(?:(?:and|{AND_WORDS})\s+)?|(?:and|{AND_WORDS})\s+|&\s*|/\s*)"
_RANGE = r"\d+\s*(?:[-–—]|to)\s*\d+"  # "seeds 1–3": the seeds between, in order
MAX_RANGE = 10
_ITEM = r"(?:\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|\.\d+)(?:\s*k\b)?(?:\s*%)?"
SEED_LIST = re.compile(rf"(?:(?<![a-z])seeds|{SEEDS_WORDS})[\s#:=]*(?P<list>\d+(?:{_SEP}\d+)+|{_RANGE})"
                       r"(?![\d.,]*\d)", re.IGNORECASE)
FIGURE_LIST = re.compile(rf"(?<![\w.,]){_ITEM}(?:{_SEP}{_ITEM})+(?!\w|\.\d)(?!,\d)", re.IGNORECASE)


def _listed_seeds(text: str) -> list[int]:
    """The seeds of a list ("1, 2 and 3") or a range ("1–3", "1 to 3"); a range runs up
    and is short, or it is no list of seeds ("seeds 3–1", "seeds 0-1000" are not)."""
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    if re.fullmatch(_RANGE, text, re.IGNORECASE):
        low, high = numbers
        return list(range(low, high + 1)) if low < high <= low + MAX_RANGE else []
    return numbers


def respectively(text: str) -> list[tuple[int, str, int, float | int]] | None:
    """Figures listed in the order of a list of seeds ("best validation accuracies of
    0.853, 0.851 and 0.861 for seeds 1, 2 and 3, reached at steps 1200, 1400 and 1600,
    with test accuracies 0.841, 0.840 and 0.850"; "seeds 1–3 reach …"), as (offset,
    field, seed, value); None when the text names no list or range of seeds. A list is read only when it has one figure per
    seed and its field is named (the step by "step(s)", an accuracy by its split, as in a
    sentence); others are left out."""
    seeds_at = SEED_LIST.search(text)
    if seeds_at is None:
        return None
    seeds = _listed_seeds(seeds_at.group("list"))
    if not seeds:
        return None
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
        values = [cell_value(item, key) for item in items]
        if any(v is None for v in values) or (key == "step" and any(
                "." in item and not item.lower().endswith("k") for item in items)):
            continue  # a step is a whole number ("1.2k" aside)
        out += [(m.start(), key, seed, v) for seed, v in zip(seeds, values, strict=True)
                if v is not None]
    return out


Figure = tuple[int, str | None, float | int]
"""(offset in the sentence, field or None for an accuracy whose split is not named, value)."""


def records(figures: list[Figure]) -> list[list[Figure]]:
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


def name_runs(runs: list[list[Figure]]) -> list[list[tuple[int, str, float | int]]]:
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
