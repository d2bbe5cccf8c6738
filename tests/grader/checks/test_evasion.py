"""Evasion is made visible: primitives an honest notebook never needs are found anywhere in
a submission, in the code the kernel really runs, and hold its kernel-judged points for a
TA (grader/checks/evasion.py, issue 25).

Each primitive below is found where it is written (cell and line, or module and line);
each honest idiom that looks like one is not; every honest sample of every pack is clean;
the issue's Part 1 attacks are found; a pack allow-lists what its course teaches, with a
typed setting.
"""

from __future__ import annotations

import nbformat
import pytest
from pydantic import ValidationError

from grader.checks.evasion import PRIMITIVES, describe, find, hold
from grader.checks.kind import Context
from grader.checks.static import StaticSettings, check_static
from grader.pack import load_pack
from grader.run.result import RunResult
from tests.grader.conftest import PACK_DIR, ROOT, SAMPLES

HEAD = "import sys\nimport gc\nimport inspect\nimport types\nimport torch\nimport safetensors.torch\n"


def notebook(*cells: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(HEAD), *(nbformat.v4.new_code_cell(c) for c in cells)]
    return nb


FOUND = {
    # namespace lookups by string
    "user_ns": ('f = get_ipython().user_ns["my" + "_fn"]', "namespace-lookup"),
    "globals()[...]": ('f = globals()["my_fn"]', "namespace-lookup"),
    "globals().get": ('f = globals().get("my_fn")', "namespace-lookup"),
    "vars(...)[...]": ('f = vars(sys.modules[__name__])["x"]', "namespace-lookup"),
    "sys.modules read": ('m = sys.modules["__main__"]', "namespace-lookup"),
    "sys.modules write": ('sys.modules["json"] = object()', "namespace-lookup"),
    "__main__": ("import __main__\nf = __main__.my_fn", "namespace-lookup"),
    "__import__": ('m = __import__("o" + "s")', "namespace-lookup"),
    "getattr on a module by computed name": ("name = 'x'\nf = getattr(torch, name)",
                                             "namespace-lookup"),
    "getattr of the shell's namespace, spelled": (
        'ns = getattr(get_ipython(), "user" + "_ns")', "namespace-lookup"),
    "getattr on the shell by computed name": (
        "ip = get_ipython()\nkey = 'x'\nns = getattr(ip, key)", "namespace-lookup"),
    # torch's modes switched off
    "DisableTorchFunction": ("with torch._C.DisableTorchFunction():\n    pass",
                             "torch-modes-off"),
    "DisableTorchFunction imported": ("from torch._C import DisableTorchFunction as D\n"
                                      "with D():\n    pass", "torch-modes-off"),
    "a mode stack popped": ("torch._C._pop_torch_function_stack()", "torch-modes-off"),
    "an alias of torch._C": ("C = torch._C\nwith C.DisableTorchFunctionSubclass():\n    pass",
                             "torch-modes-off"),
    # raw operators
    "torch.ops.aten": ("_aten = torch.ops.aten", "raw-operator"),
    "torch._C._nn": ("y = torch._C._nn.linear(x, w)", "raw-operator"),
    "from torch import ops": ("from torch import ops\ny = ops.aten.bmm(a, b)", "raw-operator"),
    # code built at run time
    "exec": ('exec("y = 1")', "dynamic-code"),
    "eval": ('y = eval("1 + 1")', "dynamic-code"),
    "compile": ('c = compile("1", "/x/safetensors/torch.py", "eval")', "dynamic-code"),
    "exec passed around": ("run = exec", "dynamic-code"),
    "types.FunctionType": ("f = types.FunctionType(g.__code__, {})", "dynamic-code"),
    "__code__ assigned": ("def f():\n    pass\nf.__code__ = (lambda: 1).__code__",
                          "dynamic-code"),
    "get_ipython().run_cell": ('get_ipython().run_cell("x = 1")', "dynamic-code"),
    # ctypes
    "ctypes": ("import ctypes", "ctypes"),
    "from ctypes": ("from ctypes import pythonapi", "ctypes"),
    # frames
    "sys._getframe": ("f = sys._getframe(1)", "frame-access"),
    "inspect.currentframe": ("f = inspect.currentframe()", "frame-access"),
    "gc.get_referrers": ("r = gc.get_referrers(x)", "frame-access"),
    "f_back": ("def walk(frame):\n    return frame.f_back", "frame-access"),
    "tb_frame": ("try:\n    1 / 0\nexcept Exception as e:\n    fr = e.__traceback__.tb_frame",
                 "frame-access"),
    # tracing and audit hooks
    "sys.settrace": ("sys.settrace(lambda *a: None)", "tracing-hook"),
    "sys.setprofile": ("sys.setprofile(None)", "tracing-hook"),
    "sys.addaudithook": ("sys.addaudithook(print)", "tracing-hook"),
    "threading.settrace": ("import threading\nthreading.settrace(print)", "tracing-hook"),
    # library attributes replaced
    "torch.allclose": ("torch.allclose = lambda *a, **k: True", "library-patch"),
    "a library class's method": ("torch.Tensor.__sub__ = lambda a, b: a", "library-patch"),
    "save_file": ("def fake(*a):\n    pass\nsafetensors.torch.save_file = fake",
                  "library-patch"),
    "an imported class": ("from transformers import DistilBertForSequenceClassification as M\n"
                          "M.forward = lambda self, **k: None", "library-patch"),
    "setattr on a library": ('setattr(torch, "allclose", lambda *a: True)', "library-patch"),
    "builtins": ("import builtins\nbuiltins.abs = lambda x: 0", "library-patch"),
}


@pytest.mark.parametrize("name", sorted(FOUND))
def test_each_primitive_is_found_with_its_cell_and_line(name):
    source, primitive = FOUND[name]
    found = find(notebook("x = 1", source))
    assert primitive in {f["primitive"] for f in found}, (name, found)
    hit = next(f for f in found if f["primitive"] == primitive)
    assert hit["cell"] == 2 and 1 <= hit["line"] <= source.count("\n") + 1
    assert "line" in describe(hit) and "cell 3" in describe(hit)


HONEST = {
    "model.eval()": "model.eval()",
    "re.compile": "import re\npattern = re.compile(r'\\d+')",
    "from re import compile": "from re import compile\npattern = compile('a')",
    "torch.compile": "fast = torch.compile(model)",
    "an evaluation function named eval": "def eval(model):\n    return 1\n\nacc = eval(model)",
    "Colab detection": "IN_COLAB = 'google.colab' in sys.modules",
    "torch settings": "torch.backends.cudnn.benchmark = False",
    "pandas settings": "import pandas as pd\npd.options.display.max_rows = 20",
    "a constant on a library": "torch.manual_seed(0)\nsafetensors.torch.VERBOSE = True",
    "own class's method attached": "class A:\n    pass\n\ndef f(self):\n    return 1\n\n"
                                   "A.forward = f",
    "own attributes": "class A:\n    def __init__(self, **kw):\n        self.__dict__.update(kw)\n"
                      "        self.x = getattr(self, 'y', None)",
    "inspect.signature": "params = inspect.signature(print).parameters",
    "getattr on the student's own objects": "layer = getattr(model, 'layer_' + str(1))",
    "importlib.reload": "import importlib\nimportlib.reload(sys)",
    "gc.collect": "gc.collect()",
    "a shell command": "!ls -la",
    "timing a cell": "%%time\ny = torch.zeros(3)\nprint(y.sum())",
    "a string that mentions exec": "s = 'exec(globals()[\"x\"])'  # eval in a comment",
    "matplotlib inline": "%matplotlib inline",
}


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_idioms_are_not_found(name):
    assert find(notebook(HONEST[name])) == []


def test_a_cell_magics_body_is_read_as_the_code_it_is():
    found = find(notebook("x = 1", "%%time\ny = 2\nz = globals()['x']"))
    assert [(f["primitive"], f["cell"], f["line"], f["magic"]) for f in found] == [
        ("namespace-lookup", 2, 3, "%%time")]
    assert "line 3 of cell 3 (in the body of %%time)" in describe(found[0])
    nested = find(notebook("%%capture out\n%%time\nexec('1')"))
    assert [(f["primitive"], f["line"]) for f in nested] == [("dynamic-code", 3)]


def test_a_line_magics_python_is_read():
    found = find(notebook("%time exec('1')", "%timeit -n 1 -r 1 sys._getframe()"))
    assert [(f["primitive"], f["cell"], f.get("magic")) for f in found] == [
        ("dynamic-code", 1, "%time"), ("frame-access", 2, "%timeit")]


def test_the_students_modules_are_read():
    found = find(None, {"mycourse/layers.py": "import sys\n\n\ndef f():\n"
                                              "    return sys._getframe()\n",
                        "mycourse/__init__.py": ""})
    assert [(f["primitive"], f["file"], f["line"]) for f in found] == [
        ("frame-access", "mycourse/layers.py", 5)]
    assert describe(found[0]).endswith("at mycourse/layers.py:5")
    # patching the student's own module is not patching a library
    own = find(notebook("import mycourse.layers\nmycourse.layers.f = lambda: 1"),
               {"mycourse/layers.py": "def f():\n    return 0\n"})
    assert own == []


def test_an_allowed_primitive_is_not_found_and_the_setting_is_typed():
    nb = notebook("exec('1')", "f = sys._getframe()")
    assert {f["primitive"] for f in find(nb, allow={"dynamic-code"})} == {"frame-access"}
    base = {"scope": "class:X", "forbid": ["a"]}
    assert StaticSettings(**base, allow=["dynamic-code", "ctypes"]).allow == [
        "dynamic-code", "ctypes"]
    with pytest.raises(ValidationError):
        StaticSettings(**base, allow=["dynamic_code"])  # not a primitive's name
    with pytest.raises(ValidationError):
        StaticSettings(**base, alow=["dynamic-code"])  # a misspelled key
    assert set(PRIMITIVES) >= {"namespace-lookup", "torch-modes-off", "raw-operator"}


def _honest_notebooks() -> list:
    packs = sorted(ROOT.glob("reference/*/solution/*.ipynb")) + sorted(
        ROOT.glob("reference/*/template/*.ipynb"))
    samples = [p for p in sorted(ROOT.glob("submissions/**/*.ipynb"))
               if not p.name.startswith("hostile-")]
    return packs + samples


def test_no_honest_notebook_of_any_pack_uses_a_primitive():
    notebooks = _honest_notebooks()
    assert len(notebooks) > 20
    for path in notebooks:
        folder = path.parent
        modules = {str(p.relative_to(folder)): p.read_text() for p in folder.rglob("*.py")
                   if not p.name.startswith("make_")}  # the sample generators are no submission
        assert find(nbformat.read(path, as_version=4), modules) == [], path


ATTACKS = {
    "hostile-namespace-lookup": {"namespace-lookup"},
    "hostile-aten-disable-torchfunction": {"raw-operator", "torch-modes-off"},
    "hostile-forged-safetensors": {"dynamic-code", "library-patch"},
    "hostile-monkeypatch": {"library-patch"},
    "hostile-forged-payload": {"library-patch"},
    "hostile-leak-hidden": {"frame-access"},
}


@pytest.mark.parametrize("sample", sorted(ATTACKS))
def test_the_attacks_are_found(sample):
    found = find(nbformat.read(SAMPLES / f"{sample}.ipynb", as_version=4))
    assert {f["primitive"] for f in found} == ATTACKS[sample]


def test_the_rule_reads_the_class_defined_under_a_cell_magic():
    """hostile-cell-magic-body: a placeholder in the tagged cell, the real class (calling
    the Q1(a)/(b) functions) under `%%time`. The rule judges the class the kernel binds."""
    rule = load_pack(PACK_DIR).question("q1c").checks[1]
    nb = nbformat.read(SAMPLES / "hostile-cell-magic-body.ipynb", as_version=4)
    cell = next(i for i, c in enumerate(nb.cells) if c.get("id") == "attack")
    assert nb.cells[cell].source.startswith("%%time\n")
    result = check_static(rule, nb)
    assert result.status == "failed"
    assert "get_multihead_qkv" in result.message
    first = result.evidence[0]
    assert first["cell"] == cell and first["line"] > 1  # in the body, numbered as the cell
    assert find(nb) == []  # a cell magic is no primitive


def test_an_unvouched_recording_is_held_never_passed():
    rule = load_pack(PACK_DIR).question("q1c").checks[1]
    nb = nbformat.read(SAMPLES / "solution.ipynb", as_version=4)
    clean = {"c0": ["aten::bmm", "aten::softmax"], "c1": ["aten::bmm"]}
    assert check_static(rule, nb, clean).status == "passed"
    for mark in ("grader::recording-bypassed", "grader::recording-stopped"):
        held = check_static(rule, nb, {**clean, "c1": ["aten::bmm", mark]})
        assert held.status == "manual" and mark in held.message
        assert held.evidence == [{"unvouched_cases": ["c1"], "markers": [mark]}]
    # a forbidden operator seen beside the mark is a plain failure
    failed = check_static(rule, nb, {"c0": ["grader::recording-bypassed",
                                            "aten::_scaled_dot_product_flash_attention"]})
    assert failed.status == "failed"


def _context(nb: nbformat.NotebookNode) -> Context:
    pack = load_pack(PACK_DIR)
    run = RunResult(executed=nb, cells=[], probes={}, telemetry={}, limits_hit=[],
                    seconds=0.0, restarts=0, sandbox="none")
    return Context(pack=pack, mode="grade", seed=0, run=run)


def test_a_primitive_holds_the_kernel_judged_checks_for_a_ta():
    pack = load_pack(PACK_DIR)
    question = pack.question("q1a")
    from grader.checks.registry import kind

    ctx = _context(nbformat.read(SAMPLES / "hostile-namespace-lookup.ipynb", as_version=4))
    result = kind("tensor").score(question.checks[0], question, ctx)
    assert result.status == "manual" and result.kind == "tensor"
    assert result.message.startswith("Held for a TA: the submission uses a namespace looked up")
    assert "user_ns" in result.message and "of cell" in result.message
    assert ctx.flags["tamper"] and ctx.flags["tamper"][0].startswith("evasion: ")
    q1c = pack.question("q1c")
    assert kind("static").score(q1c.checks[1], q1c, ctx).status == "manual"
    honest = _context(nbformat.read(SAMPLES / "solution.ipynb", as_version=4))
    assert hold("tensor", question.checks[0], honest) is None


def test_the_findings_reach_the_records_tamper_flags_once_each():
    """What the TA's sheet and every export read is the record, not the checks' context:
    each finding is one line of `flags.tamper` (the static read needs no kernel)."""
    from grader.grade import grade_notebook

    pack = load_pack(PACK_DIR)
    record = grade_notebook(pack, SAMPLES / "hostile-namespace-lookup.ipynb", execute=False,
                            seed=1)
    evasions = [line for line in record.flags.tamper if line.startswith("evasion: ")]
    assert evasions and len(evasions) == len(set(evasions))
    assert any("user_ns" in line and "of cell" in line for line in evasions)
    honest = grade_notebook(pack, SAMPLES / "solution.ipynb", execute=False, seed=1)
    assert honest.flags.tamper == []
