"""The pure pieces of Part 2 grading: reading printed accuracies and predictions, the
rubric's credit table, the model cache layout, and what the sandbox binds for GPUs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.checks.finetune import credit, printed_labels, read_split
from grader.checks.series import parse_accuracy_series
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
