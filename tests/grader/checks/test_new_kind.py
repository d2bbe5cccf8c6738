"""A new check kind is one module (`citations_kind.py`): registered, it is read from a
rubric (typed settings, a misspelled key refused), planned, scored, flagged and
explained, pack to record, without a line of the grader naming it.

Fast tier: the notebook is graded on its saved outputs (`execute=False`), which is all
a kind that reads markdown cells needs; no kernel starts.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from grader.checks import registry
from grader.grade import grade_notebook
from grader.pack import PackError, load_pack
from grader.report.evidence import explain
from grader.report.render import render_student
from tests.grader.checks.citations_kind import KIND, CitationsSettings

RUBRIC = '''
[assignment]
id = "essay"
title = "Why attention"
notebook = "essay.ipynb"
total = 10
template = "template/essay.ipynb"
probes = "probes.py"

[[questions]]
id = "why"
title = "Why attention works"
points = 10
  [[questions.checks]]
  kind = "citations"
  min_citations = 3
'''


@pytest.fixture
def citations():
    registry.register(KIND)
    yield KIND
    registry.unregister(KIND.name)


@pytest.fixture
def pack_dir(tmp_path: Path, citations) -> Path:
    root = tmp_path / "essay"
    (root / "template").mkdir(parents=True)
    nbformat.write(nbformat.v4.new_notebook(), root / "template" / "essay.ipynb")
    (root / "probes.py").write_text("")
    (root / "pack.toml").write_text(RUBRIC)
    return root


def _essay(folder: Path, text: str) -> Path:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_markdown_cell(text)
    cell.metadata["tags"] = ["why"]
    nb.cells.append(cell)
    folder.mkdir(exist_ok=True)
    path = folder / "essay.ipynb"
    nbformat.write(nb, path)
    return path


def test_the_kind_is_read_typed_from_the_rubric(pack_dir):
    check = load_pack(pack_dir).questions[0].checks[0]
    assert isinstance(check.settings, CitationsSettings)
    assert check.settings.min_citations == 3 and check.settings.tag is None  # its default
    assert check.settings.written() == {"min_citations": 3}
    (pack_dir / "pack.toml").write_text(RUBRIC.replace("min_citations", "min_citation"))
    with pytest.raises(PackError, match="did you mean 'min_citations'"):
        load_pack(pack_dir)


def test_a_notebook_is_graded_through_the_new_kind_to_its_record(pack_dir, tmp_path):
    pack = load_pack(pack_dir)
    partial = grade_notebook(pack, _essay(tmp_path / "a", "Attention mixes tokens [1], [4]."),
                             mode="check", execute=False)
    q = partial.questions[0]
    assert (q.score, q.status, q.message) == (pytest.approx(10 * 2 / 3), "partial",
                                              "2 of the 3 sources asked are cited.")
    outcome = q.checks[0]
    assert outcome["kind"] == "citations" and outcome["evidence"] == {"cited": [1, 4],
                                                                      "asked": 3}
    assert partial.flags["uncited"] == []  # a declared flag is on every record, empty here
    view = explain(outcome.model_dump())
    assert view["template"] == "citations" and view["cited"] == [1, 4]
    assert registry.label("citations") == "your sources"

    uncited = grade_notebook(pack, _essay(tmp_path / "b", "Attention is all you need."),
                             mode="check", execute=False)
    assert uncited.questions[0].score == 0 and uncited.questions[0].status == "failed"
    assert uncited.flags["uncited"] == [{"question": "why", "message": "no source is cited"}]
    assert uncited.to_dict()["flags"]["uncited"] == uncited.flags["uncited"]  # on disk too


def test_the_report_shows_the_kind_through_its_own_partial(pack_dir, tmp_path):
    """The HTML and Markdown reports lay the kind's evidence out with the partial its module
    brings (`Kind.templates`), and name it by its label: nothing in `templates/` knows it."""
    record = grade_notebook(load_pack(pack_dir), _essay(tmp_path, "See [1], [4]."),
                            mode="check", execute=False)
    html = render_student(record, "html")
    assert "<strong>your sources</strong></p><p>Cited: [1], [4] (3 asked).</p>" in html
    md = render_student(record, "md")
    assert "Cited: [1], [4] (3 asked)." in md


def test_a_flag_no_kind_declares_is_an_error_not_dropped(pack_dir, tmp_path, monkeypatch):
    """A kind raising a flag it did not declare is the grader's bug: grading says so."""
    monkeypatch.setattr(type(KIND), "flags", ())
    with pytest.raises(ValueError, match="no check kind declares.*uncited"):
        grade_notebook(load_pack(pack_dir), _essay(tmp_path, "No sources."), mode="check",
                       execute=False)
