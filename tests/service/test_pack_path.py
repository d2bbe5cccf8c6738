"""Which packs the service serves, and what it says of a pack it holds only the public part of.

Issue 27 items 3 and 4: `grader serve` looked only in the checkout's `reference/` (a wheel
install served nothing), and on the public pack `docs/service.md` told courses to deploy,
every Part 3 check was a 500 `pack_error` while the page still offered the questions.
The rule now: the service serves the packs along the search path every command uses
(`--packs-dir`, `$GRADER_PACKS`, `./reference`, the installed examples; first id wins);
a question whose key the server holds (the full pack) is checked here, and one whose pack
is here only in its public part is listed as checked at grading, and a check of it is a
404 that says so. Real uvicorn servers on loopback, real exported packs.
"""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

from grader.cli import main
from grader.pack import load_pack
from grader.service import Settings
from tests.service.conftest import assert_error, serve

PART3 = ["q3a2", "q3c", "q3d", "q3e1", "q3e2", "q3e3"]


def test_a_public_pack_s_answers_are_listed_as_checked_at_grading(public_url: str) -> None:
    listed = httpx.get(f"{public_url}/v1/answers/questions", timeout=30).json()
    offered = [q["question"] for q in listed["questions"] if q["assignment"] == "stat8021-a3"]
    later = [q["question"] for q in listed["checked_at_grading"]
             if q["assignment"] == "stat8021-a3"]
    assert offered == [] and later == PART3
    # the public pack (first on the path) is the one served, not the installed example
    assert "expected" not in str(listed)


def test_checking_one_is_a_404_that_says_at_grading_never_a_500(public_url: str) -> None:
    r = httpx.post(f"{public_url}/v1/answers/check", timeout=30, json={
        "assignment": "stat8021-a3", "question": "q3c", "answer": "25.77 GB"})
    error = assert_error(r, 404, "question", "not_found")
    assert error["message"] == ("q3c's answers are checked at grading: this server holds "
                                "only the public part of stat8021-a3 (no answer key), so it "
                                "does not check them")


def test_the_answers_page_says_so_under_the_assignment_heading(public_url: str) -> None:
    html = httpx.get(f"{public_url}/answers", timeout=30).text
    start = html.index('id="assignment-stat8021-a3"')
    section = html[start:html.index("</section>", start)]
    assert "<h3>" in section and "Checked at grading, not here" in section
    assert 'name="question" value="q3c"' not in html  # no form offers it


def test_the_full_pack_from_the_search_path_answers_a_part3_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No --packs-dir, an empty working folder: the installed example packs are served
    (here the checkout's, as an editable install has them) and Part 3 is checked."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GRADER_PACKS", raising=False)
    with serve(Settings(compute_workers=1, rate_per_minute=0, selfcheck_workers=1,
                        sandbox="none")) as url:
        assigned = httpx.get(f"{url}/v1/assignments", timeout=30).json()
        assert {"stat8021-a3", "transfer-lab-a", "transfer-lab-b"} <= {
            a["id"] for a in assigned["assignments"]}
        r = httpx.post(f"{url}/v1/answers/check", timeout=30, json={
            "assignment": "stat8021-a3", "question": "q3c", "answer": "25.77 GB"})
        assert r.status_code == 200, r.text
        assert r.json()["verdict"] == "correct" and "25769803776" not in r.text


def test_pack_commands_take_an_id_and_say_did_you_mean(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GRADER_PACKS", raising=False)
    assert main(["pack", "validate", "stat8021-a4", "--quick"]) == 2
    err = capsys.readouterr().err
    assert "did you mean 'stat8021-a3'?" in err and "pack: pack:" not in err
    assert main(["pack", "export-public", "stat8021-a3", "public"]) == 0
    assert load_pack(tmp_path / "public").is_public


def test_serve_without_the_service_extra_says_which_extra(monkeypatch, capsys) -> None:
    """Installed without `service` (the README once named only grading, reports and
    models), `grader serve` said `ModuleNotFoundError: uvicorn` in a traceback."""
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if not installed
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the service needs the `service` extra")
    assert "pip install 'transformer-grader[service,grading]'" in err
    assert "(missing: uvicorn)" in err and "Traceback" not in err
