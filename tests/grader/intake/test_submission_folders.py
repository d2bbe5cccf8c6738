"""A submission is a folder (issue 16, item 1): the student's module travels with the notebook.

A tiny pack whose students write `double` in `mycourse/layers.py` beside the notebook.
One real kernel run per student (module-scoped), read by several asserts: the module
and a data file arrive in the sandbox with their relative paths, two `__init__.py` do not
collide, links and pipes are refused with a reason, the record lists what was taken
with sha256, and an error raised in the module names `mycourse/layers.py:<line>`.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import nbformat
import pytest

from grader.batch.keys import submission_key
from grader.intake.files import default_folder, matches, take_files
from grader.pack import PackError, load_pack
from tests.conftest import needs_bwrap

PACK_TOML = """
[assignment]
id = "folder-hw"
title = "Folder homework"
notebook = "hw.ipynb"
total = 3
template = "hw.ipynb"
probes = "probes.py"
reference = "reference.py"
files = ["mycourse/**/*.py", "*.py", "data/*.csv"]
public_files = ["shared"]

[limits]
cell_timeout = 30
probe_timeout = 30
notebook_timeout = 120

[[questions]]
id = "q1"
title = "double"
points = 2
  [[questions.checks]]
  kind = "tensor"
  target = "double"

  [[questions.printed]]
  label = "rows"
  value = 2

  [[questions.printed]]
  label = "shape"
  value = [2, 3]

[[questions]]
id = "q2"
title = "double raises nothing"
points = 1
  [[questions.checks]]
  kind = "static"
  scope = "function:double"
  module = "mycourse/layers.py"
  forbid = ["ValueError"]
"""

PROBES = '''
def double(student, case):
    return {"output": student.call(student.function("double"), case["x"])}
'''

REFERENCE = '''
import torch

def hidden_cases(target, gen):
    return [{"name": "a", "tensors": {"x": torch.randn(3, generator=gen)}, "params": {}}]

def run_double(case):
    return {"output": case["tensors"]["x"] * 2}
'''

CELLS = [
    "from mycourse.layers import double\nimport helper\nimport mycourse.sub as sub",
    "rows = open('data/points.csv').read().split()\nprint(len(rows), helper.NAME, sub.LEVEL)",
    "print(open('shared/info.txt').read().strip())\nprint('rows:', len(rows))\n"
    "print('shape: (2, 4)')",
    "double(1)",
]

LAYERS_RIGHT = "def double(x):\n    return x * 2\n"
LAYERS_WRONG = "def double(x):\n    y = x + 1\n    raise ValueError('not yet')\n"


def _notebook(path: Path) -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nbformat.write(nb, path)


def make_pack(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "pack.toml").write_text(PACK_TOML)
    (root / "probes.py").write_text(PROBES)
    (root / "reference.py").write_text(REFERENCE)
    (root / "shared" / "deep").mkdir(parents=True)
    (root / "shared" / "info.txt").write_text("a public folder\n")
    (root / "shared" / "deep" / "more.txt").write_text("kept as a folder\n")
    _notebook(root / "hw.ipynb")
    return root


def make_student(folder: Path, layers: str) -> Path:
    (folder / "mycourse" / "sub").mkdir(parents=True)
    (folder / "data").mkdir()
    (folder / "mycourse" / "__init__.py").write_text("")
    (folder / "mycourse" / "sub" / "__init__.py").write_text("LEVEL = 'sub'\n")
    (folder / "mycourse" / "layers.py").write_text(layers)
    (folder / "helper.py").write_text("NAME = 'helper'\n")
    (folder / "data" / "points.csv").write_text("1,2\n3,4\n")
    (folder / "notes.txt").write_text("not taken: no glob matches it\n")
    os.symlink("/etc/hostname", folder / "stolen.py")
    os.mkfifo(folder / "pipe.py")
    _notebook(folder / "hw.ipynb")
    return folder / "hw.ipynb"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    needs_bwrap()
    from grader.grade import grade_notebook
    from grader.run.sandbox import Sandbox

    base = tmp_path_factory.mktemp("folders")
    pack = load_pack(make_pack(base / "pack"))
    box = Sandbox.create()
    out = {}
    for name, layers in (("right", LAYERS_RIGHT), ("wrong", LAYERS_WRONG)):
        notebook = make_student(base / name, layers)
        runs: list = []
        record = grade_notebook(pack, notebook, seed=7, sandbox=box, on_run=runs.append)
        out[name] = (record, runs[0])
    return out


@pytest.mark.sandbox
def test_the_module_and_data_arrive_with_their_tree(graded):
    record, run = graded["right"]
    assert [c.status for c in run.cells] == ["ok", "ok", "ok", "ok"], run.cells
    printed = "".join(o.get("text", "") for o in run.executed.cells[1].outputs)
    assert printed.strip() == "2 helper sub"
    assert record.score == 3, [q.message for q in record.questions]


@pytest.mark.sandbox
def test_a_public_folder_arrives_as_a_folder(graded):
    _, run = graded["right"]
    printed = "".join(o.get("text", "") for o in run.executed.cells[2].outputs)
    assert printed.startswith("a public folder\n")


@pytest.mark.sandbox
def test_printed_values_are_compared_with_the_packs_numbers(graded):
    record, _ = graded["right"]
    rows = {p["label"]: p for p in record.questions[0].printed}
    assert rows["rows"]["status"] == "agrees" and rows["rows"]["computed"] == 2.0
    assert rows["shape"]["status"] == "disagrees" and rows["shape"]["computed"] == [2, 3]


@pytest.mark.sandbox
def test_a_static_rule_reads_the_students_module(graded):
    right, wrong = graded["right"][0].questions[1], graded["wrong"][0].questions[1]
    assert right.status == "passed", right.message
    assert wrong.status == "failed"
    assert "found at mycourse/layers.py:3" in wrong.message, wrong.message


@pytest.mark.sandbox
def test_the_record_lists_files_taken_and_refused(graded, tmp_path):
    record, _ = graded["right"]
    taken = {f["path"]: f for f in record.submission["files"]}
    assert sorted(taken) == ["data/points.csv", "helper.py", "mycourse/__init__.py",
                             "mycourse/layers.py", "mycourse/sub/__init__.py"]
    assert taken["mycourse/layers.py"]["sha256"] == hashlib.sha256(
        LAYERS_RIGHT.encode()).hexdigest()
    refused = {r["path"]: r["why"] for r in record.submission["refused"]}
    assert set(refused) == {"stolen.py", "pipe.py"}
    assert "link" in refused["stolen.py"] and "pipe" in refused["pipe.py"]
    json.dumps(record.to_dict())  # the record stays plain JSON


@pytest.mark.sandbox
def test_an_error_in_the_module_names_its_file_and_line(graded):
    record, _ = graded["wrong"]
    message = record.questions[0].message
    assert record.score == 0
    assert "mycourse/layers.py:3" in message, message
    assert "/home/student" not in message and "/tmp" not in message
    errors = record.run["cell_errors"]
    assert [(e["cell"], e["ename"], e["evalue"]) for e in errors] == [
        (3, "ValueError", "not yet (at mycourse/layers.py:3)")]


def test_globs_match_like_recursive_glob():
    assert matches("mycourse/layers.py", "mycourse/**/*.py")
    assert matches("mycourse/a/b/c.py", "mycourse/**/*.py")
    assert not matches("other/layers.py", "mycourse/**/*.py")
    assert matches("helper.py", "*.py") and not matches("a/helper.py", "*.py")


def test_limits_refuse_the_rest_by_name(tmp_path):
    for i in range(4):
        (tmp_path / f"m{i}.py").write_text("x" * 100)
    found = take_files(tmp_path, ["*.py"], max_count=2)
    assert [f.path for f in found.taken] == ["m0.py", "m1.py"]
    assert [r["path"] for r in found.refused] == ["m2.py", "m3.py"]
    found = take_files(tmp_path, ["*.py"], max_bytes=250)
    assert len(found.taken) == 2 and "bytes" in found.refused[0]["why"]


def test_a_link_to_a_folder_is_refused_not_followed(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "x.py").write_text("")
    (tmp_path / "mycourse").mkdir()
    os.symlink(tmp_path / "real", tmp_path / "mycourse" / "inner")
    found = take_files(tmp_path, ["mycourse/**/*.py"])
    assert not found.taken
    assert found.refused == [{"path": "mycourse/inner", "why": "a link to a folder: not followed"}]


def test_a_folder_shared_by_notebooks_gives_no_files(tmp_path):
    (tmp_path / "ada.ipynb").write_text("{}")
    assert default_folder(tmp_path / "ada.ipynb") == tmp_path
    (tmp_path / "bob.ipynb").write_text("{}")
    assert default_folder(tmp_path / "ada.ipynb") is None


def test_the_cache_key_covers_the_files(tmp_path):
    nb = tmp_path / "hw.ipynb"
    nb.write_text("{}")
    (tmp_path / "m.py").write_text("a = 1\n")
    first = take_files(tmp_path, ["*.py"], notebook=nb).digest()
    (tmp_path / "m.py").write_text("a = 2\n")
    second = take_files(tmp_path, ["*.py"], notebook=nb).digest()
    keys = {submission_key("e", nb, [], mode="grade", seed=1, quick=False, files=d)
            for d in (first, second, "")}
    assert len(keys) == 3


@pytest.mark.parametrize("glob", ["../secret.py", "/etc/*.py", "a/../../b.py"])
def test_a_glob_leaving_the_folder_is_a_pack_error(tmp_path, glob):
    root = make_pack(tmp_path / "pack")
    rubric = root / "pack.toml"
    rubric.write_text(rubric.read_text().replace('"data/*.csv"', json.dumps(glob)))
    with pytest.raises(PackError) as err:
        load_pack(root)
    assert err.value.field == "assignment.files"


@pytest.mark.sandbox
def test_grader_check_in_the_students_folder_takes_the_same_files(tmp_path):
    """A student's folder often holds scratch notebooks too: `grader check` still takes
    the module beside the notebook checked, and says what it took and refused."""
    import subprocess
    import sys

    needs_bwrap()
    pack = make_pack(tmp_path / "pack")
    notebook = make_student(tmp_path / "me", LAYERS_WRONG)
    (tmp_path / "me" / "scratch.ipynb").write_text(notebook.read_text())
    done = subprocess.run([sys.executable, "-m", "grader", "check", str(notebook), "-a",
                           str(pack)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode in (0, 1), done.stderr
    assert "files beside the notebook: 5 taken (data/points.csv, helper.py" in done.stdout
    assert "not taken: pipe.py: not a plain file" in done.stdout
