"""Parsers of student text stay linear: a hostile line costs milliseconds, not minutes.

Each case below took about 100 s per regex before (a lazy value followed by a class of
trailing spaces backtracks quadratically). The assertions compare against a small
input of the same shape in the same run, so a loaded machine cannot make them flaky:
a quadratic parser is thousands of times slower on the big input, a linear one about
as many times slower as the input is longer.
"""

from __future__ import annotations

import time

import nbformat

from grader.checks.patterns import labelled_values
from grader.checks.printed import cross_check
from grader.checks.series import parse_accuracy_series
from grader.pack.rubric import PrintedTable
from grader.run.result import CellReport, RunResult
from grader.written import notebook_answer

N = 150_000


def _cost(fn, text: str) -> float:
    start = time.perf_counter()
    fn(text)
    return time.perf_counter() - start


def _linear(fn, make) -> None:
    small, big = make(N // 100), make(N)
    fn(small)  # warm up
    ratio = _cost(fn, big) / max(_cost(fn, small), 1e-5)
    assert ratio < 2_000, f"{ratio:.0f}x slower on 100x the input: not linear"


def test_an_answer_line_of_spaces_is_read_in_linear_time():
    _linear(lambda t: labelled_values(t, "Answer"), lambda n: "Answer: 25 GB" + " " * n + "x")
    _linear(lambda t: labelled_values(t, "Answer"), lambda n: " " * n + "Answer")
    assert labelled_values("**Answer:** 25.77 GB  \n- Answer = 3", "Answer") == ["25.77 GB", "3"]


def test_a_tagged_answer_cell_still_reads_the_last_filled_line():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_markdown_cell("Answer: 12\nworking...\n**Answer:** 25.77 GB" +
                                         " " * N)
    cell.metadata["tags"] = ["q3c"]
    nb.cells.append(cell)
    found = notebook_answer(nb, "q3c")
    assert found.text == "25.77 GB"


def test_accuracy_lines_with_many_numbers_are_linear():
    _linear(parse_accuracy_series, lambda n: "acc " + " 1" * n)
    assert parse_accuracy_series("Epoch 1: train accuracy 0.93, test accuracy 0.90") == {
        "train_accuracy": [0.93], "test_accuracy": [0.9]}


def test_printed_cross_checks_are_linear():
    def run_of(text: str) -> RunResult:
        nb = nbformat.v4.new_notebook()
        cell = nbformat.v4.new_code_cell("")
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text)]
        nb.cells.append(cell)
        return RunResult(executed=nb, cells=[CellReport(0, [], "ok")], probes={}, telemetry={},
                         limits_hit=[], seconds=0.0, restarts=0, sandbox="none")

    item = PrintedTable(label="q shape", case="demo", output="q", stat="shape")
    _linear(lambda t: cross_check(item, run_of(t), None, {}),
            lambda n: "q shape: (1, 2)" + " " * n + "x")
    assert cross_check(item, run_of("q shape: (2, 3)\n"), None, {})["printed"] == "(2, 3)"
