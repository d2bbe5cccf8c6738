"""Reference for DL4NLP Homework 4: cross-attention and positional encoding, as a module.

Why this file exists: the grader never trusts what a student prints. It calls the
student's classes on hidden inputs inside the student's kernel (`../probes/layers.py`),
brings the outputs back as data and compares them here, in the grader process, with what
this file computes on the same inputs. It never enters the kernel.

Why the cases look the way they do: the course's own code calls `MultiHeadAttention` as
cross-attention (decoder queries over encoder keys and values) and passes masks in three
forms. Cases written for self-attention pass code that is wrong there: a student who
projects the values from `key` is right whenever key is value, and one whose mask is
reshaped to (S, S) is right whenever S == T. So the hidden cases have S != T, key != value,
and every mask form (bool, 0/1 float, additive), each at least once with S != T. The
`PositionalEncoding_half` cases move the module to float16: a table kept as a plain tensor
attribute instead of a registered buffer stays float32 (and on the CPU when the course
moves the model to a GPU), and the output comes back float32.

Conventions (the starter notebook states the same ones; change both or neither):

- inputs are batch-first: query (N, S, E), key and value (N, T, E);
- the layers are `q_proj`, `k_proj`, `v_proj`, `out_proj`: `nn.Linear(E, E)` with bias;
  head i owns the features i*E/H .. (i+1)*E/H - 1 (`view(N, S, H, E // H)`);
- dropout applies to the attention weights and is off in `eval()`;
- `attn_mask` is None or (S, T): a bool mask (False = blocked), a 0/1 float mask
  (0 = blocked), or an additive float mask (0 = allowed, -inf = blocked), told apart from
  a 0/1 mask by its negative entries; no hidden case blocks a whole row;
- the sinusoidal table: pe[p, 2i] = sin(p / 10000^(2i/E)), pe[p, 2i+1] = cos(the same).
"""

from __future__ import annotations

import math
from typing import NamedTuple, TypedDict

import torch
from torch import nn

TARGETS = ("MultiHeadAttention", "PositionalEncoding", "PositionalEncoding_half")

# The eight tensors of MultiHeadAttention's state dict, by the names the starter fixes.
MHA_STATE_KEYS = tuple(
    f"{layer}.{kind}" for layer in ("q_proj", "k_proj", "v_proj", "out_proj")
    for kind in ("weight", "bias")
)

DEMO_SEED = 20261124  # the demo cases are public, so their seed may be too
DROPOUT = 0.2  # the probe builds every module with this dropout, then calls eval()


class Case(TypedDict):
    """One set of inputs for one target: `tensors` (float32, a mask bool or float) and
    scalar `params` (sizes, the mask form, the dtype a half case moves the module to)."""

    name: str
    tensors: dict[str, torch.Tensor]
    params: dict[str, int | float | bool | str]


# ----------------------------------------------------------------------------------------
# What students write


def apply_mask(scores: torch.Tensor, attn_mask: torch.Tensor) -> torch.Tensor:
    """Scores (..., S, T) with an (S, T) mask in any of the course's three forms applied."""
    if attn_mask.dtype == torch.bool:
        return scores.masked_fill(~attn_mask, float("-inf"))  # False = blocked
    if bool((attn_mask < 0).any()):
        return scores + attn_mask  # additive: 0 = allowed, -inf = blocked
    return scores.masked_fill(attn_mask == 0, float("-inf"))  # 0/1: 0 = blocked


class MultiHeadAttention(nn.Module):
    """Multi-head attention of `query` over `key`/`value`, with learned projections."""

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.1) -> None:
        super().__init__()
        assert embed_dim % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.attn_drop = nn.Dropout(dropout)

    def forward(self, query: torch.Tensor, key: torch.Tensor, value: torch.Tensor,
                attn_mask: torch.Tensor | None = None) -> torch.Tensor:
        N, S, E = query.shape
        T = key.shape[1]
        H, d = self.num_heads, self.head_dim
        q = self.q_proj(query).view(N, S, H, d).transpose(1, 2)  # (N, H, S, d)
        k = self.k_proj(key).view(N, T, H, d).transpose(1, 2)  # (N, H, T, d)
        v = self.v_proj(value).view(N, T, H, d).transpose(1, 2)  # (N, H, T, d)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d)  # (N, H, S, T)
        if attn_mask is not None:
            scores = apply_mask(scores, attn_mask)  # (S, T) broadcasts over N and H
        weights = self.attn_drop(torch.softmax(scores, dim=-1))  # (N, H, S, T)
        y = (weights @ v).transpose(1, 2).reshape(N, S, E)  # (N, S, E): heads side by side
        return self.out_proj(y)


class PositionalEncoding(nn.Module):
    """Add the sinusoidal table to a batch-first input (N, S, E), then dropout.

    The table is built in float64 and stored as float32 (the float32 value nearest the
    exact one); a student's float32 build differs by about 1e-7 at the positions used.
    """

    def __init__(self, embed_dim: int, dropout: float = 0.1, max_len: int = 5000) -> None:
        super().__init__()
        assert embed_dim % 2 == 0
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)  # (L, 1)
        two_i = torch.arange(0, embed_dim, 2, dtype=torch.float64)  # (E/2,)
        angle = position * torch.exp(two_i * (-math.log(10000.0) / embed_dim))  # (L, E/2)
        pe = torch.zeros(max_len, embed_dim, dtype=torch.float64)
        pe[:, 0::2] = torch.sin(angle)
        pe[:, 1::2] = torch.cos(angle)
        self.register_buffer("pe", pe.float())  # (L, E): moves with .to(), .half(), .cuda()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dropout(x + self.pe[: x.shape[1]])  # (N, S, E) + (S, E)


# ----------------------------------------------------------------------------------------
# The grader's entry points: one case in, the reference outputs out


def _out(**tensors: torch.Tensor) -> dict[str, torch.Tensor]:
    return {name: t.detach().contiguous() for name, t in tensors.items()}


@torch.no_grad()
def run_MultiHeadAttention(case: Case) -> dict[str, torch.Tensor]:
    t, p = case["tensors"], case["params"]
    module = MultiHeadAttention(int(p["embed_dim"]), int(p["num_heads"]), dropout=DROPOUT)
    module.load_state_dict({key: t[key] for key in MHA_STATE_KEYS}, strict=True)
    module.eval()
    mask = t["attn_mask"] if p["mask"] != "none" else None
    return _out(output=module(t["query"], t["key"], t["value"], attn_mask=mask))


@torch.no_grad()
def run_PositionalEncoding(case: Case) -> dict[str, torch.Tensor]:
    t, p = case["tensors"], case["params"]
    module = PositionalEncoding(int(p["embed_dim"]), dropout=DROPOUT, max_len=int(p["max_len"]))
    module.eval()  # dropout off: the output is deterministic
    return _out(output=module(t["x"]))


@torch.no_grad()
def run_PositionalEncoding_half(case: Case) -> dict[str, torch.Tensor]:
    """The module moved to float16 with `.half()`, fed float16: the output is float16."""
    t, p = case["tensors"], case["params"]
    module = PositionalEncoding(int(p["embed_dim"]), dropout=DROPOUT, max_len=int(p["max_len"]))
    module.half().eval()
    return _out(output=module(t["x"].half()))


# ----------------------------------------------------------------------------------------
# The cases. Sizes stay small (E <= 32, S, T <= 11): every probe runs in well under a
# second. Head widths are at least 2, so a missing 1/sqrt(d) always shows.


def _randn(gen: torch.Generator, *shape: int, scale: float = 1.0) -> torch.Tensor:
    return torch.randn(*shape, generator=gen, dtype=torch.float32) * scale


def keep_mask(gen: torch.Generator, S: int, T: int, causal: bool) -> torch.Tensor:
    """(S, T) bool, True = may attend. Causal: query i sees keys 0..i + max(T - S, 0), so
    every row keeps key 0; else random, with one allowed key forced into every row."""
    if causal:
        return torch.ones(S, T, dtype=torch.bool).tril(diagonal=max(T - S, 0))
    keep = torch.rand(S, T, generator=gen) < 0.6
    forced = torch.randint(0, T, (S,), generator=gen)
    keep[torch.arange(S), forced] = True
    return keep


def as_form(keep: torch.Tensor, form: str) -> torch.Tensor:
    """A keep mask in one of the course's three forms."""
    if form == "bool":
        return keep.clone()
    if form == "float":
        return keep.float()  # 1.0 = may attend, 0.0 = blocked
    if form == "additive":
        return torch.zeros(keep.shape).masked_fill(~keep, float("-inf"))
    raise ValueError(f"unknown mask form {form!r}")


def mha_case(gen: torch.Generator, N: int, S: int, T: int, E: int, H: int, mask: str,
             self_attention: bool = False, causal: bool = False) -> Case:
    query = _randn(gen, N, S, E)
    if self_attention:
        # query, key and value are one tensor in the course's self-attention layers; each
        # is its own copy here (a case's tensors must not share memory when saved)
        assert S == T
        key, value = query.clone(), query.clone()
    else:
        key, value = _randn(gen, N, T, E), _randn(gen, N, T, E)
    tensors = {"query": query, "key": key, "value": value}
    for name in MHA_STATE_KEYS:
        shape = (E, E) if name.endswith("weight") else (E,)
        tensors[name] = _randn(gen, *shape, scale=E**-0.5)
    if mask != "none":
        tensors["attn_mask"] = as_form(keep_mask(gen, S, T, causal), mask)
    kind = "self" if self_attention else "cross"
    name = f"{kind}-n{N}-s{S}-t{T}-e{E}-h{H}" + ("" if mask == "none" else f"-{mask}-mask")
    params: dict[str, int | float | bool | str] = {"embed_dim": E, "num_heads": H, "mask": mask}
    return Case(name=name, tensors=tensors, params=params)


def pe_case(gen: torch.Generator, N: int, S: int, E: int, max_len: int, half: bool = False) -> Case:
    name = f"n{N}-s{S}-e{E}-len{max_len}" + ("-float16" if half else "")
    params: dict[str, int | float | bool | str] = {"embed_dim": E, "max_len": max_len}
    if half:
        params["dtype"] = "float16"
    return Case(name=name, tensors={"x": _randn(gen, N, S, E)}, params=params)


def hidden_cases(target: str, gen: torch.Generator) -> list[Case]:
    """The grade-time cases of one target, drawn from `gen` (seeded by the grader).

    Shapes are fixed and named, so feedback can say which case failed without showing
    its values; every mask form appears with S != T.
    """
    if target == "MultiHeadAttention":
        return [
            mha_case(gen, 2, 5, 5, 16, 4, "none", self_attention=True),
            mha_case(gen, 2, 4, 7, 16, 4, "none"),
            mha_case(gen, 1, 6, 6, 12, 3, "bool", causal=True),
            mha_case(gen, 3, 3, 8, 24, 6, "bool"),
            mha_case(gen, 2, 5, 9, 16, 2, "float"),
            mha_case(gen, 1, 7, 4, 20, 5, "float", causal=True),
            mha_case(gen, 2, 6, 3, 16, 8, "additive"),
            mha_case(gen, 1, 4, 11, 32, 8, "additive", causal=True),
            mha_case(gen, 3, 1, 1, 8, 2, "bool"),
        ]
    if target == "PositionalEncoding":
        # max_len varies and equals S once, so the table's length and slicing are tested
        return [pe_case(gen, *shape) for shape in
                [(2, 5, 16, 5000), (1, 1, 8, 1), (3, 11, 32, 11), (1, 9, 10, 64)]]
    if target == "PositionalEncoding_half":
        return [pe_case(gen, 2, 6, 16, 5000, half=True), pe_case(gen, 1, 3, 8, 3, half=True)]
    raise KeyError(f"unknown target {target!r}; expected one of {TARGETS}")


def demo_cases() -> dict[str, list[Case]]:
    """The public demo cases, the same on every run; names match the notebook's prints."""
    gen = torch.Generator().manual_seed(DEMO_SEED)
    return {
        "MultiHeadAttention": [
            {**mha_case(gen, 2, 4, 6, 16, 4, "none"), "name": "cross"},
            {**mha_case(gen, 2, 4, 6, 16, 4, "bool"), "name": "masked"},
        ],
        "PositionalEncoding": [{**pe_case(gen, 2, 5, 16, 5000), "name": "demo"}],
        "PositionalEncoding_half": [{**pe_case(gen, 2, 5, 16, 5000, half=True), "name": "demo"}],
    }


# ----------------------------------------------------------------------------------------
# Part 3: the answer key of the written question (pack.toml's `expected` calls these)


class Size(NamedTuple):
    """A memory size, as the answer check reads a calculator's result (`.bytes`). A named
    tuple, not a dataclass: the grader loads this file by path, outside `sys.modules`."""

    bytes: int


def attention_weights_memory(batch: int, heads: int, queries: int, keys: int,
                             bytes_per_element: int = 4) -> Size:
    """The (N, H, S, T) attention weights of one call: S x T per head, not S x S."""
    return Size(batch * heads * queries * keys * bytes_per_element)
