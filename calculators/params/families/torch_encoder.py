"""The PyTorch tutorial language model: nn.Embedding, sinusoidal positions (a buffer,
no parameters), nn.TransformerEncoder, and an nn.Linear head.

Config keys: ``ntoken``, ``d_model``, ``nhead``, ``dim_feedforward``, ``nlayers``;
optional ``bias`` (default true, as ``nn.TransformerEncoderLayer``) and
``final_norm`` (default false: ``nn.TransformerEncoder(norm=None)``). The module
names are those of the tutorial: ``embedding``, ``transformer_encoder``, ``linear``.
Heads: ``base`` (no head), ``causal-lm`` (``Linear(d_model, ntoken)``, the
tutorial's next-token head), ``seq-cls`` (``Linear(d_model, num_labels)``).
"""

from __future__ import annotations

from calculators.params._config import Reader
from calculators.params._spec import (
    BIAS,
    OUT_PROJ,
    PACKED_MHA,
    Dims,
    Param,
    embedding,
    layer,
    linear,
    norm,
)
from calculators.params.families._family import Family, Flags


def read(r: Reader) -> tuple[Flags, dict[str, int]]:
    sizes = {
        "vocab": r.int("ntoken", aliases=("vocab_size",)),
        "d_model": r.int("d_model"),
        "n_layers": r.int("nlayers", aliases=("num_layers",)),
        "d_ff": r.int("dim_feedforward"),
    }
    heads = r.int("nhead")
    r.divides("nhead", heads, "d_model", sizes["d_model"])
    return {"bias": r.bool("bias", True), "final_norm": r.bool("final_norm", False)}, sizes


def build(flags: Flags, n: Dims, head: str) -> list[Param]:
    d, b = n.d_model, flags["bias"]
    # nn.MultiheadAttention packs W_Q, W_K, W_V into one (3d, d) in_proj_weight
    in_proj = [Param("self_attn.in_proj_weight", (3 * d, d), "layers/attn/qkv", PACKED_MHA)]
    if b:
        in_proj.append(
            Param(
                "self_attn.in_proj_bias", (3 * d,), "layers/attn/qkv", PACKED_MHA, frozenset({BIAS})
            )
        )
    block = [
        *in_proj,
        *linear("self_attn.out_proj", d, d, "layers/attn/out", bias=b, tags=[OUT_PROJ]),
        *linear("linear1", d, n.d_ff, "layers/mlp/up", bias=b),
        *linear("linear2", n.d_ff, d, "layers/mlp/down", bias=b),
        *norm("norm1", d, "layers/attn/norm", bias=b),
        *norm("norm2", d, "layers/mlp/norm", bias=b),
    ]
    out = [
        *embedding("embedding", n.vocab, d, "embeddings/token"),
        *layer("transformer_encoder.layers", block, n.n_layers),
    ]
    if flags["final_norm"]:
        out += norm("transformer_encoder.norm", d, "final_norm", bias=b)
    if head == "causal-lm":
        out += linear("linear", d, n.vocab, "head/lm")
    elif head == "seq-cls":
        out += linear("linear", d, n.n_labels, "head/classifier")
    return out


FAMILY = Family(
    model_type="torch_transformer_encoder",
    title="PyTorch nn.TransformerEncoder tutorial model",
    heads={
        "base": "embedding + nn.TransformerEncoder",
        "causal-lm": "+ nn.Linear(d_model, ntoken)",
        "seq-cls": "+ nn.Linear(d_model, num_labels)",
    },
    read=read,
    build=build,
    symbols_doc={
        "vocab": "vocabulary size (ntoken)",
        "d_model": "embedding and model width (d_model)",
        "n_layers": "encoder layers (nlayers)",
        "d_ff": "feed-forward width (dim_feedforward)",
        "n_labels": "classes (num_labels)",
    },
)
