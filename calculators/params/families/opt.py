"""OPT: decoder with learned positions offset by 2, optional projection of a narrower embedding."""

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

POSITION_OFFSET = 2  # OPTLearnedPositionalEmbedding keeps two extra rows (a fairseq legacy)


def read(r: Reader) -> tuple[Flags, dict[str, int]]:
    d = r.int("hidden_size", 768)
    heads = r.int("num_attention_heads", 12)
    r.divides("num_attention_heads", heads, "hidden_size", d)
    sizes = {
        "vocab": r.int("vocab_size", 50272),
        "d_model": d,
        "n_layers": r.int("num_hidden_layers", 12),
        "d_ff": r.int("ffn_dim", 3072),
        "n_positions": r.int("max_position_embeddings", 2048),
    }
    d_embed = r.int("word_embed_proj_dim", d)
    if d_embed != d:  # only then is it a size of its own in the formula
        sizes["d_embed"] = d_embed
    affine = r.bool("layer_norm_elementwise_affine", True)
    r.unsupported_if(
        not affine, "layer_norm_elementwise_affine", "LayerNorms without learned scale and shift"
    )
    flags = {
        "tied": r.bool("tie_word_embeddings", True),
        "bias": r.bool("enable_bias", True),
        "projected": d_embed != d,
        "final_norm": r.bool("do_layer_norm_before", True)
        and not r.bool("_remove_final_layer_norm", False),
    }
    return flags, sizes


def _d_embed(flags: Flags, n: Dims):
    return n.d_embed if flags["projected"] else n.d_model


def body(flags: Flags, n: Dims) -> list[Param]:
    d, b = n.d_model, flags["bias"]  # enable_bias: linear layers only; LayerNorms keep theirs
    e = _d_embed(flags, n)
    block = [
        *linear("self_attn.k_proj", d, d, "layers/attn/qkv", bias=b),
        *linear("self_attn.v_proj", d, d, "layers/attn/qkv", bias=b),
        *linear("self_attn.q_proj", d, d, "layers/attn/qkv", bias=b),
        *linear("self_attn.out_proj", d, d, "layers/attn/out", bias=b, tags=[OUT_PROJ]),
        *norm("self_attn_layer_norm", d, "layers/attn/norm"),
        *linear("fc1", d, n.d_ff, "layers/mlp/up", bias=b),
        *linear("fc2", n.d_ff, d, "layers/mlp/down", bias=b),
        *norm("final_layer_norm", d, "layers/mlp/norm"),
    ]
    out = [
        *embedding("decoder.embed_tokens", n.vocab, e, "embeddings/token"),
        *embedding(
            "decoder.embed_positions",
            n.n_positions + POSITION_OFFSET,
            d,
            "embeddings/position",
            position=True,
        ),
    ]
    if flags["projected"]:
        out += linear("decoder.project_out", d, e, "embeddings/projection", bias=False)
        out += linear("decoder.project_in", e, d, "embeddings/projection", bias=False)
    if flags["final_norm"]:
        out += norm("decoder.final_layer_norm", d, "final_norm")
    return [*out, *layer("decoder.layers", block, n.n_layers)]


def build(flags: Flags, n: Dims, head: str) -> list[Param]:
    if head == "base":
        return body(flags, n)
    out = [p.with_prefix("model.") for p in body(flags, n)]
    if head == "causal-lm":
        tied = "model.decoder.embed_tokens.weight" if flags["tied"] else None
        return [
            *out,
            *tied_linear_weight("lm_head", n.vocab, _d_embed(flags, n), "head/lm", tied_to=tied),
        ]
    return [*out, *linear("score", _d_embed(flags, n), n.n_labels, "head/classifier", bias=False)]


FAMILY = Family(
    model_type="opt",
    title="OPT",
    heads={
        "base": "OPTModel",
        "causal-lm": "OPTForCausalLM",
        "seq-cls": "OPTForSequenceClassification",
    },
    read=read,
    build=build,
    symbols_doc={
        "vocab": "vocabulary size (vocab_size)",
        "d_model": "hidden size (hidden_size)",
        "n_layers": "layers (num_hidden_layers)",
        "d_ff": "feed-forward width (ffn_dim)",
        "n_positions": "positions (max_position_embeddings; the table has 2 more rows)",
        "d_embed": "embedding width (word_embed_proj_dim, default hidden_size)",
        "n_labels": "classes (num_labels)",
    },
)
