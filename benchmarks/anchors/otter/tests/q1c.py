# Otter exception-based test for Q1(c): the student's layer with fixed seeded weights,
# without and with the causal mask, against a functional reference. Our grader also loads
# a state dict and compares outputs; it additionally checks that the class does not call
# the Q1(a)/(b) functions (a static check that has no counterpart here).
import math

import torch
from otter.test_files import test_case

OK_FORMAT = False
name = "q1c"
points = 12

CASES = [(2, 5, 16, 4, False), (1, 6, 12, 3, True)]  # (B, S, D, h, masked)
KEYS = [f"{layer}.{kind}" for layer in ("W_q", "W_k", "W_v", "W_o") for kind in ("weight", "bias")]


def _reference(state, x, h, mask):
    B, S, D = x.shape

    def lin(name, t):
        return t @ state[f"{name}.weight"].T + state[f"{name}.bias"]

    q, k, v = (lin(n, x).view(B, S, h, D // h).transpose(1, 2) for n in ("W_q", "W_k", "W_v"))
    scores = q @ k.transpose(-2, -1) / math.sqrt(D // h)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    out = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, S, D)
    return lin("W_o", out)


def _check(cls, seed):
    B, S, D, h, masked = CASES[seed]
    g = torch.Generator().manual_seed(20 + seed)
    shapes = {key: (D, D) if key.endswith("weight") else (D,) for key in KEYS}
    state = {key: torch.randn(*shape, generator=g) * 0.3 for key, shape in shapes.items()}
    x = torch.randn(B, S, D, generator=g)
    mask = torch.triu(torch.ones(S, S, dtype=torch.bool), diagonal=1) if masked else None
    module = cls(D, h)
    module.load_state_dict(state, strict=True)
    module.eval()
    with torch.no_grad():
        got = module(x, mask=mask) if masked else module(x)
    want = _reference(state, x, h, mask)
    assert got.shape == want.shape, f"shape {tuple(got.shape)} != {tuple(want.shape)}"
    assert torch.allclose(got, want, atol=1e-3), "values differ from the reference"


@test_case(points=6, hidden=True)
def case_0(MultiHeadAttention):
    _check(MultiHeadAttention, 0)


@test_case(points=6, hidden=True)
def case_1(MultiHeadAttention):
    _check(MultiHeadAttention, 1)
