"""The similarity report in real headless Chromium (Debian's): the statement, the ranked
table, a group, the side-by-side evidence with highlighted code; offline; a screenshot."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.similarity.conftest import PACK_DIR

pytestmark = pytest.mark.browser


def test_similarity_report_in_chromium(browser, synthetic_class, tmp_path: Path) -> None:
    from grader.similarity import Settings, class_from_notebooks, find_similar
    from grader.similarity.render import write_report

    classroom = class_from_notebooks(sorted(synthetic_class["paths"].values()), PACK_DIR)
    write_report(find_similar(classroom, Settings()), tmp_path)
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto((tmp_path / "similarity.html").as_uri())
    for selector in ("#statement", "#pairs tr.flagged", "#clusters .cluster", "#pair-1",
                     "#pair-1 pre.code mark", "#pair-1 .sides.prose blockquote"):
        assert page.locator(selector).first.is_visible(), selector
    assert "never a verdict" in page.locator("#statement").inner_text()
    assert page.locator("#pairs tr.flagged").count() == len(synthetic_class["module"].PLANTED)
    assert "group-a.ipynb" in page.locator("#clusters").inner_text()
    link = page.locator("#pairs a", has_text="report-copy").first  # its best pair: the copy
    target = link.get_attribute("href")
    link.click()
    assert target and page.url.endswith(target)
    assert page.locator(f"{target} table.numbers").inner_text().count("51.54 GB") == 2
    page.screenshot(path=str(tmp_path / "similarity.png"), full_page=True)
    assert (tmp_path / "similarity.png").stat().st_size > 20_000
    assert [u for u in requests if not u.startswith(("file://", "data:"))] == []
