"""Reference implementation of STAT8021 Assignment 3, Part 1 (multi-head attention, positions).

Why this file exists: the grader never trusts a number a student prints. It calls the
student's functions and classes on hidden inputs inside the student's kernel (see
`../probes/part1.py`), brings the outputs back as data, and compares them here, in the
grader process, with what this file computes on the same inputs. The file never enters
the kernel, so it may be as plain as the maths: the explicit path is the source of truth.

It reads top to bottom, smallest piece first:

1. the four things students write (Q1(a)-(d)), with the conventions the template states;
2. `run_<target>(case)`: the grader's entry points, one per target, case in, tensors out;
3. the cases: `hidden_cases(target, gen)`, drawn at grade time from a seed students never
   see, and `demo_cases()`, fixed and public (written to `public/part1_demo.safetensors`
   by `make_public.py`).

Conventions (the template states the same ones; change both or neither):

- projections are `x @ w` with `w` of shape (D, D) and no bias in Q1(a);
- heads split as `view(B, S, h, d_k).transpose(1, 2)`, i.e. head `i` owns the model
  dimensions `i*d_k .. (i+1)*d_k - 1`, and merge back the same way;
- a mask is a (S, S) bool tensor, True where attention is NOT allowed, filled with -inf
  before the softmax (the square subsequent mask for the causal cases);
- the sinusoidal table is batch-first, a (max_len, d_model) buffer named `pe`.
"""

from __future__ import annotations

import math
from typing import TypedDict

import torch
from torch import nn

TARGETS = (
    "get_multihead_qkv",
    "calculate_multihead_attention",
    "MultiHeadAttention",
    "PositionalEncoding",
)

# The eight tensors of MultiHeadAttention's state dict, by the names the template fixes.
MHA_STATE_KEYS = tuple(
    f"{layer}.{kind}" for layer in ("W_q", "W_k", "W_v", "W_o") for kind in ("weight", "bias")
)

# The demo cases are public, so their seed may be too (the due date of the assignment).
DEMO_SEED = 20250427


class Case(TypedDict):
    """One set of inputs for one target: plain data, so it can be saved and shipped.

    `tensors` are the inputs by name (float32, a mask is bool); `params` are the scalar
    settings (num_heads, masked, d_model, max_len).
    """

    name: str
    tensors: dict[str, torch.Tensor]
    params: dict[str, int | float | bool | str]


# ----------------------------------------------------------------------------------------
# Q1(a)-(d): the reference maths


def split_heads(t: torch.Tensor, num_heads: int) -> torch.Tensor:
    """(B, S, D) -> (B, h, S, d_k): head i takes model dimensions i*d_k .. (i+1)*d_k - 1."""
    B, S, D = t.shape
    return t.view(B, S, num_heads, D // num_heads).transpose(1, 2)  # (B, h, S, d_k)


def merge_heads(t: torch.Tensor) -> torch.Tensor:
    """(B, h, S, d_k) -> (B, S, h*d_k): the inverse of `split_heads`."""
    B, h, S, d_k = t.shape
    return t.transpose(1, 2).contiguous().view(B, S, h * d_k)  # (B, S, D)


def attend(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Scaled dot-product attention per head; returns (per-head output, weights)."""
    d_k = q.size(-1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B, h, S, S)
    if mask is not None:
        # -inf before the softmax, so a blocked pair gets exactly zero weight and the
        # allowed ones still sum to one.
        scores = scores.masked_fill(mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)  # (B, h, S, S), rows sum to 1
    return weights @ v, weights  # (B, h, S, d_k), (B, h, S, S)


def get_multihead_qkv(
    x: torch.Tensor,
    w_q: torch.Tensor,
    w_k: torch.Tensor,
    w_v: torch.Tensor,
    num_heads: int,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Q1(a): project x (B, S, D) with `x @ w` (no bias), then split into heads.

    Returns (q, k, v), each (B, num_heads, S, D // num_heads).
    """
    return (
        split_heads(x @ w_q, num_heads),  # (B, h, S, d_k)
        split_heads(x @ w_k, num_heads),
        split_heads(x @ w_v, num_heads),
    )


def calculate_multihead_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Q1(b): attention over q, k, v (B, h, S, d_k); heads merged back.

    Returns (output (B, S, h*d_k), weights (B, h, S, S)).
    """
    out, weights = attend(q, k, v, mask)  # (B, h, S, d_k), (B, h, S, S)
    return merge_heads(out), weights  # (B, S, D), (B, h, S, S)


class MultiHeadAttention(nn.Module):
    """Q1(c): self-attention with learned projections (with bias) and an output layer."""

    def __init__(self, d_model: int, num_heads: int) -> None:
        super().__init__()
        if d_model % num_heads:
            raise ValueError(f"num_heads={num_heads} does not divide d_model={d_model}")
        self.num_heads = num_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        h = self.num_heads
        q = split_heads(self.W_q(x), h)  # (B, h, S, d_k)
        k = split_heads(self.W_k(x), h)
        v = split_heads(self.W_v(x), h)
        out, _ = attend(q, k, v, mask)  # (B, h, S, d_k)
        return self.W_o(merge_heads(out))  # (B, S, D)


class PositionalEncoding(nn.Module):
    """Q1(d): add the sinusoidal table to a batch-first input, then dropout.

    pe[pos, 2i] = sin(pos / 10000^(2i/d_model)) and pe[pos, 2i+1] = cos(the same angle).
    The table is built in float64 and stored as float32, so it is the float32 value nearest
    the exact one; a student's float32 build differs by about 1e-7 at the positions used.
    """

    def __init__(self, d_model: int, dropout: float = 0.1, max_len: int = 5000) -> None:
        super().__init__()
        if d_model % 2:
            raise ValueError(f"d_model must be even, got {d_model}")
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)  # (max_len, 1)
        two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (d_model/2,)
        angle = position * torch.exp(two_i * (-math.log(10000.0) / d_model))  # (max_len, d/2)
        pe = torch.zeros(max_len, d_model, dtype=torch.float64)
        pe[:, 0::2] = torch.sin(angle)
        pe[:, 1::2] = torch.cos(angle)
        self.register_buffer("pe", pe.float())  # (max_len, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dropout(x + self.pe[: x.size(1)])  # (B, S, D) + (S, D)


# ----------------------------------------------------------------------------------------
# The grader's entry points: one case in, the reference outputs out (float32, contiguous)


def _out(**tensors: torch.Tensor) -> dict[str, torch.Tensor]:
    return {name: t.detach().contiguous() for name, t in tensors.items()}


@torch.no_grad()
def run_get_multihead_qkv(case: Case) -> dict[str, torch.Tensor]:
    t, p = case["tensors"], case["params"]
    q, k, v = get_multihead_qkv(t["x"], t["w_q"], t["w_k"], t["w_v"], int(p["num_heads"]))
    return _out(q=q, k=k, v=v)


@torch.no_grad()
def run_calculate_multihead_attention(case: Case) -> dict[str, torch.Tensor]:
    t, p = case["tensors"], case["params"]
    mask = t["mask"] if p["masked"] else None
    output, weights = calculate_multihead_attention(t["q"], t["k"], t["v"], mask=mask)
    return _out(output=output, weights=weights)


@torch.no_grad()
def run_MultiHeadAttention(case: Case) -> dict[str, torch.Tensor]:
    t, p = case["tensors"], case["params"]
    module = MultiHeadAttention(int(p["d_model"]), int(p["num_heads"]))
    module.load_state_dict({key: t[key] for key in MHA_STATE_KEYS}, strict=True)
    module.eval()
    mask = t["mask"] if p["masked"] else None
    return _out(output=module(t["x"], mask=mask))


@torch.no_grad()
def run_PositionalEncoding(case: Case) -> dict[str, torch.Tensor]:
    t, p = case["tensors"], case["params"]
    module = PositionalEncoding(int(p["d_model"]), dropout=0.1, max_len=int(p["max_len"]))
    module.eval()  # dropout off: the output is deterministic
    return _out(output=module(t["x"]))


# ----------------------------------------------------------------------------------------
# The cases. Shapes cover odd sizes, a batch of one and a sequence of one; d_k >= 2
# everywhere, so a missing 1/sqrt(d_k) always shows. Sizes stay small (D <= 48,
# S <= 17, B <= 3): a probe runs in seconds even on a slow laptop.


def square_subsequent_mask(S: int) -> torch.Tensor:
    """(S, S) bool, True above the diagonal: position i may not look at j > i."""
    return torch.triu(torch.ones(S, S, dtype=torch.bool), diagonal=1)


def _name(B: int, S: int, D: int, h: int | None = None, masked: bool = False) -> str:
    heads = f"-h{h}" if h is not None else ""
    return f"b{B}-s{S}-d{D}{heads}" + ("-masked" if masked else "")


def _randn(gen: torch.Generator, *shape: int, scale: float = 1.0) -> torch.Tensor:
    return torch.randn(*shape, generator=gen, dtype=torch.float32) * scale


def _qkv_case(gen: torch.Generator, B: int, S: int, D: int, h: int) -> Case:
    x = _randn(gen, B, S, D)
    w = {n: _randn(gen, D, D, scale=D**-0.5) for n in ("w_q", "w_k", "w_v")}
    return Case(name=_name(B, S, D, h), tensors={"x": x, **w}, params={"num_heads": h})


def _attention_case(gen: torch.Generator, B: int, S: int, D: int, h: int, masked: bool) -> Case:
    q, k, v = (_randn(gen, B, h, S, D // h) for _ in range(3))
    tensors = {"q": q, "k": k, "v": v}
    if masked:
        tensors["mask"] = square_subsequent_mask(S)
    return Case(name=_name(B, S, D, h, masked), tensors=tensors, params={"masked": masked})


def _mha_case(gen: torch.Generator, B: int, S: int, D: int, h: int, masked: bool) -> Case:
    tensors = {"x": _randn(gen, B, S, D)}
    for key in MHA_STATE_KEYS:
        shape = (D, D) if key.endswith("weight") else (D,)
        tensors[key] = _randn(gen, *shape, scale=D**-0.5)
    if masked:
        tensors["mask"] = square_subsequent_mask(S)
    params: dict[str, int | float | bool | str] = {"d_model": D, "num_heads": h, "masked": masked}
    return Case(name=_name(B, S, D, h, masked), tensors=tensors, params=params)


def _pe_case(gen: torch.Generator, B: int, S: int, D: int, max_len: int) -> Case:
    return Case(
        name=f"{_name(B, S, D)}-len{max_len}",
        tensors={"x": _randn(gen, B, S, D)},
        params={"d_model": D, "max_len": max_len},
    )


def hidden_cases(target: str, gen: torch.Generator) -> list[Case]:
    """The grade-time cases for one target, drawn from `gen` (seeded by the grader).

    The shapes are fixed; only the values depend on the generator, so feedback can name a
    case ("b1-s7-d12-h3-masked") without revealing its inputs.
    """
    if target == "get_multihead_qkv":
        shapes = [(2, 5, 16, 4), (1, 7, 12, 3), (3, 1, 8, 2), (3, 11, 24, 6), (2, 17, 48, 8),
                  (1, 9, 20, 5)]  # fmt: skip
        return [_qkv_case(gen, *shape) for shape in shapes]
    if target == "calculate_multihead_attention":
        shapes = [(2, 5, 16, 4, False), (2, 5, 16, 4, True), (1, 7, 12, 3, True),
                  (3, 1, 8, 2, False), (3, 1, 8, 2, True), (2, 13, 24, 6, True),
                  (1, 17, 32, 4, False)]  # fmt: skip
        return [_attention_case(gen, *shape) for shape in shapes]
    if target == "MultiHeadAttention":
        shapes = [(2, 5, 16, 4, False), (2, 5, 16, 4, True), (1, 7, 12, 3, True),
                  (3, 1, 8, 2, False), (1, 17, 48, 6, True), (3, 9, 20, 2, False)]  # fmt: skip
        return [_mha_case(gen, *shape) for shape in shapes]
    if target == "PositionalEncoding":
        # max_len varies, and equals S twice, so the table's length and slicing are tested.
        shapes = [(2, 5, 16, 5000), (1, 1, 8, 1), (3, 17, 48, 17), (1, 9, 10, 64),
                  (2, 13, 2, 100), (3, 4, 6, 5000)]  # fmt: skip
        return [_pe_case(gen, *shape) for shape in shapes]
    raise KeyError(f"unknown target {target!r}; expected one of {TARGETS}")


def demo_cases() -> dict[str, list[Case]]:
    """The public demo cases, the same on every run (their own fixed seed).

    The masked demo cases reuse the unmasked ones' inputs, as the handout's notebook does:
    only the mask differs, so a student sees what the mask alone changes.
    """
    gen = torch.Generator().manual_seed(DEMO_SEED)
    B, S, D, h = 2, 5, 16, 4
    self_attn = _attention_case(gen, B, S, D, h, masked=False)
    self_mha = _mha_case(gen, B, S, D, h, masked=False)
    mask = square_subsequent_mask(S)

    def masked(case: Case) -> Case:
        params = {**case["params"], "masked": True}
        return Case(name="masked", tensors={**case["tensors"], "mask": mask}, params=params)

    return {
        "get_multihead_qkv": [{**_qkv_case(gen, B, S, D, h), "name": "demo"}],
        "calculate_multihead_attention": [{**self_attn, "name": "self"}, masked(self_attn)],
        "MultiHeadAttention": [{**self_mha, "name": "self"}, masked(self_mha)],
        "PositionalEncoding": [{**_pe_case(gen, B, S, D, 5000), "name": "demo"}],
    }


# ----------------------------------------------------------------------------------------
# Part 3: the answer key is computed by `calculators` from the rubric's `expected` tables
# (reference/stat8021-a3/pack.toml); this helper only divides two of those results.


def ratio(numerator: object, denominator: object) -> object:
    """Exact ratio of two calculator results (memory sizes or counts), e.g. Q3(e)(III)."""
    from sympy import Rational

    def exact(value: object) -> int:
        for name in ("bytes", "total", "value"):
            if hasattr(value, name):
                return int(getattr(value, name))
        return int(value)  # type: ignore[call-overload]

    return Rational(exact(numerator), exact(denominator))
