"""A check kind's evidence is laid out by its own template partial, found by name.

`templates/report/kinds/<template>.html.j2` and `.md.j2` (`Kind.template`, default the
kind's name): a new kind adds its partials and no branch anywhere; a kind without one,
or a kind this grader does not know, is shown by `kinds/generic.*`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from grader.checks.kind import Kind
from grader.checks.registry import register, unregister
from grader.report import BatchError, render_batch, render_student
from grader.report.templates import templates_dir
from tests.report import small


class Drift(Kind):
    """An example kind: how far something moved, with a partial of its own."""

    name = "drift-partial-example"
    label = "drift of your weights"
    template = "drift-example"

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        ev = check.get("evidence") or {}
        return {"moved": ev.get("moved"), "limit": ev.get("limit")}


class Plain(Kind):
    """An example kind with no partial: the generic rows show its evidence."""

    name = "plain-partial-example"


@pytest.fixture
def kinds_with_a_partial(tmp_path, monkeypatch):
    root = tmp_path / "templates"
    shutil.copytree(templates_dir(), root)
    kinds = root / "report" / "kinds"
    (kinds / "drift-example.html.j2").write_text(
        '<p class="drift">moved {{ e.moved }} of at most {{ e.limit }}</p>\n')
    (kinds / "drift-example.md.j2").write_text("\n- moved {{ e.moved }} of at most {{ e.limit }}\n")
    monkeypatch.setenv("GRADER_TEMPLATES", str(root))
    register(Drift())
    register(Plain())
    yield
    unregister(Drift.name)
    unregister(Plain.name)


def _record() -> dict[str, Any]:
    return small.record_json([
        small.question("q1", checks=[small.check(Drift.name, evidence={"moved": 0.25,
                                                                        "limit": 0.5})]),
        small.question("q2", checks=[small.check(Plain.name, evidence={"widgets": 7})]),
        small.question("q3", checks=[small.check("from-a-later-grader",
                                                 evidence={"gadgets": 3})])])


def test_each_kind_is_shown_by_its_partial_and_the_rest_by_the_generic_rows(
        kinds_with_a_partial):
    html = render_student(_record(), "html")
    assert '<p class="drift">moved 0.25 of at most 0.5</p>' in html
    assert "drift of your weights" in html  # the kind's label
    assert "<th>widgets</th><td><code>7</code>" in html  # no partial: generic rows
    assert "<th>gadgets</th><td><code>3</code>" in html  # unknown kind: generic rows
    md = render_student(_record(), "md")
    assert "- moved 0.25 of at most 0.5" in md
    assert "- widgets: `7`" in md and "- gadgets: `3`" in md


def test_a_stored_record_with_a_misspelled_field_is_refused_naming_it(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    good = small.record_json()
    (results / "ada.json").write_text(json.dumps(good), encoding="utf-8")
    bad = small.record_json()
    bad["questions"][0]["scroe"] = 1.0
    (results / "bob.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(BatchError) as refused:
        render_batch(results, tmp_path / "out")
    assert refused.value.field == "bob.json"
    assert "questions.0.scroe" in str(refused.value)
    (results / "bob.json").unlink()
    written = render_batch(results, tmp_path / "out").written
    assert Path(tmp_path / "out" / "students" / "ada.html") in written


def test_a_new_kinds_flag_reaches_its_student_as_words_and_goes_with_a_withheld_question():
    """A kind's declared flag (`Kind.flags`) needs no line in the report layer: the student
    reads its rows' question, kind and message, never another key, and rows about a
    question the rubric withholds are left out with it."""
    from grader.report.visibility import student_view

    class Flagging(Kind):
        name = "flagging-example"
        flags = ("drift_flag_example",)

    rows = [{"question": "q1", "kind": "moved", "message": "your weights moved",
             "reference_distance": 0.123},
            {"question": "q2", "kind": "moved", "message": "withheld with q2"}]
    data = small.record_json([small.question("q1"), small.question("q2")],
                             flags={"drift_flag_example": rows})
    register(Flagging())
    try:
        raw = {"questions": [{"id": "q2", "visibility": "hidden"}]}
        shown = student_view(small.GradeRecord.from_dict(data), raw)
        html = render_student(data, "html", pack_raw=raw)
    finally:
        unregister(Flagging.name)
    assert shown["flags"]["drift_flag_example"] == [
        {"question": "q1", "kind": "moved", "message": "your weights moved"}]
    assert "0.123" not in html and "withheld with q2" not in html
