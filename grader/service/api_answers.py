"""``/v1/answers/*``: read students' written answers without ever sending an answer key.

- ``compare``: one answer against an expected value the caller supplies (what
  ``grader answers check`` does); nothing of a pack is involved.
- ``lint``: a report's text in, its arithmetic slips out (``grader answers lint``).
- ``questions`` and ``check``: answers to a pack's questions. A question is answerable
  when one of its ``answer`` checks sets ``self_check`` in the rubric (and not to
  ``"off"``); each of its answer checks is one answer ("part", by its label). The
  question's policy (`Policy`) says how much the reply tells (``verdict``: right or
  not right; ``feedback``: credit, convention, a message) and how many readable
  attempts a client has per UTC day; questions that carry marks default to verdict
  only, 10 a day. The reply never holds the expected value. The key is computed here,
  server-side, from the rubric (`grader.checks.answer.answer_key`: a ``calculators``
  call, the tolerance, the recognised conventions), exactly as grading computes it,
  and only the comparison runs in a worker.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Annotated, Any, cast

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, model_validator

from grader.checks.answer import AnswerSettings, Key, answer_key
from grader.checks.registry import with_evidence
from grader.pack import Check, Pack, Question
from grader.service import work
from grader.service.errors import ApiError
from grader.written import DEFAULT_LABEL

AnswerText = Annotated[str, Field(min_length=1, max_length=2_000,
                                  description="The answer as written, e.g. '24 GiB'.")]
DEFAULT_ATTEMPTS = 10
"""Readable attempts a client gets per question and UTC day when the pack says nothing."""
DAY = 86_400


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CompareRequest(Strict):
    answer: AnswerText
    expected: AnswerText = Field(description="The right value, e.g. '25769803776 bytes'.")


class CheckRequest(Strict):
    assignment: Annotated[str, Field(min_length=1, max_length=100)] = Field(
        examples=["stat8021-a3"])
    question: Annotated[str, Field(min_length=1, max_length=100)] = Field(examples=["q3c"])
    answer: AnswerText | None = Field(
        None, description="The answer of a question with one answer.")
    answers: Annotated[dict[Annotated[str, Field(max_length=100)], Annotated[
        str, Field(max_length=2_000)]], Field(max_length=20)] | None = Field(
        None, description="The answers of a question with several, by part label "
        "(GET /v1/answers/questions lists them), e.g. {\"p(mat)\": \"0.75\", \"Loss\": "
        "\"0.29\"}; blank parts are not checked.")

    @model_validator(mode="after")
    def _one(self) -> CheckRequest:
        if (self.answer is None) == (self.answers is None):
            raise ValueError("give answer (one answer) or answers (by part label), not both")
        return self


class LintRequest(Strict):
    text: Annotated[str, Field(max_length=60_000, description="The report's text (Markdown).")]


class Verdict(BaseModel):
    model_config = ConfigDict(extra="allow")
    verdict: str
    message: str
    credit: str | None = None


class PartVerdict(Verdict):
    label: str


class QuestionVerdict(Verdict):
    assignment: str
    question: str
    mode: str = Field(description="verdict (right or not right only) or feedback")
    parts: list[PartVerdict]
    attempts_left: int | None = Field(description="readable attempts left today; null: no limit")


class Slips(BaseModel):
    slips: list[dict[str, Any]]


class PartInfo(BaseModel):
    label: str
    unit: str | None = None


class SelfCheckable(BaseModel):
    assignment: str
    question: str
    title: str
    points: float
    parts: list[PartInfo]
    mode: str
    attempts_per_day: int | None


class AtGrading(BaseModel):
    """A question marked self-checkable whose key this server does not hold."""

    assignment: str
    question: str
    title: str
    points: float


class QuestionList(BaseModel):
    questions: list[SelfCheckable] = Field(description="Questions checked here.")
    checked_at_grading: list[AtGrading] = Field(
        description="Questions marked self-checkable whose pack this server holds only the "
        "public part of: their answers are checked at grading, not here.")


@dataclass(frozen=True)
class Policy:
    """How a question is self-checked: ``verdict`` or ``feedback``; attempts a day (None: any)."""

    mode: str
    attempts_per_day: int | None


def policy_of(question: Question) -> Policy | None:
    """The question's self-check policy from its first answer check that sets one; None: off."""
    graded = question.points > 0
    default = DEFAULT_ATTEMPTS if graded else None
    answering = with_evidence("answers")
    for check in question.checks:
        if check.kind not in answering or "self_check" not in check.settings.model_fields_set:
            continue  # the first answer check that *writes* a policy decides
        value = cast(AnswerSettings, check.settings).self_check
        if value is False or value == "off":
            return None
        if value is True:
            return Policy("verdict" if graded else "feedback", default)
        if isinstance(value, str):
            return Policy(value, default)
        attempts = value.attempts_per_day
        return Policy(value.mode, default if attempts is None else (attempts or None))
    return None


@dataclass(frozen=True)
class Answerable:
    """A pack question a student may check answers to: its answer checks, one per part."""

    pack: Pack
    question: Question
    parts: tuple[Check, ...]
    policy: Policy

    @property
    def check(self) -> Check:
        return self.parts[0]

    @staticmethod
    def label(check: Check) -> str:
        return cast(AnswerSettings, check.settings).label or DEFAULT_LABEL

    def public(self) -> dict[str, Any]:
        return {"assignment": self.pack.id, "question": self.question.id,
                "title": self.question.title, "points": self.question.points,
                "parts": [{"label": self.label(c), "unit": cast(AnswerSettings, c.settings).unit}
                          for c in self.parts],
                "mode": self.policy.mode, "attempts_per_day": self.policy.attempts_per_day}


def _marked(packs: dict[str, Pack]) -> list[Answerable]:
    """Questions whose answer checks set a ``self_check`` policy other than off, less those
    the pack keeps off (0 points, no visibility of their own): a student is shown them
    nowhere, so not here either (`grader.report.visibility.kept_off`)."""
    from grader.report.visibility import question_visibility

    out = []
    for pack in packs.values():
        for question in pack.questions:
            policy = policy_of(question)
            if policy is None or question_visibility(pack.raw, question.id) == "hidden":
                continue
            parts = tuple(c for c in question.checks if c.kind in with_evidence("answers"))
            out.append(Answerable(pack, question, parts, policy))
    return out


def _has_key(item: Answerable) -> bool:
    """Whether this server can compute the question's keys: a full pack holds each part's
    `expected`; the public part a course exports for students holds none."""
    return all(cast(AnswerSettings, c.settings).expected is not None for c in item.parts)


def self_checkable(packs: dict[str, Pack]) -> list[Answerable]:
    """Questions students may check here: marked ``self_check`` and with keys this server
    can compute (the full pack, kept on the course's server; no reply carries a key)."""
    return [item for item in _marked(packs) if _has_key(item)]


def checked_at_grading(packs: dict[str, Pack]) -> list[Answerable]:
    """Questions marked ``self_check`` whose keys this server does not hold: it serves only
    the public part of their pack, so their answers are checked when the work is graded.
    The page and ``GET /v1/answers/questions`` say so, and a check of one is a 404 that
    says so, never a 500 (issue 27 item 3)."""
    return [item for item in _marked(packs) if not _has_key(item)]


AT_GRADING = ("{question}'s answers are checked at grading: this server holds only the "
              "public part of {assignment} (no answer key), so it does not check them")


def find_answerable(packs: dict[str, Pack], assignment: str, question: str) -> Answerable:
    """The answerable question, or a 404 naming the assignment or the question."""
    if assignment not in packs:
        raise ApiError(404, "not_found", f"no assignment {assignment!r} on this server; "
                       f"known: {', '.join(sorted(packs)) or 'none'}", field="assignment")
    for item in self_checkable(packs):
        if item.pack.id == assignment and item.question.id == question:
            return item
    for item in checked_at_grading(packs):
        if item.pack.id == assignment and item.question.id == question:
            raise ApiError(404, "not_found", AT_GRADING.format(
                question=question, assignment=assignment), field="question")
    known = [a.question.id for a in self_checkable(packs) if a.pack.id == assignment]
    raise ApiError(404, "not_found", f"{question!r} is not a self-checkable question of "
                   f"{assignment}; self-checkable: {', '.join(known) or 'none yet'}",
                   field="question")


class DailyAttempts:
    """Readable attempts per (client, assignment, question) and UTC day, in memory."""

    def __init__(self, max_keys: int = 100_000) -> None:
        self._counts: dict[tuple[str, str, str], tuple[int, int]] = {}
        self._lock = threading.Lock()
        self.max_keys = max_keys

    @staticmethod
    def today(now: float | None = None) -> int:
        return int((time.time() if now is None else now) // DAY)

    def used(self, key: tuple[str, str, str], now: float | None = None) -> int:
        with self._lock:
            day, count = self._counts.get(key, (self.today(now), 0))
            return count if day == self.today(now) else 0

    def add(self, key: tuple[str, str, str], now: float | None = None) -> int:
        today = self.today(now)
        with self._lock:
            day, count = self._counts.get(key, (today, 0))
            count = (count if day == today else 0) + 1
            if len(self._counts) >= self.max_keys:  # a new day, or a flood: start afresh
                self._counts = {k: v for k, v in self._counts.items() if v[0] == today}
            self._counts[key] = (today, count)
            return count


def _verdict(result: dict[str, Any]) -> dict[str, Any]:
    if "error" in result:
        err = result["error"]
        raise ApiError(422, "invalid_input", err["message"], field=err["field"] or "body")
    return result


def _key(item: Answerable, check: Check) -> Key:
    try:
        return answer_key(check, item.question.id,
                          None if item.pack.is_public else item.pack.reference)
    except Exception as exc:  # noqa: BLE001 - the pack's fault, not the student's
        raise ApiError(500, "pack_error", f"{item.pack.id} {item.question.id}: the rubric's "
                       f"expected value cannot be computed ({type(exc).__name__})") from None


def _answers_by_part(item: Answerable, answer: str | None,
                     answers: dict[str, str] | None) -> list[tuple[Check, str]]:
    labels = [item.label(c) for c in item.parts]
    if answers is None:
        if len(item.parts) > 1:
            raise ApiError(422, "invalid_input", f"{item.question.id} has {len(labels)} "
                           f"answers ({', '.join(labels)}): send answers by part label",
                           field="answers")
        answers = {labels[0]: answer or ""}
    unknown = [k for k in answers if k not in labels]
    if unknown:
        raise ApiError(422, "invalid_input", f"no part {unknown[0]!r} in {item.question.id}; "
                       f"its parts: {', '.join(labels)}", field="answers")
    given = [(c, answers[item.label(c)].strip()) for c in item.parts
             if answers.get(item.label(c), "").strip()]
    if not given:
        raise ApiError(422, "invalid_input", "write an answer first",
                       field="answer" if len(labels) == 1 else "answers")
    return given


async def check_pack_answer(request: Request, item: Answerable, answer: str | None = None,
                            answers: dict[str, str] | None = None,
                            client: str = "") -> dict[str, Any]:
    """Verdicts of the answers to the question's parts; the reply never carries the key.

    Over the question's daily attempts, a 429 says when they renew. An attempt counts
    when at least one answer was readable (an unreadable one teaches nothing of the key).
    """
    given = _answers_by_part(item, answer, answers)
    policy = item.policy
    attempts = getattr(request.app.state, "attempts", None)
    key = (client, item.pack.id, item.question.id)
    limit = policy.attempts_per_day
    if limit and attempts is not None and attempts.used(key) >= limit:
        wait = DAY - int(time.time()) % DAY
        raise ApiError(429, "too_many_attempts", f"the {limit} checks of {item.question.id} "
                       "for today are used; they renew at 00:00 UTC", field="question",
                       headers={"Retry-After": str(wait)})
    parts = []
    for check, text in given:
        k = _key(item, check)
        result = await request.app.state.computer.run(
            work.check_keyed, text, k.expected, k.tolerance, k.alternatives, k.symbols,
            policy.mode)
        parts.append({"label": item.label(check), **result})
    left = None
    if limit and attempts is not None:
        used = attempts.used(key)
        if any(p["verdict"] != "unreadable" for p in parts):
            used = attempts.add(key)
        left = max(0, limit - used)
    top = parts[0] if len(parts) == 1 else _overall(parts)
    return {"assignment": item.pack.id, "question": item.question.id, "mode": policy.mode,
            **{k: v for k, v in top.items() if k != "label"}, "parts": parts,
            "attempts_left": left}


def _overall(parts: list[dict[str, Any]]) -> dict[str, Any]:
    verdicts = {p["verdict"] for p in parts}
    verdict = "correct" if verdicts == {"correct"} else next(
        p["verdict"] for p in parts if p["verdict"] != "correct")
    return {"verdict": verdict,
            "message": " ".join(f"{p['label']}: {p['message']}" for p in parts)}


def client_of(request: Request) -> str:
    return request.client.host if request.client else ""


router = APIRouter(prefix="/v1/answers", tags=["answers"])


@router.get("/questions", summary="Pack questions whose answers students may check here",
            response_model=QuestionList)
def questions(request: Request) -> QuestionList:
    packs = request.app.state.packs
    return QuestionList(
        questions=[SelfCheckable(**a.public()) for a in self_checkable(packs)],
        checked_at_grading=[AtGrading(assignment=a.pack.id, question=a.question.id,
                                      title=a.question.title, points=a.question.points)
                            for a in checked_at_grading(packs)])


@router.post("/check", summary="Check the answers to a self-checkable pack question",
             response_model=QuestionVerdict, response_model_exclude_none=False)
async def check(request: Request, body: CheckRequest) -> dict[str, Any]:
    item = find_answerable(request.app.state.packs, body.assignment, body.question)
    return await check_pack_answer(request, item, body.answer, body.answers,
                                   client=client_of(request))


@router.post("/compare", summary="Compare one written answer with an expected value",
             response_model=Verdict)
async def compare(request: Request, body: CompareRequest) -> dict[str, Any]:
    return _verdict(await request.app.state.computer.run(
        work.compare_answer, body.answer, body.expected))


@router.post("/lint", summary="Arithmetic slips in a report's written equations",
             response_model=Slips)
async def lint(request: Request, body: LintRequest) -> dict[str, Any]:
    return await request.app.state.computer.run(work.lint_report, body.text)
