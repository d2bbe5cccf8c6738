"""lora_parameters against peft's own count, across models, targets, bias modes and task types."""

from __future__ import annotations

import warnings

import pytest

import calculators as calc
from calculators.errors import ConfigError, UnsupportedConfig
from calculators.params import registry
from tests.calculators.realmodels import build

peft = pytest.importorskip("peft")

TINY_LLAMA = {
    "model_type": "llama",
    "vocab_size": 64,
    "hidden_size": 32,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "num_hidden_layers": 3,
    "intermediate_size": 40,
    "attention_bias": True,
}

CASES = [
    # (model, head, labels, targets, bias, task_type, modules_to_save)
    ("bert-base-uncased", "seq-cls", 4, ["query", "value"], "none", "SEQ_CLS", None),
    ("bert-base-uncased", "seq-cls", 4, ["query", "value"], "all", "SEQ_CLS", None),
    (
        "bert-base-uncased",
        "masked-lm",
        None,
        ["query", "key", "value", "dense"],
        "lora_only",
        None,
        None,
    ),
    ("distilbert-base-uncased", "seq-cls", 4, ["q_lin", "v_lin"], "none", "SEQ_CLS", None),
    ("distilbert-base-uncased", "seq-cls", 4, ["q_lin", "v_lin"], "all", "SEQ_CLS", None),
    ("roberta-base", "seq-cls", 2, ["query", "value"], "none", "SEQ_CLS", None),
    ("roberta-base", "seq-cls", 2, ["query", "value", "dense"], "lora_only", "SEQ_CLS", None),
    ("gpt2", "causal-lm", None, ["c_attn"], "none", "CAUSAL_LM", None),
    ("gpt2", "causal-lm", None, ["c_attn", "c_proj", "c_fc"], "all", "CAUSAL_LM", None),
    ("gpt2", "seq-cls", 3, ["c_attn"], "none", "SEQ_CLS", None),
    ("bloom-560m", "causal-lm", None, ["query_key_value"], "none", "CAUSAL_LM", None),
    ("pythia-160m", "causal-lm", None, ["query_key_value"], "none", "CAUSAL_LM", None),
    ("opt-125m", "seq-cls", 2, ["q_proj", "v_proj"], "all", "SEQ_CLS", None),
    ("t5-small", "seq2seq-lm", None, ["q", "v"], "none", "SEQ_2_SEQ_LM", None),
    ("t5-small", "seq2seq-lm", None, ["q", "v"], "all", None, None),
    (
        TINY_LLAMA,
        "causal-lm",
        None,
        ["q_proj", "k_proj", "v_proj", "o_proj"],
        "lora_only",
        "CAUSAL_LM",
        None,
    ),
    (TINY_LLAMA, "seq-cls", 5, ["q_proj", "v_proj", "gate_proj"], "all", "SEQ_CLS", None),
    (TINY_LLAMA, "causal-lm", None, r".*\.layers\.[02]\.self_attn\.(q|v)_proj", "none", None, None),
    (TINY_LLAMA, "causal-lm", None, ["embed_tokens", "q_proj"], "none", None, ["lm_head"]),
    ("bert-base-uncased", "base", None, ["query"], "none", None, ["pooler"]),
    # Qwen2: biases on q, k, v but not o, so lora_only trains three of the four biases
    ({**TINY_LLAMA, "model_type": "qwen2"}, "causal-lm", None,  # attention_bias ignored
     ["q_proj", "k_proj", "v_proj", "o_proj"], "lora_only", "CAUSAL_LM", None),
    ({**TINY_LLAMA, "model_type": "mistral", "sliding_window": 4}, "seq-cls", 3,
     ["q_proj", "v_proj"], "all", "SEQ_CLS", None),
]


def _peft_count(model_cfg, head, labels, targets, bias, task_type, saved, r):
    data = registry.load(model_cfg) if isinstance(model_cfg, str) else dict(model_cfg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = build(data, head, labels)
        config = peft.LoraConfig(
            r=r, target_modules=targets, bias=bias, task_type=task_type, modules_to_save=saved
        )
        wrapped = peft.get_peft_model(model, config)
    return wrapped.get_nb_trainable_parameters()


@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c[0] if isinstance(c[0], str) else c[0]['model_type']}"
)
def test_matches_peft(case):
    model_cfg, head, labels, targets, bias, task_type, saved = case
    r = 8
    trainable, all_params = _peft_count(model_cfg, head, labels, targets, bias, task_type, saved, r)
    c = calc.lora_parameters(
        model_cfg,
        head,
        labels,
        r=r,
        target_modules=targets,
        bias=bias,
        task_type=task_type,
        modules_to_save=saved,
    )
    assert c.total == trainable, c.breakdown
    assert sum(c.breakdown.values()) == c.total
    assert c.formula.subs(c.subs()) == c.total
    assert c.base_total + c._added() == all_params


def test_lab_b_config_on_bloom():
    """transfer-lab B's LoraConfig(r=16, target_modules=['query_key_value'], CAUSAL_LM)."""
    c = calc.lora_parameters(
        "bloom-560m", "causal-lm", r=16, target_modules=["query_key_value"], task_type="CAUSAL_LM"
    )
    # 24 layers x 16 x (1024 + 3072)
    assert c.total == 24 * 16 * (1024 + 3 * 1024) == 1_572_864


def test_plain_formula_stat8021_q3e():
    c = calc.lora_matrices([(6144, 6144), (6144, 6144)], r=8, n_layers=48)
    assert c.total == 48 * 2 * 8 * (6144 + 6144) == 9_437_184
    assert c.formula.subs(c.subs()) == c.total


def test_errors_name_the_field():
    with pytest.raises(ConfigError) as e:
        calc.lora_parameters("bert-base-uncased", target_modules=["nope"])
    assert e.value.field == "target_modules"
    with pytest.raises(UnsupportedConfig) as e:
        calc.lora_parameters("bert-base-uncased", target_modules=["LayerNorm"])
    assert "LoRA adapts Linear" in str(e.value)
    with pytest.raises(ConfigError) as e:
        calc.lora_parameters("bert-base-uncased", r=0)
    assert e.value.field == "r"
    with pytest.raises(ConfigError) as e:
        calc.lora_parameters("bert-base-uncased", bias="some")
    assert e.value.field == "bias"
