"""DistilBERT: BERT with half the layers, no token types, no pooler, renamed modules."""

from __future__ import annotations

from calculators.params._config import Reader
from calculators.params._spec import OUT_PROJ, Dims, Param, embedding, layer, linear, norm
from calculators.params.families._family import Family, Flags


def read(r: Reader) -> tuple[Flags, dict[str, int]]:
    sizes = {
        "vocab": r.int("vocab_size", 30522),
        "d_model": r.int("dim", 768, aliases=("hidden_size",)),
        "n_layers": r.int("n_layers", 6, aliases=("num_hidden_layers",)),
        "d_ff": r.int("hidden_dim", 3072),
        "n_positions": r.int("max_position_embeddings", 512),
    }
    heads = r.int("n_heads", 12, aliases=("num_attention_heads",))
    r.divides("n_heads", heads, "dim", sizes["d_model"])
    # sinusoidal_pos_embds keeps the table as a (frozen) nn.Embedding: same count.
    return {"tied": r.bool("tie_word_embeddings", True)}, sizes


def encoder(n: Dims) -> list[Param]:
    d = n.d_model
    block = [
        *linear("attention.q_lin", d, d, "layers/attn/qkv"),
        *linear("attention.k_lin", d, d, "layers/attn/qkv"),
        *linear("attention.v_lin", d, d, "layers/attn/qkv"),
        *linear("attention.out_lin", d, d, "layers/attn/out", tags=[OUT_PROJ]),
        *norm("sa_layer_norm", d, "layers/attn/norm"),
        *linear("ffn.lin1", d, n.d_ff, "layers/mlp/up"),
        *linear("ffn.lin2", n.d_ff, d, "layers/mlp/down"),
        *norm("output_layer_norm", d, "layers/mlp/norm"),
    ]
    return [
        *embedding("embeddings.word_embeddings", n.vocab, d, "embeddings/token"),
        *embedding(
            "embeddings.position_embeddings", n.n_positions, d, "embeddings/position", position=True
        ),
        *norm("embeddings.LayerNorm", d, "embeddings/norm"),
        *layer("transformer.layer", block, n.n_layers),
    ]


def build(flags: Flags, n: Dims, head: str) -> list[Param]:
    if head == "base":
        return encoder(n)
    body = [p.with_prefix("distilbert.") for p in encoder(n)]
    d = n.d_model
    if head == "masked-lm":
        tied = "distilbert.embeddings.word_embeddings.weight" if flags["tied"] else None
        return [
            *body,
            *linear("vocab_transform", d, d, "head/transform"),
            *norm("vocab_layer_norm", d, "head/transform"),
            Param("vocab_projector.weight", (n.vocab, d), "head/decoder", "linear", tied_to=tied),
            Param(
                "vocab_projector.bias", (n.vocab,), "head/decoder", "linear", frozenset({"bias"})
            ),
        ]
    return [
        *body,
        *linear("pre_classifier", d, d, "head/classifier"),
        *linear("classifier", d, n.n_labels, "head/classifier"),
    ]


FAMILY = Family(
    model_type="distilbert",
    title="DistilBERT",
    heads={
        "base": "DistilBertModel",
        "masked-lm": "DistilBertForMaskedLM",
        "seq-cls": "DistilBertForSequenceClassification",
    },
    read=read,
    build=build,
    symbols_doc={
        "vocab": "vocabulary size (vocab_size)",
        "d_model": "hidden size (dim)",
        "n_layers": "layers (n_layers)",
        "d_ff": "feed-forward width (hidden_dim)",
        "n_positions": "learned positions (max_position_embeddings)",
        "n_labels": "classes (num_labels)",
    },
)
