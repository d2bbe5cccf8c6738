"""The `logs` check kind: what a report claims per seed, held against the run's own logs.

Lab B's T3/T4 ask, for each of 3 seeds and for the pre-trained and the from-scratch
model, the best validation accuracy, the step it was reached at, and the test accuracy
at that step. A number typed into a report is easy to round up or to take from the
wrong step; the TensorBoard (or CSV) logs of the runs, when handed in, say what
happened. So each claim is checked field by field and every contradiction is named.

Claims are read from markdown tables (columns found by their headers: model, seed,
validation, step, test) or from lines such as "seed 1: best validation accuracy 0.853
at step 1200, test accuracy 0.841".

Rubric keys: `families` (name -> words naming it in paths and prose), `validation` and
`test` (scalar tags or CSV columns, first match wins), `tolerance` (on accuracies),
`claim_from` (report headings), `claim_tag` (a tagged markdown cell).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import Field

from grader.checks import CheckResult
from grader.checks.claims import claim_text
from grader.checks.kind import Context, Kind, Settings, generic_rows
from grader.checks.patterns import NUMBER
from grader.intake.runlogs import SEED, RunLog, read_logs
from grader.pack import Check, Question


def _tag(scalars: dict[str, dict[int, float]], wanted: list[str]) -> dict[int, float] | None:
    lowered = {t.lower(): t for t in scalars}
    for want in wanted:
        if want.lower() in lowered:
            return scalars[lowered[want.lower()]]
    return None


def best_of(run: RunLog, validation: list[str], test: list[str]) -> dict[str, Any] | None:
    """Best validation accuracy of a run, its step, and the test accuracy at that step."""
    val = _tag(run.scalars, validation)
    if not val:
        return None
    step = min(val, key=lambda s: (-val[s], s))  # the first step reaching the best
    tests = _tag(run.scalars, test) or {}
    at = tests.get(step)
    if at is None and tests:
        at = tests[min(tests, key=lambda s: abs(s - step))]
    return {"family": run.family, "seed": run.seed, "best_validation": round(val[step], 6),
            "step": step, "test": round(at, 6) if at is not None else None,
            "log": Path(run.path).name}


def _accuracy(text: str) -> float | None:
    match = NUMBER.search(text)
    if match is None:
        return None
    value = float(match.group(1))
    return value / 100 if match.group(2) or value > 1 else value


def _family(text: str, families: dict[str, list[str]]) -> str | None:
    low = text.lower()
    hits = [(low.find(w), name) for name, words in families.items() for w in words if w in low]
    return min(hits)[1] if hits else None


def parse_claims(text: str, families: dict[str, list[str]]) -> list[dict[str, Any]]:
    """Per-seed claims from markdown tables (by header) and from prose lines."""
    claims: list[dict[str, Any]] = []
    header: list[str] | None = None
    family_here: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                continue
            if header is None or not any(NUMBER.search(c) for c in cells):
                header = [c.lower() for c in cells]
                continue
            row = dict(zip(header, cells, strict=False))
            claim = {"line": number, "quote": stripped[:200],
                     "family": _family(" ".join(cells), families) or family_here}
            for col, value in row.items():
                if "seed" in col and value.isdigit():
                    claim["seed"] = int(value)
                elif "step" in col and re.fullmatch(r"\d+", value.replace(",", "")):
                    claim["step"] = int(value.replace(",", ""))
                elif "val" in col:
                    claim["best_validation"] = _accuracy(value)
                elif "test" in col:
                    claim["test"] = _accuracy(value)
            if "seed" in claim:
                claims.append(claim)
            continue
        header = None
        family_here = _family(stripped, families) or family_here
        seed = SEED.search(stripped)
        if not seed:
            continue
        claim = {"line": number, "quote": stripped[:200], "seed": int(seed.group(1)),
                 "family": _family(stripped, families) or family_here}
        val = re.search(r"val\w*[^0-9]{0,40}?(\d+(?:\.\d+)?\s*%?)", stripped, re.IGNORECASE)
        step = re.search(r"step\s*[:=]?\s*(\d[\d,]*)", stripped, re.IGNORECASE)
        test = re.search(r"test\w*[^0-9]{0,40}?(\d+(?:\.\d+)?\s*%?)", stripped, re.IGNORECASE)
        if val:
            claim["best_validation"] = _accuracy(val.group(1))
        if step:
            claim["step"] = int(step.group(1).replace(",", ""))
        if test:
            claim["test"] = _accuracy(test.group(1))
        if len(claim) > 4:
            claims.append(claim)
    return claims


def check_logs(check: Check, logs: list[Path], claim_text: str) -> CheckResult:
    s = check.settings
    families = {str(k): [str(w).lower() for w in v] for k, v in s.get("families", {}).items()}
    if not logs:
        return CheckResult("logs", 0.0, "not_graded", "No training logs were handed in, so "
                           "the per-seed figures cannot be checked: a TA reads them.", {})
    runs, errors = read_logs(logs, families)
    bests = [b for r in runs if (b := best_of(r, list(s.get("validation", [])),
                                               list(s.get("test", [])))) is not None]
    evidence: dict[str, Any] = {"runs": bests, "unreadable": errors}
    claims = parse_claims(claim_text, families)
    evidence["claims"] = claims
    if not bests:
        return CheckResult("logs", 0.0, "failed", "The logs hold no validation accuracy under "
                           f"the expected names ({', '.join(s.get('validation', []))}).", evidence)
    if not claims:
        return CheckResult("logs", 0.0, "failed", f"The logs of {len(bests)} runs were read, but "
                           "no per-seed figures were found in your report.", evidence)
    tolerance = float(s.get("tolerance", 0.005))
    checked = confirmed = 0
    contradictions = []
    for claim in claims:
        run = next((b for b in bests if b["seed"] == claim["seed"]
                    and (claim.get("family") is None or b["family"] == claim["family"])), None)
        if run is None:
            contradictions.append(f"line {claim['line']}: no log for seed {claim['seed']}"
                                  + (f" ({claim['family']})" if claim.get("family") else ""))
            checked += 1
            continue
        for key in ("best_validation", "step", "test"):
            if claim.get(key) is None or run.get(key) is None:
                continue
            checked += 1
            ok = (claim[key] == run[key] if key == "step"
                  else abs(claim[key] - run[key]) <= tolerance)
            confirmed += ok
            if not ok:
                contradictions.append(f"line {claim['line']}: {key.replace('_', ' ')} "
                                      f"{claim[key]:g} for seed {claim['seed']}, the log says "
                                      f"{run[key]:g}")
    evidence["contradictions"] = contradictions
    fraction = confirmed / checked if checked else 0.0
    status = "passed" if fraction == 1 else ("partial" if fraction else "failed")
    message = (f"All {checked} figures you report agree with the logs." if fraction == 1 else
               f"{checked - confirmed} of {checked} figures disagree with the logs: "
               + "; ".join(contradictions[:4]) + ".")
    return CheckResult("logs", fraction, status, message, evidence)


class LogsSettings(Settings):
    validation: list[str] = Field(min_length=1)
    """Scalar tags or CSV columns of the validation accuracy, first match wins."""
    test: list[str] = Field(min_length=1)
    families: dict[str, list[str]] = {}
    tolerance: float = Field(0.005, ge=0)
    claim_tag: str | None = None
    claim_from: list[str] = []


class Logs(Kind):
    name = "logs"
    Settings = LogsSettings

    def score(self, check: Check, question: Question, ctx: Context) -> CheckResult:
        return check_logs(check, ctx.logs, claim_text(check, question, ctx))

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        ev = check.get("evidence")
        if not isinstance(ev, dict):
            return {"rows": generic_rows(ev)}
        rows = [(f"seed {c.get('seed')}" + (f" ({c['family']})" if c.get("family") else ""),
                 ", ".join(f"{k.replace('_', ' ')} {c[k]:g}" for k in
                           ("best_validation", "step", "test") if isinstance(c.get(k), int | float)))
                for c in ev.get("claims") or [] if isinstance(c, dict)]
        rows += [("disagrees", text) for text in ev.get("contradictions") or []]
        return {"rows": rows + generic_rows(ev, ("claims", "contradictions", "runs"))}


KIND = Logs()
