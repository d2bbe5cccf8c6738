"""The `answer` check: a written numeric answer against an expected value the grader computes.

Why computed: the rubric names a `calculators` call (or a function of the pack's
private reference) instead of a typed number, so the key is derived from the
question's data and an exported public pack, which drops `expected`, holds none.

Rubric keys of a check (docs/answers.md has the full table):

    kind = "answer"
    label = "Answer"                  # the line read in the cell tagged with the question id
    tag = "q3c"                       # default: the question id
    printed = "LM trainable parameters"   # also read a line the notebook printed
    report = ["Q3 (c)"]               # the report section's label (or heading phrases)
    report_part = "(II)"              # a part marker, or the phrase that opens the part
    report_label = ["p(mat)"]         # where one part holds two answers: the words naming this one
    prefer = ["notebook", "report"]   # where to look first
    unit = "GB"                       # the unit asked (public: the self-check says if it fits)
    symbols = {H = 6144}              # names a formula may use, with their values
    tolerance = {relative = 0.01}     # calculators.answers.Tolerance fields; exact = true
    rough = true                      # the question asks for a rough figure: judged at the
                                      # precision the student writes
    slip_cost = 0.0                   # credit lost per arithmetic slip in the section read
    expected = {calc = "attention_scores_memory", args = {seq_len = 16384, n_heads = 48}}
    [[questions.checks.conventions]]  # recognised conventions and their credit
    name = "per_head"; credit = 0.25; message = "..."; expected = {...}

In `check` mode (a student, maybe with the public pack alone) nothing is compared:
the check says whether the answer is readable and in the unit asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sympy import Rational

import calculators
from calculators.answers import (
    Alternative,
    Tolerance,
    Verdict,
    check_answer,
    parse_answer,
)
from calculators.answers.units import BYTES_PER_UNIT, is_memory_unit
from grader.checks import CheckResult
from grader.checks.answer_conventions import Holder
from grader.checks.answer_settings import (
    AnswerSettings,
    ToleranceSettings,
)
from grader.checks.kind import Context as Submission
from grader.checks.kind import Finding, Kind, generic_rows
from grader.pack import Check, Pack, PackError, Question
from grader.written import (
    DEFAULT_LABEL,
    Found,
    QuestionSpec,
    Reports,
    notebook_answer,
    printed_answer,
    report_answer,
    slips_in,
)

TOLERANCE_KEYS = ("relative", "absolute", "sig_figs", "min_sig_figs", "significant",
                  "close_relative", "close_credit", "convention_credit")


@dataclass
class Context:
    """What the answer checks of one submission share: its notebook and its reports."""

    notebook: Any  # an nbformat NotebookNode (executed or as handed in), or None
    reports: Reports
    mode: str
    reference: Callable[[], Any] | None = None
    """Returns the pack's reference module (grade mode only)."""
    specs: dict[str, QuestionSpec] | None = None
    """Every report section the pack names (`report_specs`), so a section ends at the next."""


def resolve(spec: Any, reference: Callable[[], Any] | None, where: str) -> Any:
    """The value a rubric `expected` names: `{calc = ...}`, `{reference = ...}`, or a literal.

    `args` values may themselves be `{calc = ...}` tables (LoRA count -> Adam memory).
    `field` picks an attribute of the result (`probability`, `value`, `bytes`).
    """
    if not isinstance(spec, dict):
        return spec
    if "calc" not in spec and "reference" not in spec:
        return {k: resolve(v, reference, f"{where}.{k}") for k, v in spec.items()}
    args = spec.get("args", {})
    if not isinstance(args, dict):
        raise PackError(f"{where}.args", "must be a table of keyword arguments")
    kwargs = {k: resolve(v, reference, f"{where}.args.{k}") for k, v in args.items()}
    if "calc" in spec:
        name = str(spec["calc"])
        func = getattr(calculators, name, None)
        if not callable(func) or name.startswith("_"):
            raise PackError(f"{where}.calc", f"calculators has no function {name!r}")
    else:
        if reference is None:
            raise PackError(f"{where}.reference", "needs the pack's private reference")
        name = str(spec["reference"])
        func = getattr(reference(), name, None)
        if not callable(func):
            raise PackError(f"{where}.reference", f"the reference has no function {name!r}")
    value = func(**kwargs)
    if "field" in spec:
        value = getattr(value, str(spec["field"]))
    return value


SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}


def expected_value(value: Any, unit: str | None) -> Any:
    """A calculator result in the form `check_answer` takes, in the unit the question asks.

    Memory keeps its exact bytes and the unit asked ("GB"); a count asked "in billions"
    becomes (count / 10^9, "billion"), so a bare "14.5" reads as the question means it.
    """
    if isinstance(value, str):
        parsed = parse_answer(value)
        if not parsed.ok:
            raise PackError("expected", f"cannot read {value!r}: {parsed.reason}")
        return (parsed.value, parsed.unit) if parsed.unit else parsed.value
    if hasattr(value, "bytes") and not isinstance(value, int):
        # exact bytes, expressed in the unit asked (plain data, so it pickles to a worker)
        asked = unit if is_memory_unit(unit) else "B"
        return (Rational(int(value.bytes)) / BYTES_PER_UNIT[asked], asked)
    if hasattr(value, "total") and not isinstance(value, int):
        value = value.total
    if isinstance(value, float):
        value = Rational(str(value))
    if unit in SCALES:
        return (Rational(value) / SCALES[unit], unit)
    if unit in ("%", "percent"):
        return (Rational(value) * 100, "%")
    return value


def tolerance(table: ToleranceSettings | None, rough: bool = False) -> Tolerance:
    """The check's `tolerance` table as a `Tolerance`; `rough`: the check's `rough` key.
    Only the keys written reach `Tolerance`: its own defaults stand for the others."""
    raw = table.model_dump(exclude_unset=True) if table is not None else {}
    if not raw:
        return Tolerance(rough=rough)
    if raw.get("exact"):
        return Tolerance.exact()
    kwargs = {k: (Rational(str(v)) if isinstance(v, float) else v)
              for k, v in raw.items() if k in TOLERANCE_KEYS}
    return Tolerance(**kwargs, rough=rough)


def conventions(check: Check, reference: Callable[[], Any] | None,
                where: str) -> list[Alternative]:
    out = []
    s = cast(AnswerSettings, check.settings)
    for i, conv in enumerate(s.conventions):
        if conv.expected is None:
            continue  # a public pack: the value is part of the key
        value = resolve(s.key_spec(i), reference, f"{where}.conventions[{i}].expected")
        out.append(Alternative(conv.name, expected_value(value, s.unit),
                               Rational(str(conv.credit)), conv.message))
    return out


@dataclass(frozen=True)
class Key:
    """What one answer is compared with: plain, picklable data (the service sends it to a
    worker process). Never shown to a student."""

    expected: Any
    tolerance: Tolerance
    alternatives: tuple[Alternative, ...]
    symbols: dict[str, Any] | None

    def check(self, text: str) -> Verdict:
        return check_answer(text, self.expected, tolerance=self.tolerance,
                            alternatives=self.alternatives, symbols=self.symbols)


def answer_key(check: Check, qid: str, reference: Callable[[], Any] | None) -> Key:
    """The key of an `answer` check, computed from its rubric (needs the full pack)."""
    s = cast(AnswerSettings, check.settings)
    where = f"questions[{qid}].checks.answer"
    if s.expected is None:
        raise PackError(f"{where}.expected", "missing: this is a public pack, it has no key")
    expected = expected_value(resolve(s.key_spec(), reference, f"{where}.expected"), s.unit)
    return Key(expected, tolerance(s.tolerance, s.rough),
               tuple(conventions(check, reference, where)), s.symbols)


def spec_of(check: Check, spec_id: str,
            synonyms: Mapping[str, Sequence[str]] | None = None, title: str = "") -> QuestionSpec:
    """The report section a check names: `report` (label or phrases), `report_part`, labels,
    and the other names the pack's `[synonyms]` give its phrases."""
    s = check.settings  # an answer's, or another kind's that quotes a section (manual)
    label = getattr(s, "label", DEFAULT_LABEL)  # a kind without labels reads as unlabelled
    labels = tuple(getattr(s, "report_label", None) or ([label] if label != DEFAULT_LABEL
                                                        else []))
    return QuestionSpec(spec_id, tuple(s.report), part=s.report_part,
                        symbols=getattr(s, "symbols", None), labels=labels,
                        synonyms=synonyms or {}, title=title)


def report_specs(pack: Pack) -> dict[str, QuestionSpec]:
    """Every report section the pack names, by `"<question id>#<check index>"`."""
    out = {}
    for question in pack.questions:
        for index, check in enumerate(question.checks):
            if getattr(check.settings, "report", None):
                out[f"{question.id}#{index}"] = spec_of(check, f"{question.id}#{index}",
                                                         pack.synonyms, question.title)
    return out


def find(check: Check, qid: str, ctx: Context, siblings: Sequence[str] = (),
         spec_id: str | None = None) -> Found:
    """The answer, from the first source in `prefer` that has one."""
    s = cast(AnswerSettings, check.settings)
    label = s.label

    def from_report() -> Found:
        if not s.report:
            return Found(None, "none")
        known = dict(ctx.specs or {})
        spec = known.get(spec_id or "") or spec_of(check, spec_id or qid, ctx.pack.synonyms)
        for i, part in enumerate(siblings):  # without the pack: the question's other parts
            if part != s.report_part:
                sibling = QuestionSpec(f"{spec.id}~{i}", spec.headings, part=part)
                known.setdefault(sibling.id, sibling)
        return report_answer(ctx.reports, spec, list(known.values()))

    readers: dict[str, Callable[[], Found]] = {
        "notebook": lambda: notebook_answer(ctx.notebook, s.tag or qid, label),
        "printed": lambda: (printed_answer(ctx.notebook, s.printed, s.printed_tag)
                            if s.printed is not None else Found(None, "none")),
        "report": from_report,
    }
    prefer = s.prefer
    reasons = []
    for source in prefer:
        found = readers[source]()
        if found.text is not None:
            return found
        if found.reason:
            reasons.append(found.reason)
    return Found(None, "none", reason="; ".join(dict.fromkeys(reasons)) or "no answer found")


def _unit_fits(parsed: Any, unit: str | None) -> str | None:
    """Why the unit written does not fit the unit asked, or None when it does."""
    asked_memory = is_memory_unit(unit)
    if asked_memory and not parsed.is_memory:
        return f"it has no unit of memory; the question asks for {unit}"
    if asked_memory and parsed.unit != unit:
        return f"it is in {parsed.unit}; the question asks for {unit}"
    if not asked_memory and parsed.is_memory:
        return f"it is a memory size ({parsed.unit}); the question asks for a number"
    return None


def report_parts(checks: Sequence[Check]) -> list[str]:
    """The `report_part` of each answer check of a question: the parts of its section."""
    return [part for c in checks if c.kind == "answer"
            and (part := cast(AnswerSettings, c.settings).report_part)]


def _shotgun(found: Found) -> str:
    return (f"Your report gives several different answers here ({', '.join(found.shotgun)}); "
            "only one final answer can be graded, so none of them earns credit.")


def check_written(check: Check, qid: str, ctx: Context, siblings: Sequence[str] = (),
                  spec_id: str | None = None) -> CheckResult:
    """Grade (or, in check mode, read) one written answer; the evidence says where it came from.

    `siblings`: the report parts of the question's other answer checks (`report_parts`),
    used when `ctx.specs` does not know the pack's sections. `spec_id`: this check's key
    in `ctx.specs`.
    """
    s = cast(AnswerSettings, check.settings)
    found = find(check, qid, ctx, siblings, spec_id)
    scans = ctx.reports.needs_ta() if found.text is None and ctx.reports is not None \
        and s.report else []
    if not scans and found.text is None and s.report and ctx.reports is not None and ctx.specs:
        scans = ctx.reports.unlabelled(list(ctx.specs.values()))  # labels the reader lacks
    if scans:  # a report the grader cannot read (a scan, a photo, labels it cannot find):
        # a TA reads it, never 0
        message = f"No answer could be read: {found.reason}. A TA will read your report."
        return CheckResult("answer", 0.0, "manual" if ctx.mode != "check" else "not_graded",
                           message, {"answer": None, "verdict": "needs_ta", "convention": None,
                                     "message": found.reason, "source": "report",
                                     "slips": [], "needs_ta": scans})
    if found.text is None:
        return CheckResult("answer", 0.0, "failed", f"No answer found: {found.reason}.",
                           {"answer": None, "verdict": "missing", "convention": None,
                            "message": found.reason, "source": "none", "slips": []})
    slips = slips_in(ctx.reports, found)
    slip_rows = [{"line": sl.line, "quote": sl.text, "message": sl.message} for sl in slips]
    evidence: dict[str, Any] = {"answer": found.text, **found.to_dict(), "slips": slip_rows}
    if found.stated:
        evidence["stated_conventions"] = list(found.stated)
    symbols = s.symbols
    if found.shotgun:
        message = _shotgun(found)
        evidence.update(verdict="shotgun", convention=None, message=message,
                        shotgun=list(found.shotgun), credit="0")
        status = "failed" if ctx.mode != "check" else "not_graded"
        return CheckResult("answer", 0.0, status, message, evidence)
    if ctx.mode == "check":
        parsed = parse_answer(found.text, symbols)
        if not parsed.ok:
            message = f"Your answer {found.text!r} cannot be read: {parsed.reason}."
            evidence.update(verdict="unreadable", convention=None, message=message)
            return CheckResult("answer", 0.0, "failed", message, evidence)
        problem = _unit_fits(parsed, s.unit)
        message = (f"Your answer reads as {parsed.display}"
                   + (f", but {problem}." if problem else
                      "; whether it is right is decided when graded."))
        evidence.update(verdict="readable" if not problem else "unit", convention=None,
                        message=message)
        return CheckResult("answer", 0.0, "not_graded", message, evidence)
    key = answer_key(check, qid, ctx.reference)
    verdict = key.check(found.text)
    verdict = Holder(check, ctx.reference, key, expected_value).hold(
        found.text, verdict, found.stated)
    credit = float(verdict.credit)
    cost = s.slip_cost * len(slips)
    fraction = max(0.0, credit - cost)
    message = verdict.message
    if slips:
        message += f" {len(slips)} arithmetic slip(s) in the working: " + " ".join(
            sl.message for sl in slips)
    evidence.update(verdict=verdict.verdict, convention=verdict.convention,
                    message=verdict.message, credit=str(verdict.credit))
    status = "passed" if fraction >= 1 else ("failed" if fraction <= 0 else "partial")
    return CheckResult("answer", fraction, status, message, evidence)


# ----------------------------------------------------------------------------------------
# the kind

class Answer(Kind):
    name = "answer"
    evidence_doc = """an object: `answer`, `verdict`, `convention`, `message`, `source`, `slips`."""
    label = "written answer"
    evidence_of = "answers"
    Settings = AnswerSettings
    private = ("expected",)

    def score(self, check: Check, question: Question, ctx: Submission) -> CheckResult:
        assert ctx.reports is not None
        pack = ctx.pack
        answers = ctx.once("answer", lambda: Context(
            notebook=ctx.notebook, reports=ctx.reports, mode=ctx.mode,  # type: ignore[arg-type]
            reference=None if pack.is_public else pack.reference, specs=report_specs(pack)))
        index = next(i for i, c in enumerate(question.checks) if c is check)
        return check_written(check, question.id, answers, report_parts(question.checks),
                             f"{question.id}#{index}")

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        ev = check.get("evidence") or {}
        if not isinstance(ev, dict):
            return {"answer": None, "slips": [], "extra": generic_rows(ev)}
        slips = [s for s in (ev.get("slips") or check.get("slips") or []) if isinstance(s, dict)]
        known = ("answer", "verdict", "convention", "message", "slips", "expected_display")
        return {"answer": ev.get("answer"), "verdict": ev.get("verdict"),
                "convention": ev.get("convention"), "note": ev.get("message"), "slips": slips,
                "extra": generic_rows(ev, known)}

    def validate(self, pack: Pack, checks: list[tuple[Question, Check]]) -> list[Finding]:
        """Every key computes (a bad calculator call would fail every student)."""
        if pack.is_public:
            return []
        problems = []
        for question, check in checks:
            try:
                answer_key(check, question.id, pack.reference)
            except Exception as exc:  # noqa: BLE001 - any failure is a finding, named
                problems.append(f"{question.id}: {exc}")
        return [Finding("answer keys", not problems, "; ".join(problems) or
                        f"the key of each of {len(checks)} answer checks computes")]


KIND = Answer()
