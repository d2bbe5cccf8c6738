"""The answers page in Chromium (no JavaScript) on a course server holding only public packs.

Issue 27 items 3 and 9: the page offered Part 3's questions of a pack whose keys the
server did not hold (each check a 500), and listed another pack's question with no
assignment heading. Now each assignment has its heading, and a public pack's questions
are named as checked at grading, with no form to check them.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_each_assignment_has_a_heading_and_a_public_pack_says_checked_at_grading(
        browser, public_url: str) -> None:
    context = browser.new_context(base_url=public_url, java_script_enabled=False)
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        public_url) else route.abort())
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto("/answers")
        section = page.locator("#assignment-stat8021-a3")
        assert "(stat8021-a3)" in section.locator("h3").inner_text()
        note = section.locator(".at-grading").inner_text()
        assert note.startswith("Checked at grading, not here")
        assert "Q3(c) Memory of the attention scores" in note
        assert section.locator("form").count() == 0
        # every form on the page sits under its assignment's heading
        forms = page.locator("form.question")
        for i in range(forms.count()):
            owner = forms.nth(i).locator("xpath=ancestor::section[@data-assignment]")
            assert owner.count() == 1
            assert forms.nth(i).locator("input[name=assignment]").get_attribute("value") == \
                owner.get_attribute("data-assignment")
    finally:
        context.close()
