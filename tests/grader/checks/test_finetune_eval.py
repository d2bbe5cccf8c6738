"""The clean evaluator: Part 2's models judged from their exported weights, in a sandboxed
process that never ran the student's code.

Real tiny models from the seeded cache are exported by the real probe (through the
runner's own payload checks), put back together, and evaluated in the bubblewrap sandbox
with the pack's tokenizer. What the notebook's objects do (a forged `forward`, a
tokenizer that classifies, a config without a name) changes nothing of the predictions
and is shown to the TA. The four Part 2 attack samples (submissions/stat8021-a3/
make_part2_attacks.py) are read from the shared grading pass (`graded`).
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace

import pytest
import torch

from grader.checks import finetune_export
from grader.checks.finetune_data import read_split
from grader.checks.finetune_evaluation import evaluate_all
from grader.checks.finetune_flags import model_flags
from tests.conftest import SAMPLES
from tests.grader.checks.test_finetune_model_rules import PROBE, Student, export

pytestmark = pytest.mark.sandbox


def _attacks():
    spec = importlib.util.spec_from_file_location("make_part2_attacks",
                                                  SAMPLES / "make_part2_attacks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def probes():
    namespace: dict = {"torch": torch}
    exec(compile(PROBE.read_text(), "part2.py", "exec"), namespace)
    return namespace


@pytest.fixture
def snapshot(hf_cache) -> str:
    from grader.models.cache import cached_models

    return str(cached_models(hf_cache)["distilbert-base-uncased"])


@pytest.fixture
def sandboxed_run():
    """A run whose kernels were in bwrap: the evaluator runs there too."""
    from grader.grade import empty_run
    from tests.conftest import needs_bwrap

    needs_bwrap()
    return replace(empty_run(), sandbox="bwrap")


def _load(snapshot: str):
    from transformers import AutoTokenizer, DistilBertForSequenceClassification

    torch.manual_seed(0)
    model = DistilBertForSequenceClassification.from_pretrained(snapshot, num_labels=4)
    return model, AutoTokenizer.from_pretrained(snapshot)


def _evaluate(pack, run, hf_cache, payloads, mode="grade"):
    return evaluate_all(pack, run, payloads, mode, hf_cache, read_split)["model"]


def _library_predictions(snapshot: str, state: dict, texts: list[str]) -> list[int]:
    """What the library's classifier with these weights predicts, tokenized by the pack's
    tokenizer, computed here in the test's own process."""
    from transformers import AutoConfig, AutoTokenizer, DistilBertForSequenceClassification

    config = AutoConfig.from_pretrained(snapshot, num_labels=4)
    model = DistilBertForSequenceClassification(config)
    model.load_state_dict(state)
    model.eval()
    tokenizer = AutoTokenizer.from_pretrained(snapshot)
    found: list[int] = []
    with torch.no_grad():
        for at in range(0, len(texts), 64):
            enc = tokenizer(texts[at:at + 64], truncation=True, padding=True, max_length=128,
                            return_tensors="pt")
            found += model(**enc).logits.argmax(-1).tolist()
    return found


def test_an_untrained_model_without_a_name_is_still_flagged(pack, hf_cache, probes, snapshot,
                                                          sandboxed_run):
    model, tokenizer = _load(snapshot)
    model.config._name_or_path = ""  # once enough to lose the unchanged-weights evidence
    payloads = export(probes, Student({"model": model, "tokenizer": tokenizer}))
    evaluated = _evaluate(pack, sandboxed_run, hf_cache, payloads)
    found = evaluated.result
    assert found is not None and found.status == "ok", evaluated
    assert found.weight_distance == 0.0 and found.checkpoint == "distilbert-base-uncased"
    assert evaluated.run["sandbox"] == "bwrap" and evaluated.run["seconds"] > 0
    assert [f["kind"] for f in model_flags("q2b", "model", evaluated)] == ["weights_unchanged"]
    for role, data in (("test", "test"), ("hidden", "hidden"), ("external", "external")):
        assert len(found.predictions[role]) == len(read_split(pack.data[data])[0])
    # the public split only, when self-checking: the hidden texts are not even sent
    checked = _evaluate(pack, sandboxed_run, hf_cache, payloads, mode="check")
    assert set(checked.result.predictions) == {"test", "external"}


def test_the_library_forward_and_the_packs_tokenizer_decide(pack, hf_cache, probes, snapshot,
                                                          sandboxed_run):
    """A notebook subclass with a constant `forward`, a hook zeroing the logits, and a
    tokenizer that classifies: the evaluator predicts exactly what the library's class
    with these weights predicts on the pack's tokens, and the TA is told of both."""
    from transformers import DistilBertForSequenceClassification
    from transformers.modeling_outputs import SequenceClassifierOutput

    class NaiveBayes(DistilBertForSequenceClassification):
        def forward(self, input_ids=None, attention_mask=None, **_):
            return SequenceClassifierOutput(logits=torch.zeros(len(input_ids), 4))

    model, tokenizer = _load(snapshot)
    with torch.no_grad():  # a model that moved: trained, as far as the weights go
        for p in model.distilbert.parameters():
            p.add_(0.05 * torch.randn_like(p))
    cheat = NaiveBayes(model.config)
    cheat.load_state_dict(model.state_dict())
    cheat.classifier.register_forward_hook(lambda m, i, o: o * 0)

    class ClassifyingTokenizer(type(tokenizer)):
        def __call__(self, text, *args, **kwargs):
            raise AssertionError("the student's tokenizer must never be called")

    student = Student({"model": cheat, "tokenizer": ClassifyingTokenizer.from_pretrained(snapshot)})
    evaluated = _evaluate(pack, sandboxed_run, hf_cache, export(probes, student))
    found = evaluated.result
    assert found is not None and found.status == "ok", evaluated
    assert found.architecture == "DistilBertForSequenceClassification"
    texts = read_split(pack.data["test"])[0]
    assert found.predictions["test"] == _library_predictions(snapshot, model.state_dict(), texts)
    # and not what the notebook's own class computes (its constant logits: class 0)
    assert set(found.predictions["test"]) != {0}
    kinds = [f["kind"] for f in model_flags("q2b", "model", evaluated)]
    assert kinds == ["model_class", "tokenizer_class"]


def test_weights_that_are_not_the_librarys_are_not_evaluated_and_named(
        pack, hf_cache, probes, snapshot, sandboxed_run):
    from transformers import DistilBertForSequenceClassification

    class WithCounts(DistilBertForSequenceClassification):
        def __init__(self, config):
            super().__init__(config)
            self.nb_counts = torch.nn.Linear(3, 4)

    model, tokenizer = _load(snapshot)
    extra = WithCounts(model.config)
    evaluated = _evaluate(pack, sandboxed_run, hf_cache,
                          export(probes, Student({"model": extra, "tokenizer": tokenizer})))
    assert evaluated.result is not None and evaluated.result.status == "not_evaluable"
    assert evaluated.predictions("hidden")[0] is None
    tried = evaluated.result.tried[0]
    assert tried.unknown == ["nb_counts.bias", "nb_counts.weight"] and tried.missing == []
    flag = model_flags("q2b", "model", evaluated)[0]
    assert flag["kind"] == "not_evaluated" and "unknown nb_counts.bias" in flag["message"]


def test_a_lora_model_is_merged_into_the_library_class(pack, hf_cache, probes, snapshot,
                                                      sandboxed_run):
    peft = pytest.importorskip("peft")
    model, tokenizer = _load(snapshot)
    config = peft.LoraConfig(task_type="SEQ_CLS", r=4, lora_alpha=8,
                             target_modules=["q_lin", "v_lin"])
    lora = peft.get_peft_model(model, config)
    with torch.no_grad():  # adapters that change something
        for name, p in lora.named_parameters():
            if "lora_B" in name or "classifier" in name:
                p.add_(0.2 * torch.randn_like(p))
    evaluated = _evaluate(pack, sandboxed_run, hf_cache,
                          export(probes, Student({"model": lora, "tokenizer": tokenizer})))
    found = evaluated.result
    assert found is not None and found.status == "ok" and found.peft_merged, evaluated
    merged = lora.merge_and_unload().state_dict()
    texts = read_split(pack.data["test"])[0]
    expected = _library_predictions(snapshot, merged, texts)
    agree = sum(a == b for a, b in zip(found.predictions["test"], expected, strict=True))
    assert agree >= len(texts) - 2  # float order of the merge only
    assert found.weight_distance > 1e-4
    assert model_flags("q2b", "model", evaluated) == []


def test_an_evaluator_that_cannot_finish_is_the_graders_failure(pack, hf_cache, probes,
                                                               snapshot, sandboxed_run):
    from grader.evaluate import launch

    model, tokenizer = _load(snapshot)
    state = finetune_export.collect("model", export(
        probes, Student({"model": model, "tokenizer": tokenizer}))).state
    box = launch.evaluator_box("bwrap", sys.executable, hf_cache)
    job = launch.Job({"model": launch.ModelJob("distilbert", 4, ["distilbert-base-uncased"])},
                     {"test": ["a text"]})
    result = launch.run(job, {"model": state}, box, pack.limits, timeout=0.05)
    assert result.status == "error" and "took over" in result.why


# ----------------------------------------------------------------------------------------
# the Part 2 attack samples, graded with the others


ATTACKS = ("hostile-part2-tokenizer-classifier", "hostile-part2-resource-standin",
           "hostile-part2-forged-forward", "hostile-part2-untrained-no-name")


@pytest.mark.kernel
@pytest.mark.parametrize("name", ATTACKS)
def test_a_part2_attack_earns_nothing_and_is_shown_to_a_ta(graded, name):
    attacks = _attacks()
    sample = next(s for s in attacks.ATTACKS if s.name == name)
    record = graded[name].record
    got = {q.id: q.score for q in record.questions}
    for qid, points in attacks.PART2_POINTS.items():
        assert got[qid] == (0 if qid in sample.loses else points), (qid, got)
    # Part 1 is held for a TA where the evasion rule sees the attack's primitives; the rest
    # of the notebook scores as the solution does
    held = {q.id for q in record.questions if q.status == "manual" and q.id.startswith("q1")}
    assert held <= set(attacks.HELD.get(name, ()))
    part1 = sum(attacks.PART1[q] for q in held)
    assert record.score == attacks.PART2_ONLY[name] - part1, got
    assert attacks.FLAGS[name] <= {f["kind"] for f in record.flags.finetune}
    assert record.needs_human
