# Otter exception-based test for Q1(d): the sinusoidal table added to x, in eval() mode
# (dropout off), for two widths and lengths, against an in-kernel reference.
import math

import torch
from otter.test_files import test_case

OK_FORMAT = False
name = "q1d"
points = 6

CASES = [(2, 10, 16, 50), (1, 7, 6, 7)]  # (B, S, d_model, max_len)


def _table(d_model, max_len):
    pos = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    pe = torch.zeros(max_len, d_model)
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)
    return pe


def _check(cls, seed):
    B, S, D, max_len = CASES[seed]
    x = torch.randn(B, S, D, generator=torch.Generator().manual_seed(30 + seed))
    module = cls(D, dropout=0.1, max_len=max_len)
    module.eval()
    with torch.no_grad():
        got = module(x)
    want = x + _table(D, max_len)[:S]
    assert got.shape == want.shape, f"shape {tuple(got.shape)} != {tuple(want.shape)}"
    assert torch.allclose(got, want, atol=1e-3), "values differ from the reference"


@test_case(points=3, hidden=True)
def case_0(PositionalEncoding):
    _check(PositionalEncoding, 0)


@test_case(points=3, hidden=True)
def case_1(PositionalEncoding):
    _check(PositionalEncoding, 1)
