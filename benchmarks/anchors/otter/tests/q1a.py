# Otter exception-based test for Q1(a). Otter runs this file inside the student's kernel
# after the notebook: each test function receives the student's globals by name.
# Equivalent to our grader's `get_multihead_qkv` tensor check (atol 1e-3), on two fixed
# seeded inputs instead of our hidden cases; the reference lives here, in the kernel.
import torch
from otter.test_files import test_case

OK_FORMAT = False
name = "q1a"
points = 6

CASES = [(2, 5, 16, 4), (3, 7, 24, 3)]  # (B, S, D, h)


def _split(t, h):
    B, S, D = t.shape
    return t.view(B, S, h, D // h).transpose(1, 2)


def _check(fn, seed):
    B, S, D, h = CASES[seed]
    g = torch.Generator().manual_seed(seed)
    x, w_q, w_k, w_v = (torch.randn(*s, generator=g) for s in ((B, S, D), (D, D), (D, D), (D, D)))
    with torch.no_grad():
        got = fn(x, w_q, w_k, w_v, h)
    assert isinstance(got, tuple) and len(got) == 3, "should return (q, k, v)"
    for out, w in zip(got, (w_q, w_k, w_v), strict=True):
        want = _split(x @ w, h)
        assert out.shape == want.shape, f"shape {tuple(out.shape)} != {tuple(want.shape)}"
        assert torch.allclose(out, want, atol=1e-3), "values differ from the reference"


@test_case(points=3, hidden=True)
def case_0(get_multihead_qkv):
    _check(get_multihead_qkv, 0)


@test_case(points=3, hidden=True)
def case_1(get_multihead_qkv):
    _check(get_multihead_qkv, 1)
