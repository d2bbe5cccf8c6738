"""GPT-NeoX / Pythia: pre-LN decoder, rotary positions, fused QKV, untied output embedding."""

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
    d = r.int("hidden_size", 6144)
    heads = r.int("num_attention_heads", 64)
    r.divides("num_attention_heads", heads, "hidden_size", d)
    sizes = {
        "vocab": r.int("vocab_size", 50432),
        "d_model": d,
        "n_layers": r.int("num_hidden_layers", 44),
        "d_ff": r.int("intermediate_size", 24576),
    }
    flags = {
        "tied": r.bool("tie_word_embeddings", False),
        "attention_bias": r.bool("attention_bias", True),
    }
    return flags, sizes


def body(flags: Flags, n: Dims) -> list[Param]:
    d, ab = n.d_model, flags["attention_bias"]
    block = [
        *norm("input_layernorm", d, "layers/attn/norm"),
        *norm("post_attention_layernorm", d, "layers/mlp/norm"),
        *linear("attention.query_key_value", d, 3 * d, "layers/attn/qkv", bias=ab),
        *linear("attention.dense", d, d, "layers/attn/out", bias=ab, tags=[OUT_PROJ]),
        *linear("mlp.dense_h_to_4h", d, n.d_ff, "layers/mlp/up"),
        *linear("mlp.dense_4h_to_h", n.d_ff, d, "layers/mlp/down"),
    ]
    return [
        *embedding("embed_in", n.vocab, d, "embeddings/token"),
        *layer("layers", block, n.n_layers),
        *norm("final_layer_norm", d, "final_norm"),
    ]


def build(flags: Flags, n: Dims, head: str) -> list[Param]:
    if head == "base":
        return body(flags, n)
    out = [p.with_prefix("gpt_neox.") for p in body(flags, n)]
    if head == "causal-lm":
        tied = "gpt_neox.embed_in.weight" if flags["tied"] else None
        return [*out, *tied_linear_weight("lm_head", n.vocab, n.d_model, "head/lm", tied_to=tied)]
    return [*out, *linear("score", n.d_model, n.n_labels, "head/classifier", bias=False)]


FAMILY = Family(
    model_type="gpt_neox",
    title="GPT-NeoX",
    heads={
        "base": "GPTNeoXModel",
        "causal-lm": "GPTNeoXForCausalLM",
        "seq-cls": "GPTNeoXForSequenceClassification",
    },
    read=read,
    build=build,
    symbols_doc={
        "vocab": "vocabulary size (vocab_size)",
        "d_model": "hidden size (hidden_size)",
        "n_layers": "layers (num_hidden_layers)",
        "d_ff": "MLP width (intermediate_size)",
        "n_labels": "classes (num_labels)",
    },
)
