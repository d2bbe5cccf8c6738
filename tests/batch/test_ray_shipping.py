"""What a Ray task ships (grader.batch.ship), without starting Ray: the pack as an archive
that unpacks to the same pack, a submission folder that arrives with the same files,
refusals and digest, paths that may not leave their folder, and the start-up check's
comparison naming what a node lacks. The cluster itself: test_ray_cluster.py."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from grader.batch.engines import compare_facts
from grader.batch.ship import (
    Parcel,
    make_parcel,
    pack_bundle,
    shipped_task,
    unpack_bundle,
    unpack_parcel,
)
from grader.batch.work import Task
from grader.pack import load_pack
from tests.conftest import PACK_DIR, ROOT

MODULE_PACK = ROOT / "reference" / "attention-module-hw"
MODULE_SAMPLE = ROOT / "submissions" / "attention-module-hw" / "correct"


def test_the_pack_arrives_as_the_same_pack(tmp_path):
    pack = tmp_path / "stat8021-a3"
    shutil.copytree(PACK_DIR, pack)
    (pack / "__pycache__").mkdir(exist_ok=True)
    (pack / "__pycache__" / "junk.pyc").write_bytes(b"x")
    data = tmp_path / "elsewhere" / "test.jsonl"
    data.parent.mkdir()
    data.write_text('{"text": "a", "label": 0}\n')
    archive, bundle = pack_bundle(pack, (("test", str(data)),))
    assert bundle.digest == hashlib.sha256(archive).hexdigest()
    unpacked = unpack_bundle(archive, bundle.digest)
    task = shipped_task(Task(key="k", name="n", notebook="", pack_root=str(pack),
                             data=(("test", str(data)),)), bundle, unpacked)
    assert not Path(task.pack_root, "__pycache__").exists()
    assert load_pack(task.pack_root).fingerprint() == load_pack(pack).fingerprint()
    assert dict(task.data)["test"] != str(data)
    assert Path(dict(task.data)["test"]).read_bytes() == data.read_bytes()
    assert unpack_bundle(archive, bundle.digest) == unpacked  # once per process


def test_a_tampered_archive_is_refused(tmp_path):
    archive, bundle = pack_bundle(PACK_DIR)
    with pytest.raises(ValueError, match="digest"):
        unpack_bundle(archive + b"\0", bundle.digest)


def test_a_submission_folder_arrives_with_its_files_and_refusals(tmp_path):
    folder = tmp_path / "alice"
    shutil.copytree(MODULE_SAMPLE, folder)
    (folder / "dl4nlp" / "outside.py").symlink_to("/etc/hostname")  # refused, with why
    notebook = folder / "Attention_Module.ipynb"
    pack = load_pack(MODULE_PACK)
    taken = pack.student_files(folder, notebook)
    assert taken.taken and taken.refused
    task = Task(key="alice", name=notebook.name, notebook=str(notebook),
                pack_root=str(MODULE_PACK), extra={"folder": str(folder)})
    parcel = make_parcel(task, taken)
    local, files = unpack_parcel(task, parcel, tmp_path / "worker")
    assert Path(local.notebook).read_bytes() == notebook.read_bytes()
    assert not Path(local.notebook).is_relative_to(folder) and "folder" not in local.extra
    assert files.to_record() == taken.to_record() and files.digest() == taken.digest()
    for f in files.taken:
        assert f.source.read_bytes() == (folder / f.path).read_bytes()


def test_an_unreadable_notebook_is_the_problem_a_local_grading_records(tmp_path):
    task = Task(key="bob", name="bob.ipynb", notebook=str(tmp_path / "bob.ipynb"),
                pack_root=str(PACK_DIR))
    local, _ = unpack_parcel(task, make_parcel(task, None), tmp_path / "worker")
    assert "bob.ipynb could not be read" in local.extra["problem"]


@pytest.mark.parametrize("name", ["../escape.py", "/etc/passwd", "a/../../b.py"])
def test_a_shipped_path_cannot_leave_its_folder(tmp_path, name):
    task = Task(key="k", name="n", notebook="", pack_root=str(PACK_DIR))
    with pytest.raises(ValueError, match="refused"):
        unpack_parcel(task, Parcel(files=((name, b"x"),)), tmp_path / "worker")


def facts(**changes):
    base = {"grader": "0.1.0", "code": "c0de", "sandbox": None, "problems": [],
            "hf_cache": {"path": "/srv/hf", "exists": True},
            "models": {"distilbert-base-uncased": "rev1"}, "environment": None,
            "execution": "e" * 64}
    return {**base, **changes}


def test_a_node_like_the_driver_passes_the_check():
    assert compare_facts(facts(), facts()) == []


def test_the_check_names_what_a_node_lacks():
    missing = compare_facts(facts(), facts(hf_cache={"path": "/srv/hf", "exists": False},
                                           models={"distilbert-base-uncased": None}))
    assert len(missing) == 1 and "model cache /srv/hf is missing" in missing[0]
    stale = compare_facts(facts(), facts(models={"distilbert-base-uncased": "rev0"}))
    assert stale == ["model distilbert-base-uncased in /srv/hf: revision rev0, the "
                     "driver's rev1"]
    other = compare_facts(facts(), facts(grader="0.0.9", sandbox="bwrap: not found"))
    assert any("bubblewrap" in p for p in other) and any("grader 0.0.9" in p for p in other)
    drift = compare_facts(facts(), facts(execution="f" * 64))
    assert len(drift) == 1 and "execution digest" in drift[0]
