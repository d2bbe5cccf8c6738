"""Answer endpoints: compare and lint over HTTP; pack questions only when self-checkable.

The self-checkable questions are the real ones of stat8021-a3's Part 3 (rubric
``self_check = true``); their key is computed server-side and never returned. The
selection rule itself is also tested on a pack built in memory.
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


SELF_CHECKABLE = ["q3a2", "q3c", "q3d", "q3e1", "q3e2", "q3e3"]


def test_part3_questions_marked_self_check_are_listed(client: httpx.Client) -> None:
    listed = client.get("/v1/answers/questions").json()["questions"]
    assert [q["question"] for q in listed if q["assignment"] == "stat8021-a3"] == SELF_CHECKABLE
    assert "expected" not in str(listed)


@pytest.mark.parametrize(("answer", "verdict", "convention", "credit"), [
    ("25.77 GB", "correct", None, "1"),
    ("24 GB", "convention", "gib_vs_gb", "1/2"),
    ("24 GiB", "correct", None, "1"),
    ("0.54 GB", "convention", "per_head", "1/4"),
    ("3 GB", "wrong", None, "0"),
])
def test_a_real_part3_question_is_checked_server_side(client: httpx.Client, answer, verdict,
                                                      convention, credit) -> None:
    r = client.post("/v1/answers/check", json={"assignment": "stat8021-a3", "question": "q3c",
                                               "answer": answer})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["verdict"], body["convention"], body["credit"]) == (verdict, convention, credit)
    assert set(body) == {"assignment", "question", "verdict", "credit", "message", "convention"}
    # the key, in any form the checker would print it, never leaves the server
    for leak in ("25.77", "25.8", "25769803776", "25,769,803,776", "24 GiB"):
        if leak not in answer:
            assert leak not in body["message"], body["message"]


def test_checking_a_manual_question_is_a_404_naming_the_self_checkable_ones(
        client: httpx.Client) -> None:
    r = client.post("/v1/answers/check", json={"assignment": "stat8021-a3", "question": "q3b",
                                               "answer": "24 GiB"})
    error = assert_error(r, 404, "question", "not_found")
    assert error["message"] == ("'q3b' is not a self-checkable question of stat8021-a3; "
                                f"self-checkable: {', '.join(SELF_CHECKABLE)}")


def test_checking_an_unknown_assignment_is_a_404_naming_it(client: httpx.Client) -> None:
    r = client.post("/v1/answers/check", json={"assignment": "nope", "question": "q1",
                                               "answer": "1"})
    assert_error(r, 404, "assignment", "not_found")


def _pack_with(*checks: Check):
    pack = load_pack(PACKS / "stat8021-a3")
    extra = Question(id="q9", title="Q9 KV cache", points=2, checks=checks)
    return dataclasses.replace(pack, questions=(*pack.questions, extra))


def test_only_answer_checks_marked_self_check_qualify() -> None:
    marked = _pack_with(Check("answer", {"self_check": True, "expected": "24 GiB"}))
    unmarked = _pack_with(Check("answer", {"expected": "24 GiB"}))
    assert ("stat8021-a3", "q9") in [
        (a.pack.id, a.question.id) for a in self_checkable({marked.id: marked})]
    assert "q9" not in [a.question.id for a in self_checkable({unmarked.id: unmarked})]
    with pytest.raises(ApiError) as info:
        find_answerable({unmarked.id: unmarked}, "stat8021-a3", "q9")
    assert info.value.field == "question"


def test_a_self_checkable_verdict_never_carries_the_expected_value() -> None:
    pack = _pack_with(Check("answer", {"self_check": True, "expected": "25769803776 bytes"}))
    item = find_answerable({pack.id: pack}, "stat8021-a3", "q9")
    computer = Computer(1, 30)
    request = SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(computer=computer)))
    try:
        result = asyncio.run(check_pack_answer(request, item, "24 GiB"))  # type: ignore[arg-type]
    finally:
        computer.close()
    assert result["verdict"] == "correct"
    assert set(result) == {"assignment", "question", "verdict", "credit", "message", "convention"}
    assert "25769803776" not in str(result)
