"""Printed values against the student's own computation: a fake "error: 0.0" is caught.

The demo cells print shapes, norms and errors on the public demo inputs. The probe
ran the student's code on the same inputs, so the grader knows what those lines
should say. A printed value that disagrees is flagged for the TA; it never earns or
costs points by itself (points come from the hidden cases).

A pack without a demo file (or a value no probe computes: a parameter count, the loss
at initialisation) gives the number itself (`value = 0.125`, or a shape `value = [2, 5,
16]`): the printed line is then compared with that.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from grader.checks.patterns import labelled_values
from grader.pack import Printed
from grader.run.result import ProbePayload, RunResult

if TYPE_CHECKING:  # tensors come with a run; reading a pack must not import torch
    import torch

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf"


def _find(run: RunResult, item: Printed) -> tuple[int, str] | None:
    """The last line `label: value` printed by the tagged cell (or any cell)."""
    found = None
    for index, text in run.printed(item.cell_tag):
        values = labelled_values(text, item.label, prefix=r"\s*", trim=" \t")
        if values:
            found = (index, values[-1])
    return found


def _actual(item: Printed, payload: ProbePayload | None,
            expected: dict[str, dict[str, torch.Tensor]]) -> Any:
    if item.value is not None:  # the pack's own number
        return list(item.value) if isinstance(item.value, list) else float(item.value)
    if payload is None or payload.status != "ok":
        return None
    tensor = payload.tensors.get(f"{item.case}/{item.output}")
    if tensor is None:
        return None
    import torch

    if item.stat == "shape":
        return list(tensor.shape)
    if item.stat == "norm":
        return float(tensor.to(torch.float64).norm())
    want = expected.get(item.case, {}).get(item.output)
    if want is None or want.shape != tensor.shape:
        return None
    return float((tensor.to(torch.float64) - want.to(torch.float64)).abs().max())


def cross_check(item: Printed, run: RunResult, payload: ProbePayload | None,
                expected: dict[str, dict[str, torch.Tensor]]) -> dict[str, Any]:
    """Evidence for one printed value: found or not, and whether it agrees."""
    row: dict[str, Any] = {"label": item.label, "stat": item.stat or "value"}
    found = _find(run, item)
    actual = _actual(item, payload, expected)
    if found is None:
        row.update(status="not printed")
        return row
    cell, text = found
    row.update(cell=cell, printed=text[:120])
    if actual is None:
        row.update(status="unverified")
        return row
    if item.stat == "shape" or isinstance(actual, list):
        numbers = [int(n) for n in re.findall(r"\d+", text)]
        agrees = numbers == actual
        row["computed"] = actual
    else:
        match = re.search(NUMBER, text, re.IGNORECASE)
        if match is None:
            row.update(status="unreadable", computed=actual)
            return row
        value = float(match.group(0))
        row["computed"] = actual
        if not (math.isfinite(value) and math.isfinite(actual)):
            # a NaN/inf that the code really computes is printed honestly as nan/inf;
            # JSON has no NaN, so the record keeps it as text
            agrees = (math.isnan(value) and math.isnan(actual)) or value == actual
            row["computed"] = repr(actual)
        else:
            tolerance = max(item.rtol * abs(actual), 1e-6 if item.stat == "error" else 1e-4)
            agrees = abs(value - actual) <= tolerance or (item.stat == "error" and
                                                          value <= 1e-3 and actual <= 1e-3)
    row["status"] = "agrees" if agrees else "disagrees"
    return row
