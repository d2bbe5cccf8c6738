"""STAT8021 A3 Q3 expected values, computed by the calculators, and the expected-value shapes.

One place for what the handout tests, the message tests and the benchmark compare
against: L = 48, H = 6144, h = 48, S_max = 16,384, fp16 scores, LoRA r = 8 on W_Q
and W_V, Adam 8 bytes per parameter.
"""

from __future__ import annotations

from dataclasses import dataclass

from sympy import Rational

import calculators as calc

L, H, HEADS, S_MAX, RANK = 48, 6144, 48, 16_384, 8


@dataclass(frozen=True)
class Memory:
    """A memory size as a question states it: exact bytes, and the unit the question asks for."""

    bytes: int
    unit: str | None = None


@dataclass(frozen=True)
class Count:
    """A count as a question states it (what `count_parameters` and friends expose as ``.total``)."""

    total: int


_CE = calc.cross_entropy([0.5, 0.1, 3.0, 0.2, 1.0], target=2)
P_MAT = _CE.probability  # (a)(II): p("mat")
CE = _CE.exact  # (a)(II): -ln p
SCORES = Memory(calc.attention_scores_memory(S_MAX, HEADS).bytes, unit="GB")  # (c)
ONE_HEAD = Memory(calc.attention_scores_memory(S_MAX, 1).bytes)  # (c), one head only
FFN = calc.ffn_parameters(H, L).value  # (d)
LORA = calc.lora_matrices([(H, H), (H, H)], r=RANK, n_layers=L).total  # (e)(I)
LORA_ADAM = Memory(calc.optimizer_state_memory(LORA, "adam").bytes, unit="MB")  # (e)(II)
RATIO = Rational(LORA_ADAM.bytes, calc.optimizer_state_memory(FFN, "adam").bytes)  # (e)(III)
