"""Property: for random small configs of every family, the calculator equals the real model."""

from __future__ import annotations

import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import calculators as calc
from calculators.params.families import FAMILIES
from tests.calculators.realmodels import build, calc_names, occurrences, real_count

CONVENTIONS = [
    "exact",
    "no_bias",
    "no_layernorm",
    "weights_only",
    "no_out_proj",
    "no_position_embeddings",
    "untied",
    "no_embeddings",
    "no_bias+no_layernorm+untied",
]

small = st.integers(1, 3)
dim_per_head = st.integers(1, 4)
vocab = st.integers(5, 60)


@st.composite
def configs(draw):
    family = draw(st.sampled_from(sorted(FAMILIES)))
    heads = draw(small)
    d = heads * draw(dim_per_head)
    layers = draw(small)
    ff = draw(st.integers(1, 20))
    tie = draw(st.booleans())
    if family == "torch_transformer_encoder":
        data = {
            "ntoken": draw(vocab),
            "d_model": d,
            "nhead": heads,
            "dim_feedforward": ff,
            "nlayers": layers,
            "bias": draw(st.booleans()),
            "final_norm": draw(st.booleans()),
        }
    elif family in ("bert", "roberta"):
        data = {
            "vocab_size": draw(vocab),
            "hidden_size": d,
            "num_attention_heads": heads,
            "num_hidden_layers": layers,
            "intermediate_size": ff,
            "max_position_embeddings": draw(st.integers(1, 30)),
            "type_vocab_size": draw(st.integers(1, 3)),
            "tie_word_embeddings": tie,
            "pad_token_id": 0,
        }
    elif family == "distilbert":
        data = {
            "vocab_size": draw(vocab),
            "dim": d,
            "n_heads": heads,
            "n_layers": layers,
            "hidden_dim": ff,
            "max_position_embeddings": draw(st.integers(1, 30)),
            "tie_word_embeddings": tie,
            "pad_token_id": 0,
        }
    elif family == "gpt2":
        data = {
            "vocab_size": draw(vocab),
            "n_embd": d,
            "n_head": heads,
            "n_layer": layers,
            "n_positions": draw(st.integers(1, 30)),
            "n_inner": draw(st.one_of(st.none(), st.integers(1, 20))),
            "tie_word_embeddings": tie,
        }
    elif family == "llama":
        kv = draw(st.sampled_from([k for k in range(1, heads + 1) if heads % k == 0]))
        data = {
            "vocab_size": draw(vocab),
            "hidden_size": d,
            "num_attention_heads": heads,
            "num_key_value_heads": kv,
            "num_hidden_layers": layers,
            "intermediate_size": ff,
            "attention_bias": draw(st.booleans()),
            "mlp_bias": draw(st.booleans()),
            "tie_word_embeddings": tie,
        }
        if draw(st.booleans()):
            data["head_dim"] = 2 * draw(st.integers(1, 4))
    elif family in ("mistral", "qwen2"):  # LLaMA blocks; windows and biases have no knobs
        kv = draw(st.sampled_from([k for k in range(1, heads + 1) if heads % k == 0]))
        data = {
            "vocab_size": draw(vocab),
            "hidden_size": d,
            "num_attention_heads": heads,
            "num_key_value_heads": kv,
            "num_hidden_layers": layers,
            "intermediate_size": ff,
            "tie_word_embeddings": tie,
            "sliding_window": draw(st.one_of(st.none(), st.integers(2, 8))),
        }
        if family == "qwen2":
            data["use_sliding_window"] = draw(st.booleans())
            data["max_window_layers"] = draw(st.integers(0, layers))
        if draw(st.booleans()):
            data["head_dim"] = 2 * draw(st.integers(1, 4))
    elif family == "bloom":
        data = {
            "vocab_size": draw(vocab),
            "hidden_size": d,
            "n_head": heads,
            "n_layer": layers,
            "tie_word_embeddings": tie,
        }
    elif family == "gpt_neox":
        data = {
            "vocab_size": draw(vocab),
            "hidden_size": d,
            "num_attention_heads": heads,
            "num_hidden_layers": layers,
            "intermediate_size": ff,
            "attention_bias": draw(st.booleans()),
            "tie_word_embeddings": tie,
            "rotary_pct": 1.0,
        }
    elif family == "opt":
        data = {
            "vocab_size": draw(vocab),
            "hidden_size": d,
            "num_attention_heads": heads,
            "num_hidden_layers": layers,
            "ffn_dim": ff,
            "max_position_embeddings": draw(st.integers(1, 30)),
            "word_embed_proj_dim": draw(st.sampled_from([d, d + 1, max(1, d // 2)])),
            "enable_bias": draw(st.booleans()),
            "do_layer_norm_before": draw(st.booleans()),
            "tie_word_embeddings": tie,
            "pad_token_id": 0,
        }
    else:  # t5
        data = {
            "vocab_size": draw(vocab),
            "d_model": d,
            "d_kv": draw(dim_per_head),
            "num_heads": heads,
            "num_layers": layers,
            "num_decoder_layers": draw(small),
            "d_ff": ff,
            "relative_attention_num_buckets": draw(st.integers(1, 8)),
            "feed_forward_proj": draw(st.sampled_from(["relu", "gated-gelu"])),
        }
    head = draw(st.sampled_from(sorted(FAMILIES[family].heads)))
    labels = draw(st.integers(1, 5)) if head == "seq-cls" else None
    return {"model_type": family, **data}, head, labels


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs())
def test_calculator_equals_real_model(case):
    data, head, labels = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = build(data, head, labels)
    occ = occurrences(model, data["model_type"])
    for conv in CONVENTIONS:
        c = calc.count_parameters(data, head=head, num_labels=labels, convention=conv)
        assert c.total == real_count(occ, set(conv.split("+"))), (conv, c.breakdown)
        assert c.formula.subs(c.subs()) == c.total
    full = calc.count_parameters(data, head=head, num_labels=labels, convention="untied")
    assert calc_names(full.params) == {o["name"]: o["shape"] for o in occ}
