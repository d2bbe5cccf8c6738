"""Answer endpoints: compare and lint over HTTP; pack questions only when self-checkable.

The self-checkable questions are the real ones of stat8021-a3's Part 3 (rubric
``self_check = true``); their key is computed server-side and never returned. The
selection rule itself is also tested on a pack built in memory.
"""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest

from grader.pack import Check, Question, load_pack
from grader.service import Settings
from grader.service.api_answers import check_pack_answer, find_answerable, self_checkable
from grader.service.compute import Computer
from grader.service.errors import ApiError
from tests.service.conftest import PACKS, assert_error, serve


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
LEAKS = ("25.77", "25.8", "25769803776", "25,769,803,776", "24 GiB")
"""q3c's key, in any form the checker would print it."""


def test_part3_questions_marked_self_check_are_listed(client: httpx.Client) -> None:
    listed = client.get("/v1/answers/questions").json()["questions"]
    mine = {q["question"]: q for q in listed if q["assignment"] == "stat8021-a3"}
    assert list(mine) == SELF_CHECKABLE
    assert "expected" not in str(listed)
    # one box per answer: Q3(a)(II) asks for the probability and the loss
    assert [p["label"] for p in mine["q3a2"]["parts"]] == ["p(mat)", "Loss"]
    assert mine["q3c"]["parts"] == [{"label": "Answer", "unit": "GB"}]
    # `self_check = true` on a question with marks: verdict only, 10 checks a day
    assert {(q["mode"], q["attempts_per_day"]) for q in mine.values()} == {("verdict", 10)}


def test_a_marked_question_says_right_or_not_right_only(client: httpx.Client) -> None:
    lefts = []
    for answer, verdict in (("25.77 GB", "correct"), ("24 GB", "incorrect")):
        r = client.post("/v1/answers/check", json={"assignment": "stat8021-a3",
                                                   "question": "q3c", "answer": answer})
        assert r.status_code == 200, r.text
        body = r.json()
        assert (body["mode"], body["verdict"], body["credit"]) == ("verdict", verdict, None)
        assert "convention" not in body and "right or not right only" in body["message"] \
            or verdict == "correct"
        assert not any(leak in body["message"] for leak in LEAKS if leak not in answer)
        lefts.append(body["attempts_left"])
    assert lefts[1] == lefts[0] - 1 and lefts[0] <= 9
    # an unreadable answer teaches nothing of the key: it costs no attempt
    r = client.post("/v1/answers/check", json={"assignment": "stat8021-a3", "question": "q3c",
                                               "answer": "about two dozen"})
    assert r.json()["verdict"] == "unreadable" and r.json()["attempts_left"] == lefts[1]


def test_a_question_with_two_answers_checks_each(client: httpx.Client) -> None:
    r = client.post("/v1/answers/check", json={"assignment": "stat8021-a3", "question": "q3a2",
                                               "answers": {"p(mat)": "0.7500",
                                                           "Loss": "0.2876"}})
    assert r.status_code == 200, r.text
    parts = r.json()["parts"]
    assert [(p["label"], p["verdict"]) for p in parts] == [("p(mat)", "correct"),
                                                           ("Loss", "correct")]
    r = client.post("/v1/answers/check", json={"assignment": "stat8021-a3", "question": "q3a2",
                                               "answers": {"p(mat)": "0.7500", "Loss": "0.5"}})
    assert [p["verdict"] for p in r.json()["parts"]] == ["correct", "incorrect"]
    assert r.json()["verdict"] == "incorrect"
    one = client.post("/v1/answers/check", json={"assignment": "stat8021-a3",
                                                 "question": "q3a2", "answer": "0.75"})
    error = assert_error(one, 422, "answers", "invalid_input")
    assert "p(mat), Loss" in error["message"]


def _pack_with_policies(folder: Path, policies: dict[str, str]) -> Path:
    """A copy of stat8021-a3 whose questions carry other `self_check` policies."""
    dest = folder / "stat8021-a3"
    shutil.copytree(PACKS / "stat8021-a3", dest)
    text = (dest / "pack.toml").read_text()
    for qid, policy in policies.items():
        head = text.index(f'id = "{qid}"')
        at = text.index("self_check = true", head)
        text = text[:at] + f"self_check = {policy}" + text[at + len("self_check = true"):]
    (dest / "pack.toml").write_text(text)
    return folder


@pytest.fixture(scope="module")
def policies_url(tmp_path_factory) -> Iterator[str]:
    packs = _pack_with_policies(tmp_path_factory.mktemp("packs"), {
        "q3c": '{mode = "feedback", attempts_per_day = 0}', "q3d": "{attempts_per_day = 2}",
        "q3e1": '"off"'})
    with serve(Settings(packs_dir=packs, compute_workers=1, rate_per_minute=0,
                        selfcheck_workers=1)) as url:
        yield url


@pytest.mark.parametrize(("answer", "verdict", "convention", "credit", "says"), [
    ("25.77 GB", "correct", None, "1", "is correct"),
    ("24 GB", "convention", "GiB and GB confused: 1 GiB is 2^30 bytes, 1 GB is 10^9 bytes",
     "1/2", "earns part of the credit"),
    ("0.54 GB", "convention", "per head", "1/4", "the size of one head's score matrix"),
    ("25769803776", "close", None, "3/4",
     "has no unit; as 25769803776 bytes it would be correct"),
    ("3 GB", "wrong", None, "0", "is not right"),
])
def test_feedback_names_conventions_in_words_and_never_the_key(
        policies_url: str, answer, verdict, convention, credit, says) -> None:
    r = httpx.post(f"{policies_url}/v1/answers/check", json={
        "assignment": "stat8021-a3", "question": "q3c", "answer": answer})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["verdict"], body["convention"], body["credit"]) == (verdict, convention, credit)
    assert body["mode"] == "feedback" and body["attempts_left"] is None  # 0: no limit
    assert says in body["message"] and "_" not in body["message"]
    for leak in LEAKS:
        if leak not in answer:
            assert leak not in body["message"], body["message"]


def test_the_daily_limit_and_off(policies_url: str) -> None:
    def ask(answer: str) -> httpx.Response:
        return httpx.post(f"{policies_url}/v1/answers/check", json={
            "assignment": "stat8021-a3", "question": "q3d", "answer": answer})

    assert [ask(a).json()["attempts_left"] for a in ("14 billion", "14.5 billion")] == [1, 0]
    refused = ask("14.5 billion")
    error = assert_error(refused, 429, "question", "too_many_attempts")
    assert "renew at 00:00 UTC" in error["message"]
    assert 0 < int(refused.headers["Retry-After"]) <= 86_400
    listed = httpx.get(f"{policies_url}/v1/answers/questions").json()["questions"]
    assert "q3e1" not in [q["question"] for q in listed]  # self_check = "off"
    r = httpx.post(f"{policies_url}/v1/answers/check", json={
        "assignment": "stat8021-a3", "question": "q3e1", "answer": "9437184"})
    assert_error(r, 404, "question", "not_found")


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
    assert result["verdict"] == "correct" and result["mode"] == "verdict"
    assert set(result) == {"assignment", "question", "mode", "verdict", "message", "parts",
                           "attempts_left"}
    assert "25769803776" not in str(result)


def test_a_question_the_pack_keeps_off_is_not_offered() -> None:
    """Lab B's 0-point follow-up marks its answer `self_check = true`, but the pack keeps
    it off (no points, no visibility of its own): it is offered only once the pack says
    `visibility = "visible"`."""
    import copy

    lab_b = load_pack(PACKS / "transfer-lab-b")
    lora = lab_b.question("q2-lora")
    assert any(c.kind == "answer" and c.settings.self_check for c in lora.checks)
    assert "q2-lora" not in [a.question.id for a in self_checkable({lab_b.id: lab_b})]
    raw = copy.deepcopy(lab_b.raw)
    next(q for q in raw["questions"] if q["id"] == "q2-lora")["visibility"] = "visible"
    shown = dataclasses.replace(lab_b, raw=raw)
    assert "q2-lora" in [a.question.id for a in self_checkable({shown.id: shown})]
