"""Part 2's probe only exports: the model's weights and names leave the kernel as data.

A notebook subclass whose `forward` ran a naive Bayes once scored 90 % on the hidden split;
a tokenizer whose `__call__` classified, a stand-in `resource` module rewriting the
probe's list of predictions, and a `forward` compiled under the library's file name got
through later. The probe now predicts nothing and imports nothing: it hands back the
state dict, in pieces the probe channel carries (`grader.checks.finetune_export`), and
the clean evaluator outside judges them (tests/grader/checks/test_finetune_eval.py). These tests
run the probe here, on real tiny models from the seeded cache, and put its pieces back
through the runner's own payload checks; `Student` is the probe's view of a namespace.
"""

from __future__ import annotations

import ast
import sys
import types

import pytest
import torch

from grader.checks import finetune_export
from grader.checks.finetune import FinetuneSettings
from grader.run import payload as channel
from grader.run.result import ProbePayload
from tests.conftest import PACK_DIR

PROBE = PACK_DIR / "probes" / "part2.py"


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
    namespace: dict = {"torch": torch}  # as the harness runs it: its torch, handed in
    exec(compile(PROBE.read_text(), "part2.py", "exec"), namespace)
    return namespace


def _load(snapshot: str):
    from transformers import AutoTokenizer, DistilBertForSequenceClassification

    model = DistilBertForSequenceClassification.from_pretrained(snapshot, num_labels=4)
    return model, AutoTokenizer.from_pretrained(snapshot)


def _base(**over) -> dict:
    return {"model": "model", "tokenizer": "tokenizer", "family": "distilbert", "family_not": "",
            "num_labels": 4, "shards": 1, "shard_bytes": finetune_export.SHARD_BYTES,
            "chunk_bytes": finetune_export.CHUNK_BYTES,
            "case_tensors": finetune_export.CASE_TENSORS, **over}


def export(probes, student, shards: int = 1, parts: int = 1, model: str = "model",
           **over) -> dict[str, ProbePayload]:
    """Every shard's payload, as the runner would read it: the probe's outputs laid out as
    the harness writes them, then through the runner's own payload checks."""
    payloads = {}
    for shard, rid in enumerate(finetune_export.request_ids(model, shards)):
        cases, tensors = {}, {}
        for part in range(parts):
            name = f"part-{part}"
            out = probes["export_model"](student, _base(model=model, shards=shards,
                                                        shard=shard, part=part, **over))
            meta = {"__info__": out.pop("__info__")}
            for key, value in out.items():
                meta[key] = {"shape": list(value.shape),
                             "dtype": str(value.dtype).replace("torch.", ""),
                             "device": "cpu", "requires_grad": bool(value.requires_grad)}
                tensors[f"{name}/{key}"] = value.detach().to("cpu").contiguous().clone()
            cases[name] = {"status": "ok", "outputs": meta, "seconds": 0.0}
        checked = channel.check_probe({"check": rid, "cases": cases}, rid, list(cases))
        payloads[rid] = ProbePayload(rid, "ok", cases=checked,
                                     tensors=channel.check_tensors(tensors, checked))
    return payloads


def test_the_probe_imports_nothing():
    """What it needs is handed in before the student's first cell: an `import` at probe
    time would read whatever the notebook left in sys.modules."""
    tree = ast.parse(PROBE.read_text())
    imports = [node.lineno for node in ast.walk(tree)
               if isinstance(node, ast.Import | ast.ImportFrom)]
    assert imports == []


def test_the_weights_and_names_come_back_and_nothing_is_predicted(probes, snapshot):
    model, tokenizer = _load(snapshot)
    payloads = export(probes, Student({"model": model, "tokenizer": tokenizer}))
    exported = finetune_export.collect("model", payloads)
    assert exported.why == ""
    state = model.state_dict()
    assert set(exported.state) == set(state)
    assert all(torch.equal(exported.state[k], state[k]) for k in state)
    info = exported.info
    assert (info["class"], info["model_type"], info["num_labels"]) == (
        "DistilBertForSequenceClassification", "distilbert", 4)
    assert info["tokenizer"] == type(tokenizer).__name__ and info["tokenizer_size"] == len(tokenizer)
    assert info["kernel_peak_rss_bytes"] > 0 and info["tensors"] == len(state)
    assert not any("predictions" in key for p in payloads.values() for key in p.tensors)


def test_a_model_in_several_shards_and_row_ranges_is_put_back_exactly(probes, snapshot):
    model, tokenizer = _load(snapshot)
    student = Student({"model": model, "tokenizer": tokenizer})
    small = {"shard_bytes": 300_000, "chunk_bytes": 100_000, "case_tensors": 12}
    probe = probes["export_model"](student, _base(**small, shards=99, shard=0, part=0))
    shards = probe["__info__"]["shards_needed"]
    assert shards > 1
    payloads = export(probes, student, shards=shards, parts=8, **small)
    keys = [k for p in payloads.values() for k in p.tensors]
    assert any("/rows-" in k for k in keys)  # the embedding matrix came in row ranges
    assert max(len(p.cases["part-0"]["outputs"]) for p in payloads.values()) <= 13
    exported = finetune_export.collect("model", payloads)
    assert exported.why == ""
    assert all(torch.equal(exported.state[k], v) for k, v in model.state_dict().items())
    # a shard lost on the way is never papered over
    last = finetune_export.request_ids("model", shards)[-1]
    payloads[last] = ProbePayload(last, "timeout", "Your code did not return in time.")
    assert finetune_export.collect("model", payloads).why == "Your code did not return in time."
    payloads[last] = ProbePayload(last, "ok", cases={"part-0": {"status": "ok", "outputs": {}}})
    assert "came back" in finetune_export.collect("model", payloads).why


def test_a_model_larger_than_planned_is_not_evaluated_and_says_why(probes, snapshot):
    model, tokenizer = _load(snapshot)
    payloads = export(probes, Student({"model": model, "tokenizer": tokenizer}),
                      shard_bytes=200_000, chunk_bytes=100_000)
    exported = finetune_export.collect("model", payloads)
    assert exported.state == {} and "probe shards" in exported.why


def test_the_plan_fits_the_packs_checkpoints(pack, hf_cache, tmp_path):
    """The tiny checkpoints need one shard; without the run's cache, the pack's models are
    sized from their real configs (RoBERTa-base: 124,645,632 parameters) and every float32
    byte of them has room."""
    assert finetune_export.plan(pack, hf_cache) == (1, 1)
    shards, parts = finetune_export.plan(pack, tmp_path / "no-cache")
    room = finetune_export.SHARD_BYTES - finetune_export.CHUNK_BYTES
    assert shards * room >= 124_645_632 * 4 and shards <= 16 and parts >= 2
    probes = finetune_export.requests(
        FinetuneSettings(evaluate="accuracy", model="model2", tokenizer="tokenizer2",
                         family_not="distilbert"),
        pack, hf_cache)
    assert [p.id for p in probes] == ["ft-predict-model2"]
    assert probes[0].function == "export_model"
    assert "texts" not in probes[0].cases[0]["params"]  # no text goes into the kernel


@pytest.mark.parametrize("standin", ["resource", "transformers", "safetensors"])
def test_a_stand_in_module_is_never_called(probes, snapshot, monkeypatch, standin):
    model, tokenizer = _load(snapshot)
    called = []
    fake = types.ModuleType(standin)
    fake.__getattr__ = lambda name: called.append(name)  # type: ignore[method-assign]
    monkeypatch.setitem(sys.modules, standin, fake)
    exported = finetune_export.collect(
        "model", export(probes, Student({"model": model, "tokenizer": tokenizer})))
    assert exported.why == "" and called == []


def test_a_notebook_subclass_is_exported_as_weights_and_named(probes, snapshot):
    """Its `forward` is not refused here any more: it is never run. The weights go to the
    evaluator, and its class's name to the TA."""
    from transformers import DistilBertForSequenceClassification
    from transformers.modeling_outputs import SequenceClassifierOutput

    class NaiveBayes(DistilBertForSequenceClassification):
        def forward(self, input_ids=None, attention_mask=None, **_):
            return SequenceClassifierOutput(logits=torch.zeros(len(input_ids), 4))

    model, tokenizer = _load(snapshot)
    cheat = NaiveBayes(model.config)
    cheat.load_state_dict(model.state_dict())
    cheat.classifier.register_forward_hook(lambda m, i, o: o * 0)
    exported = finetune_export.collect(
        "model", export(probes, Student({"model": cheat, "tokenizer": tokenizer})))
    assert exported.info["class"] == "NaiveBayes"
    assert all(torch.equal(exported.state[k], v) for k, v in model.state_dict().items())


def test_no_model_of_the_family_is_the_probes_error(probes, snapshot):
    model, tokenizer = _load(snapshot)
    with pytest.raises(LookupError, match="no fine-tuned model found"):
        probes["export_model"](Student({"tokenizer": tokenizer, "other": model}),
                               _base(family="roberta", shards=1, shard=0, part=0))
