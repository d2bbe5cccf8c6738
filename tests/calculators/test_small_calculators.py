"""FFN, softmax / cross-entropy and FLOPs against real modules and torch's own loss."""

from __future__ import annotations

import math

import pytest
import sympy
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import calculators as calc
from calculators.errors import ConfigError


@settings(max_examples=60, deadline=None)
@given(
    h=st.integers(1, 24),
    layers=st.integers(1, 4),
    d_ff=st.one_of(st.none(), st.integers(1, 40)),
    bias=st.booleans(),
    gated=st.booleans(),
)
def test_ffn_equals_real_linear_layers(h, layers, d_ff, bias, gated):
    f = 4 * h if d_ff is None else d_ff
    ups = [torch.nn.Linear(h, f, bias=bias, device="meta") for _ in range(2 if gated else 1)]
    block = torch.nn.ModuleList([*ups, torch.nn.Linear(f, h, bias=bias, device="meta")])
    real = layers * sum(p.numel() for p in block.parameters())
    r = calc.ffn_parameters(h, layers, d_ff, bias, gated)
    assert r.value == real
    assert sum(r.breakdown.values()) == r.value
    assert r.formula.subs(r.subs()) == r.value


def test_stat8021_q3d_ffn():
    r = calc.ffn_parameters(6144, 48)
    assert r.value == 48 * (2 * 6144 * 4 * 6144 + 4 * 6144 + 6144) == 14_496_989_184
    assert str(r.formula) == "n_layers*(8*H**2 + 5*H)"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-40, 40).map(lambda x: x / 8), min_size=1, max_size=8), st.data())
def test_cross_entropy_equals_torch(logits, data):
    target = data.draw(st.integers(0, len(logits) - 1))
    ours = calc.cross_entropy(logits, target)
    theirs = torch.nn.functional.cross_entropy(
        torch.tensor([logits], dtype=torch.float64), torch.tensor([target])
    ).item()
    assert math.isclose(ours.value, theirs, rel_tol=1e-12, abs_tol=1e-12)
    probs = torch.softmax(torch.tensor(logits, dtype=torch.float64), 0).tolist()
    assert all(
        math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
        for a, b in zip(calc.softmax(logits).probabilities, probs, strict=True)
    )


def test_stat8021_q3a_cross_entropy_is_exact():
    ce = calc.cross_entropy([0.5, 0.1, 3.0, 0.2, 1.0], target=2)
    e = sympy.exp
    p = e(3) / (
        e(sympy.Rational(1, 2)) + e(sympy.Rational(1, 10)) + e(3) + e(sympy.Rational(1, 5)) + e(1)
    )
    assert sympy.simplify(ce.probability - p) == 0
    assert sympy.simplify(ce.exact + sympy.log(p)) == 0
    assert round(float(ce.probability), 4) == 0.7500
    bits = calc.cross_entropy([0.5, 0.1, 3.0, 0.2, 1.0], target=2, base=2)
    assert math.isclose(bits.value, ce.value / math.log(2), rel_tol=1e-12)


def test_training_flops_is_6nd():
    f = calc.training_flops(calc.count_parameters("gpt2", head="causal-lm"), 10**9)
    assert f.value == 6 * 124_439_808 * 10**9
    assert sum(f.breakdown.values()) == f.value
    fwd = calc.forward_flops_per_token(1000, n_layers=2, seq_len=8, d_model=16)
    assert fwd.value == 2 * 1000 + 2 * 2 * 8 * 16


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: calc.cross_entropy([1, 2], 2), "target"),
        (lambda: calc.cross_entropy([], 0), "logits"),
        (lambda: calc.cross_entropy(["x"], 0), "logits"),
        (lambda: calc.ffn_parameters(0, 1), "hidden"),
        (lambda: calc.attention_scores_memory(-1, 2), "seq_len"),
        (lambda: calc.optimizer_state_memory(10, "lion"), "optimizer"),
        (lambda: calc.activation_memory(8, 1, 8, 2, recompute="some"), "recompute"),
        (lambda: calc.training_flops(True, 10), "n_params"),
    ],
)
def test_bad_arguments_name_their_field(call, field):
    with pytest.raises(ConfigError) as e:
        call()
    assert e.value.field == field
