"""Probes for Homework 4: call the student's layers on one case, inside the student's kernel.

Why so small: this file runs next to the student's code, after it, so it holds no
reference, no expected values and no comparison; it calls the classes the notebook
imported from `dl4nlp/transformer_layers.py` and hands tensors back to the grader.
It imports only torch, which the notebook already has.

Each probe is `NAME(student, case) -> {output name: tensor}`, named after its target;
`case` is the flat dict of the case's tensors and params (docs/assignments.md).
Every module is built with dropout 0.2 and put in eval mode: dropout must then be off,
so the output is deterministic and a dropout that ignores `eval()` shows.
"""

import torch

DROPOUT = 0.2
MHA_STATE_KEYS = tuple(
    f"{layer}.{kind}" for layer in ("q_proj", "k_proj", "v_proj", "out_proj")
    for kind in ("weight", "bias")
)


def _tensor(result: object, what: str) -> dict[str, torch.Tensor]:
    if not isinstance(result, torch.Tensor):
        raise TypeError(f"{what} should return a tensor, got {type(result).__name__}")
    return {"output": result}


def MultiHeadAttention(student, case: dict) -> dict[str, torch.Tensor]:
    cls = student.cls("MultiHeadAttention")
    module = student.call(cls, case["embed_dim"], case["num_heads"], dropout=DROPOUT)
    module.load_state_dict({key: case[key] for key in MHA_STATE_KEYS}, strict=True)
    module.eval()
    with torch.no_grad():
        if case["mask"] == "none":
            out = student.call(module, case["query"], case["key"], case["value"])
        else:
            out = student.call(module, case["query"], case["key"], case["value"],
                               attn_mask=case["attn_mask"])
    return _tensor(out, "MultiHeadAttention.forward")


def _positional(student, case: dict):
    cls = student.cls("PositionalEncoding")
    return student.call(cls, case["embed_dim"], dropout=DROPOUT, max_len=case["max_len"])


def PositionalEncoding(student, case: dict) -> dict[str, torch.Tensor]:
    module = _positional(student, case).eval()
    with torch.no_grad():
        out = student.call(module, case["x"])
    return _tensor(out, "PositionalEncoding.forward")


def PositionalEncoding_half(student, case: dict) -> dict[str, torch.Tensor]:
    """The module moved with `.half()`, as `model.to(device, dtype)` moves it in training:
    a table that is a registered buffer moves along; a plain tensor attribute stays
    float32 (and on the CPU), and the float16 input comes back float32."""
    module = _positional(student, case).half().eval()
    with torch.no_grad():
        out = student.call(module, case["x"].half())
    return _tensor(out, "PositionalEncoding.forward after .half()")
