"""The `series` check: curves read from printed lines, claims read from prose, and the
two held against each other (lab A, Q4)."""

from __future__ import annotations

import nbformat
import pytest

from grader.checks.claims import check_series, find_claim, parse_named_series
from grader.pack import Check

ALIASES = {"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch", "randomly initiali"]}
CHECK = Check("series", {"cell_tag": "q4", "metric": "val", "min_points": 2,
                         "series": ALIASES})


def notebook(lines: list[str]) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("...", metadata={"tags": ["q4"]})
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="\n".join(lines))]
    nb.cells.append(cell)
    return nb


AHEAD = notebook([f"epoch {k}: pretrained val accuracy {0.70 + 0.05 * k:.2f}, "
                  f"scratch val accuracy {0.55 + 0.04 * k:.2f}" for k in range(1, 5)])


def test_named_series_in_the_ways_they_are_printed():
    text = ("epoch 1: pretrained val accuracy 0.90, scratch val accuracy 85%\n"
            "Epoch 2 | val acc (pre-trained) 0.91 | val acc (randomly initialised) 0.86\n"
            "train loss 3.2\n")
    assert parse_named_series(text, ALIASES, "val") == {"pretrained": [0.9, 0.91],
                                                        "scratch": [0.85, 0.86]}


@pytest.mark.parametrize(("text", "better"), [
    ("The pre-trained model reaches a higher accuracy than the one trained from scratch.",
     "pretrained"),
    ("The model trained from scratch performs worse than the pretrained one.", "pretrained"),
    ("Here the scratch model beats the pretrained one.", "scratch"),
    ("Both models reach the same validation accuracy.", ""),
])
def test_claims_in_prose(text, better):
    claim = find_claim(text, ALIASES)
    assert claim is not None and claim[0] == better


def test_a_claim_the_curves_support_passes():
    result = check_series(CHECK, AHEAD, "The pretrained model consistently performs better.")
    assert result.status == "passed" and result.fraction == 1
    assert result.evidence["models"][0]["reported"]["pretrained"] == [0.75, 0.8, 0.85, 0.9]


def test_a_claim_the_curves_contradict_is_said_so():
    result = check_series(CHECK, AHEAD, "Training from scratch gives the better model.")
    assert result.status == "partial" and result.fraction == 0.5
    assert "show the opposite" in result.message


def test_no_claim_and_missing_curves():
    assert check_series(CHECK, AHEAD, "").fraction == 0.75
    half = notebook(["epoch 1: pretrained val accuracy 0.8", "epoch 2: pretrained val 0.9"])
    result = check_series(CHECK, half, "")
    assert result.fraction == 0.25 and "no scratch series" in result.message
    assert check_series(CHECK, None, "x").status == "manual"  # a TA reads the figure
