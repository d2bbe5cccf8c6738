"""The pure pieces of Part 2 grading: reading printed accuracies and predictions, the
rubric's credit table, the model cache layout, what the sandbox binds for GPUs, the
export's plan and what the evaluator's verdict shows a TA."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.checks.finetune import credit
from grader.checks.finetune_data import printed_labels, read_split
from grader.checks.finetune_evaluation import Evaluated, roles
from grader.checks.finetune_flags import model_flags
from grader.checks.series import parse_accuracy_series
from grader.evaluate.launch import ModelResult, Tried
from grader.models.cache import ModelCacheError, cached_models, install_snapshot, require
from grader.pack import PackError, load_pack
from grader.run.limits import Limits
from grader.run.sandbox import HF_MOUNT, Sandbox, SandboxPaths, gpu_device_nodes, gpus_from_env
from tests.conftest import PACK_DIR

LABELS = ("World", "Sports", "Business", "Sci/Tech")


@pytest.mark.parametrize(("text", "train", "test"), [
    ("Epoch 1: train accuracy 0.9312, test accuracy 0.9050", [0.9312], [0.905]),
    ("Train Acc: 85.2% | Test Acc: 83.1%", [0.852], [0.831]),
    ("epoch 1/3 loss 0.41 train_acc=0.85 val_acc=0.83", [0.85], [0.83]),
    ("Accuracy on test set: 0.86", [], [0.86]),
    ("Accuracy - train: 0.9, test: 0.85", [0.9], [0.85]),
    ("Epoch 2 | train loss 0.30 | test accuracy 0.9", [], [0.9]),
    ("Epoch 1\nTraining accuracy: 91.5\nValidation accuracy: 90.25", [0.915], [0.9025]),
    ("DistilBERT: 12.3 s of training\ntrain loss 0.2", [], []),
])
def test_accuracy_series_in_the_ways_students_print_it(text, train, test):
    assert parse_accuracy_series(text) == {"train_accuracy": train, "test_accuracy": test}


def test_printed_predictions_ignore_label_words_inside_the_news_text():
    items = ["The world cup final was won by the home team after extra time.",
             "Shares fell on wall street after a weak quarter for the bank."]
    printed = (f"1 Sports: {items[0]}\n"
               f"prediction for item 2 -> Business ({items[1]})\n")
    assert printed_labels(printed, LABELS, items) == [1, 2]
    assert printed_labels(f"{items[0]} => 0\n", LABELS, items) == [0]
    assert printed_labels("nothing here\n", LABELS, items) == []


def test_credit_table_takes_the_first_row_reached():
    table = [[0.85, 1.0], [0.75, 0.7], [0.6, 0.4], [0.4, 0.2]]
    assert credit(table, 0.85, 0.92) == 1.0
    assert credit(table, 0.85, 0.85) == 1.0
    assert credit(table, 0.85, 0.80) == 0.7
    assert credit(table, 0.85, 0.30) == 0.0
    assert credit([], 0.85, 0.84) == 0.0 and credit([], 0.85, 0.9) == 1.0


def test_pack_data_is_the_documented_format():
    texts, labels = read_split(PACK_DIR / "private" / "news_hidden.jsonl")
    assert len(texts) == len(labels) == 400 and set(labels) == {0, 1, 2, 3}
    train, _ = read_split(PACK_DIR / "public" / "ag_news_train.jsonl")
    assert not set(train) & set(texts), "the hidden split must not repeat training items"


def test_a_bad_finetune_rubric_names_the_key(tmp_path):
    import shutil

    shutil.copytree(PACK_DIR, tmp_path / "p")
    rubric = tmp_path / "p" / "pack.toml"
    rubric.write_text(rubric.read_text().replace("threshold = 0.85", "threshold = 85", 1))
    with pytest.raises(PackError, match=r"questions\[5\]\.checks\[0\]\.threshold"):
        load_pack(tmp_path / "p")


def test_data_overrides_keep_the_name_the_notebook_opens(tmp_path):
    pack = load_pack(PACK_DIR)
    mine = tmp_path / "real_train.jsonl"
    mine.write_text(json.dumps({"text": "a", "label": 0}) + "\n")
    moved = pack.with_data({"train": mine})
    files = dict((name, src) for src, name in moved.notebook_files())
    assert files["ag_news_train.jsonl"] == mine
    assert moved.fingerprint() != pack.fingerprint()
    with pytest.raises(PackError, match="data.bogus"):
        pack.with_data({"bogus": mine})


def test_install_snapshot_lays_out_the_hub_cache(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    (files / "config.json").write_text("{}")
    (files / "config.json").chmod(0o600)  # as save_pretrained leaves it
    cache = tmp_path / "cache"
    snapshot = install_snapshot(cache, "org/name", files)
    ref = (cache / "models--org--name" / "refs" / "main").read_text()
    assert snapshot == cache / "models--org--name" / "snapshots" / ref and len(ref) == 40
    assert (snapshot / "config.json").stat().st_mode & 0o044 == 0o044
    assert cached_models(cache) == {"org/name": snapshot}
    assert install_snapshot(cache, "org/name", files) == snapshot  # same files, same revision
    require(cache, ["org/name"])
    with pytest.raises(ModelCacheError, match="lacks other"):
        require(cache, ["org/name", "other"])


def test_gpu_nodes_are_the_given_cards_and_the_driver_controls(tmp_path):
    for name in ("nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm", "null"):
        (tmp_path / name).touch()
    nodes = gpu_device_nodes(("1",), dev=str(tmp_path))
    assert nodes == [str(tmp_path / n) for n in ("nvidia1", "nvidiactl", "nvidia-uvm")]
    assert gpu_device_nodes((), dev=str(tmp_path)) == []
    assert gpus_from_env({"CUDA_VISIBLE_DEVICES": "0, 2"}) == ("0", "2")
    assert gpus_from_env({"CUDA_VISIBLE_DEVICES": "-1"}) == ()
    assert gpus_from_env({}) == ()


def _argv(box: Sandbox, tmp_path: Path) -> list[str]:
    paths = SandboxPaths(scratch=tmp_path / "s", runtime=tmp_path / "r", io=tmp_path / "io",
                         io_mount="/run/g-x")
    return box.kernel_argv(paths, Limits())


def test_sandbox_mounts_the_model_cache_read_only_and_hides_gpus_by_default(tmp_path):
    box = Sandbox(kind="bwrap", hf_cache=str(tmp_path / "cache"))
    argv = _argv(box, tmp_path)
    i = argv.index(str(tmp_path / "cache"))
    assert argv[i - 1:i + 2] == ["--ro-bind", str(tmp_path / "cache"), HF_MOUNT]
    env = {argv[j + 1]: argv[j + 2] for j, a in enumerate(argv) if a == "--setenv"}
    assert env["HF_HUB_CACHE"] == HF_MOUNT and env["HF_HUB_OFFLINE"] == "1"
    assert env["CUDA_VISIBLE_DEVICES"] == ""
    assert "--dev-bind" not in argv
    assert any(a.startswith("--as=") for a in argv)


def test_sandbox_with_a_gpu_binds_its_nodes_and_drops_the_address_space_limit(tmp_path):
    box = Sandbox(kind="bwrap", gpus=("0",))
    argv = _argv(box, tmp_path)
    env = {argv[j + 1]: argv[j + 2] for j, a in enumerate(argv) if a == "--setenv"}
    assert env["CUDA_VISIBLE_DEVICES"] == "0"
    assert not any(a.startswith("--as=") for a in argv)  # CUDA reserves huge address space
    for node in gpu_device_nodes(("0",)):
        assert argv[argv.index(node) - 1] == "--dev-bind"


def test_time_budgets_of_questions_become_cell_timeouts():
    pack = load_pack(PACK_DIR)
    assert pack.limits.cell_timeout_for(["q2b"]) == 900
    assert pack.limits.cell_timeout_for(["q1a"]) == pack.limits.cell_timeout


def test_the_checks_of_one_model_share_one_export_and_no_text_enters_the_kernel(pack, hf_cache):
    from grader.checks.kind import Context
    from grader.grade import plan_probes

    # sized from the run's cache (the tiny models), not from whatever the machine's holds
    probes = {p.id: p for p in plan_probes(Context(pack=pack, mode="grade", seed=1,
                                                   hf_cache=hf_cache))}
    for model in ("model", "model2"):
        export = probes[f"ft-predict-{model}"]
        assert export.function == "export_model"
        assert [c["name"] for c in export.cases] == ["part-0"]  # the four checks, one request
    assert all("texts" not in c["params"] for p in probes.values() for c in p.cases)


def test_the_evaluator_is_asked_for_the_hidden_split_only_when_grading(pack):
    assert set(roles(pack, "grade")) == {"test", "hidden", "external"}
    assert set(roles(pack, "check")) == {"test", "external"}


def _result(**over) -> ModelResult:
    return ModelResult(**{"status": "ok", "checkpoint": "distilbert-base-uncased",
                          "architecture": "DistilBertForSequenceClassification",
                          "tokenizer": "DistilBertTokenizer",
                          "library_tokenizers": ["BertTokenizer", "BertTokenizerFast"],
                          "weight_distance": 0.2, **over})


def _said(**over) -> dict:
    return {"class": "DistilBertForSequenceClassification",
            "tokenizer": "DistilBertTokenizerFast", **over}


def _kinds(evaluated: Evaluated) -> list[str]:
    return [f["kind"] for f in model_flags("q2b", "model", evaluated)]


def test_an_honest_model_shows_nothing_to_a_ta():
    assert _kinds(Evaluated(info=_said(), result=_result())) == []
    assert _kinds(Evaluated(info=_said(tokenizer="PreTrainedTokenizerFast"),
                            result=_result())) == []


def test_what_the_notebooks_objects_were_is_shown_not_used():
    assert _kinds(Evaluated(info=_said(), result=_result(weight_distance=0.0))) == [
        "weights_unchanged"]
    flags = model_flags("q2b", "model", Evaluated(
        info=_said(**{"class": "NaiveBayes", "tokenizer": "ClassifyingTokenizer"}),
        result=_result()))
    assert [f["kind"] for f in flags] == ["model_class", "tokenizer_class"]
    assert "`NaiveBayes`" in flags[0]["message"] and "`ClassifyingTokenizer`" in flags[1]["message"]
    # a PEFT model is a wrapper by design: its class is not held against it
    assert _kinds(Evaluated(info=_said(**{"class": "PeftModelForSequenceClassification"}),
                            result=_result(peft_merged=True))) == []


def test_weights_the_library_cannot_take_are_named():
    tried = Tried(checkpoint="distilbert-base-uncased", missing=["classifier.bias"],
                  unknown=["nb.counts"], shapes=[], dtypes=[], missing_count=1, unknown_count=1)
    flags = model_flags("q2b", "model", Evaluated(info=_said(), result=_result(
        status="not_evaluable", why="not the library's classifier", tried=[tried])))
    assert [f["kind"] for f in flags] == ["not_evaluated"]
    assert "unknown nb.counts" in flags[0]["message"]
    assert "missing classifier.bias" in flags[0]["message"]
    # the grader's own failure is not the student's: no flag, the check says `error`
    assert _kinds(Evaluated(info=_said(), why="the grader's evaluator failed",
                            grader_failure=True)) == []
    found, why = Evaluated(info=_said(), why="the probe did not run").predictions("test")
    assert found is None and why == "the probe did not run"


def test_the_evaluator_gets_the_gpus_the_kernels_had(monkeypatch):
    """`--gpus 1` gives the kernels GPU 1; the clean evaluator that judges their weights
    must run there too, not on whatever CUDA_VISIBLE_DEVICES says in the grader."""
    import sys

    import nbformat

    from grader.checks.kind import Context
    from grader.checks.registry import kind
    from grader.evaluate.launch import evaluator_box
    from grader.run.result import RunResult

    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    assert evaluator_box("none", sys.executable, None, ("1",)).gpus == ("1",)
    assert evaluator_box("none", sys.executable, None, ()).gpus == ()  # kernels had none
    assert evaluator_box("none", sys.executable, None).gpus == ("0",)  # a stored run: env
    pack = load_pack(PACK_DIR)
    run = RunResult(executed=nbformat.v4.new_notebook(), cells=[], probes={}, telemetry={},
                    limits_hit=[], seconds=0.0, restarts=0, sandbox="none")
    ctx = Context(pack=pack, mode="grade", seed=0, run=run, gpus=("1",))
    question = next(q for q in pack.questions if any(c.kind == "finetune" for c in q.checks))
    check = next(c for c in question.checks if c.kind == "finetune")
    kind("finetune").score(check, question, ctx)  # no probe ran: nothing to evaluate
    assert ctx.cache["finetune"].gpus == ("1",)
