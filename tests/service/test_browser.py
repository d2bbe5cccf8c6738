"""The pages in a real browser: Debian's Chromium driven by Playwright, headless, loopback only.

Playwright's own browser download is never used: Chromium comes from the system
(``/usr/bin/chromium``, or ``$GRADER_CHROMIUM``). JavaScript is turned off, since
the pages promise to work without it.
"""

from __future__ import annotations

import pytest

from tests.service.conftest import SOLUTION, needs_bwrap

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser, base_url: str):
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        base_url) else route.abort())  # loopback only: any other address is refused
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def test_distilbert_with_a_4_label_head_shows_its_count_and_breakdown(page) -> None:
    page.goto("/calc")
    page.select_option("#model", "distilbert-base-uncased")
    page.select_option("#head", "seq-cls")
    page.fill("#num_labels", "4")
    page.click("button[type=submit]")
    assert page.inner_text("#total") == "66,956,548"
    rows = page.locator("#breakdown tbody tr")
    assert rows.count() == 11  # ten components and the total
    assert "head/classifier" in rows.nth(9).inner_text()
    assert "593,668" in rows.nth(9).inner_text()
    assert "66,956,548" in rows.nth(10).inner_text()
    formula = page.locator("#formula math")
    assert formula.count() == 1
    box = formula.bounding_box()  # rendered as MathML by the browser, with no script
    assert box is not None and box["width"] > 50


def test_a_bad_label_count_is_shown_next_to_the_form(page) -> None:
    page.goto("/calc")
    page.select_option("#model", "distilbert-base-uncased")
    page.select_option("#head", "seq-cls")
    page.fill("#num_labels", "four")
    page.click("button[type=submit]")
    alert = page.locator("[role=alert]")
    assert alert.get_attribute("data-field") == "num_labels"
    assert page.locator("#result").count() == 0


def test_checking_an_answer_shows_the_verdict(page) -> None:
    page.goto("/answers")
    page.fill("#answer", "24 GB")
    page.fill("#expected", "25769803776 bytes")
    page.click("form[action='/answers/compare'] button")
    verdict = page.inner_text("#verdict")
    assert verdict.startswith("Verdict: convention (credit 1/2): GiB and GB confused"), verdict
    assert "gib_vs_gb" not in page.inner_text("body")  # no internal id on the page
    page.fill("#text", "120,000 + 600 + 40,000 + 200 = 160,000")
    page.click("form[action='/answers/lint'] button")
    assert "1 arithmetic slip" in page.inner_text("#slips")
    assert "160800" in page.inner_text("#slips")
    assert page.locator("#no-questions").count() == 0  # Part 3's self-checkable questions


def test_each_answer_gets_its_box_and_its_verdict_beside_it(page) -> None:
    page.goto("/answers")
    q3a2 = page.locator("#question-stat8021-a3-q3a2")
    assert q3a2.locator("input[name^=answer-]").count() == 2  # p(mat) and the loss
    q3a2.get_by_label("p(mat)").fill("0.7500")
    q3a2.get_by_label("Loss").fill("0.5")
    q3a2.locator("button").click()
    q3a2 = page.locator("#question-stat8021-a3-q3a2")
    first, second = q3a2.locator("output#verdict-stat8021-a3-q3a2-1"), q3a2.locator(
        "output#verdict-stat8021-a3-q3a2-2")
    assert first.inner_text().startswith("Correct") and second.inner_text().startswith(
        "Not right")
    assert "right or not right only" in second.inner_text()  # marks: verdict only
    assert "check(s) left today" in q3a2.inner_text()
    # each box keeps its own answer; no other form got it
    assert q3a2.get_by_label("Loss").input_value() == "0.5"
    assert page.input_value("#answer") == "" and page.locator("output.verdict").count() == 2
    # a number without its unit gets the useful message the CLI gives
    q3c = page.locator("#question-stat8021-a3-q3c")
    q3c.get_by_label("Your answer").fill("25769803776")
    q3c.locator("button").click()
    said = page.inner_text("#verdict-stat8021-a3-q3c-1")
    assert "has no unit; as 25769803776 bytes it would be correct" in said, said


def test_the_api_docs_work_offline(browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=True)
    elsewhere: list[str] = []

    def route(r) -> None:
        if r.request.url.startswith(base_url):
            r.continue_()
        else:  # a CDN, say: unreachable offline
            elsewhere.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.goto("/docs")
    assert page.locator("h1").inner_text().endswith("the API")
    params = page.locator("section#post--v1-calc-params")
    assert "Parameter count of a model" in params.inner_text()
    assert "≥ 1, ≤ 100,000" in params.locator("tr[data-field=num_labels]").inner_text()
    assert page.locator("script").count() == 0
    page.click("a#openapi")
    assert '"/v1/calc/params"' in page.content()
    assert elsewhere == []
    assert page.goto("/redoc").status == 404  # nothing else that would need a CDN
    context.close()


@pytest.mark.sandbox
def test_uploading_the_solution_reaches_its_report(page, model_cache) -> None:
    needs_bwrap()
    page.goto("/selfcheck")
    page.select_option("#assignment", "stat8021-a3")
    page.set_input_files("#notebook", str(SOLUTION))
    page.click("button[type=submit]")
    assert "/selfcheck/" in page.url
    assert page.get_attribute("#status", "data-status") in ("queued", "running", "done")
    # the page refreshes itself every 2 s (meta refresh) until the report is there
    page.wait_for_selector("#status[data-status=done], #status[data-status=error]",
                           timeout=180_000)
    assert page.get_attribute("#status", "data-status") == "done", page.inner_text("#status")
    assert page.locator("#report").count() == 1
    for qid in ("q1a", "q1b", "q1c", "q1d"):
        assert page.locator(f"tr[data-question={qid}] td.passed").count() == 1
    if model_cache:  # quick mode on the tiny seeded models: a low accuracy is expected
        assert "tiny models" in page.inner_text("tr[data-question=q2b]")
    page.click("#full-report")  # the student report of grader.report
    assert page.url.endswith("/report.html")
    assert page.locator("body").inner_text().strip()
