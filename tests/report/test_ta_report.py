"""`grader report` on a batch as `grader grade` leaves it, run the way a TA runs it.

One Moodle zip (two Part 1 samples, no fine-tuning) is graded once through the console
script; every test renders that folder again with `grader report`.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import PACK_DIR, ROOT, SAMPLES, needs_bwrap

NB = "Transformer_practice.ipynb"
STUDENTS = {"1001": ("Ada Lovelace", "wrong-q1d-sin-cos-swapped"),
            "1002": ("Alan Turing", "wrong-q1c-missing-scale")}
WORKSHEET = ["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
             "Grade can be changed", "Last modified (submission)", "Last modified (grade)",
             "Feedback comments"]


def grader(*argv: str, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=600, check=False,
                          env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def batch(tmp_path_factory, hf_cache) -> Path:
    """OUT of `grader grade A3-download.zip -a course-pack --out OUT`, where course-pack
    is the course's copy of stat8021-a3 (same id) that withholds Q1(d)'s details."""
    needs_bwrap()
    root = tmp_path_factory.mktemp("ta-report")
    pack = root / "course-pack"
    shutil.copytree(PACK_DIR, pack)
    toml = (pack / "pack.toml").read_text()
    assert toml.count('id = "q1d"\n') == 1
    (pack / "pack.toml").write_text(toml.replace('id = "q1d"\n', 'id = "q1d"\n'
                                                 'visibility = "score"\n'))
    download = root / "A3-download.zip"
    with zipfile.ZipFile(download, "w") as zf:
        for pid, (name, stem) in STUDENTS.items():
            zf.writestr(f"{name}_{pid}_assignsubmission_file_/{NB}",
                        (SAMPLES / f"{stem}.ipynb").read_bytes())
    out = root / "grades"
    done = grader("grade", str(download), "-a", str(pack), "--out", str(out),
                  "--seed", "7", env={"GRADER_HF_CACHE": str(hf_cache)})
    assert done.returncode == 0, done.stderr
    return out


def worksheet(path: Path, pids: list[str]) -> Path:
    rows = [WORKSHEET] + [[f"Participant {pid}", STUDENTS.get(pid, ("Someone",))[0],
                           f"{pid}@uni.example", "Submitted", "", "100.00", "Yes", "", "-", ""]
                          for pid in pids]
    path.write_text("\ufeff" + "".join(",".join(r) + "\n" for r in rows))
    return path


def grades(path: Path) -> dict[str, str]:
    table = list(csv.reader(io.StringIO(path.read_text())))
    col = {h: i for i, h in enumerate(table[0])}
    return {r[col["Identifier"]]: r[col["Grade"]] for r in table[1:]}


def test_moodle_worksheet_finds_the_roster_the_batch_took_in(batch, tmp_path):
    """No --roster: the roster under OUT/intake/<zip stem>/ fills the Grade column."""
    sheet = worksheet(tmp_path / "Grades-A3.csv", ["1001", "1002", "1003"])
    done = grader("report", str(batch), "--out", str(tmp_path / "feedback"),
                  "--moodle-worksheet", str(sheet))
    assert done.returncode == 0, done.stderr
    assert grades(tmp_path / "feedback" / "moodle-worksheet.csv") == {
        "Participant 1001": "24", "Participant 1002": "18", "Participant 1003": ""}
    with zipfile.ZipFile(tmp_path / "feedback" / "moodle-feedback.zip") as zf:
        assert len(zf.namelist()) == 2


def test_moodle_worksheet_without_any_roster_exits_2_naming_the_option(batch, tmp_path):
    """Records copied away from their batch: no participant id anywhere, so no grade."""
    records = tmp_path / "records"
    records.mkdir()
    for path in batch.glob("*-100?.json"):
        shutil.copy(path, records)
    sheet = worksheet(tmp_path / "Grades-A3.csv", ["1001", "1002"])
    done = grader("report", str(records), "--out", str(tmp_path / "feedback"),
                  "-a", "stat8021-a3", "--moodle-worksheet", str(sheet))
    assert done.returncode == 2, done.stderr
    assert "--roster" in done.stderr and "intake" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    # and a worksheet of another assignment: no row for any graded student
    other = worksheet(tmp_path / "Grades-other.csv", ["2001", "2002"])
    done = grader("report", str(batch), "--out", str(tmp_path / "feedback2"),
                  "--moodle-worksheet", str(other))
    assert done.returncode == 2 and "none of the 2 graded Moodle students" in done.stderr


def test_report_from_another_folder_keeps_the_packs_visibility_rules(batch, tmp_path):
    """No -a, run elsewhere: the manifest names the pack that graded the batch."""
    manifest = json.loads((batch / "manifest.json").read_text())["pack"]
    assert manifest["root"] == str(batch.parent / "course-pack")
    assert len(manifest["pack_toml_sha256"]) == 64
    record = json.loads((batch / "ada-lovelace-1001.json").read_text())
    q1d = next(q for q in record["questions"] if q["id"] == "q1d")
    assert q1d["status"] == "failed" and q1d["message"]
    done = grader("report", str(batch), "--out", str(tmp_path / "feedback"), "--canvas",
                  cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "feedback" / "students" / "ada-lovelace-1001.html").read_text()
    assert "released after grading closes" in html
    assert q1d["message"].split(";")[0] not in html
    header = next(csv.reader(io.StringIO(
        (tmp_path / "feedback" / "canvas-gradebook.csv").read_text())))
    assert header[-1].startswith("Transformer mechanics")  # the assignment column is named


def test_report_refuses_a_pack_it_cannot_vouch_for(batch, tmp_path):
    """The pack folder moved: the id finds ./reference's stat8021-a3, whose pack.toml is
    not the one that graded (it shows Q1(d)): exit 2 saying what to pass."""
    moved = tmp_path / "grades"
    shutil.copytree(batch, moved, ignore=shutil.ignore_patterns(".runs", "reports"))
    manifest = json.loads((moved / "manifest.json").read_text())
    manifest["pack"]["root"] = str(tmp_path / "gone")
    (moved / "manifest.json").write_text(json.dumps(manifest))
    done = grader("report", str(moved), "--out", str(tmp_path / "feedback"))
    assert done.returncode == 2, done.stderr
    err = done.stderr.strip()
    assert err.startswith("error: assignment:") and "pass -a PACK" in err
    assert "not the one that graded" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "feedback" / "students").exists()
    done = grader("report", str(moved), "--out", str(tmp_path / "feedback"),
                  "-a", str(batch.parent / "course-pack"))
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "feedback" / "students" / "ada-lovelace-1001.html").read_text()
    assert "released after grading closes" in html
