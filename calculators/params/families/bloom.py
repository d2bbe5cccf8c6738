"""BLOOM: pre-LN decoder with ALiBi (no position parameters) and a LayerNorm after the embeddings."""

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
    d = r.int("hidden_size", 64, aliases=("n_embed",))
    heads = r.int("n_head", 8, aliases=("num_attention_heads",))
    r.divides("n_head", heads, "hidden_size", d)
    sizes = {
        "vocab": r.int("vocab_size", 250880),
        "d_model": d,
        "n_layers": r.int("n_layer", 2, aliases=("num_hidden_layers",)),
    }
    return {"tied": r.bool("tie_word_embeddings", True)}, sizes


def body(n: Dims) -> list[Param]:
    d = n.d_model
    block = [
        *norm("input_layernorm", d, "layers/attn/norm"),
        *linear("self_attention.query_key_value", d, 3 * d, "layers/attn/qkv"),
        *linear("self_attention.dense", d, d, "layers/attn/out", tags=[OUT_PROJ]),
        *norm("post_attention_layernorm", d, "layers/mlp/norm"),
        *linear("mlp.dense_h_to_4h", d, 4 * d, "layers/mlp/up"),
        *linear("mlp.dense_4h_to_h", 4 * d, d, "layers/mlp/down"),
    ]
    return [
        *embedding("word_embeddings", n.vocab, d, "embeddings/token"),
        *norm("word_embeddings_layernorm", d, "embeddings/norm"),
        *layer("h", block, n.n_layers),
        *norm("ln_f", d, "final_norm"),
    ]


def build(flags: Flags, n: Dims, head: str) -> list[Param]:
    if head == "base":
        return body(n)
    out = [p.with_prefix("transformer.") for p in body(n)]
    if head == "causal-lm":
        tied = "transformer.word_embeddings.weight" if flags["tied"] else None
        return [*out, *tied_linear_weight("lm_head", n.vocab, n.d_model, "head/lm", tied_to=tied)]
    return [*out, *linear("score", n.d_model, n.n_labels, "head/classifier", bias=False)]


FAMILY = Family(
    model_type="bloom",
    title="BLOOM",
    heads={
        "base": "BloomModel",
        "causal-lm": "BloomForCausalLM",
        "seq-cls": "BloomForSequenceClassification",
    },
    read=read,
    build=build,
    symbols_doc={
        "vocab": "vocabulary size (vocab_size)",
        "d_model": "hidden size (hidden_size)",
        "n_layers": "layers (n_layer)",
        "n_labels": "classes (num_labels)",
    },
)
