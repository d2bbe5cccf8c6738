"""Which seed each run of figures in a sentence belongs to, and whether that is certain.

Why a module of its own: a wrong pairing tells an honest student that their figures
disagree with their logs, so the pairing says when it is sure. "For seed 2 it peaks at
0.851 ..." and "... peaks at 0.651 (step 2000, test 0.640) for seed 2" are both
certain (every seed on the same side of its figures); two seeds before one run, or
several runs and no seed, are not: the claim then keeps the seeds it may belong to and
why, and `grader.checks.logs` pairs it by the logs or hands it to a TA.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grader.checks.seedsentences import Figure


@dataclass
class Pairing:
    """Which seed each run of a sentence belongs to, and whether that is certain."""

    seeds: list[int | None]
    certain: bool
    why: str = ""


def pair(runs: list[list[Figure]], seeds: list[tuple[int, int]], carried: int | None,
         then: Sequence[int] = ()) -> Pairing:
    """Seeds to runs. A seed named inside a run's figures is that run's; the others stand
    between runs, and the pairing is certain when one reading places one seed with each
    run that lacks one: every seed before its figures ("for seed 2 it peaks at ...") or
    every seed after them ("peaks at 0.651 (step 2000, test 0.640) for seed 2"). No seed
    in the sentence: the seed carried from before, certain for a single run, unless the
    next sentence names a seed and no figure (`then`: "... (test 0.840). That was seed
    2."), which may be the one these figures are of (with no seed carried, such figures
    stay unread, as before: "... earlier (step 1200-1600). Seed 2 ..."). Anything else
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
    if not seeds and then and carried is not None:
        named = " and ".join(str(s) for s in dict.fromkeys(then))
        return Pairing([carried] * n, False,
                       f"the sentence names no seed, and the next one names seed {named} "
                       "with no figures of its own")
    if not seeds:
        return Pairing([carried] * n, n == 1 or carried is None,
                        "" if n == 1 else "the sentence gives figures of several runs and "
                        "names no seed")
    if any(len(found) > 1 for found in inside):
        return Pairing(guess, False, "the figures of one run name two seeds")
    lacking = [i for i in range(n) if not inside[i]]
    for shift in (0, 1):  # 0: each seed before its run; 1: each seed after it
        used = {i + shift for i in lacking}
        if all(len(gaps[g]) == 1 for g in used) and all(
                not gaps[g] or g in used or set(gaps[g]) <= _neighbours(inside, g)
                for g in range(n + 1)):
            return Pairing([next(iter(inside[i])) if inside[i] else gaps[i + shift][0]
                             for i in range(n)], True)
    named = [str(s) for s in dict.fromkeys(s for _, s in seeds)]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    runs_said = "one set of figures" if n == 1 else f"{n} sets of figures"
    return Pairing(guess, False, f"the sentence names seed{'s' if len(named) > 1 else ''} "
                    f"{listed} for {runs_said}; which seed each figure belongs to is "
                    "not certain")


def _neighbours(inside: list[set[int]], gap: int) -> set[int]:
    """The seeds named inside the runs on either side of a gap (a seed named again)."""
    out: set[int] = set()
    for i in (gap - 1, gap):
        if 0 <= i < len(inside):
            out |= inside[i]
    return out
