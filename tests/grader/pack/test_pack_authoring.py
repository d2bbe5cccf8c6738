"""Pack authoring that does not crash (issue 16, item 4): an author's slip is a PackError
naming the key or the case, never a traceback. No kernel: every slip is found before one
would start (the public folder and printed values run in
tests/grader/intake/test_submission_folders.py).
"""

from __future__ import annotations

import pytest
import torch
from safetensors import safe_open

from grader.batch.driver import preflight
from grader.cases import read_demo, write_demo, write_inputs
from grader.pack import PackError, load_pack
from grader.validate import validate_pack
from tests.grader.intake.test_submission_folders import REFERENCE, make_pack


@pytest.fixture
def root(tmp_path):
    return make_pack(tmp_path / "pack")


def _reference(root, text: str) -> None:
    (root / "reference.py").write_text(text)


def _error(root, *, validate: bool = False, seed: int = 1) -> PackError:
    with pytest.raises(PackError) as err:
        pack = load_pack(root)
        if validate:
            validate_pack(pack, run_notebooks=False)
        else:
            preflight(pack, "grade", seed)
    return err.value


def test_cases_that_share_tensors_are_saved(tmp_path):
    x = torch.randn(2, 3, 4)
    cases = [{"name": "self", "tensors": {"query": x, "key": x, "value": x, "row": x[0]},
              "params": {"heads": 2}}]
    write_inputs(tmp_path / "in.safetensors", cases, "MHA")
    with safe_open(str(tmp_path / "in.safetensors"), framework="pt") as fh:
        assert torch.equal(fh.get_tensor("self/in/key"), x)
    write_demo(tmp_path / "demo.safetensors", {"MHA": cases}, {"MHA": {"self": {"output": x}}})
    demo_cases, expected = read_demo(tmp_path / "demo.safetensors")
    assert torch.equal(expected["MHA"]["self"]["output"], x)
    assert demo_cases["MHA"][0]["params"] == {"heads": 2}


def test_a_reference_that_fails_to_import_names_its_line(root):
    _reference(root, "import torch\n\nraise RuntimeError('half written')\n")
    err = _error(root)
    assert err.field == "assignment.reference"
    assert "reference.py:3 raised RuntimeError: half written" in str(err)


@pytest.mark.parametrize(("body", "field", "words"), [
    ("return [{'name': 'a', 'tensors': {'x': 3.0}, 'params': {}}]",
     "cases of double[0] ('a')", "'x' is not a tensor"),
    ("return [{'name': 'a', 'tensors': {}}]", "cases of double[0] ('a')", "missing params"),
    ("return {'a': 1}", "hidden_cases('double')", "not a list of cases"),
    ("raise KeyError(target)", "hidden_cases('double')", "raised KeyError"),
    ("return [{'name': 'a', 'tensors': {'x': torch.ones(2)}, 'params': {'t': torch.ones(1)}}]",
     "cases of double[0] ('a')", "params must be plain JSON"),
])
def test_a_hidden_case_slip_names_the_case(root, body, field, words):
    _reference(root, REFERENCE.replace(
        '    return [{"name": "a", "tensors": {"x": torch.randn(3, generator=gen)}, '
        '"params": {}}]', f"    {body}"))
    err = _error(root)
    assert err.field == field and words in str(err), str(err)
    assert _error(root, validate=True).field == field  # pack validate says the same


def test_a_reference_run_that_raises_names_the_case(root):
    _reference(root, REFERENCE.replace('return {"output": case["tensors"]["x"] * 2}',
                                       'return {"output": case["tensors"]["y"]}'))
    err = _error(root)
    assert err.field == "run_double('hidden-a')" and "KeyError" in str(err)


def test_a_probe_file_that_does_not_parse(root):
    (root / "probes.py").write_text("def double(student, case:\n    pass\n")
    err = _error(root, validate=True)
    assert err.field == "assignment.probes" and "probes.py:1" in str(err)


def test_a_template_that_is_no_notebook(root):
    (root / "hw.ipynb").write_text("{ not json")
    err = _error(root, validate=True)
    assert err.field == "assignment.template"


def test_a_demo_file_of_another_format(root):
    rubric = root / "pack.toml"
    rubric.write_text(rubric.read_text().replace('public_files = ["shared"]',
                                                 'public_files = ["shared"]\ndemo = "demo.bin"'))
    (root / "demo.bin").write_bytes(b"\x00" * 16)
    err = _error(root, validate=True)
    assert err.field == "assignment.demo"


@pytest.mark.parametrize(("old", "new", "field"), [
    ('scope = "function:double"', 'scope = "def double"', "questions[1].checks[0].scope"),
    ('module = "mycourse/layers.py"', 'module = "other/layers.py"',
     "questions[1].checks[0].module"),
    ('module = "mycourse/layers.py"', 'module = "../layers.py"', "questions[1].checks[0].module"),
    ('value = 2\n', 'value = 2\ncase = "a"\n', "questions[0].printed[0]"),
    ('value = 2\n', '', "questions[0].printed[0]"),
])
def test_rubric_slips_name_the_key(root, old, new, field):
    rubric = root / "pack.toml"
    assert old in rubric.read_text()
    rubric.write_text(rubric.read_text().replace(old, new, 1))
    with pytest.raises(PackError) as err:
        load_pack(root)
    assert err.value.field == field, str(err.value)


def test_a_public_folder_is_fingerprinted_as_a_tree(root):
    pack = load_pack(root)
    before = pack.fingerprint()
    (root / "shared" / "deep" / "more.txt").write_text("changed\n")
    assert load_pack(root).fingerprint() != before
    assert [name for _, name in pack.notebook_files()] == ["shared"]
