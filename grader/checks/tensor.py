"""The `tensor` check: the student's outputs on hidden cases against the reference's.

Why outside the kernel: a comparison that runs where the student's code runs can be
patched by it (`torch.allclose = lambda *a: True`). Here the probe's outputs arrive
as safetensors and are compared with outputs the reference computed in this process.
Each case is judged on shape, dtype, device, finiteness and closeness, in that order,
so the message names the first thing that is wrong, the way a TA would.
"""

from __future__ import annotations

from typing import Any

import torch

from grader.checks import CheckResult
from grader.pack import Check
from grader.run.result import ProbePayload

PROBLEM_TEXT = {
    "missing": "{message}",
    "signature": "{message}",
    "not_implemented": "it is not implemented yet ({message})",
    "exception": "it raised {message}",
    "timeout": "it did not return in time",
    "output": "{message}",
}


def _shape(t: Any) -> str:
    return "(" + ", ".join(str(d) for d in t) + ")"


def compare_case(name: str, got_meta: dict[str, Any], got: dict[str, torch.Tensor],
                 expected: dict[str, torch.Tensor], atol: float, rtol: float) -> dict[str, Any]:
    """Evidence for one case: passed or not, the first problem, and per-output errors."""
    outputs = []
    problem = None
    for key, want in expected.items():
        meta = got_meta.get(key)
        row: dict[str, Any] = {"output": key, "expected_shape": list(want.shape)}
        if meta is None or f"{name}/{key}" not in got and meta.get("device") != "meta":
            problem = problem or f"`{key}` was not returned"
            outputs.append(row)
            continue
        row.update(shape=meta["shape"], dtype=meta["dtype"], device=meta["device"])
        tensor = got.get(f"{name}/{key}")
        if list(meta["shape"]) != list(want.shape):
            problem = problem or (f"`{key}` has shape {_shape(meta['shape'])}, expected "
                                  f"{_shape(want.shape)}")
        elif meta["device"] != "cpu":
            problem = problem or f"`{key}` is on device {meta['device']!r}, not with its inputs (cpu)"
        elif meta["dtype"] != str(want.dtype).replace("torch.", ""):
            problem = problem or (f"`{key}` has dtype {meta['dtype']}, expected "
                                  f"{str(want.dtype).replace('torch.', '')}")
        elif tensor is not None:
            diff_ok = _closeness(tensor, want, atol, rtol, row)
            if not diff_ok and problem is None:
                if row.get("nan"):
                    problem = f"`{key}` contains NaN or infinite values"
                else:
                    problem = (f"`{key}` differs from the reference: max abs error "
                               f"{row['max_abs_error']:.3g} (tolerance {atol:g})")
        outputs.append(row)
    return {"case": name, "passed": problem is None, "problem": problem, "outputs": outputs}


def _closeness(got: torch.Tensor, want: torch.Tensor, atol: float, rtol: float,
               row: dict[str, Any]) -> bool:
    got64, want64 = got.to(torch.float64), want.to(torch.float64)
    finite_want = torch.isfinite(want64)
    if not torch.equal(torch.isfinite(got64), finite_want):
        row["nan"] = True
        return False
    diff = (got64 - want64).abs()[finite_want]
    scale = want64.abs()[finite_want]
    row["max_abs_error"] = float(diff.max()) if diff.numel() else 0.0
    row["max_rel_error"] = float((diff / scale.clamp_min(1e-12)).max()) if diff.numel() else 0.0
    row["norm"] = float(got64[finite_want].norm())
    row["expected_norm"] = float(want64[finite_want].norm())
    return bool((diff <= atol + rtol * scale).all())


def check_tensor(check: Check, payload: ProbePayload | None, expected: dict[str, dict[str, Any]],
                 scored_cases: list[str], *, hidden: bool) -> CheckResult:
    """Score one tensor check over `scored_cases` (hidden ones when grading, demo when checking)."""
    atol = float(check.settings.get("atol", 1e-3))
    rtol = float(check.settings.get("rtol", 0.0))
    target = check.target
    if payload is None or payload.status != "ok":
        message = payload.message if payload else "The probe did not run."
        return CheckResult("tensor", 0.0, "error", f"`{target}`: {message}")
    evidence = []
    for name in scored_cases:
        case = payload.cases.get(name)
        if case is None:
            evidence.append({"case": name, "passed": False,
                             "problem": "not reached (an earlier case stopped the probe)"})
            continue
        if case.get("status") != "ok":
            text = PROBLEM_TEXT.get(case.get("kind", ""), "{message}").format(
                message=case.get("message", ""))
            row = {"case": name, "passed": False, "problem": text, "kind": case.get("kind")}
            if case.get("where"):
                row["where"] = case["where"]
            evidence.append(row)
            continue
        evidence.append(compare_case(name, case.get("outputs", {}), payload.tensors,
                                     expected[name], atol, rtol))
    passed = sum(1 for e in evidence if e["passed"])
    total = len(evidence)
    per_case = check.settings.get("credit", "all") == "per-case"
    fraction = (passed / total if per_case else float(passed == total)) if total else 0.0
    which = "hidden" if hidden else "demo"
    if passed == total:
        return CheckResult("tensor", fraction, "passed",
                           f"`{target}` matches the reference on all {total} {which} cases "
                           f"(tolerance {atol:g}).", evidence)
    first = next(e for e in evidence if not e["passed"])
    where = first.get("where")
    at = f" (your line {where['line']}: `{where['code'].strip()}`)" if where else ""
    problem = str(first["problem"]).rstrip(".")
    message = (f"`{target}` passed {passed} of {total} {which} cases; on case {first['case']}: "
               f"{problem}{at}.")
    status = "partial" if fraction and fraction < 1 else ("failed" if not fraction else "passed")
    kinds = {e.get("kind") for e in evidence}
    if kinds & {"missing", "signature"} and passed == 0:
        status = "error"
    return CheckResult("tensor", fraction, status, message, evidence)
