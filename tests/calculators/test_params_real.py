"""count_parameters against the real model, for every registry checkpoint, head and convention."""

from __future__ import annotations

import pytest

import calculators as calc
from calculators.params import registry
from calculators.params.families import FAMILIES
from tests.calculators.realmodels import build, calc_names, occurrences, real_count

SINGLE = [c for c in calc.conventions("params") if c != "exact"]
COMBOS = [
    "no_bias+no_layernorm",
    "no_bias+untied",
    "no_embeddings+untied",
    "no_out_proj+no_bias+no_position_embeddings",
    "weights_only+untied",
]

CASES = [
    (name, head)
    for name in registry.names()
    for head in FAMILIES[registry.load(name)["model_type"]].heads
]


@pytest.fixture(scope="module")
def real_models():
    cache = {}

    def get(name, head, num_labels=None):
        key = (name, head, num_labels)
        if key not in cache:
            data = registry.load(name)
            model = build(data, head, num_labels)
            cache[key] = occurrences(model, data["model_type"])
        return cache[key]

    return get


@pytest.mark.parametrize(("name", "head"), CASES, ids=[f"{n}-{h}" for n, h in CASES])
def test_registry_model_every_convention(real_models, name, head):
    labels = 4 if head == "seq-cls" else None
    occ = real_models(name, head, labels)
    for conv in ["exact", *SINGLE, *COMBOS]:
        c = calc.count_parameters(name, head=head, num_labels=labels, convention=conv)
        expected = real_count(occ, set(conv.split("+")))
        assert c.total == expected, (
            f"{name} {head} {conv}: calculator {c.total:,} vs model {expected:,}"
        )
        assert sum(c.breakdown.values()) == c.total


@pytest.mark.parametrize(("name", "head"), CASES, ids=[f"{n}-{h}" for n, h in CASES])
def test_registry_model_names_and_shapes(real_models, name, head):
    """Not only the totals: every real tensor is listed with its name and shape."""
    labels = 4 if head == "seq-cls" else None
    occ = real_models(name, head, labels)
    real = {o["name"]: o["shape"] for o in occ}
    c = calc.count_parameters(name, head=head, num_labels=labels, convention="untied")
    assert calc_names(c.params) == real


def test_published_totals():
    """Totals as the model cards and papers quote them (with the LM head where the card counts it)."""
    assert calc.count_parameters("bert-base-uncased").total == 109_482_240
    assert calc.count_parameters("distilbert-base-uncased").total == 66_362_880
    assert calc.count_parameters("gpt2", head="causal-lm").total == 124_439_808
    assert calc.count_parameters("Llama-2-7b", head="causal-lm").total == 6_738_415_616
    assert calc.count_parameters("TinyLlama-1.1B", head="causal-lm").total == 1_100_048_384
    assert calc.count_parameters("pythia-160m", head="causal-lm").total == 162_322_944
    # Mistral 7B ("7.24B"), Qwen2 0.5B and 7B as their model cards and reports give them
    assert calc.count_parameters("Mistral-7B-v0.1", head="causal-lm").total == 7_241_732_096
    assert calc.count_parameters("Qwen2-0.5B", head="causal-lm").total == 494_032_768
    assert calc.count_parameters("Qwen2-7B-Instruct", head="causal-lm").total == 7_615_616_512
    qwen = calc.count_parameters("Qwen2-0.5B", head="causal-lm")
    assert qwen.breakdown["layers/attn/qkv"] == 24 * (896 * 896 + 896 + 2 * (896 * 128 + 128))
    assert "layers/attn/out" in qwen.breakdown


def test_pretrained_config_and_hub_ids_are_accepted():
    import transformers

    cfg = transformers.DistilBertConfig(n_layers=3, num_labels=5)
    c = calc.count_parameters(cfg, head="seq-cls")
    assert c.num_labels == 5  # taken from the config when not given
    assert c.total == calc.count_parameters(cfg.to_dict(), head="seq-cls", num_labels=5).total
    hub = calc.count_parameters("openai-community/gpt2", head="causal-lm")
    assert hub.total == calc.count_parameters("GPT2", head="causal-lm").total == 124_439_808


def test_formula_and_breakdown_agree_with_total():
    for name in registry.names():
        c = calc.count_parameters(name, convention="no_bias+untied")
        subs = c.subs()
        assert c.formula.subs(subs) == c.total
        assert all(c.component_formulas[k].subs(subs) == v for k, v in c.breakdown.items())
        assert str(c.total) in c.to_json().replace(",", "")


def test_transfer_lab_a_model_against_real_torch_modules():
    """Lab A: nn.Embedding + nn.TransformerEncoder (dim_feedforward = nhid) + nn.Linear head."""
    from tests.calculators.realmodels import TutorialModel

    lab = {
        "model_type": "torch_transformer_encoder",
        "ntoken": 50001,
        "d_model": 200,
        "nhead": 2,
        "dim_feedforward": 200,
        "nlayers": 4,
    }
    for head, out in (("causal-lm", 50001), ("seq-cls", 2), ("base", None)):
        model = TutorialModel(50001, 200, 2, 200, 4, out)
        real = sum(p.numel() for p in model.parameters() if p.requires_grad)
        assert calc.count_parameters(lab, head=head, num_labels=2).total == real
    assert calc.count_parameters(lab, head="causal-lm").total == 21_018_401
