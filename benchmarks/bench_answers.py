"""Check 10,000 answers (a realistic mix of forms) and print the time and answers per second.

Run: .venv/bin/python benchmarks/bench_answers.py [N]

The mix is drawn with a fixed seed from what students write for STAT8021 A3 Q3:
plain and grouped integers, decimals with scale words, memory sizes in GB/GiB/bytes,
percentages, LaTeX and plain formulas (some in the question's symbols), near-misses
that hit an Alternative or a unit convention, and unreadable text. Parsing is not
cached, so every answer is read from scratch. Target: under 10 s on 2 cores.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sympy import Rational, log  # noqa: E402

from calculators.answers import Alternative, Tolerance, check_answer  # noqa: E402
from tests.calculators.answers.q3 import FFN, HEADS, LORA, RANK, S_MAX, Count, H, L, Memory  # noqa: E402
from tests.calculators.answers.q3 import P_MAT as P  # noqa: E402

R = Rational
SYMBOLS = {"H": H, "L": L, "r": RANK}

QUESTIONS = {
    "a_p": (P, {}, ["p = 0.75", "0.75", "0.7500", "≈ 0.75", "75 %", "0.7497", "0.2", "e^3/(e^0.5+e^0.1+e^3+e^0.2+e)"]),
    "a_ce": (
        -log(P),
        {"alternatives": [Alternative("log10", -log(P, 10), R(1, 2), "Your loss, {got}, uses log10.")]},
        ["-\\ln 0.75", "0.288", "0.2877", "0.125", "\\ln(1/0.75)", "-log(0.75)", "1.39"],
    ),
    "c": (
        Memory(HEADS * S_MAX**2 * 2, "GB"),
        {"alternatives": [Alternative("per_head", Memory(S_MAX**2 * 2), R(1, 4), "One head: {got}.")]},
        [
            "25.77 GB", "≈ 25.77 GB", "24 GiB", "25,769,803,776 bytes", "24 GB", "25.8 GB",
            "$25.77\\text{ GB}$", "0.54 GB", "536,870,912 bytes", "25.77", "1.5 GB", "25.77 Gb",
            "2.577 \\times 10^{10} bytes", "25,769.8 GB",
        ],
    ),
    "d": (
        Count(FFN),
        {
            "alternatives": [
                Alternative("no_biases", Count(L * 8 * H * H), R(3, 4), "No biases: {got}."),
                Alternative("one_layer", Count(8 * H * H + 5 * H), R(1, 4), "One layer: {got}."),
            ],
            "symbols": SYMBOLS,
        },
        [
            "14.5 billion", "14,496,989,184", "1.45e10", "1.45 x 10^10", "14.5B", "≈14.5 billion parameters",
            "48*(8*H**2 + 5*H)", "$L(8H^2 + 5H)$", "14,495,514,624", "302,020,608", "14.5 million",
            "14 496 989 184", "14.4 billion",
        ],
    ),
    "e1": (
        Count(LORA),
        {"symbols": SYMBOLS},
        ["9,437,184", "9.44 million", "9.4M", "48 × 2 × 8 × (6144 + 6144)", "L \\times 2 \\times (r H + H r)", "196,608"],
    ),
    "e2": (Memory(LORA * 8, "MB"), {}, ["75.5 MB", "75,497,472 bytes", "72 MiB", "72 MB", "0.0755 GB", "37.7 MB"]),
    "e3": (
        R(LORA, FFN),
        {"tolerance": Tolerance(relative=R(1, 100)), "alternatives": [Alternative("factor", R(FFN, LORA), 1)]},
        ["0.065 %", "about 1/1536", "≈ 0.00065", "6.5 \\times 10^{-4}", "1536", "0.65%", "0.065"],
    ),
    "junk": (
        Count(1),
        {},
        ["4 × [3 × (512 × 512) + ...]", "I don't know", "9^9^9^9", "__import__('os')", "(" * 60 + "1" + ")" * 60],
    ),
}  # fmt: skip
WEIGHTS = {"a_p": 12, "a_ce": 12, "c": 22, "d": 22, "e1": 12, "e2": 10, "e3": 8, "junk": 2}


def workload(n: int, seed: int = 8021) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    names = list(WEIGHTS)
    picks = rng.choices(names, weights=[WEIGHTS[k] for k in names], k=n)
    return [(q, rng.choice(QUESTIONS[q][2])) for q in picks]


def main(n: int = 10_000) -> None:
    jobs = workload(n)
    verdicts: Counter[str] = Counter()
    start = time.perf_counter()
    for question, answer in jobs:
        expected, options, _ = QUESTIONS[question]
        verdicts[check_answer(answer, expected, **options).verdict] += 1
    elapsed = time.perf_counter() - start
    print(f"checked {n:,} answers in {elapsed:.2f} s: {n / elapsed:,.0f} answers/s")
    print("verdicts: " + ", ".join(f"{k} {v:,}" for k, v in sorted(verdicts.items())))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
