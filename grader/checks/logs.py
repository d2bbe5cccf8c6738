"""The `logs` check kind: what a report claims per seed, held against the run's own logs.

Lab B's T3/T4 ask, for each of 3 seeds and for the pre-trained and the from-scratch
model, the best validation accuracy, the step it was reached at, and the test accuracy
at that step. A number typed into a report is easy to round up or to take from the
wrong step; the TensorBoard (or CSV) logs of the runs, when handed in, say what
happened. So each claim is checked field by field and every contradiction is named.

Claims are read by `grader.checks.seedclaims` from tables (a row per run or a column
per seed), lists and sentences ("for seed 2 the best validation accuracy is 85.3% at
step 1200, which gives 84.1% on the test set"); a contradiction names the report's line
as handed in. Without logs a TA scores the question from the quoted section.

Rubric keys: `families` (name -> words naming it in paths and prose), `fallback` (name
-> words naming it only where no family word is said), `validation` and `test` (scalar
tags or CSV columns, first match wins), `tolerance` (on accuracies), `claim_from`
(report headings), `claim_tag` (a tagged markdown cell).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from pydantic import Field

from grader.checks import CheckResult
from grader.checks.claims import Source, claim_sources, report_quote
from grader.checks.kind import Context, Kind, Settings, generic_rows
from grader.checks.manual import QUOTE_CHARS
from grader.checks.seedclaims import Families, parse_claims
from grader.intake.runlogs import RunLog, read_logs
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


def _families(s: LogsSettings) -> Families:
    def low(raw: dict[str, list[str]]) -> dict[str, list[str]]:
        return {str(k): [str(w).lower() for w in v] for k, v in raw.items()}

    return Families(low(s.families), low(s.fallback))


def read_claims(sources: list[Source], families: Families) -> list[dict[str, Any]]:
    """Every per-seed claim of the sources, each with `where` it is written."""
    claims = []
    for source in sources:
        for claim in parse_claims(source.text, families):
            claim["where"] = source.at(claim["line"])
            claim["line"] = source.first_line + claim["line"] - 1
            claims.append(claim)
    return claims


def _to_ta(message: str, evidence: dict[str, Any], quote: str) -> CheckResult:
    """A result a TA scores: the section quoted for the TA sheet."""
    if quote:
        evidence["answer_text"] = quote[:QUOTE_CHARS]
    return CheckResult("logs", 0.0, "manual", message, evidence)


def _matching_run(claim: dict[str, Any], bests: list[dict[str, Any]], tolerance: float
                  ) -> dict[str, Any] | None:
    """The run a claim is about: same seed and model; a claim that names no model is
    held against the run of that seed whose figures it matches best."""
    runs = [b for b in bests if b["seed"] == claim["seed"]
            and (claim.get("family") is None or b["family"] == claim["family"])]

    def agreeing(run: dict[str, Any]) -> int:
        return sum(1 for k in ("best_validation", "step", "test")
                   if claim.get(k) is not None and run.get(k) is not None
                   and (claim[k] == run[k] if k == "step"
                        else abs(claim[k] - run[k]) <= tolerance))

    return max(runs, key=agreeing, default=None)


FIELDS = ("best_validation", "step", "test")


def _agrees(claim: dict[str, Any], run: dict[str, Any], tolerance: float) -> bool:
    """Every figure of the claim is the run's."""
    return all(claim.get(k) is None or (run.get(k) is not None and (
        claim[k] == run[k] if k == "step" else abs(claim[k] - run[k]) <= tolerance))
        for k in FIELDS)


def _agreeing_run(claim: dict[str, Any], bests: list[dict[str, Any]], tolerance: float
                  ) -> dict[str, Any] | None:
    """For figures whose seed is not certain: the one run, among the seeds they may belong
    to (and their model, when named), whose figures they all are; None when none or two."""
    runs = [b for b in bests if b["seed"] in claim.get("candidates", [])
            and (claim.get("family") is None or b["family"] == claim["family"])
            and _agrees(claim, b, tolerance)]
    return runs[0] if len(runs) == 1 else None


def check_logs(check: Check, logs: list[Path], sources: list[Source] | str) -> CheckResult:
    """Each figure the report gives per seed against the best of that run's own log.

    Without logs (or with none readable), when the report's section holds figures the
    reader could not take apart, or when no run of the logs pairs with a seed of the
    report (logs whose paths name no seed), a TA scores the question (status `manual`,
    the section quoted on the TA sheet)."""
    if isinstance(sources, str):
        sources = [Source(sources, "report")]
    s = cast(LogsSettings, check.settings)
    families = _families(s)
    claims = read_claims(sources, families)
    quote = report_quote(sources)
    evidence: dict[str, Any] = {"claims": claims}
    if not logs:
        return _to_ta("No training logs were handed in, so the per-seed figures cannot be "
                      "checked against them: a TA reads them.", evidence, quote)
    runs, errors = read_logs(logs, families.words, families.fallback)
    bests = [b for r in runs if (b := best_of(r, s.validation, s.test)) is not None]
    evidence.update(runs=bests, unreadable=errors)
    if not bests:
        why = (f"none of the {len(logs)} log files could be read" if len(errors) == len(logs)
               else "the logs hold no validation accuracy under the expected names ("
               + ", ".join(s.validation) + ")")
        return _to_ta(f"The per-seed figures cannot be checked: {why}; a TA reads them.",
                      evidence, quote)
    if not claims:
        if quote.strip():
            return _to_ta(f"The logs of {len(bests)} runs were read, but no per-seed figures "
                          "could be read from your report: a TA reads them.", evidence, quote)
        return CheckResult("logs", 0.0, "failed", f"The logs of {len(bests)} runs were read, "
                           "but your report gives no per-seed figures.", evidence)
    tolerance = s.tolerance
    if not any(_matching_run(c, bests, tolerance) for c in claims):
        seeds = sorted({str(b["seed"]) for b in bests if b["seed"] is not None})
        return _to_ta("No run of the logs could be paired with a seed of your report (the "
                      "logs name seeds " + (", ".join(seeds) if seeds else "nowhere")
                      + "): a TA reads the figures.", evidence, quote)
    checked = confirmed = 0
    contradictions = []
    unsure = []
    for claim in claims:
        if claim.get("certain") is False:
            # not certain which seed these figures are: they agree when every figure is
            # that of one run of a seed they may belong to, else a TA pairs them
            run = _agreeing_run(claim, bests, tolerance)
            if run is None:
                unsure.append(claim)
                continue
            claim.update(seed=run["seed"], paired_by="the logs")
            n = sum(1 for k in FIELDS if claim.get(k) is not None)
            checked, confirmed = checked + n, confirmed + n
            continue
        run = _matching_run(claim, bests, tolerance)
        models = {b["family"] for b in bests if b["seed"] == claim["seed"]}
        if run is not None and claim.get("family") is None and len(models) > 1 \
                and not _agrees(claim, run, tolerance):
            # no model named, the logs hold this seed for several: not certain which run
            claim.update(certain=False, candidates=[claim["seed"]],
                         why=f"no model is named and the logs hold seed {claim['seed']} "
                         "of " + " and ".join(sorted(str(m) for m in models)))
            unsure.append(claim)
            continue
        if run is None:
            contradictions.append(f"{claim['where']}: no log for seed {claim['seed']}"
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
                contradictions.append(f"{claim['where']}: {key.replace('_', ' ')} "
                                      f"{claim[key]:g} for seed {claim['seed']}"
                                      + (f" ({run['family']})" if run.get("family") else "")
                                      + f", the log says {run[key]:g}")
    evidence["contradictions"] = contradictions
    if unsure:
        first = unsure[0]
        seeds = ", ".join(str(c) for c in first.get("candidates", []))
        return _to_ta(f"Which run the figures at {first['where']} are from is not certain "
                      f"({first.get('why') or 'seeds ' + seeds}), and they are not those of "
                      f"one run of seed {seeds.replace(', ', ' or ')} in the logs: a TA reads "
                      "them" + (f"; of the other figures, {len(contradictions)} disagree with "
                                "the logs" if contradictions else "") + ".", evidence, quote)
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
    fallback: dict[str, list[str]] = {}
    """Family -> words naming it only where no `families` word is said ("fine-tuned")."""
    tolerance: float = Field(0.005, ge=0)
    claim_tag: str | None = None
    claim_from: list[str] = []


class Logs(Kind):
    name = "logs"
    evidence_doc = """the per-seed claims read (a claim: `seed`, `family`, `best_validation`, `step`,
                    `test`, `line` and `where` in the report as handed in), and what they were held against
                    in the logs. With no logs the check's status is `manual`, as for `series`."""
    label = "training logs"
    students_seed = True
    Settings = LogsSettings

    def score(self, check: Check, question: Question, ctx: Context) -> CheckResult:
        return check_logs(check, ctx.logs, claim_sources(check, question, ctx))

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        ev = check.get("evidence")
        if not isinstance(ev, dict):
            return {"rows": generic_rows(ev)}
        rows = [(f"seed {c.get('seed')}" + (f" ({c['family']})" if c.get("family") else "")
                 + (" (seed not certain)" if c.get("certain") is False else "")
                 + (f" (paired by {c['paired_by']})" if c.get("paired_by") else ""),
                 ", ".join(f"{k.replace('_', ' ')} {c[k]:g}" for k in
                           ("best_validation", "step", "test") if isinstance(c.get(k), int | float)))
                for c in ev.get("claims") or [] if isinstance(c, dict)]
        rows += [("disagrees", text) for text in ev.get("contradictions") or []]
        return {"rows": rows + generic_rows(ev, ("claims", "contradictions", "runs"))}


KIND = Logs()
