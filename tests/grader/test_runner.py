"""The runner on small notebooks written for one behaviour each (real kernel, real sandbox)."""

from __future__ import annotations

import json

import nbformat
import torch
from safetensors.torch import save_file

from grader.run.limits import Limits
from grader.run.runner import ProbeRequest, Runner
from tests.grader.conftest import needs_bwrap


def write(tmp_path, *sources: str):
    path = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(s) for s in sources]), path)
    return path


def test_notebook_budget_skips_later_cells_and_probes_still_run(tmp_path):
    needs_bwrap()
    from grader.run.sandbox import Sandbox

    nb = write(tmp_path, "def f(x):\n    return x + 1", "import time\ntime.sleep(2)",
               "import time\ntime.sleep(2)", "print('never')")
    cases = tmp_path / "in.safetensors"
    save_file({"c/in/x": torch.ones(2)}, str(cases), metadata={"params": json.dumps({"c": {}})})
    probe = ProbeRequest("q", "p", "def p(student, case):\n"
                         "    return {'y': student.call(student.function('f'), case['x'])}\n",
                         cases)
    runner = Runner(Sandbox.create(), Limits(cell_timeout=10, notebook_timeout=3))
    result = runner.run(nb, probes=[probe])
    # The third cell gets what is left of the budget (about 1 s) and is interrupted.
    assert [c.status for c in result.cells] == ["ok", "ok", "timeout", "skipped"]
    assert [h["limit"] for h in result.limits_hit] == ["notebook_timeout"]
    assert result.limits_hit[0]["cell"] == 2
    payload = result.probes["q"]
    assert payload.status == "ok" and payload.tensors["c/y"].tolist() == [2.0, 2.0]
