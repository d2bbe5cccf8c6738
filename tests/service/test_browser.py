"""The pages in a real browser: Debian's Chromium driven by Playwright, headless, loopback only.

Playwright's own browser download is never used: Chromium comes from the system
(``/usr/bin/chromium``, or ``$GRADER_CHROMIUM``). JavaScript is turned off, since
the pages promise to work without it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.conftest import SOLUTION, needs_bwrap

CHROMIUM = os.environ.get("GRADER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield chromium
        chromium.close()


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
    page.fill("#answer", "24 GiB")
    page.fill("#expected", "25769803776 bytes")
    page.click("form[action='/answers/compare'] button")
    assert page.inner_text("#verdict").startswith("Verdict: correct")
    page.fill("#text", "120,000 + 600 + 40,000 + 200 = 160,000")
    page.click("form[action='/answers/lint'] button")
    assert "1 arithmetic slip" in page.inner_text("#slips")
    assert "160800" in page.inner_text("#slips")
    assert page.locator("#no-questions").count() == 0  # Part 3's self-checkable questions
    page.fill("#answer-stat8021-a3-q3c", "24 GB")
    page.click("form.question:has(#answer-stat8021-a3-q3c) button")
    verdict = page.inner_text("#question-verdict")
    assert verdict.startswith("q3c: convention (credit 1/2)"), verdict
    assert "25.77" not in verdict and "25769803776" not in verdict  # the key stays server-side


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
    page.click("#full-report")  # the student report of grader.report
    assert page.url.endswith("/report.html")
    assert page.locator("body").inner_text().strip()
