"""The runner on small notebooks written for one behaviour each (real kernel, real sandbox)."""

from __future__ import annotations

import json

import nbformat
import pytest
import torch
from safetensors.torch import save_file

from grader.run.limits import Limits
from grader.run.runner import ProbeRequest, Runner
from tests.grader.conftest import needs_bwrap

pytestmark = pytest.mark.sandbox


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


def _probe(tmp_path) -> ProbeRequest:
    cases = tmp_path / "in.safetensors"
    save_file({"c/in/x": torch.ones(2)}, str(cases), metadata={"params": json.dumps({"c": {}})})
    return ProbeRequest("q", "p", "def p(student, case):\n"
                        "    return {'y': student.call(student.function('f'), case['x'])}\n",
                        cases)


def test_an_output_flood_is_cut_recorded_and_interrupted(tmp_path):
    needs_bwrap()
    from grader.run.sandbox import Sandbox

    limits = Limits(cell_timeout=60, output_bytes=200_000)
    runner = Runner(Sandbox.create(), limits)
    # A loop: the budget stops it (an interrupt), long before its cell timeout. (Its sleep
    # lets the kernel send each line; a tight loop's output arrives in batches of 100s of MB.)
    flood = "import time\nwhile True:\n    print('x' * 100_000)\n    time.sleep(0.01)"
    result = runner.run(write(tmp_path, "def f(x):\n    return x + 1", flood, "print('after')"))
    assert [c.status for c in result.cells] == ["ok", "error", "ok"]
    assert result.cells[1].ename == "KeyboardInterrupt" and result.cells[1].seconds < 30
    assert [(h["limit"], h["cell"]) for h in result.limits_hit] == [("output_bytes", 1)]
    kept = sum(len(o.get("text", "")) for c in result.executed.cells for o in c.outputs)
    assert kept < 200_000 + 1_000
    notes = [o.get("text", "") for o in result.executed.cells[1].outputs]
    assert any("output limit reached" in text for text in notes)
    # One big print that has finished when the grader sees it: the interrupt sent then
    # must not land in the next cell.
    result = runner.run(write(tmp_path, "print('x' * 300_000)", "import time\ntime.sleep(1)"))
    assert [c.status for c in result.cells] == ["ok", "ok"]
    assert [(h["limit"], h["cell"]) for h in result.limits_hit] == [("output_bytes", 0)]


def test_a_kernel_ignoring_interrupts_is_replaced_and_the_good_cells_replayed(tmp_path,
                                                                            monkeypatch):
    needs_bwrap()
    from grader.run import kernel_lifecycle
    from grader.run.sandbox import Sandbox

    monkeypatch.setattr(kernel_lifecycle, "PING_TIMEOUT", 3)
    monkeypatch.setattr(kernel_lifecycle, "IOPUB_TIMEOUT", 2)
    monkeypatch.setattr(kernel_lifecycle, "SIDE_IOPUB_TIMEOUT", 1)
    sources = ["def f(x):\n    return x + 1",
               "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass",
               "print(f(1))"]
    result = Runner(Sandbox.create(), Limits(cell_timeout=2)).run(
        write(tmp_path, *sources), probes=[_probe(tmp_path)])
    assert [c.status for c in result.cells] == ["ok", "timeout", "ok"]
    assert result.restarts == 1
    assert [(h["limit"], h["cell"]) for h in result.limits_hit] == [("cell_timeout", 1)]
    assert result.executed.cells[2].outputs[0].text == "2\n"
    # The grader's cells ran beside the notebook, never in it.
    assert [c.source for c in result.executed.cells] == sources
    assert result.probes["q"].status == "ok"
