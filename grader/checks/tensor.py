"""The `tensor` check: the student's outputs on hidden cases against the reference's.

Why outside the kernel: a comparison that runs where the student's code runs can be
patched by it (`torch.allclose = lambda *a: True`). Here the probe's outputs arrive
as safetensors and are compared with outputs the reference computed in this process.
Each case is judged on shape, dtype, device, finiteness and closeness, in that order,
so the message names the first thing that is wrong, the way a TA would.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any, Literal, cast

from grader.checks import CheckResult
from grader.checks.evasion import hold
from grader.checks.kind import NOT_EXECUTED, Context, Finding, Kind, Probe, Settings, generic_rows
from grader.pack import Check, Pack, Question
from grader.run.result import ProbePayload

if TYPE_CHECKING:  # torch is imported where tensors are compared: reading a pack (its answer
    # key, `grader answers check`) discovers every kind and must not wait for torch
    import torch

    from grader.cases import Case

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
    import torch

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
    s = cast(TensorSettings, check.settings)
    atol, rtol, target = s.atol, s.rtol, s.target
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
    per_case = s.credit == "per-case"
    fraction = (passed / total if per_case else float(passed == total)) if total else 0.0
    which = "hidden" if hidden else "demo"
    if passed == total:
        return CheckResult("tensor", fraction, "passed",
                           f"`{target}` matches the reference on all {total} {which} cases "
                           f"(tolerance {atol:g}).", evidence)
    first = next(e for e in evidence if not e["passed"])
    where = first.get("where")
    at = (f" ({where['file']}:{where['line']}: `{where['code'].strip()}`)" if where and where.get(
        "file") else f" (your line {where['line']}: `{where['code'].strip()}`)" if where else "")
    problem = str(first["problem"]).rstrip(".")
    message = (f"`{target}` passed {passed} of {total} {which} cases; on case {first['case']}: "
               f"{problem}{at}.")
    status = "partial" if fraction and fraction < 1 else ("failed" if not fraction else "passed")
    kinds = {e.get("kind") for e in evidence}
    if kinds & {"missing", "signature"} and passed == 0:
        status = "error"
    return CheckResult("tensor", fraction, status, message, evidence)


# ----------------------------------------------------------------------------------------
# the kind: settings, hidden cases, probes, scoring, evidence, validation

HIDDEN_PREFIX = "hidden-"


class TensorSettings(Settings):
    target: str
    """The probe function (and reference `run_<target>`) of this check."""
    atol: float = 1e-3
    rtol: float = 0.0
    credit: Literal["all", "per-case"] = "all"


def demo(ctx: Context) -> tuple[dict[str, Any], dict[str, Any]]:
    """(demo cases by target, their expected outputs) from the pack's public demo file."""
    def read() -> tuple[dict[str, Any], dict[str, Any]]:
        from grader.cases import read_demo

        path = ctx.pack.demo_file
        return read_demo(path) if path is not None and path.is_file() else ({}, {})
    return ctx.once("tensor-demo", read)


def cases(ctx: Context, target: str) -> tuple[list[Case], dict[str, dict[str, torch.Tensor]],
                                              list[str]]:
    """(all cases sent to the kernel, expected outputs by case, names of scored cases).

    Grading sends the demo cases and hidden cases drawn from the submission's seed and
    scores the hidden ones, their outputs computed by the reference here; a self-check
    sends and scores the demo cases alone, against the demo file.
    """
    demo_cases, demo_expected = demo(ctx)
    sent = demo_cases.get(target, [])
    expected = dict(demo_expected.get(target, {}))
    if ctx.mode == "check":
        return sent, expected, [c["name"] for c in sent]

    def draw() -> tuple[list[Case], dict[str, dict[str, torch.Tensor]]]:
        import torch

        from grader.cases import draw_hidden

        ref = ctx.pack.reference()
        gen = torch.Generator().manual_seed(
            int.from_bytes(hashlib.sha256(f"{ctx.seed}:{target}".encode()).digest()[:7]))
        return draw_hidden(ref, target, gen, HIDDEN_PREFIX)  # an author's slip: a PackError

    hidden, outs = ctx.once(("tensor-hidden", target), draw)
    expected.update(outs)
    return sent + hidden, expected, [c["name"] for c in hidden]


def target_of(check: Check) -> str:
    """The probe function (and reference `run_<target>`) a tensor check calls."""
    return cast(TensorSettings, check.settings).target


def check_id(question: Question, check: Check) -> str:
    return f"{question.id}-{target_of(check)}"


class Tensor(Kind):
    name = "tensor"
    evidence_doc = """a list, one entry per case: `case`, `passed`, `problem`, `outputs` (per output:
                    `expected_shape`, `shape`, `dtype`, `device`, `max_abs_error`, `max_rel_error`, `norm`)."""
    label = "your code's outputs"
    flags = ("tamper",)
    evidence_of = "outputs"
    Settings = TensorSettings
    execution_keys = ("target",)

    def probes(self, check: Check, question: Question, ctx: Context) -> list[Probe]:
        sent, _expected, _scored = cases(ctx, target_of(check))
        return [Probe(check_id(question, check), target_of(check), sent)]

    def probe_functions(self, check: Check) -> list[str]:
        return [target_of(check)]

    def preflight(self, ctx: Context, checks: list[tuple[Question, Check]]) -> None:
        """Draw each target's hidden cases and compute their expected outputs once (the
        reference runs here): a slip in `hidden_cases` is a PackError naming the case."""
        if ctx.mode != "grade" or ctx.pack.is_public:
            return
        for name in sorted({target_of(c) for _, c in checks}):
            cases(ctx, name)

    def printed_source(self, check: Check, question: Question, ctx: Context
                       ) -> tuple[ProbePayload | None, dict[str, Any]]:
        """A printed value is checked against what this check's probe returned and the
        demo file's expected outputs of its target."""
        payload = ctx.run.probes.get(check_id(question, check)) if ctx.run else None
        return payload, demo(ctx)[1].get(target_of(check), {})

    def tolerances(self, question_id: str, check: Check) -> dict[str, float]:
        s = cast(TensorSettings, check.settings)
        return {f"{question_id}-{s.target}": s.atol}

    def score(self, check: Check, question: Question, ctx: Context) -> CheckResult:
        if not ctx.executed or ctx.run is None:
            return CheckResult("tensor", 0.0, "not_graded", NOT_EXECUTED)
        held = hold("tensor", check, ctx)  # a primitive that can forge what the kernel says
        if held is not None:
            return held
        _sent, expected, scored = cases(ctx, target_of(check))
        return check_tensor(check, ctx.run.probes.get(check_id(question, check)), expected,
                            scored, hidden=ctx.mode == "grade")

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        rows = []
        for case in check.get("evidence") or []:
            if not isinstance(case, dict):
                continue
            outputs = [o for o in case.get("outputs") or [] if isinstance(o, dict)]
            rows.append({"case": case.get("case", "?"), "passed": bool(case.get("passed")),
                         "problem": case.get("problem") or "", "outputs": outputs,
                         "extra": generic_rows(case, ("case", "passed", "problem", "outputs",
                                                      "kind"))})
        failing = [c for c in rows if not c["passed"]]
        return {"cases": rows, "n_passed": len(rows) - len(failing), "n_cases": len(rows)}

    def validate(self, pack: Pack, checks: list[tuple[Question, Check]]) -> list[Finding]:
        import torch

        targets = sorted({target_of(c) for _, c in checks})
        ctx = Context(pack=pack, mode="check", seed=0)
        demo_cases, demo_expected = demo(ctx)
        no_demo = [t for t in targets if t not in demo_cases]
        name = pack.demo_file.name if pack.demo_file else "(no demo file)"
        findings = [Finding("demo cases", not no_demo, f"no demo case for {no_demo}" if no_demo
                            else f"demo cases for every target in {name}")]
        if pack.is_public:
            return findings
        ref, problems = pack.reference(), []
        for target in targets:
            run = getattr(ref, f"run_{target}", None)
            if run is None:
                problems.append(f"no run_{target}")
                continue
            if not ref.hidden_cases(target, torch.Generator().manual_seed(0)):
                problems.append(f"no hidden cases for {target}")
            for case in demo_cases.get(target, []):
                for key, want in run(case).items():
                    got = demo_expected[target][case["name"]].get(key)
                    if got is None or got.shape != want.shape or not torch.allclose(
                            got, want, atol=1e-6):
                        problems.append(f"demo file out of date: {target}/{case['name']}/{key}")
        findings.append(Finding("reference", not problems, "; ".join(problems) or
                                "reference runs every target; the demo file agrees with it"))
        return findings


KIND = Tensor()
