"""LLaMA: pre-RMSNorm decoder, rotary positions (no parameters), SwiGLU MLP, grouped-query attention.

With grouped-query attention the key and value projections have
``n_kv_heads * d_head`` outputs instead of ``d_model``.
"""

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
    flags, sizes = read_sizes(r)
    flags.update(
        attention_bias=r.bool("attention_bias", False),
        mlp_bias=r.bool("mlp_bias", False),
    )
    return flags, sizes


def read_sizes(
    r: Reader,
    *,
    vocab: int = 32000,
    d_model: int = 4096,
    n_layers: int = 32,
    d_ff: int = 11008,
    n_heads: int = 32,
    n_kv_heads: int | None = None,
) -> tuple[Flags, dict[str, int]]:
    """The sizes every LLaMA-style config names, with its class's defaults (Mistral and
    Qwen2 differ only in these defaults and in their bias and sliding-window flags)."""
    d = r.int("hidden_size", d_model)
    heads = r.int("num_attention_heads", n_heads)
    kv = r.int("num_key_value_heads", n_kv_heads or heads)
    head_dim = r.optional_int("head_dim")
    if head_dim is None:
        r.divides("num_attention_heads", heads, "hidden_size", d)
        head_dim = d // heads
    r.require(
        heads % kv == 0,
        "num_key_value_heads",
        f"{kv} does not divide num_attention_heads = {heads}",
    )
    sizes = {
        "vocab": r.int("vocab_size", vocab),
        "d_model": d,
        "n_layers": r.int("num_hidden_layers", n_layers),
        "d_ff": r.int("intermediate_size", d_ff),
        "n_heads": heads,
        "n_kv_heads": kv,
        "d_head": head_dim,
    }
    return {"tied": r.bool("tie_word_embeddings", False)}, sizes


def body(flags: Flags, n: Dims) -> list[Param]:
    d, ab, mb = n.d_model, flags["attention_bias"], flags["mlp_bias"]
    qkv_b, o_b = flags.get("qkv_bias", ab), flags.get("o_bias", ab)  # Qwen2: q, k, v only
    block = [
        *linear("self_attn.q_proj", d, n.n_heads * n.d_head, "layers/attn/qkv", bias=qkv_b),
        *linear("self_attn.k_proj", d, n.n_kv_heads * n.d_head, "layers/attn/qkv", bias=qkv_b),
        *linear("self_attn.v_proj", d, n.n_kv_heads * n.d_head, "layers/attn/qkv", bias=qkv_b),
        *linear(
            "self_attn.o_proj", n.n_heads * n.d_head, d, "layers/attn/out", bias=o_b, tags=[OUT_PROJ]
        ),
        *linear("mlp.gate_proj", d, n.d_ff, "layers/mlp/up", bias=mb),
        *linear("mlp.up_proj", d, n.d_ff, "layers/mlp/up", bias=mb),
        *linear("mlp.down_proj", n.d_ff, d, "layers/mlp/down", bias=mb),
        *norm("input_layernorm", d, "layers/attn/norm", bias=False),
        *norm("post_attention_layernorm", d, "layers/mlp/norm", bias=False),
    ]
    return [
        *embedding("embed_tokens", n.vocab, d, "embeddings/token"),
        *layer("layers", block, n.n_layers),
        *norm("norm", d, "final_norm", bias=False),
    ]


def build(flags: Flags, n: Dims, head: str) -> list[Param]:
    if head == "base":
        return body(flags, n)
    out = [p.with_prefix("model.") for p in body(flags, n)]
    if head == "causal-lm":
        tied = "model.embed_tokens.weight" if flags["tied"] else None
        return [*out, *tied_linear_weight("lm_head", n.vocab, n.d_model, "head/lm", tied_to=tied)]
    return [*out, *linear("score", n.d_model, n.n_labels, "head/classifier", bias=False)]


SYMBOLS_DOC = {
    "vocab": "vocabulary size (vocab_size)",
    "d_model": "hidden size (hidden_size)",
    "n_layers": "layers (num_hidden_layers)",
    "d_ff": "MLP width (intermediate_size)",
    "n_heads": "query heads (num_attention_heads)",
    "n_kv_heads": "key/value heads (num_key_value_heads)",
    "d_head": "head size (head_dim, default hidden_size / num_attention_heads)",
    "n_labels": "classes (num_labels)",
}

FAMILY = Family(
    model_type="llama",
    title="LLaMA",
    heads={
        "base": "LlamaModel",
        "causal-lm": "LlamaForCausalLM",
        "seq-cls": "LlamaForSequenceClassification",
    },
    read=read,
    build=build,
    symbols_doc=SYMBOLS_DOC,
)
