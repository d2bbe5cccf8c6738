"""Build the real model a calculator describes, and count it the way a convention says.

The classification here is written from the real modules (owning module type and
name), independently of the calculators' own tags, so a wrong tag shows up as a
mismatch instead of being checked against itself.
"""

from __future__ import annotations

import math
import re
from typing import Any

import torch
import transformers
from torch import nn

from calculators.params.families import FAMILIES

# Attention output projections, by family (module path suffix).
OUT_PROJ = {
    "bert": r"attention\.output\.dense$",
    "roberta": r"attention\.output\.dense$",
    "distilbert": r"attention\.out_lin$",
    "gpt2": r"attn\.c_proj$",
    "llama": r"self_attn\.o_proj$",
    "mistral": r"self_attn\.o_proj$",
    "qwen2": r"self_attn\.o_proj$",
    "bloom": r"self_attention\.dense$",
    "gpt_neox": r"attention\.dense$",
    "opt": r"self_attn\.out_proj$",
    "t5": r"(SelfAttention|EncDecAttention)\.o$",
    "torch_transformer_encoder": r"self_attn\.out_proj$",
}
POSITION = r"(position_embeddings|wpe|embed_positions|relative_attention_bias)$"


class TutorialModel(nn.Module):
    """The PyTorch tutorial LM: embedding, sinusoidal PE (buffer), encoder, linear head."""

    def __init__(
        self,
        ntoken,
        d_model,
        nhead,
        dim_feedforward,
        nlayers,
        out=None,
        bias=True,
        final_norm=False,
    ):
        super().__init__()
        self.embedding = nn.Embedding(ntoken, d_model)
        pe = torch.zeros(16, d_model)
        self.register_buffer("pe", pe)  # sinusoidal: a buffer, not a parameter
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, bias=bias)
        norm = nn.LayerNorm(d_model, bias=bias) if final_norm else None
        self.transformer_encoder = nn.TransformerEncoder(
            layer, nlayers, norm=norm, enable_nested_tensor=False
        )
        if out is not None:
            self.linear = nn.Linear(d_model, out)


def build(data: dict[str, Any], head: str, num_labels: int | None = None) -> nn.Module:
    """The real module, on the meta device (no memory, no download)."""
    data = dict(data)
    model_type = data.pop("model_type")
    if model_type == "torch_transformer_encoder":
        out = {"base": None, "causal-lm": data["ntoken"], "seq-cls": num_labels or 2}[head]
        with torch.device("meta"):
            return TutorialModel(
                data["ntoken"],
                data["d_model"],
                data["nhead"],
                data["dim_feedforward"],
                data["nlayers"],
                out,
                bias=data.get("bias", True),
                final_norm=data.get("final_norm", False),
            )
    if head == "seq-cls" and num_labels is not None:
        data["num_labels"] = num_labels
    config = transformers.AutoConfig.for_model(model_type, **data)
    cls = getattr(transformers, FAMILIES[model_type].heads[head])
    with torch.device("meta"):
        return cls(config)


def occurrences(model: nn.Module, model_type: str) -> list[dict[str, Any]]:
    """Every (module, parameter) use, tied duplicates included, classified by owner."""
    out = []
    seen: set[int] = set()
    for mname, module in model.named_modules(remove_duplicate=False):
        for pname, p in module.named_parameters(recurse=False):
            name = f"{mname}.{pname}" if mname else pname
            is_norm = "Norm" in type(module).__name__
            out.append(
                {
                    "name": name,
                    "shape": tuple(p.shape),
                    "numel": p.numel(),
                    "dup": id(p) in seen,
                    "norm": is_norm,
                    "bias": pname.endswith("bias") and not is_norm,
                    "embedding": isinstance(module, nn.Embedding),
                    "position": isinstance(module, nn.Embedding)
                    and bool(re.search(POSITION, mname)),
                    "out_proj": bool(re.search(OUT_PROJ[model_type], mname)),
                    "ndim": p.dim(),
                }
            )
            seen.add(id(p))
    return out


def real_count(occ: list[dict[str, Any]], conv: set[str]) -> int:
    total = 0
    for o in occ:
        if o["dup"] and "untied" not in conv:
            continue
        if "no_bias" in conv and o["bias"]:
            continue
        if "no_layernorm" in conv and o["norm"]:
            continue
        if "weights_only" in conv and o["ndim"] < 2:
            continue
        if "no_out_proj" in conv and o["out_proj"]:
            continue
        if "no_position_embeddings" in conv and o["position"]:
            continue
        if "no_embeddings" in conv and o["embedding"]:
            continue
        total += o["numel"]
    return total


def calc_names(params) -> dict[str, tuple[int, ...]]:
    """Expanded name -> shape from the calculator's parameter list."""
    out = {}
    for p in params:
        for name in p.names():
            out[name] = tuple(int(s) for s in p.shape)
    return out


def numel(shape) -> int:
    return math.prod(shape)
