"""Cells that need data the grader lacks, named by the pack (issue 27 item 10).

Real starter notebooks load data the grader does not have (a COCO loader, a Drive path):
with a correct module, every record said "needs a TA: cells crashed". A pack's
`[[expected_errors]]` names such cells (by tag and/or a pattern of the error); they still
run, their error stays in the record, and whoever reads the record with the pack shows
it as expected and does not send the record to a TA for it. Through the CLI: one real
graded run (a Part 1 sample with a COCO cell added), read with and without the rule.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import nbformat
import pytest

from grader.cli import main
from grader.pack import PackError, load_pack

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "submissions" / "stat8021-a3" / "wrong-q1c-missing-scale.ipynb"
RULE = '''
[[expected_errors]]
tags = ["coco-data"]
error = "FileNotFoundError: .*captions"
why = "loads the COCO captions, which the grader does not have"
'''


def _pack_with_rule(where: Path) -> Path:
    pack = where / "stat8021-a3"
    shutil.copytree(ROOT / "reference" / "stat8021-a3", pack)
    with (pack / "pack.toml").open("a", encoding="utf-8") as fh:
        fh.write(RULE)
    return pack


def _notebook_with_coco_cell(path: Path) -> Path:
    nb = nbformat.read(SAMPLE, as_version=4)
    cell = nbformat.v4.new_code_cell("import json\ncaptions = json.load(open("
                                     "'coco/annotations/captions_train2017.json'))")
    cell.metadata["tags"] = ["coco-data"]
    nb.cells.insert(1, cell)
    nbformat.write(nb, path)
    return path


def _book(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8") as fh:
        return {r["key"]: r for r in csv.DictReader(fh)}


@pytest.mark.sandbox
def test_a_cell_the_pack_expects_to_fail_is_shown_expected_and_sends_no_one_to_a_ta(
        tmp_path, monkeypatch, capsys, hf_cache) -> None:
    from tests.conftest import needs_bwrap

    needs_bwrap()
    pack = _pack_with_rule(tmp_path / "packs")
    _notebook_with_coco_cell(tmp_path / "ann.ipynb")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["grade", "ann.ipynb", "-a", str(pack), "--out", "grades",
                 "--hf-cache", str(hf_cache)]) == 0
    table = capsys.readouterr().out
    assert "cells crashed" not in table
    # the record keeps the error as it happened: the rule is applied when it is read
    assert main(["report", "grades", "--out", "with-rule", "-a", str(pack)]) == 0
    assert _book(tmp_path / "with-rule" / "gradebook.csv")["ann"]["needs_human"] == ""
    md = (tmp_path / "with-rule" / "students" / "ann.md").read_text(encoding="utf-8")
    row = next(line for line in md.splitlines() if "captions\\_train2017" in line
               or "captions_train2017" in line)
    assert row.startswith("| 2 | `FileNotFoundError:")
    assert "expected when graded: loads the COCO captions" in row
    # read with the shipped pack (no rule), the same record is a crash for a TA
    assert main(["report", "grades", "--out", "no-rule", "-a", "stat8021-a3"]) == 0
    assert _book(tmp_path / "no-rule" / "gradebook.csv")["ann"]["needs_human"] == (
        "cells crashed: FileNotFoundError")


@pytest.mark.parametrize(("rule", "field"), [
    ('why = "data"', "expected_errors[0]"),  # neither tags nor error: would hide any crash
    ('error = "(unclosed"\nwhy = "data"', "expected_errors[0].error"),
    ('tags = ["x"]', "expected_errors[0].why"),
])
def test_a_rule_that_would_hide_crashes_or_cannot_match_is_refused(tmp_path, rule, field):
    pack = tmp_path / "stat8021-a3"
    shutil.copytree(ROOT / "reference" / "stat8021-a3", pack)
    with (pack / "pack.toml").open("a", encoding="utf-8") as fh:
        fh.write(f"\n[[expected_errors]]\n{rule}\n")
    with pytest.raises(PackError) as info:
        load_pack(pack)
    assert str(info.value).startswith(field), str(info.value)


@pytest.mark.sandbox
def test_the_self_check_page_shows_the_cell_as_expected(tmp_path, hf_cache, monkeypatch) -> None:
    """The course server's job page reads the record with the pack too."""
    import httpx

    from grader.service import Settings
    from tests.conftest import needs_bwrap
    from tests.service.conftest import serve, wait_for_job

    needs_bwrap()
    monkeypatch.setenv("GRADER_HF_CACHE", str(hf_cache))
    pack = _pack_with_rule(tmp_path / "packs")  # first on the path: served as stat8021-a3
    notebook = _notebook_with_coco_cell(tmp_path / "ann.ipynb")
    with serve(Settings(packs_dir=pack.parent, compute_workers=1, rate_per_minute=0,
                        selfcheck_workers=1)) as url, httpx.Client(base_url=url,
                                                                   timeout=60) as client:
        r = client.post("/v1/selfcheck", data={"assignment": "stat8021-a3"}, files={
            "notebook": ("ann.ipynb", notebook.read_bytes(), "application/x-ipynb+json")})
        assert r.status_code == 202, r.text
        job = wait_for_job(client, r.json()["id"], timeout_s=600)
        assert job["status"] == "done", job
        page = client.get(f"/selfcheck/{job['id']}").text
        full = client.get(f"/selfcheck/{job['id']}/report.html").text
    assert ("Cell 2: FileNotFoundError" in page
            and "expected when graded (loads the COCO captions" in page)
    assert "Expected when graded: loads the COCO captions" in full
