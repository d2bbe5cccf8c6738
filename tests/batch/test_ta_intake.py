"""A TA's LMS downloads through `grader grade`: what the intake takes in, and what it says.

Every test runs the real console script on a Moodle or Canvas zip built here from the
Part 1 samples (no fine-tuning: a few seconds a notebook).
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAMPLES, needs_bwrap

pytestmark = pytest.mark.sandbox

NB = "Transformer_practice.ipynb"
SEED = "7"


@pytest.fixture(autouse=True)
def _model_cache(hf_cache, monkeypatch):
    monkeypatch.setenv("GRADER_HF_CACHE", str(hf_cache))


def grader(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`grader` as a TA runs it, its messages unwrapped: rich wraps them at 80 columns when
    no terminal says otherwise, and where a long temporary path puts the break decides
    whether "new: grace-hopper-1003" stays on one line."""
    return subprocess.run([sys.executable, "-m", "grader", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=600, check=False,
                          env={**os.environ, "COLUMNS": "400"})


def sample(name: str) -> bytes:
    return (SAMPLES / f"{name}.ipynb").read_bytes()


def moodle_zip(path: Path, students: dict[str, tuple[str, bytes]]) -> Path:
    """Moodle's "Download all submissions": one folder per student (name, participant id)."""
    with zipfile.ZipFile(path, "w") as zf:
        for pid, (name, data) in students.items():
            zf.writestr(f"{name}_{pid}_assignsubmission_file_/{NB}", data)
    return path


def records_in(out: Path) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text()) for p in out.glob("*.json")
            if p.name != "manifest.json"}


def test_a_redownloaded_zip_is_taken_in_again(tmp_path):
    """Same file name, a late fifth student and a resubmission: both are graded."""
    needs_bwrap()
    download = tmp_path / "A3-download.zip"
    out = tmp_path / "grades"
    moodle_zip(download, {"1001": ("Ada Lovelace", sample("wrong-q1d-sin-cos-swapped")),
                          "1002": ("Alan Turing", sample("wrong-q1c-missing-scale"))})
    first = grader("grade", str(download), "-a", "stat8021-a3", "--out", str(out),
                   "--seed", SEED, "--no-report")
    assert first.returncode == 0, first.stderr
    assert {k: r["score"] for k, r in records_in(out).items()} == {
        "ada-lovelace-1001": 24, "alan-turing-1002": 18}
    # the TA downloads again, same file name: Alan resubmitted, Grace handed in late
    moodle_zip(download, {"1001": ("Ada Lovelace", sample("wrong-q1d-sin-cos-swapped")),
                          "1002": ("Alan Turing", sample("wrong-q1a-transposed-heads")),
                          "1003": ("Grace Hopper", sample("wrong-q1b-mask-after-softmax"))})
    again = grader("grade", str(download), "-a", "stat8021-a3", "--out", str(out),
                   "--seed", SEED, "--no-report")
    assert again.returncode == 0, again.stderr
    assert "A3-download.zip changed since it was taken in" in again.stderr
    assert "new: grace-hopper-1003" in again.stderr
    assert "2 executed, 1 already done" in again.stderr
    assert {k: r["score"] for k, r in records_in(out).items()} == {
        "ada-lovelace-1001": 24, "alan-turing-1002": 24, "grace-hopper-1003": 24}
    roster = json.loads((out / "intake" / "A3-download" / "roster.json").read_text())
    assert [r["key"] for r in roster] == ["ada-lovelace-1001", "alan-turing-1002",
                                          "grace-hopper-1003"]
    # the same download a third time: nothing to take in, nothing to run
    third = grader("grade", str(download), "-a", "stat8021-a3", "--out", str(out),
                   "--seed", SEED, "--no-report")
    assert third.returncode == 0 and "0 executed, 3 already done" in third.stderr
    assert "taken in again" not in third.stderr


def test_a_truncated_notebook_and_a_stray_file_are_records_not_failures(tmp_path):
    """`grader grade subs/*` with a cut-off upload and a .txt: both students keep a record
    saying why nothing was graded, a report and a gradebook row; exit 0, nothing retried."""
    needs_bwrap()
    subs = tmp_path / "subs"
    subs.mkdir()
    whole = sample("solution")
    (subs / "broken.ipynb").write_bytes(whole[: len(whole) // 2])
    (subs / "stray.txt").write_text("my answers are in the notebook\n")
    out = tmp_path / "grades"
    done = grader("grade", str(subs / "broken.ipynb"), str(subs / "stray.txt"),
                  "-a", "stat8021-a3", "--out", str(out), "--seed", SEED)
    assert done.returncode == 0, done.stderr
    assert "0 failed" in done.stderr and not (out / "failed").exists()
    records = records_in(out)
    assert sorted(records) == ["broken", "stray"]
    broken, stray = records["broken"], records["stray"]
    assert {q["status"] for q in broken["questions"]} == {"error"} and broken["score"] == 0
    assert "broken.ipynb is not valid notebook JSON" in broken["questions"][0]["message"]
    assert "truncated upload" in broken["questions"][0]["message"]
    assert "stray.txt is not a Jupyter notebook (a .txt file" in stray["questions"][0]["message"]
    events = [json.loads(line)["event"] for line in (out / "events.jsonl").read_text().splitlines()]
    assert "retry" not in events and "failed" not in events
    # the student's report says it, and the gradebook has the row, marked for a TA
    html = (out / "reports" / "students" / "broken.html").read_text()
    assert "is not valid notebook JSON" in html
    rows = list(csv.DictReader(io.StringIO((out / "reports" / "gradebook.csv").read_text())))
    book = {r["key"]: r for r in rows[1:]}
    assert book["broken"]["total"] == "0" and book["stray"]["total"] == "0"
    assert book["broken"]["needs_human"] == book["stray"]["needs_human"] == (
        "a question could not run")


def test_several_notebooks_are_picked_by_the_documented_rule_and_late_is_kept(tmp_path):
    """Canvas download: Ada handed in draft + final (the newer is graded), Alan a scratch
    notebook beside the assignment's (its name wins) and late, Grace two equally new
    notebooks (none graded: her record names both)."""
    needs_bwrap()
    download = tmp_path / "submissions.zip"
    members = [  # (file name, sample, upload time)
        ("lovelaceada_2001_9001_draft.ipynb", "wrong-q1d-sin-cos-swapped", (2026, 4, 1, 9, 0, 0)),
        ("lovelaceada_2001_9001_final.ipynb", "wrong-q1c-missing-scale", (2026, 4, 2, 9, 0, 0)),
        (f"turingalan_late_2002_9002_{NB}", "wrong-q1d-sin-cos-swapped", (2026, 4, 1, 9, 0, 0)),
        ("turingalan_late_2002_9002_scratch.ipynb", "solution", (2026, 4, 3, 9, 0, 0)),
        ("hoppergrace_2003_9003_a.ipynb", "solution", (2026, 4, 1, 9, 0, 0)),
        ("hoppergrace_2003_9003_b.ipynb", "solution", (2026, 4, 1, 9, 0, 0)),
    ]
    with zipfile.ZipFile(download, "w") as zf:
        for name, stem, when in members:
            zf.writestr(zipfile.ZipInfo(name, date_time=when), sample(stem))
    out = tmp_path / "grades"
    done = grader("grade", str(download), "-a", "stat8021-a3", "--out", str(out),
                  "--seed", SEED)
    assert done.returncode == 0, done.stderr
    records = records_in(out)
    ada, alan, grace = (records["lovelaceada-2001"], records["turingalan-2002"],
                        records["hoppergrace-2003"])
    assert ada["score"] == 18  # final.ipynb (missing scale), not the draft (24)
    assert alan["score"] == 24  # the assignment's notebook, not the newer scratch (94)
    notes = {r["name"]: r["notes"] for r in ada["submission"]["reports"] if r.get("intake")}
    assert notes == {"final.ipynb": ["graded: the newest"],
                     "draft.ipynb": ["not graded: final.ipynb was (the newest)"]}
    notes = {r["name"]: r["notes"] for r in alan["submission"]["reports"] if r.get("intake")}
    assert notes[NB] == [f"graded: named like the assignment's {NB}",
                         "handed in late (the LMS marked it late)"]
    assert notes["scratch.ipynb"][0].startswith(f"not graded: {NB} was")
    assert {q["status"] for q in grace["questions"]} == {"error"}
    message = grace["questions"][0]["message"]
    assert "a.ipynb, b.ipynb are equally new" in message and f"named {NB}" in message
    roster = {r["key"]: r for r in json.loads(
        (out / "intake" / "submissions" / "roster.json").read_text())}
    assert roster["lovelaceada-2001"]["ignored"] == ["draft.ipynb"]
    assert roster["turingalan-2002"]["late"] is True and not roster["lovelaceada-2001"]["late"]
    # the gradebook keeps Canvas's late mark in a column of its own
    rows = list(csv.DictReader(io.StringIO((out / "reports" / "gradebook.csv").read_text())))
    assert {r["key"]: r["late"] for r in rows[1:]} == {
        "hoppergrace-2003": "", "lovelaceada-2001": "", "turingalan-2002": "yes"}


def _zip_without_utf8_flag(path: Path, members: list[tuple[bytes, bytes]]) -> Path:
    """A zip whose member names are raw bytes with the UTF-8 flag unset, as Moodle's and
    Windows' zippers write them: written under ASCII stand-ins of the same length, whose
    bytes are then swapped for the real ones (in the local and central headers)."""
    stand_ins = []
    with zipfile.ZipFile(path, "w") as zf:
        for i, (raw, data) in enumerate(members):
            stand_in = (chr(ord("A") + i) * len(raw)).encode()
            stand_ins.append((stand_in, raw))
            zf.writestr(stand_in.decode(), data)
    blob = path.read_bytes()
    for stand_in, raw in stand_ins:
        assert blob.count(stand_in) == 2
        blob = blob.replace(stand_in, raw)
    path.write_bytes(blob)
    return path


def test_names_without_the_utf8_flag_and_keys_keep_their_letters(tmp_path):
    """María's folder name in UTF-8 bytes without the flag (Moodle), Zoë's in cp437
    (Windows): both names survive, and keys keep letters of any script."""
    needs_bwrap()
    folder = "assignsubmission_file_"
    members = [
        (f"María José García_1001_{folder}/{NB}".encode(), sample("wrong-q1d-sin-cos-swapped")),
        (f"Zoë Müller_1002_{folder}/{NB}".encode("cp437"), b"{}"),
        (f"王小明_1003_{folder}/{NB}".encode(), b"{}"),
    ]
    download = _zip_without_utf8_flag(tmp_path / "A3.zip", members)
    with zipfile.ZipFile(download) as zf:
        assert not any(i.flag_bits & 0x800 for i in zf.infolist())
        assert zf.namelist()[0].startswith("Mar├¡a")  # what zipfile alone makes of it
    out = tmp_path / "grades"
    done = grader("grade", str(download), "-a", "stat8021-a3", "--out", str(out),
                  "--seed", SEED)
    assert done.returncode == 0, done.stderr
    assert sorted(records_in(out)) == ["maría-josé-garcía-1001", "zoë-müller-1002",
                                       "王小明-1003"]
    assert records_in(out)["maría-josé-garcía-1001"]["score"] == 24
    roster = json.loads((out / "intake" / "A3" / "roster.json").read_text(encoding="utf-8"))
    assert [r["name"] for r in roster] == ["María José García", "Zoë Müller", "王小明"]
    rows = list(csv.DictReader(io.StringIO(
        (out / "reports" / "gradebook.csv").read_text(encoding="utf-8"))))
    assert [r["student"] for r in rows[1:]] == ["María José García", "Zoë Müller", "王小明"]
