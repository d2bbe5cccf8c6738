"""GPT-2: pre-LN decoder with learned positions and Conv1D layers (weights stored in x out)."""

from __future__ import annotations

from calculators.params._config import Reader
from calculators.params._spec import (
    CONV1D,
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
    d = r.int("n_embd", 768, aliases=("hidden_size",))
    sizes = {
        "vocab": r.int("vocab_size", 50257),
        "d_model": d,
        "n_layers": r.int("n_layer", 12, aliases=("num_hidden_layers",)),
        "d_ff": r.int("n_inner", 4 * d),
        "n_positions": r.int("n_positions", 1024, aliases=("max_position_embeddings",)),
    }
    heads = r.int("n_head", 12, aliases=("num_attention_heads",))
    r.divides("n_head", heads, "n_embd", d)
    r.unsupported_if(
        r.bool("add_cross_attention", False), "add_cross_attention", "cross-attention layers"
    )
    return {"tied": r.bool("tie_word_embeddings", True)}, sizes


def body(n: Dims) -> list[Param]:
    d = n.d_model
    block = [
        *norm("ln_1", d, "layers/attn/norm"),
        *linear("attn.c_attn", d, 3 * d, "layers/attn/qkv", kind=CONV1D),
        *linear("attn.c_proj", d, d, "layers/attn/out", kind=CONV1D, tags=[OUT_PROJ]),
        *norm("ln_2", d, "layers/mlp/norm"),
        *linear("mlp.c_fc", d, n.d_ff, "layers/mlp/up", kind=CONV1D),
        *linear("mlp.c_proj", n.d_ff, d, "layers/mlp/down", kind=CONV1D),
    ]
    return [
        *embedding("wte", n.vocab, d, "embeddings/token"),
        *embedding("wpe", n.n_positions, d, "embeddings/position", position=True),
        *layer("h", block, n.n_layers),
        *norm("ln_f", d, "final_norm"),
    ]


def build(flags: Flags, n: Dims, head: str) -> list[Param]:
    if head == "base":
        return body(n)
    out = [p.with_prefix("transformer.") for p in body(n)]
    if head == "causal-lm":
        tied = "transformer.wte.weight" if flags["tied"] else None
        return [*out, *tied_linear_weight("lm_head", n.vocab, n.d_model, "head/lm", tied_to=tied)]
    return [*out, *linear("score", n.d_model, n.n_labels, "head/classifier", bias=False)]


FAMILY = Family(
    model_type="gpt2",
    title="GPT-2",
    heads={
        "base": "GPT2Model",
        "causal-lm": "GPT2LMHeadModel",
        "seq-cls": "GPT2ForSequenceClassification",
    },
    read=read,
    build=build,
    symbols_doc={
        "vocab": "vocabulary size (vocab_size)",
        "d_model": "hidden size (n_embd)",
        "n_layers": "layers (n_layer)",
        "d_ff": "feed-forward width (n_inner, default 4 n_embd)",
        "n_positions": "learned positions (n_positions)",
        "n_labels": "classes (num_labels)",
    },
)
