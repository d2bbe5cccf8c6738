"""Part 2 holds the model to what the question asks: the library's classifier, running
the library's forward, fine-tuned away from its checkpoint.

A notebook subclass of DistilBertForSequenceClassification whose `forward` ran a naive
Bayes once scored 90 % on the hidden split and 40/40. The probe runs here on real tiny
models from the seeded cache; `Student` is the probe's view of a notebook namespace.
"""

from __future__ import annotations

import pytest
import torch

from tests.conftest import PACK_DIR


class Student:
    """The two lookups the Part 2 probe makes of the notebook's namespace."""

    def __init__(self, namespace: dict) -> None:
        self.namespace = namespace

    def value(self, name, default=None):
        return self.namespace.get(name, default)

    def instances(self, kind):
        return [(k, v) for k, v in self.namespace.items() if isinstance(v, kind)]


@pytest.fixture
def snapshot(hf_cache) -> str:
    """The seeded tiny DistilBERT, by path (this process's hub client is not offline)."""
    from grader.models.cache import cached_models

    return str(cached_models(hf_cache)["distilbert-base-uncased"])


@pytest.fixture
def probes():
    namespace: dict = {}
    exec(compile((PACK_DIR / "probes" / "part2.py").read_text(), "part2.py", "exec"), namespace)
    return namespace


def _case() -> dict:
    return {"model": "model", "tokenizer": "tokenizer", "family": "distilbert", "family_not": "",
            "num_labels": 4, "batch_size": 8, "max_length": 32,
            "texts": ["stocks rally as markets open", "the team wins the final"]}


def _load(snapshot: str):
    from transformers import AutoTokenizer, DistilBertForSequenceClassification

    model = DistilBertForSequenceClassification.from_pretrained(snapshot, num_labels=4)
    return model, AutoTokenizer.from_pretrained(snapshot)


def test_the_library_model_is_evaluated_and_its_distance_recorded(probes, snapshot):
    model, tokenizer = _load(snapshot)
    out = probes["predict"](Student({"model": model, "tokenizer": tokenizer}), _case())
    assert out["predictions"].shape == (2,)
    assert out["__info__"]["weight_distance"] == pytest.approx(0.0, abs=1e-9)  # not trained
    with torch.no_grad():
        for p in model.distilbert.parameters():
            p.add_(0.01 * torch.randn_like(p))
    out = probes["predict"](Student({"model": model, "tokenizer": tokenizer}), _case())
    assert out["__info__"]["weight_distance"] > 1e-3


def test_a_notebook_subclass_with_its_own_forward_is_refused(probes, snapshot):
    from transformers import DistilBertForSequenceClassification
    from transformers.modeling_outputs import SequenceClassifierOutput

    class NaiveBayes(DistilBertForSequenceClassification):
        def forward(self, input_ids=None, attention_mask=None, **_):
            return SequenceClassifierOutput(logits=torch.zeros(len(input_ids), 4))

    NaiveBayes.__module__ = "__main__"
    model, tokenizer = _load(snapshot)
    cheat = NaiveBayes(model.config)
    with pytest.raises(TypeError, match="defined in your notebook"):
        probes["predict"](Student({"model": cheat, "tokenizer": tokenizer}), _case())


@pytest.mark.parametrize("patch", ["instance forward", "hook", "submodule forward"])
def test_a_library_model_with_its_forward_rewritten_is_refused(probes, snapshot, patch):
    model, tokenizer = _load(snapshot)
    if patch == "instance forward":
        model.forward = lambda **kw: None
    elif patch == "hook":
        model.classifier.register_forward_hook(lambda m, i, o: o * 0)
    else:
        model.distilbert.forward = lambda *a, **kw: None
    with pytest.raises(TypeError, match="must be the library's classifier"):
        probes["predict"](Student({"model": model, "tokenizer": tokenizer}), _case())
