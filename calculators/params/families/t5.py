"""T5: encoder-decoder with a shared embedding, RMS-style LayerNorm without bias,
no biases anywhere, and a relative position bias table in the first block of each stack."""

from __future__ import annotations

from calculators.params._config import Reader
from calculators.params._spec import (
    OUT_PROJ,
    Dims,
    Param,
    embedding,
    layer,
    linear,
    norm,
    tied_linear_weight,
)
from calculators.params.families._family import Family, Flags


def read(r: Reader) -> tuple[Flags, dict[str, int]]:
    n_layers = r.int("num_layers", 6, aliases=("num_hidden_layers",))
    sizes = {
        "vocab": r.int("vocab_size", 32128),
        "d_model": r.int("d_model", 512, aliases=("hidden_size",)),
        "d_kv": r.int("d_kv", 64),
        "d_ff": r.int("d_ff", 2048),
        "n_layers": n_layers,
        "n_dec_layers": r.int("num_decoder_layers", n_layers),
        "n_heads": r.int("num_heads", 8, aliases=("num_attention_heads",)),
        "n_buckets": r.int("relative_attention_num_buckets", 32),
    }
    proj = r.str("feed_forward_proj", "relu")
    act = proj.split("-")[-1]
    r.require(
        proj.count("-") <= 1 and (proj == act or proj.startswith("gated-")),
        "feed_forward_proj",
        f"{proj!r} is not 'ACT' or 'gated-ACT'",
    )
    r.unsupported_if(r.bool("is_decoder", False), "is_decoder", "a decoder-only T5")
    return {"gated": proj.startswith("gated-")}, sizes


def _attention(kind: str, n: Dims) -> list[Param]:
    inner = n.n_heads * n.d_kv
    comp = "self_attn" if kind == "SelfAttention" else "cross_attn"
    return [
        *linear(f"{kind}.q", n.d_model, inner, f"{{stack}}/layers/{comp}/qkv", bias=False),
        *linear(f"{kind}.k", n.d_model, inner, f"{{stack}}/layers/{comp}/qkv", bias=False),
        *linear(f"{kind}.v", n.d_model, inner, f"{{stack}}/layers/{comp}/qkv", bias=False),
        *linear(
            f"{kind}.o",
            inner,
            n.d_model,
            f"{{stack}}/layers/{comp}/out",
            bias=False,
            tags=[OUT_PROJ],
        ),
    ]


def _ffn(flags: Flags, n: Dims) -> list[Param]:
    up = ["DenseReluDense.wi_0", "DenseReluDense.wi_1"] if flags["gated"] else ["DenseReluDense.wi"]
    out = []
    for name in up:
        out += linear(name, n.d_model, n.d_ff, "{stack}/layers/mlp/up", bias=False)
    return [
        *out,
        *linear("DenseReluDense.wo", n.d_ff, n.d_model, "{stack}/layers/mlp/down", bias=False),
    ]


def _sub(index: int, params: list[Param]) -> list[Param]:
    return [p.with_prefix(f"layer.{index}.") for p in params]


def _stack(stack: str, flags: Flags, n: Dims, n_layers, shared: str) -> list[Param]:
    """One T5Stack: tied token embedding, blocks, the first block's position bias, final norm."""
    blocks = [
        *_sub(0, _attention("SelfAttention", n)),
        *_sub(0, norm("layer_norm", n.d_model, "{stack}/layers/norms", bias=False)),
    ]
    if stack == "decoder":
        blocks += _sub(1, _attention("EncDecAttention", n))
        blocks += _sub(1, norm("layer_norm", n.d_model, "{stack}/layers/norms", bias=False))
    ff = 2 if stack == "decoder" else 1
    blocks += _sub(ff, _ffn(flags, n))
    blocks += _sub(ff, norm("layer_norm", n.d_model, "{stack}/layers/norms", bias=False))
    out = [
        *embedding(f"{stack}.embed_tokens", n.vocab, n.d_model, "embeddings/token", tied_to=shared),
        *layer(f"{stack}.block", blocks, n_layers),
        *embedding(
            f"{stack}.block.0.layer.0.SelfAttention.relative_attention_bias",
            n.n_buckets,
            n.n_heads,
            "{stack}/position_bias",
            position=True,
        ),
        *norm(f"{stack}.final_layer_norm", n.d_model, "{stack}/final_norm", bias=False),
    ]
    return [
        Param(
            p.name,
            p.shape,
            p.component.replace("{stack}", stack),
            p.kind,
            p.tags,
            p.repeat,
            p.tied_to,
        )
        for p in out
    ]


def body(flags: Flags, n: Dims, encoder_only: bool = False) -> list[Param]:
    shared = "shared.weight"
    out = [
        *embedding("shared", n.vocab, n.d_model, "embeddings/token"),
        *_stack("encoder", flags, n, n.n_layers, shared),
    ]
    if not encoder_only:
        out += _stack("decoder", flags, n, n.n_dec_layers, shared)
    return out


def build(flags: Flags, n: Dims, head: str) -> list[Param]:
    if head == "base":
        return body(flags, n)
    if head == "encoder":
        return body(flags, n, encoder_only=True)
    if head == "seq2seq-lm":
        # transformers 5 always ties T5's lm_head to the shared embedding
        return [
            *body(flags, n),
            *tied_linear_weight("lm_head", n.vocab, n.d_model, "head/lm", tied_to="shared.weight"),
        ]
    out = [p.with_prefix("transformer.") for p in body(flags, n)]
    return [
        *out,
        *linear("classification_head.dense", n.d_model, n.d_model, "head/classifier"),
        *linear("classification_head.out_proj", n.d_model, n.n_labels, "head/classifier"),
    ]


FAMILY = Family(
    model_type="t5",
    title="T5",
    heads={
        "base": "T5Model",
        "encoder": "T5EncoderModel",
        "seq2seq-lm": "T5ForConditionalGeneration",
        "seq-cls": "T5ForSequenceClassification",
    },
    read=read,
    build=build,
    symbols_doc={
        "vocab": "vocabulary size (vocab_size)",
        "d_model": "hidden size (d_model)",
        "d_kv": "size of one head (d_kv)",
        "d_ff": "feed-forward width (d_ff)",
        "n_layers": "encoder blocks (num_layers)",
        "n_dec_layers": "decoder blocks (num_decoder_layers)",
        "n_heads": "heads (num_heads)",
        "n_buckets": "relative position buckets (relative_attention_num_buckets)",
        "n_labels": "classes (num_labels)",
    },
)
