"""Probes for Part 1: call the student's code on one hidden case, inside the student's kernel.

Why so small: this file runs in the kernel next to the student's code, after it, so the
student could read or patch anything it imports or defines. It therefore holds no
reference code, no expected values and no comparison; it only calls the student's code
and hands back tensors, which the grader compares outside the kernel. It imports only
torch, which the notebook already has.

Each probe is `NAME(student, case) -> {output name: tensor}`, named after its target:

- `student.function(name)`, `student.cls(name)`: the student's callable or class (the
  grader raises a clear error when it is missing);
- `student.call(fn, *args, **kwargs)`: checks that the arguments bind, then calls;
- `case`: the case's tensors and params in one flat dict (`case["x"]`, `case["masked"]`).
"""

import torch

MHA_STATE_KEYS = tuple(
    f"{layer}.{kind}" for layer in ("W_q", "W_k", "W_v", "W_o") for kind in ("weight", "bias")
)


def _tensors(result: object, names: tuple[str, ...], what: str) -> dict[str, torch.Tensor]:
    """Name the parts of a returned tuple, or say plainly what was returned instead."""
    if not isinstance(result, tuple) or len(result) != len(names):
        got = f"a {len(result)}-tuple" if isinstance(result, tuple) else type(result).__name__
        raise TypeError(f"{what} should return a tuple {names}, got {got}")
    for name, value in zip(names, result, strict=True):
        if not isinstance(value, torch.Tensor):
            raise TypeError(f"{what}: {name} should be a tensor, got {type(value).__name__}")
    return dict(zip(names, result, strict=True))


def _tensor(result: object, what: str) -> dict[str, torch.Tensor]:
    if not isinstance(result, torch.Tensor):
        raise TypeError(f"{what} should return a tensor, got {type(result).__name__}")
    return {"output": result}


def get_multihead_qkv(student, case: dict) -> dict[str, torch.Tensor]:
    fn = student.function("get_multihead_qkv")
    with torch.no_grad():
        args = (case["x"], case["w_q"], case["w_k"], case["w_v"], case["num_heads"])
        result = student.call(fn, *args)
    return _tensors(result, ("q", "k", "v"), "get_multihead_qkv")


def calculate_multihead_attention(student, case: dict) -> dict[str, torch.Tensor]:
    fn = student.function("calculate_multihead_attention")
    with torch.no_grad():
        if case["masked"]:
            result = student.call(fn, case["q"], case["k"], case["v"], mask=case["mask"])
        else:
            result = student.call(fn, case["q"], case["k"], case["v"])
    return _tensors(result, ("output", "weights"), "calculate_multihead_attention")


def MultiHeadAttention(student, case: dict) -> dict[str, torch.Tensor]:
    module = student.call(student.cls("MultiHeadAttention"), case["d_model"], case["num_heads"])
    module.load_state_dict({key: case[key] for key in MHA_STATE_KEYS}, strict=True)
    module.eval()
    with torch.no_grad():
        if case["masked"]:
            out = student.call(module, case["x"], mask=case["mask"])
        else:
            out = student.call(module, case["x"])
    return _tensor(out, "MultiHeadAttention.forward")


def PositionalEncoding(student, case: dict) -> dict[str, torch.Tensor]:
    cls = student.cls("PositionalEncoding")
    module = student.call(cls, case["d_model"], dropout=0.1, max_len=case["max_len"])
    module.eval()  # dropout off, so the output is deterministic
    with torch.no_grad():
        out = student.call(module, case["x"])
    return _tensor(out, "PositionalEncoding.forward")
