"""``/v1/answers/*``: read students' written answers without ever sending an answer key.

- ``compare``: one answer against an expected value the caller supplies (what
  ``grader answers check`` does); nothing of a pack is involved.
- ``lint``: a report's text in, its arithmetic slips out (``grader answers lint``).
- ``questions`` and ``check``: answers to a pack's questions. Only a question with a
  check of kind ``answer`` marked ``self_check = true`` in the rubric is answerable,
  and the reply is a verdict, a credit and a message, never the expected value. The key
  is computed here, server-side, from the rubric (`grader.checks.answer.answer_key`: a
  ``calculators`` call, the tolerance, the recognised conventions), exactly as grading
  computes it, and only the comparison runs in a worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from grader.checks.answer import Key, answer_key
from grader.pack import Check, Pack, Question
from grader.service import work
from grader.service.errors import ApiError

AnswerText = Annotated[str, Field(min_length=1, max_length=2_000,
                                  description="The answer as written, e.g. '24 GiB'.")]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CompareRequest(Strict):
    answer: AnswerText
    expected: AnswerText = Field(description="The right value, e.g. '25769803776 bytes'.")


class CheckRequest(Strict):
    assignment: Annotated[str, Field(min_length=1, max_length=100)] = Field(
        examples=["stat8021-a3"])
    question: Annotated[str, Field(min_length=1, max_length=100)] = Field(examples=["q3c"])
    answer: AnswerText


class LintRequest(Strict):
    text: Annotated[str, Field(max_length=60_000, description="The report's text (Markdown).")]


class Verdict(BaseModel):
    model_config = ConfigDict(extra="allow")
    verdict: str
    credit: str
    message: str


class Slips(BaseModel):
    slips: list[dict[str, Any]]


class SelfCheckable(BaseModel):
    assignment: str
    question: str
    title: str
    points: float


@dataclass(frozen=True)
class Answerable:
    """A pack question a student may check an answer against, and the check that knows it."""

    pack: Pack
    question: Question
    check: Check

    def public(self) -> dict[str, Any]:
        return {"assignment": self.pack.id, "question": self.question.id,
                "title": self.question.title, "points": self.question.points}


def self_checkable(packs: dict[str, Pack]) -> list[Answerable]:
    """Questions with an ``answer`` check whose rubric says ``self_check = true``."""
    out = []
    for pack in packs.values():
        for question in pack.questions:
            for check in question.checks:
                if check.kind == "answer" and check.settings.get("self_check") is True:
                    out.append(Answerable(pack, question, check))
                    break
    return out


def find_answerable(packs: dict[str, Pack], assignment: str, question: str) -> Answerable:
    """The answerable question, or a 404 naming the assignment or the question."""
    if assignment not in packs:
        raise ApiError(404, "not_found", f"no assignment {assignment!r} on this server; "
                       f"known: {', '.join(sorted(packs)) or 'none'}", field="assignment")
    for item in self_checkable(packs):
        if item.pack.id == assignment and item.question.id == question:
            return item
    known = [a.question.id for a in self_checkable(packs) if a.pack.id == assignment]
    raise ApiError(404, "not_found", f"{question!r} is not a self-checkable question of "
                   f"{assignment}; self-checkable: {', '.join(known) or 'none yet'}",
                   field="question")


def _verdict(result: dict[str, Any]) -> dict[str, Any]:
    if "error" in result:
        err = result["error"]
        raise ApiError(422, "invalid_input", err["message"], field=err["field"] or "body")
    return result


def _key(item: Answerable) -> Key:
    try:
        return answer_key(item.check, item.question.id,
                          None if item.pack.is_public else item.pack.reference)
    except Exception as exc:  # noqa: BLE001 - the pack's fault, not the student's
        raise ApiError(500, "pack_error", f"{item.pack.id} {item.question.id}: the rubric's "
                       f"expected value cannot be computed ({type(exc).__name__})") from None


async def check_pack_answer(request: Request, item: Answerable, answer: str) -> dict[str, Any]:
    """Verdict of ``answer`` against the question's key; the reply never carries the key."""
    key = _key(item)
    result = await request.app.state.computer.run(
        work.check_keyed, answer, key.expected, key.tolerance, key.alternatives, key.symbols)
    return {"assignment": item.pack.id, "question": item.question.id,
            **{k: result[k] for k in ("verdict", "credit", "message", "convention")}}


router = APIRouter(prefix="/v1/answers", tags=["answers"])


@router.get("/questions", summary="Pack questions whose answers students may check here")
def questions(request: Request) -> dict[str, list[SelfCheckable]]:
    items = self_checkable(request.app.state.packs)
    return {"questions": [SelfCheckable(**a.public()) for a in items]}


@router.post("/check", summary="Check one answer to a self-checkable pack question",
             response_model=Verdict)
async def check(request: Request, body: CheckRequest) -> dict[str, Any]:
    item = find_answerable(request.app.state.packs, body.assignment, body.question)
    return await check_pack_answer(request, item, body.answer)


@router.post("/compare", summary="Compare one written answer with an expected value",
             response_model=Verdict)
async def compare(request: Request, body: CompareRequest) -> dict[str, Any]:
    return _verdict(await request.app.state.computer.run(
        work.compare_answer, body.answer, body.expected))


@router.post("/lint", summary="Arithmetic slips in a report's written equations",
             response_model=Slips)
async def lint(request: Request, body: LintRequest) -> dict[str, Any]:
    return await request.app.state.computer.run(work.lint_report, body.text)
