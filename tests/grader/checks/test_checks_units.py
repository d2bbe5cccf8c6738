"""The pieces of a check, without a kernel: comparisons, signatures, static rules."""

from __future__ import annotations

import nbformat
import pytest
import torch

from grader.checks.static import check_static
from grader.checks.tensor import compare_case
from grader.pack import Check
from grader.run.kernel_side import HARNESS_SOURCE


def meta(t: torch.Tensor, device: str = "cpu") -> dict:
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", ""),
            "device": device}


def judge(got: torch.Tensor, want: torch.Tensor, device: str = "cpu") -> dict:
    return compare_case("c", {"y": meta(got, device)}, {"c/y": got}, {"y": want}, 1e-3, 0.0)


def test_each_kind_of_wrong_output_gets_its_own_message():
    want = torch.randn(2, 3)
    assert judge(want.clone(), want)["passed"]
    assert "shape (3, 2), expected (2, 3)" in judge(want.T.contiguous(), want)["problem"]
    assert "dtype float64" in judge(want.double(), want)["problem"]
    assert "device 'cuda'" in judge(want.clone(), want, device="cuda")["problem"]
    nan = want.clone()
    nan[0, 0] = float("nan")
    assert "NaN" in judge(nan, want)["problem"]
    off = judge(want + 0.01, want)
    assert not off["passed"] and "max abs error 0.01" in off["problem"]
    assert off["outputs"][0]["max_abs_error"] == pytest.approx(0.01, rel=1e-4)


def test_a_missing_output_is_named():
    result = compare_case("c", {}, {}, {"y": torch.zeros(1)}, 1e-3, 0.0)
    assert result["problem"] == "`y` was not returned"


@pytest.fixture(scope="module")
def harness():
    space: dict = {"__name__": "harness_test"}
    exec(compile(HARNESS_SOURCE, "<harness>", "exec"), space)
    return space


def test_the_probe_api_explains_missing_names_and_wrong_signatures(harness):
    def f(x, w):
        return x

    student = harness["Student"]({"f": f, "n": 3})
    with pytest.raises(harness["ProbeError"]) as err:
        student.function("g")
    assert err.value.kind == "missing" and "does not define the function `g`" in str(err.value)
    with pytest.raises(harness["ProbeError"]) as err:
        student.cls("n")
    assert "is a int, not a class" in str(err.value)
    with pytest.raises(harness["ProbeError"]) as err:
        student.call(f, torch.zeros(2, 3), torch.zeros(3), 4)
    assert err.value.kind == "signature"
    assert "f(x, w)" in str(err.value) and "<tensor (2, 3)>" in str(err.value)
    assert student.call(f, 1, 2) == 1


def notebook(*sources: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])


RULE = Check("static", {"scope": "class:M", "forbid": ["helper", "F.scaled_dot_product_attention"]})


@pytest.mark.parametrize(("source", "found"), [
    ("class M:\n    def forward(self, x):\n        return x * 2", None),
    ("class M:\n    def forward(self, x):\n        return helper(x)", "helper"),
    ("import torch.nn.functional as F\nclass M:\n    def forward(self, q):\n"
     "        return F.scaled_dot_product_attention(q, q, q)", "scaled_dot_product_attention"),
    ("from torch.nn.functional import scaled_dot_product_attention as sdpa\nclass M:\n"
     "    def forward(self, q):\n        return sdpa(q, q, q)", "scaled_dot_product_attention"),
    ("attend = helper\nclass M:\n    def forward(self, q):\n        return attend(q)", "helper"),
    ("class M:\n    def helper(self, x):\n        return x\n    def forward(self, x):\n"
     "        return self.helper(x)  # helper() is our own method", None),
    ("class M:\n    def forward(self, x):\n        '''do not call helper here'''\n"
     "        return x", None),
])
def test_static_rule_reads_the_ast(source, found):
    result = check_static(RULE, notebook("import torch", source))
    if found is None:
        assert result.status == "passed", result.message
    else:
        assert result.status == "failed" and found in result.message


def test_static_rule_takes_the_last_definition_and_reports_a_missing_one():
    nb = notebook("class M:\n    def f(self):\n        return helper()",
                  "class M:\n    def f(self):\n        return 1")
    assert check_static(RULE, nb).status == "passed"
    assert check_static(RULE, notebook("x = 1")).status == "error"


def test_parsing_survives_a_finalizer_that_parses(monkeypatch):
    """CPython 3.11's gh-106905: a collection during `ast.parse` may run a finalizer that
    parses too (3.11's traceback formatting does, e.g. for asyncio's "Task exception was
    never retrieved"); the static checks must not fail with SystemError then."""
    import ast
    import gc

    from grader.checks.pysource import parse_python

    class Reenter:
        def __del__(self):
            ast.parse("x = (1 +\n 2)")

    source = "\n".join(f"v{i} = [{', '.join(map(str, range(30)))}]" for i in range(300))
    old = gc.get_threshold()
    gc.set_threshold(50)
    try:
        for _ in range(5):
            for _ in range(500):
                a = Reenter()
                a.cycle = [a]
            del a
            assert isinstance(parse_python(source), ast.Module)
    finally:
        gc.set_threshold(*old)
        gc.collect()


def test_matplotlibs_own_redraw_hook_is_benign_and_still_listed():
    """`import matplotlib.pyplot` under IPython registers its redraw after every cell: no
    tamper flag for a notebook that plots (issue 27 item 10), but the record lists it."""
    from grader.checks.tamper import benign_changes, diff_telemetry

    hook = "matplotlib.pyplot._draw_all_if_interactive"
    telemetry = {"baseline": {"hooks": {"events.post_execute": []}},
                 "after": {"hooks": {"events.post_execute": [hook]}}}
    assert diff_telemetry(telemetry) == []
    assert benign_changes(telemetry) == [f"added events.post_execute: {hook}"]
    # a notebook's own hook beside it is still a flag
    telemetry["after"]["hooks"]["events.post_execute"].append("__main__.spy")
    assert diff_telemetry(telemetry) == ["added events.post_execute: __main__.spy"]
