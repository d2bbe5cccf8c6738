"""count_parameters against building the same model on the meta device, per registry entry.

Run: .venv/bin/python benchmarks/bench_params.py
Prints a Markdown table (median of repeated runs) to paste into docs/benchmarks.md.
Both are timed in the same process, one after the other, so compare the ratio.
"""

from __future__ import annotations

import statistics
import time
import warnings

import torch
import transformers

import calculators as calc
from calculators.params import registry
from calculators.params.count import clear_cache
from calculators.params.families import FAMILIES


def _median_s(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def build_meta(data: dict, head: str):
    data = dict(data)
    config = transformers.AutoConfig.for_model(data.pop("model_type"), **data)
    cls = getattr(transformers, FAMILIES[config.model_type].heads[head])
    with torch.device("meta"):
        return cls(config)


def head_of(data: dict) -> str:
    """The head the checkpoint was published with (its config's "architectures")."""
    family = FAMILIES[data["model_type"]]
    arch = (data.get("architectures") or [""])[0]
    for head, cls in family.heads.items():
        if cls == arch:
            return head
    return "base"


def main() -> None:
    warnings.simplefilter("ignore")
    transformers.logging.set_verbosity_error()
    print(
        "| model | head | parameters | count, cold | count, warm | build on meta | speed-up cold / warm |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    ratios = []
    for name in registry.names():
        data = registry.load(name)
        head = head_of(data)
        total = calc.count_parameters(name, head=head).total

        def cold(name=name, head=head):
            clear_cache()
            calc.count_parameters(name, head=head)

        ours_cold = _median_s(cold, 200)
        ours = _median_s(lambda name=name, head=head: calc.count_parameters(name, head=head), 200)
        build_meta(data, head)  # warm imports
        real = _median_s(lambda data=data, head=head: build_meta(data, head), 5)
        ratios.append(real / ours_cold)
        print(
            f"| {name} | {head} | {total:,} | {ours_cold * 1e3:.3f} ms | {ours * 1e3:.3f} ms "
            f"| {real * 1e3:.1f} ms | {real / ours_cold:,.0f}x / {real / ours:,.0f}x |"
        )
    formula = _median_s(lambda: calc.count_parameters("Llama-2-7b").formula, 20)
    print()
    print(f"smallest cold speed-up: {min(ratios):,.0f}x; median {statistics.median(ratios):,.0f}x")
    print(f".formula of Llama-2-7b (sympy, built on first access): {formula * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
