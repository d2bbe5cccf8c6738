"""A file name that is not UTF-8 is one student's oddity, not the class's failure.

A notebook renamed on an old Windows machine (`caf\\xe9.ipynb`) reaches Python with a
lone surrogate; it used to stop `grader report` for everyone at the first HTML file
written (issue 17, item 8). Records are graded without a kernel (a lab report), then
stored and rendered the way `grader grade` does.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from grader.grade import grade_notebook
from grader.intake.lms import intake
from grader.pack import load_pack
from grader.report import render_batch
from grader.report.names import displayable, json_text
from tests.conftest import ROOT

LATIN1 = os.fsdecode(b"caf\xe9")
"""`café` written in Windows-1252 by the student's machine, as Linux hands it to Python."""


def test_displayable_reads_the_bytes_a_person_meant():
    assert LATIN1 != "café" and displayable(LATIN1) == "café"
    assert displayable(os.fsdecode("naïve".encode())) == "naïve"  # valid UTF-8: unchanged
    assert displayable("\ud800x") == "\ufffdx"  # not an escaped byte: replaced
    assert json.loads(json_text({"name": LATIN1}))["name"] == LATIN1  # the record keeps it
    json_text({"name": LATIN1}).encode("utf-8")  # and is valid UTF-8 on disk


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    """Two lab records stored as a batch stores them, one under a Latin-1 file name."""
    tmp = tmp_path_factory.mktemp("names")
    pack = load_pack(ROOT / "reference" / "transfer-lab-a")
    [sub] = intake(ROOT / "submissions" / "transfer-lab-a", tmp / "intake")
    folder = tmp / "records"
    folder.mkdir()
    for stem in (LATIN1, "plain"):
        record = grade_notebook(pack, sub.notebook, seed=1, reports=sub.reports).to_dict()
        record["submission"]["name"] = f"{stem}.ipynb"
        record["submission"]["path"] = str(tmp / f"{stem}.ipynb")
        (folder / f"{stem}.json").write_text(json_text(record), encoding="utf-8")
    return folder


@pytest.mark.sandbox
def test_a_latin1_notebook_name_renders_every_report(stored, tmp_path):
    pack = load_pack(ROOT / "reference" / "transfer-lab-a")
    result = render_batch(stored, tmp_path, pack=pack, formats=("html", "md", "json"))
    names = sorted(p.name for p in (tmp_path / "students").iterdir())
    assert names == ["café.html", "café.json", "café.md", "plain.html", "plain.json", "plain.md"]
    assert "café" in (tmp_path / "summary.html").read_text(encoding="utf-8")
    assert "café" in (tmp_path / "gradebook.csv").read_text(encoding="utf-8")
    assert len(result.students) == 2
