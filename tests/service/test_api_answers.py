"""Answer endpoints: compare and lint over HTTP; pack questions only when self-checkable.

Packs have no ``answer`` check kind yet (it arrives with issue 9), so no question of
stat8021-a3 is self-checkable: the list is empty and checking q3c is a 404 that names
the question. The selection rule itself is tested on a pack built in memory.
"""

from __future__ import annotations

import asyncio
import dataclasses
from types import SimpleNamespace

import httpx
import pytest

from grader.pack import Check, Question, load_pack
from grader.service.api_answers import check_pack_answer, find_answerable, self_checkable
from grader.service.compute import Computer
from grader.service.errors import ApiError
from tests.service.conftest import PACKS, assert_error


def test_compare_gives_the_checker_verdict(client: httpx.Client) -> None:
    r = client.post("/v1/answers/compare", json={"answer": "24 GiB",
                                                 "expected": "25769803776 bytes"})
    assert r.status_code == 200
    assert r.json()["verdict"] == "correct"
    r = client.post("/v1/answers/compare", json={"answer": "24 GB",
                                                 "expected": "25769803776 bytes"})
    assert r.json()["verdict"] in ("convention", "close")


def test_compare_with_an_unreadable_expected_value_names_it(client: httpx.Client) -> None:
    r = client.post("/v1/answers/compare", json={"answer": "3", "expected": "three apples"})
    assert_error(r, 422, "expected", "invalid_input")


def test_lint_returns_the_slips_of_a_report(client: httpx.Client) -> None:
    text = "Total: 120,000 + 600 + 40,000 + 200 = 160,000\nand 2 + 2 = 4\n"
    r = client.post("/v1/answers/lint", json={"text": text})
    assert r.status_code == 200
    slips = r.json()["slips"]
    assert len(slips) == 1
    assert slips[0]["line"] == 1 and slips[0]["true_value"] == "160800"
    assert client.post("/v1/answers/lint", json={"text": "2 + 2 = 4"}).json() == {"slips": []}


def test_no_pack_question_is_self_checkable_yet(client: httpx.Client) -> None:
    assert client.get("/v1/answers/questions").json() == {"questions": []}


def test_checking_q3c_is_a_404_naming_the_question(client: httpx.Client) -> None:
    r = client.post("/v1/answers/check", json={"assignment": "stat8021-a3", "question": "q3c",
                                               "answer": "24 GiB"})
    error = assert_error(r, 404, "question", "not_found")
    assert error["message"] == ("'q3c' is not a self-checkable question of stat8021-a3; "
                                "self-checkable: none yet")


def test_checking_an_unknown_assignment_is_a_404_naming_it(client: httpx.Client) -> None:
    r = client.post("/v1/answers/check", json={"assignment": "nope", "question": "q1",
                                               "answer": "1"})
    assert_error(r, 404, "assignment", "not_found")


def _pack_with(*checks: Check):
    pack = load_pack(PACKS / "stat8021-a3")
    extra = Question(id="q3c", title="Q3(c) KV cache", points=2, checks=checks)
    return dataclasses.replace(pack, questions=(*pack.questions, extra))


def test_only_answer_checks_marked_self_check_qualify() -> None:
    marked = _pack_with(Check("answer", {"self_check": True, "expected": "24 GiB"}))
    unmarked = _pack_with(Check("answer", {"expected": "24 GiB"}))
    assert [(a.pack.id, a.question.id) for a in self_checkable({marked.id: marked})] == [
        ("stat8021-a3", "q3c")]
    assert self_checkable({unmarked.id: unmarked}) == []
    with pytest.raises(ApiError) as info:
        find_answerable({unmarked.id: unmarked}, "stat8021-a3", "q3c")
    assert info.value.field == "question"


def test_a_self_checkable_verdict_never_carries_the_expected_value() -> None:
    pack = _pack_with(Check("answer", {"self_check": True, "expected": "25769803776 bytes"}))
    item = find_answerable({pack.id: pack}, "stat8021-a3", "q3c")
    computer = Computer(1, 30)
    request = SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(computer=computer)))
    try:
        result = asyncio.run(check_pack_answer(request, item, "24 GiB"))  # type: ignore[arg-type]
    finally:
        computer.close()
    assert result["verdict"] == "correct"
    assert set(result) == {"assignment", "question", "verdict", "credit", "message", "convention"}
    assert "25769803776" not in str(result)
