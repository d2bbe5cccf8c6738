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
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.conftest import PACK_DIR, ROOT, SAMPLES, needs_bwrap

pytestmark = pytest.mark.sandbox

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


Q3A1_HINT = "Full marks name next-token prediction and why unlabelled text suffices."
EXTRA_CELLS = [  # Alan's notebook ends with what the sandbox refuses, uncaught, and a crash
    "import urllib.request\nurllib.request.urlopen('http://example.com', timeout=5)",
    "open('/etc/grader-was-here', 'w').write('x')",
    "open('/root/.ssh/id_rsa').read()",
    "import torch.nn as nn\nnn.Modle",
]


def _with_extra_cells(data: bytes) -> bytes:
    nb = json.loads(data)
    nb["cells"] += [{"cell_type": "code", "execution_count": None, "metadata": {},
                     "outputs": [], "source": src} for src in EXTRA_CELLS]
    return json.dumps(nb).encode()


@pytest.fixture(scope="module")
def graded_batch(tmp_path_factory, hf_cache) -> tuple[Path, subprocess.CompletedProcess]:
    """`grader grade A3-download.zip -a course-pack --out OUT`: course-pack is the
    course's copy of stat8021-a3 (same id) that withholds Q1(d)'s details and gives the
    TA a hint for the manual Q3(a)(I)."""
    needs_bwrap()
    root = tmp_path_factory.mktemp("ta-report")
    pack = root / "course-pack"
    shutil.copytree(PACK_DIR, pack)
    toml = (pack / "pack.toml").read_text()
    assert toml.count('id = "q1d"\n') == 1 and toml.count('id = "q3a1"\n') == 1
    toml = toml.replace('id = "q1d"\n', 'id = "q1d"\nvisibility = "score"\n')
    toml = toml.replace('id = "q3a1"\n', f'id = "q3a1"\nhint = "{Q3A1_HINT}"\n')
    (pack / "pack.toml").write_text(toml)
    download = root / "A3-download.zip"
    with zipfile.ZipFile(download, "w") as zf:
        for pid, (name, stem) in STUDENTS.items():
            data = (SAMPLES / f"{stem}.ipynb").read_bytes()
            zf.writestr(f"{name}_{pid}_assignsubmission_file_/{NB}",
                        _with_extra_cells(data) if pid == "1002" else data)
    out = root / "grades"
    done = grader("grade", str(download), "-a", str(pack), "--out", str(out),
                  "--seed", "7", env={"GRADER_HF_CACHE": str(hf_cache), "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    return out, done


@pytest.fixture(scope="module")
def batch(graded_batch) -> Path:
    return graded_batch[0]


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


def test_manual_questions_are_a_column_not_a_reason_to_look(graded_batch, tmp_path):
    """The pack has manual questions: they wait in their own column and on the TA sheet;
    "needs a human" lists only who needs one (Alan's refused network, write, secret read
    and crashed cell), in the CLI table, the summary and the gradebook alike."""
    batch, done = graded_batch
    assert "manual questions" not in done.stdout
    alan = next(line for line in done.stdout.splitlines() if "alan-turing" in line)
    ada = next(line for line in done.stdout.splitlines() if "ada-lovelace" in line)
    assert "network attempt" in alan and "network attempt" not in ada
    assert "q3a1 q3b" in ada  # the "for a TA" column
    rows = list(csv.DictReader(io.StringIO((batch / "reports" / "gradebook.csv").read_text())))
    book = {r["key"]: r for r in rows[1:]}
    assert book["ada-lovelace-1001"]["awaiting_ta"] == "q3a1 q3b"
    assert book["ada-lovelace-1001"]["needs_human"] == ""
    assert book["alan-turing-1002"]["needs_human"] == (
        "network attempt; file access denied; secret-reading attempt; "
        "cells crashed: AttributeError")
    summary = (batch / "reports" / "summary.html").read_text()
    attention = summary.split('id="attention"')[1].split("</table>")[0]
    assert "Alan Turing" in attention and "Ada Lovelace" not in attention
    assert "<td>network attempt; file access denied;" in attention
    assert "(2 waiting)" in summary.split('id="manual"')[1]


def test_limits_hit_are_named_once(batch, tmp_path):
    """A run that hit the cell timeout three times: one name, with a count."""
    records = tmp_path / "grades"
    shutil.copytree(batch, records, ignore=shutil.ignore_patterns(".runs", "reports"))
    path = records / "ada-lovelace-1001.json"
    record = json.loads(path.read_text())
    record["run"]["limits_hit"] = [{"limit": "cell_timeout", "cell": c, "message": "m"}
                                   for c in (3, 5, 8)] + [
        {"limit": "output_bytes", "cell": 9, "message": "m"}]
    path.write_text(json.dumps(record))
    done = grader("report", str(records), "--out", str(tmp_path / "feedback"))
    assert done.returncode == 0, done.stderr
    summary = (tmp_path / "feedback" / "summary.html").read_text()
    runs = summary.split('id="runs"')[1].split("</table>")[0]
    assert "cell_timeout ×3, output_bytes" in runs and runs.count("cell_timeout") == 1
    attention = summary.split('id="attention"')[1].split("</table>")[0]
    assert "limits hit: cell_timeout, output_bytes" in attention


def test_manual_sheet_carries_the_rubric_and_the_merge_dates_the_grade(batch, tmp_path):
    """The TA sheet shows each manual question's rubric hint beside the student's
    answer; merging it dates Moodle's "Last modified (grade)" at the merge, not at the
    autograde (Moodle skips a row older than the grade it holds)."""
    from datetime import UTC, datetime

    first = tmp_path / "feedback"
    assert grader("report", str(batch), "--out", str(first)).returncode == 0
    sheet = list(csv.DictReader(io.StringIO((first / "manual-sheet.csv").read_text())))
    assert list(sheet[0])[:8] == ["key", "student", "id", "question", "title", "max_points",
                                  "rubric", "answer"]
    q3a1 = [r for r in sheet if r["question"] == "q3a1"]
    # the pack's rubric (the TA's marking guide), not the hint students also see
    shipped = next(q for q in tomllib.loads((ROOT / "reference" / "stat8021-a3" / "pack.toml")
                                            .read_text())["questions"] if q["id"] == "q3a1")
    assert {r["rubric"] for r in q3a1} == {" ".join(shipped["rubric"].split())}
    assert Q3A1_HINT not in {r["rubric"] for r in q3a1}
    filled = tmp_path / "filled.csv"
    with filled.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(sheet[0]))
        writer.writeheader()
        for r in sheet:
            ada = r["key"] == "ada-lovelace-1001" and r["question"] == "q3a1"
            writer.writerow({**r, "points": "2" if ada else ""})
    before = datetime.now(UTC).replace(microsecond=0)
    sheet_in = worksheet(tmp_path / "Grades-A3.csv", ["1001", "1002"])
    merged = tmp_path / "merged"
    done = grader("report", str(batch), "--out", str(merged), "--manual", str(filled),
                  "--moodle-worksheet", str(sheet_in))
    assert done.returncode == 0, done.stderr
    assert f"to hand out: {merged / 'students'}" in done.stdout
    table = list(csv.DictReader(io.StringIO((merged / "moodle-worksheet.csv").read_text())))
    when = {r["Identifier"]: r["Last modified (grade)"] for r in table}
    graded_at = json.loads((batch / "alan-turing-1002.json").read_text())["graded_at"]
    assert datetime.fromisoformat(when["Participant 1001"]) >= before
    assert when["Participant 1002"] == graded_at  # no TA points: the autograde's time
    assert {r["Identifier"]: r["Grade"] for r in table}["Participant 1001"] == "26"


def test_which_folder_goes_to_students_is_said(graded_batch):
    batch, done = graded_batch
    assert "TA preview" in done.stderr and f"grader report {batch} --out feedback" in done.stderr
    note = (batch / "reports" / "README.txt").read_text()
    assert "Do not hand it to students" in note and "feedback/students/" in note
