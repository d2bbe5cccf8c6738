"""`grader grade`, `grader check` and `grader pack` through the real console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.grader.conftest import PACK_DIR, ROOT, SAMPLES, needs_bwrap


@pytest.fixture(autouse=True)
def _model_cache(hf_cache, monkeypatch):
    """The console script finds the seeded tiny models through the one setting."""
    monkeypatch.setenv("GRADER_HF_CACHE", str(hf_cache))


def grader(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=600, check=False)


@pytest.mark.sandbox
def test_grade_writes_one_record_per_notebook(tmp_path):
    needs_bwrap()
    out = tmp_path / "grades"
    done = grader("grade", str(SAMPLES / "solution.ipynb"),
                  str(SAMPLES / "wrong-q1d-sin-cos-swapped.ipynb"),
                  "-a", "stat8021-a3", "--out", str(out), "--seed", "7", "--json")
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    # the solution waits for a TA on 6 points of Part 3; the Part 1 sample leaves Parts 2-3 undone
    assert [r["score"] for r in printed] == [94, 24]
    on_disk = json.loads((out / "solution.json").read_text())
    assert on_disk["schema"] == "transformer-grader/record/1"
    assert on_disk["run"]["seed"] == 7 and on_disk["mode"] == "grade"
    assert on_disk["environment"]["torch"].startswith("2.13")
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == [
        "events.jsonl", "manifest.json", "solution.json", "wrong-q1d-sin-cos-swapped.json"]
    # the batch ends with the same rendering as `grader report`
    assert (out / "reports" / "summary.html").is_file()
    assert (out / "reports" / "students" / "solution.html").is_file()


@pytest.mark.sandbox
def test_check_works_from_the_public_part_alone(tmp_path):
    needs_bwrap()
    public = tmp_path / "public"
    assert grader("pack", "export-public", str(PACK_DIR), str(public)).returncode == 0
    done = grader("check", str(SAMPLES / "wrong-q1b-mask-after-softmax.ipynb"),
                  "-a", str(public), "--json", cwd=tmp_path)
    assert done.returncode == 1, done.stderr  # questions fail: exit 1, as ruff and pytest do
    record = json.loads(done.stdout)
    assert record["mode"] == "check" and record["run"]["seed"] is None
    status = {q["id"]: q["status"] for q in record["questions"] if q["id"].startswith("q1")}
    assert status == {"q1a": "passed", "q1b": "failed", "q1c": "passed", "q1d": "passed"}
    assert record["run"]["quick"] is True
    text = json.dumps(record)
    assert "hidden-" not in text and "demo" in text
    table = grader("check", str(SAMPLES / "solution.ipynb"), "-a", str(public), cwd=tmp_path)
    assert table.returncode == 0 and "Demo inputs only" in table.stdout


@pytest.mark.sandbox
def test_pack_validate_finds_the_pack_sound():
    needs_bwrap()
    done = grader("pack", "validate", str(PACK_DIR), "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    findings = {f["name"]: f for f in json.loads(done.stdout)}
    assert set(findings) == {"rubric", "probes", "demo cases", "reference", "answer keys",
                             "solution", "template"}
    assert findings["answer keys"]["ok"]
    assert findings["solution"]["detail"].startswith("scores 94/94")  # 6 manual points wait


def test_bad_pack_exits_2_naming_the_key(tmp_path):
    (tmp_path / "pack.toml").write_text("[assignment]\nid = 'x'\n")
    done = grader("pack", "validate", str(tmp_path), "--quick")
    assert done.returncode == 2
    # the first key at fault, named as the rubric writes it
    assert done.stderr.strip() == "error: pack: assignment.title: missing"


def test_missing_models_exit_2_saying_how_to_seed(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_HF_CACHE", str(tmp_path / "empty"))
    done = grader("grade", str(SAMPLES / "solution.ipynb"), "-a", "stat8021-a3",
                  "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "grader models seed --tiny" in done.stderr
    assert not (tmp_path / "out").exists()


def test_models_seed_and_list_through_the_console_script(tmp_path):
    cache = tmp_path / "cache"
    done = grader("models", "seed", "--tiny", str(cache), "--json")
    assert done.returncode == 0, done.stderr
    installed = json.loads(done.stdout)["models"]
    assert {"distilbert-base-uncased", "roberta-base", "bert-base-uncased"} <= set(installed)
    listed = grader("models", "list", "--hf-cache", str(cache), "--json")
    assert json.loads(listed.stdout)["models"] == installed
    refused = grader("models", "seed", str(cache))
    assert refused.returncode == 2 and "--tiny" in refused.stderr


def test_unknown_assignment_exits_2(tmp_path):
    done = grader("grade", str(SAMPLES / "solution.ipynb"), "-a", "nope", "--out", str(tmp_path))
    assert done.returncode == 2 and "no pack 'nope'" in done.stderr


@pytest.mark.kernel
def test_check_without_a_sandbox_still_checks(tmp_path):
    done = grader("check", str(SAMPLES / "wrong-q1a-transposed-heads.ipynb"), "-a", "stat8021-a3",
                  "--sandbox", "none", "--json")
    assert done.returncode == 1, done.stderr  # q1a fails
    record = json.loads(done.stdout)
    assert record["run"]["sandbox"] == "none"
    # The demo case cannot tell transposed heads apart by shape or norm, but the
    # comparison with the demo expectation can.
    assert {q["id"]: q["status"] for q in record["questions"]}["q1a"] == "failed"


@pytest.mark.sandbox
def test_the_batch_table_stays_readable_with_many_questions(graded):
    """18 question columns do not fit a terminal: the table lists what was lost instead."""
    from rich.console import Console

    from grader.cli.grading import WIDE_TABLE, _table

    records = [graded[name].record for name in ("solution", "crash-pe-cell")]
    assert len(records[0].questions) > WIDE_TABLE
    console = Console(record=True, width=100)
    console.print(_table(records, "batch"))
    text = console.export_text()
    assert "lost points on" in text and "…" not in text
    crash_row = next(line for line in text.splitlines() if "crash-pe-cell" in line)
    assert "q1d" in crash_row and "24/100" in crash_row
