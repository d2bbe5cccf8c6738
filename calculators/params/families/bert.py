"""BERT and RoBERTa: post-LN encoders with learned positions, token types and a pooler.

RoBERTa differs only in defaults, in having no pooler under its task heads, and
in its classification head (dense + out_proj, no pooler).
"""

from __future__ import annotations

from calculators.params._config import Reader
from calculators.params._spec import OUT_PROJ, Dims, Param, embedding, layer, linear, norm
from calculators.params.families._family import Family, Flags

SYMBOLS = {
    "vocab": "vocabulary size (vocab_size)",
    "d_model": "hidden size (hidden_size)",
    "n_layers": "encoder layers (num_hidden_layers)",
    "d_ff": "feed-forward width (intermediate_size)",
    "n_positions": "learned positions (max_position_embeddings)",
    "n_types": "token types (type_vocab_size)",
    "n_labels": "classes of the classification head (num_labels)",
}


def _reader(vocab: int, positions: int):
    def read(r: Reader) -> tuple[Flags, dict[str, int]]:
        sizes = {
            "vocab": r.int("vocab_size", vocab),
            "d_model": r.int("hidden_size", 768),
            "n_layers": r.int("num_hidden_layers", 12),
            "d_ff": r.int("intermediate_size", 3072),
            "n_positions": r.int("max_position_embeddings", positions),
            "n_types": r.int("type_vocab_size", 2),
        }
        heads = r.int("num_attention_heads", 12)
        r.divides("num_attention_heads", heads, "hidden_size", sizes["d_model"])
        r.unsupported_if(
            r.str("position_embedding_type", "absolute") != "absolute",
            "position_embedding_type",
            "relative position embeddings add per-layer distance tables",
        )
        r.unsupported_if(
            r.bool("add_cross_attention", False),
            "add_cross_attention",
            "cross-attention layers for encoder-decoder use",
        )
        return {"tied": r.bool("tie_word_embeddings", True)}, sizes

    return read


def encoder(n: Dims) -> list[Param]:
    """Embeddings and the stack of post-LN encoder layers (what BertModel has, less the pooler)."""
    d = n.d_model
    block = [
        *linear("attention.self.query", d, d, "layers/attn/qkv"),
        *linear("attention.self.key", d, d, "layers/attn/qkv"),
        *linear("attention.self.value", d, d, "layers/attn/qkv"),
        *linear("attention.output.dense", d, d, "layers/attn/out", tags=[OUT_PROJ]),
        *norm("attention.output.LayerNorm", d, "layers/attn/norm"),
        *linear("intermediate.dense", d, n.d_ff, "layers/mlp/up"),
        *linear("output.dense", n.d_ff, d, "layers/mlp/down"),
        *norm("output.LayerNorm", d, "layers/mlp/norm"),
    ]
    return [
        *embedding("embeddings.word_embeddings", n.vocab, d, "embeddings/token"),
        *embedding(
            "embeddings.position_embeddings", n.n_positions, d, "embeddings/position", position=True
        ),
        *embedding("embeddings.token_type_embeddings", n.n_types, d, "embeddings/token_type"),
        *norm("embeddings.LayerNorm", d, "embeddings/norm"),
        *layer("encoder.layer", block, n.n_layers),
    ]


def pooler(n: Dims) -> list[Param]:
    return linear("pooler.dense", n.d_model, n.d_model, "pooler")


def lm_head(n: Dims, head: str, tied: bool, word_embeddings: str) -> list[Param]:
    """Dense + LayerNorm transform, then a decoder whose weight (and bias) may be tied.

    When tied, transformers ties the decoder weight to the word embeddings and
    the decoder bias to the head's own ``bias``; untied, both are separate.
    """
    d = n.d_model
    if head == "bert":
        root, dense, ln = (
            "cls.predictions",
            "cls.predictions.transform.dense",
            "cls.predictions.transform.LayerNorm",
        )
    else:
        root, dense, ln = "lm_head", "lm_head.dense", "lm_head.layer_norm"
    return [
        Param(f"{root}.bias", (n.vocab,), "head/decoder", "other", frozenset({"bias"})),
        *linear(dense, d, d, "head/transform"),
        *norm(ln, d, "head/transform"),
        Param(
            f"{root}.decoder.weight",
            (n.vocab, d),
            "head/decoder",
            "linear",
            frozenset(),
            tied_to=word_embeddings if tied else None,
        ),
        Param(
            f"{root}.decoder.bias",
            (n.vocab,),
            "head/decoder",
            "linear",
            frozenset({"bias"}),
            tied_to=f"{root}.bias" if tied else None,
        ),
    ]


def build_bert(flags: Flags, n: Dims, head: str) -> list[Param]:
    if head == "base":
        return [*encoder(n), *pooler(n)]
    body = [p.with_prefix("bert.") for p in encoder(n)]
    if head in ("masked-lm", "causal-lm"):
        return [*body, *lm_head(n, "bert", flags["tied"], "bert.embeddings.word_embeddings.weight")]
    if head == "pretraining":
        # BertForPreTraining: the pooler stays (next-sentence prediction reads the pooled
        # [CLS]), the masked-LM head, then a 2-way next-sentence classifier
        return [
            *body,
            *(p.with_prefix("bert.") for p in pooler(n)),
            *lm_head(n, "bert", flags["tied"], "bert.embeddings.word_embeddings.weight"),
            *linear("cls.seq_relationship", n.d_model, 2, "head/next_sentence"),
        ]
    # seq-cls: the pooled [CLS] vector feeds one linear layer
    return [
        *body,
        *(p.with_prefix("bert.") for p in pooler(n)),
        *linear("classifier", n.d_model, n.n_labels, "head/classifier"),
    ]


def build_roberta(flags: Flags, n: Dims, head: str) -> list[Param]:
    if head == "base":
        return [*encoder(n), *pooler(n)]
    body = [p.with_prefix("roberta.") for p in encoder(n)]
    if head in ("masked-lm", "causal-lm"):
        return [
            *body,
            *lm_head(n, "roberta", flags["tied"], "roberta.embeddings.word_embeddings.weight"),
        ]
    # seq-cls: no pooler; its own dense layer on <s>, then the projection to labels
    return [
        *body,
        *linear("classifier.dense", n.d_model, n.d_model, "head/classifier"),
        *linear("classifier.out_proj", n.d_model, n.n_labels, "head/classifier"),
    ]


BERT = Family(
    model_type="bert",
    title="BERT",
    heads={
        "base": "BertModel",
        "masked-lm": "BertForMaskedLM",
        "causal-lm": "BertLMHeadModel",
        "seq-cls": "BertForSequenceClassification",
        "pretraining": "BertForPreTraining",
    },
    read=_reader(vocab=30522, positions=512),
    build=build_bert,
    symbols_doc=SYMBOLS,
)

ROBERTA = Family(
    model_type="roberta",
    title="RoBERTa",
    heads={
        "base": "RobertaModel",
        "masked-lm": "RobertaForMaskedLM",
        "causal-lm": "RobertaForCausalLM",
        "seq-cls": "RobertaForSequenceClassification",
    },
    read=_reader(vocab=50265, positions=512),
    build=build_roberta,
    symbols_doc=SYMBOLS,
)
