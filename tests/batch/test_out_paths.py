"""One path rule for every `--out` and submissions placement (issue 27 items 1, 2, 6).

`grader grade` takes a Moodle zip, a Canvas zip or a folder of student folders into
`OUT/intake/<stem>/`, builds it in `.<stem>.new/` and renames it; its roster once named
the reports as the intake saw them, so a relative `--out` (the README's own example),
an `--out` named like the submissions folder, or one inside it sent the grader to
files that were not there: the whole class failed or scored 0. Here the same class is
graded through the CLI under each placement, and every record must read the reports
handed in beside the notebooks, score the same, and exist for every student (one who
handed in nothing included).

Cheap on purpose: transfer-lab-a's report-only and notebook-plus-report students,
`--no-execute` (no kernel: execution is not what is tested), in-process CLI calls.
"""

from __future__ import annotations

import csv
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from grader.cli import main

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "reference" / "transfer-lab-a" / "solution" / "transfer_lab_a.ipynb"
REPORT = ROOT / "submissions" / "transfer-lab-a" / "student-report-a" / "lab-lm-report-a.md"

LAYOUTS = {
    # members of the download; a name ending in "/" is an empty student folder
    "moodle": {
        "Ann Lee_101_assignsubmission_file_/transfer_lab_a.ipynb": NOTEBOOK,
        "Ann Lee_101_assignsubmission_file_/report.md": REPORT,
        "Ben Ng_102_assignsubmission_file_/lab-lm-report-a.md": REPORT,
        "Cat Oh_103_assignsubmission_file_/": None,
    },
    "canvas": {
        "leeann_101_9001_transfer_lab_a.ipynb": NOTEBOOK,
        "leeann_101_9001_report.md": REPORT,
        "ngben_102_9002_lab-lm-report-a.md": REPORT,
    },
    "folders": {
        "ann/transfer_lab_a.ipynb": NOTEBOOK,
        "ann/report.md": REPORT,
        "ben/lab-lm-report-a.md": REPORT,
        "cat/": None,
    },
}
KEYS = {"moodle": ("ann-lee-101", "ben-ng-102", "cat-oh-103"),
        "canvas": ("leeann-101", "ngben-102", None),
        "folders": ("ann", "ben", "cat")}
"""(notebook and report, report only, nothing handed in) per layout; Canvas's download
has no folders, so no empty one."""

PLACEMENTS = ("relative", "absolute", "same-name", "out-in-source", "source-in-out")


def _write(layout: str, where: Path) -> Path:
    """The class download at `where` (a zip `labA.zip`, or the folder `labA/`)."""
    members = LAYOUTS[layout]
    if layout == "folders":
        folder = where / "labA"
        for name, src in members.items():
            target = folder / name
            if src is None:
                target.mkdir(parents=True, exist_ok=True)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, target)
        return folder
    where.mkdir(parents=True, exist_ok=True)
    path = where / "labA.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for name, src in members.items():
            if src is None:
                zf.writestr(zipfile.ZipInfo(name), b"")  # a folder entry, as Moodle writes
            else:
                zf.write(src, name)
    return path


def _place(layout: str, placement: str, tmp: Path) -> tuple[str, str, Path]:
    """(SUBMISSIONS argument, --out argument, the out folder) for one placement, with the
    working folder `tmp`."""
    if placement == "source-in-out":  # the download saved into the results folder
        source = _write(layout, tmp / "grades")
        return str(source.relative_to(tmp)), "grades", tmp / "grades"
    source = _write(layout, tmp / "subs")
    arg = str(source.relative_to(tmp))
    if placement == "relative":
        return arg, "grades", tmp / "grades"
    if placement == "absolute":
        return str(source), str(tmp / "abs-grades"), tmp / "abs-grades"
    if placement == "same-name":  # --out out/labA beside subs/labA
        return arg, "out/labA", tmp / "out" / "labA"
    # out-in-source: results written inside the class folder (a zip's folder, for zips)
    inside = source / "grades" if source.is_dir() else source.parent / "labA-grades"
    return arg, str(inside.relative_to(tmp)), inside


def _grade(tmp: Path, monkeypatch: pytest.MonkeyPatch, source: str, out: str) -> int:
    monkeypatch.chdir(tmp)
    return main(["grade", source, "-a", "transfer-lab-a", "--out", out, "--no-execute"])


@pytest.fixture(scope="module")
def class_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """Every layout graded under every placement, once for the module: the out folders."""
    done: dict[tuple[str, str], Path] = {}
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.delenv("GRADER_PACKS", raising=False)
        for layout in LAYOUTS:
            for placement in PLACEMENTS:
                tmp = tmp_path_factory.mktemp(f"{layout}-{placement}")
                source, out, folder = _place(layout, placement, tmp)
                code = _grade(tmp, monkeypatch, source, out)
                assert code == 0, (layout, placement)
                done[(layout, placement)] = folder
    return done


def _record(out: Path, key: str) -> dict:
    return json.loads((out / f"{key}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("placement", PLACEMENTS)
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_reports_beside_notebooks_are_read_wherever_out_is(class_runs, layout, placement) -> None:
    out = class_runs[(layout, placement)]
    both, alone, _ = KEYS[layout]
    for key in (both, alone):
        record = _record(out, key)
        handed = [r for r in record["submission"]["reports"] if not r.get("intake")]
        assert handed, (key, record["submission"])
        for report in handed:
            assert not report.get("error"), report
            assert report["sha256"], report
        # Q3's parameter count is read from the report (30 of 40: off by 0.0091 %)
        q3 = next(q for q in record["questions"] if q["id"] == "q3")
        assert q3["score"] == 30, (key, q3["message"])
    # nothing of the grader's results was taken in as a student
    roster = json.loads(next((out / "intake").glob("*/roster.json")).read_text())
    assert sorted(r["key"] for r in roster) == sorted(k for k in KEYS[layout] if k)
    for row in roster:  # the rule: a roster names its files relative to itself
        for path in [*row["reports"], *row["other"], row["notebook"] or "x"]:
            assert not Path(path).is_absolute() and ".new" not in path, path


@pytest.mark.parametrize("layout", ["moodle", "folders"])
def test_a_student_who_handed_in_nothing_has_a_record_and_a_gradebook_row(class_runs, layout):
    out = class_runs[(layout, "relative")]
    key = KEYS[layout][2]
    record = _record(out, key)
    assert record["score"] == 0 and record["status"] == "incomplete"
    assert "nothing was handed in" in record["questions"][0]["message"]
    with (out / "reports" / "gradebook.csv").open(encoding="utf-8") as fh:
        rows = {r["key"]: r for r in csv.DictReader(fh)}
    assert set(rows) >= {k for k in KEYS[layout] if k}
    assert rows[key]["total"] == "0"


def test_every_placement_gives_the_same_scores(class_runs) -> None:
    for layout in LAYOUTS:
        scores = {placement: {k: _record(class_runs[(layout, placement)], k)["score"]
                              for k in KEYS[layout] if k} for placement in PLACEMENTS}
        assert len({json.dumps(s, sort_keys=True) for s in scores.values()}) == 1, scores


def test_the_intake_folder_given_back_as_submissions_is_refused(tmp_path, monkeypatch, capsys):
    """A batch's own intake is not a download: taking it in again would replace it while
    reading it. One line naming it, exit 2."""
    source, out, folder = _place("folders", "relative", tmp_path)
    assert _grade(tmp_path, monkeypatch, source, out) == 0
    # the intake's trees are student folders: as a source, they would be taken in again
    code = _grade(tmp_path, monkeypatch, str(Path(out) / "intake" / "labA" / "trees"), out)
    assert code == 2
    assert "the grader's own intake" in capsys.readouterr().err


def test_two_downloads_with_one_stem_are_refused_not_merged(tmp_path, monkeypatch, capsys):
    zipped = _write("moodle", tmp_path / "a")
    folder = _write("folders", tmp_path / "b")
    monkeypatch.chdir(tmp_path)
    code = main(["grade", str(zipped), str(folder), "-a", "transfer-lab-a", "--out", "g",
                 "--no-execute"])
    assert code == 2
    assert "would both be taken in" in capsys.readouterr().err
