"""A report and the class summary in real headless Chromium: visible, offline, printable."""

from __future__ import annotations

import pytest

from grader.report import render_batch

pytestmark = pytest.mark.browser


def test_report_and_summary_in_chromium(browser, records, rich_record, pack, tmp_path):
    batch = [*records.values(), {**rich_record, "submission": {
        **rich_record["submission"], "name": "rich.ipynb"}}]
    render_batch(batch, tmp_path, pack=pack, formats=("html",))
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))

    page.goto((tmp_path / "students" / "rich.html").as_uri())
    for selector in ("#score", "#questions", "#q1a", "#q2 svg path.series", "#q3a .slips"):
        assert page.locator(selector).first.is_visible(), selector
    assert page.locator("#score").inner_text().startswith("53 / 75")
    page.screenshot(path=str(tmp_path / "student.png"), full_page=True)
    page.pdf(path=str(tmp_path / "student.pdf"))  # prints (Chromium headless only)

    page.goto((tmp_path / "summary.html").as_uri())
    for selector in ("#histogram rect.bar", "#per-question", "#failures", "#attention",
                     "#runs", "a.report-link"):
        assert page.locator(selector).first.is_visible(), selector
    assert page.locator("#attention").inner_text().count("limits hit") >= 3
    page.screenshot(path=str(tmp_path / "summary.png"), full_page=True)
    page.locator("a.report-link", has_text="wrong-q1c-missing-scale").click()
    assert page.url.endswith("students/wrong-q1c-missing-scale.html")
    assert page.locator("#score").inner_text() == "18 / 100"

    assert (tmp_path / "student.png").stat().st_size > 10_000
    assert (tmp_path / "student.pdf").read_bytes().startswith(b"%PDF")
    outside = [u for u in requests if not u.startswith(("file://", "data:"))]
    assert outside == [] and len(requests) >= 3
