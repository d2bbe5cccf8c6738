"""The second worked pack (`reference/attention-module-hw/`): student folders graded as handed in.

Why: the first pack's samples are single notebooks. Real courses hand out a module beside
a Colab notebook and get folders back; this pack is built that way, and its sample folders
must each get the score written in `submissions/attention-module-hw/expected.toml` before
any grading. One `grader grade` batch over the folder of sample folders, through the real
console script and sandbox, is shared by the tests below.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import nbformat
import pytest

from tests.grader.conftest import ROOT, needs_bwrap

PACK_DIR = ROOT / "reference" / "attention-module-hw"
SAMPLES = ROOT / "submissions" / "attention-module-hw"
EXPECTED = tomllib.loads((SAMPLES / "expected.toml").read_text())
MODULE = Path("dl4nlp") / "transformer_layers.py"


def grader(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def environment(tmp_path_factory):
    """The pack's environment (einops, from the pack's wheelhouse: offline), built once into
    a folder of this test module's own, so no user cache decides what the tests see."""
    envs = tmp_path_factory.mktemp("envs")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GRADER_ENVS", str(envs))
        done = grader("env", "build", str(PACK_DIR))
        assert done.returncode == 0, done.stdout + done.stderr
        yield envs


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"h7_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def records(tmp_path_factory, environment) -> dict[str, dict]:
    """Every sample folder graded once, with a fixed seed, by `grader grade` on their parent
    (two at a time, as on the two cores CI has)."""
    needs_bwrap()
    out = tmp_path_factory.mktemp("second-pack")
    done = grader("grade", str(SAMPLES), "-a", str(PACK_DIR), "--out", str(out),
                  "--seed", "11", "-j", "2", "--json")
    assert done.returncode == 0, done.stderr[-3000:]
    return {r["submission"]["name"].removesuffix(".ipynb"): r for r in json.loads(done.stdout)}


def message(record: dict, qid: str) -> str:
    return next(q["message"] for q in record["questions"] if q["id"] == qid)


@pytest.mark.sandbox
def test_every_sample_folder_gets_its_expected_score(records):
    assert set(records) == set(EXPECTED)
    got = {name: {q["id"]: q["score"] for q in r["questions"]} for name, r in records.items()}
    want = {name: dict(e["questions"]) for name, e in EXPECTED.items()}
    assert got == want
    assert {name: r["score"] for name, r in records.items()} == {
        name: e["score"] for name, e in EXPECTED.items()}
    assert records["correct"]["score"] == records["correct"]["max_score"] == 20
    assert sum(EXPECTED["correct"]["questions"].values()) == 20


@pytest.mark.sandbox
def test_messages_name_the_mistake(records):
    assert "hidden-cross-" in message(records["wrong-values-from-key"], "mha")
    assert "differs from the reference" in message(records["wrong-values-from-key"], "mha")
    assert "NaN" in message(records["wrong-plus-inf"], "mha")
    square = message(records["wrong-mask-square-only"], "mha")
    assert "RuntimeError" in square and "-mask" in square
    assert "TypeError" in message(records["wrong-tilde-float-mask"], "mha")
    assert "float-mask" in message(records["wrong-tilde-float-mask"], "mha")
    plain = message(records["wrong-pe-plain-attribute"], "pe")
    assert "dtype float32, expected float16" in plain
    assert "not implemented" in message(records["unfilled"], "mha")
    assert "F.scaled_dot_product_attention" in message(records["wrong-uses-sdpa"], "mha")
    # an error inside the student's module names the module's file and line
    broken = records["broken-syntax"]
    assert "dl4nlp/transformer_layers.py does not parse" in message(broken, "mha")
    assert any(e["ename"] == "SyntaxError" and "(at dl4nlp/transformer_layers.py:" in e["evalue"]
               for e in broken["run"]["cell_errors"])
    assert "dl4nlp/transformer_layers.py:" in square
    assert "S x S weights per head" in message(records["wrong-memory-square"], "memory")


@pytest.mark.sandbox
def test_the_correct_folder_runs_unedited_and_the_record_says_how(records):
    """The Colab starter runs as handed in: nothing crashes, nothing reads as tampering, and
    the record lists the student's files, each bridge the grader made, and the environment."""
    record = records["correct"]
    assert record["run"]["cell_errors"] == []
    assert record["flags"] == {"tamper": [], "printed_mismatch": [], "finetune": [],
                               "grader": []}
    assert {f["path"] for f in record["submission"]["files"]} == {
        "dl4nlp/__init__.py", "dl4nlp/transformer_layers.py"}
    notes = " | ".join(shim["note"] for shim in record["run"]["shims"])
    for bridged in ("drive.mount", "%cd /content/drive/MyDrive", "pip install einops",
                    "wget https://dl4nlp.example.org/hw4/attention_demo.safetensors",
                    "not tampering: added events.pre_run_cell"):
        assert bridged in notes
    assert record["environment"]["pack_env"].startswith("attention-module-hw-")


def test_generated_files_are_up_to_date():
    """The pack's template, solution and demo file, and every sample folder, are what the
    scripts write today: a pack edit that was not regenerated fails here, not in a batch."""
    make = load(PACK_DIR / "private" / "make_pack.py")
    for folder, which in (("template", 0), ("solution", 1)):
        assert (PACK_DIR / folder / MODULE).read_text() == make.module_source(which)
        notebook = nbformat.read(PACK_DIR / folder / make.NOTEBOOK, as_version=4)
        assert notebook == make.notebook(which)
    demo = (PACK_DIR / "public" / make.DEMO).read_bytes()
    assert demo == make.demo_file(make.load_reference())
    samples = load(SAMPLES / "make_samples.py")
    assert [s.name for s in samples.SAMPLES] == list(EXPECTED)
    for sample in samples.SAMPLES:
        for path, edits in ((MODULE, sample.edits), (Path(samples.NOTEBOOK), sample.notebook_edits)):
            text = samples.edited(sample.name, (PACK_DIR / sample.base / path).read_text(), edits)
            assert (SAMPLES / sample.name / path).read_text() == text, (sample.name, path)
        assert sum(sample.scores.values()) == EXPECTED[sample.name]["score"]


@pytest.mark.sandbox
def test_pack_validates_with_its_environment(environment):
    """Solution full marks and starter zero, each run from its folder with `dl4nlp/`."""
    needs_bwrap()
    done = grader("pack", "validate", str(PACK_DIR), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    findings = {f["name"]: f for f in json.loads(done.stdout)}
    assert all(f["ok"] for f in findings.values()), findings
    assert findings["solution"]["detail"].startswith("scores 20/20")


@pytest.mark.sandbox
def test_check_in_a_student_folder_takes_its_module(tmp_path, environment):
    """`grader check` run inside the folder as handed in: demo cases only, module included."""
    needs_bwrap()
    folder = tmp_path / "wrong-plus-inf"
    shutil.copytree(SAMPLES / "wrong-plus-inf", folder)
    done = grader("check", "Attention_Module.ipynb", "-a", str(PACK_DIR), "--json", cwd=folder)
    assert done.returncode == 1, done.stderr[-3000:]  # a question fails
    record = json.loads(done.stdout)
    status = {q["id"]: q["status"] for q in record["questions"]}
    assert (status["mha"], status["pe"]) == ("failed", "passed")
    assert "masked" in message(record, "mha") and "NaN" in message(record, "mha")
    assert {f["path"] for f in record["submission"]["files"]} == {
        "dl4nlp/__init__.py", "dl4nlp/transformer_layers.py"}
