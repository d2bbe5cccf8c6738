"""`grader.check("q1c")` in a notebook, as a student runs it in Jupyter.

A real kernel (nbclient) is told its notebook's path the way Jupyter tells it
(`JPY_SESSION_NAME`); the cell `grader.check("q1c")` self-checks that saved notebook,
with the public pack the course handed out beside it, and shows the question's result.
The checked notebook calls `grader.check` itself: its own sandboxed run must not check
again.
"""

from __future__ import annotations

import os

import nbformat
import pytest
from nbclient import NotebookClient

from tests.grader.conftest import SAMPLES, needs_bwrap

CELL = 'import grader.notebook as grader\ngrader.check("q1c")'


@pytest.mark.sandbox
def test_check_in_a_notebook_shows_that_question(tmp_path, hf_cache, pack):
    needs_bwrap()
    from grader.pack import export_public

    export_public(pack, tmp_path / "stat8021-a3-public")
    student = tmp_path / "Transformer_practice.ipynb"
    nb = nbformat.read(SAMPLES / "wrong-q1c-calls-standalone.ipynb", as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(CELL))  # what the student typed, and saved
    nbformat.write(nb, student)

    last = len(nb.cells) - 1
    peek = ("record = next(iter(grader._runs.values()))\n"  # the sandboxed run's own call
            f"print([e for e in record.run['cell_errors'] if e['cell'] == {last}])")
    session = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CELL),
                                              nbformat.v4.new_code_cell(peek)])
    env = {**os.environ, "JPY_SESSION_NAME": str(student), "GRADER_HF_CACHE": str(hf_cache)}
    env.pop("GRADER_ASSIGNMENT", None)
    NotebookClient(session, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute(env=env)
    outputs = session.cells[0].outputs
    shown = next(o for o in outputs if o.output_type == "execute_result")
    html, text = shown.data["text/html"], shown.data["text/plain"]
    assert 'data-question="q1c"' in html and 'data-status="failed"' in html
    assert "not right yet" in html and "0 / 12 pts" in html
    assert "found at line 19 of cell 12" in html and "<strong>Hint:</strong>" in html
    assert "Checked Transformer_practice.ipynb as saved at" in text
    # inside the sandboxed run, the notebook's own grader.check cell did not check again:
    # it returned quietly (grader installed from a wheel) or, from an editable checkout
    # the sandbox does not mount, could not import grader at all
    errors = session.cells[1].outputs[0].text.strip()
    assert errors == "[]" or ("ModuleNotFoundError" in errors and "'grader'" in errors
                              and errors.count("'cell'") == 1), errors


def test_check_does_nothing_inside_a_grader_run(monkeypatch):
    from grader.notebook import check
    from grader.run.sandbox import SCRATCH_MOUNT

    monkeypatch.setenv("HOME", SCRATCH_MOUNT)  # every sandboxed kernel's home
    shown = check("q1c", "no-such-notebook.ipynb")
    assert shown.status == "not run" and "inside the grader's own run" in str(shown)
