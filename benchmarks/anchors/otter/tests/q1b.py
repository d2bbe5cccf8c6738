# Otter exception-based test for Q1(b): attention output and weights, without and with
# the causal mask (True = blocked), against an in-kernel reference. Our grader checks the
# same two outputs on hidden cases, from outside the kernel.
import math

import torch
from otter.test_files import test_case

OK_FORMAT = False
name = "q1b"
points = 6

CASES = [(2, 4, 6, 8, False), (3, 2, 5, 4, True)]  # (B, h, S, d_k, masked)


def _attend(q, k, v, mask=None):
    B, h, S, d_k = q.shape
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return (weights @ v).transpose(1, 2).reshape(B, S, h * d_k), weights


def _check(fn, seed):
    B, h, S, d_k, masked = CASES[seed]
    g = torch.Generator().manual_seed(10 + seed)
    q, k, v = (torch.randn(B, h, S, d_k, generator=g) for _ in range(3))
    mask = torch.triu(torch.ones(S, S, dtype=torch.bool), diagonal=1) if masked else None
    with torch.no_grad():
        got = fn(q, k, v, mask=mask) if masked else fn(q, k, v)
    assert isinstance(got, tuple) and len(got) == 2, "should return (output, weights)"
    for out, want in zip(got, _attend(q, k, v, mask), strict=True):
        assert out.shape == want.shape, f"shape {tuple(out.shape)} != {tuple(want.shape)}"
        assert torch.allclose(out, want, atol=1e-3), "values differ from the reference"


@test_case(points=3, hidden=True)
def case_0(calculate_multihead_attention):
    _check(calculate_multihead_attention, 0)


@test_case(points=3, hidden=True)
def case_1(calculate_multihead_attention):
    _check(calculate_multihead_attention, 1)
