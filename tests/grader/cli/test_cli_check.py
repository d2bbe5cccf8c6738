"""`grader check` as a student runs it: exit status, a table that keeps every word, cells
counted from 1, the tiny models' low accuracy explained, and a report worded for people."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.grader.conftest import ROOT, SAMPLES, needs_bwrap


def grader(*argv: str, hf_cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "GRADER_HF_CACHE": str(hf_cache), "COLUMNS": "400"}  # no wrapping
    return subprocess.run([sys.executable, "-m", "grader", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def solution_record(hf_cache) -> dict:
    needs_bwrap()
    done = grader("check", str(SAMPLES / "solution.ipynb"), "-a", "stat8021-a3", "--json",
                  hf_cache=hf_cache)
    assert done.returncode == 0, done.stderr  # passed, awaiting a TA or not graded here
    return json.loads(done.stdout)


@pytest.mark.sandbox
def test_a_failing_question_exits_1_and_the_table_keeps_every_word(hf_cache):
    needs_bwrap()
    done = grader("check", str(SAMPLES / "wrong-q1c-calls-standalone.ipynb"), "-a",
                  "stat8021-a3", hf_cache=hf_cache)
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    # the hint's brackets survive rich (they read as markup before)
    assert "print train_dataset[i] for i in 0, 1, 2." in out
    # two checks' messages are two sentences, not one run-on
    assert "no other variable holds one. No train or test accuracy" in out
    # the forbidden call sits in the notebook's 12th cell (index 11 in the record)
    assert "found at line 19 of cell 12." in out and "of cell 11" not in out
    assert "question(s) to fix: q1c, q2a" in out


@pytest.mark.sandbox
def test_all_passed_or_waiting_exits_0_and_the_tiny_models_are_explained(hf_cache):
    needs_bwrap()
    done = grader("check", str(SAMPLES / "solution.ipynb"), "-a", "stat8021-a3",
                  hf_cache=hf_cache)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "accuracy 24.8%" in done.stdout
    assert "tiny models of `grader models seed --tiny`" in done.stdout
    assert "chance with 4 labels is 25 %" in done.stdout and "to fix" not in done.stdout


def test_bad_usage_exits_2(hf_cache):
    done = grader("check", str(SAMPLES / "solution.ipynb"), "-a", "no-such-pack",
                  hf_cache=hf_cache)
    assert done.returncode == 2 and "no-such-pack" in done.stderr
    done = grader("check", "missing.ipynb", "-a", "stat8021-a3", hf_cache=hf_cache)
    assert done.returncode == 2


@pytest.mark.sandbox
def test_the_student_report_words_internal_fields(solution_record):
    from grader.report import render_student

    record = solution_record
    model = next(q for q in record["questions"] if q["id"] == "q2b")["checks"][0]
    model["evidence"]["models"][0]["test_split_fit"] = True
    assert model["evidence"]["models"][0]["memory_scope"] == "kernel"
    answer = next(q for q in record["questions"] if q["id"] == "q3c")["checks"][0]
    assert answer["evidence"]["where"] == "cell 26"  # the record keeps the 0-based index
    for fmt in ("html", "md"):
        text = re.sub(r"<[^>]+>", " ", render_student(record, fmt))  # what a student reads
        for word in ("memory_scope", "test_split_fit", "public_test_accuracy", "not_graded",
                     '{"sample"', '[{"reported"'):
            assert word not in text, (fmt, word)
    html = render_student(record, "html")
    assert "the whole notebook process, not the model alone" in html
    assert "tuned on the test split?" in html and "probably: it scores far higher" in html
    assert "found in</th><td><code>cell 27</code>" in html
    assert "matches the tokenizer: yes" in html and "not graded" in html


def test_a_missing_pack_environment_is_a_usage_error_naming_its_build(tmp_path):
    """A pack whose kernels need packages the grader lacks (attention-module-hw: einops)
    is not built on this machine: `grader check` stops at once with exit 2 and the
    command that builds it, not a "grader itself failed" traceback."""
    folder = ROOT / "submissions" / "attention-module-hw" / "correct"
    env = {**os.environ, "GRADER_ENVS": str(tmp_path / "no-envs"), "COLUMNS": "400"}
    done = subprocess.run([sys.executable, "-m", "grader", "check",
                           str(folder / "Attention_Module.ipynb"), "-a", "attention-module-hw"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "grader env build" in done.stderr and "itself failed" not in done.stderr


def test_a_question_the_pack_keeps_off_is_neither_shown_nor_counted():
    """Lab B's 0-point follow-up (`q2-lora`) has no answer in the sample report: the
    record says failed, but a self-check must neither print it nor exit 1 for it, as
    the student's report leaves it out (grader.report.visibility.kept_off)."""
    from io import StringIO

    from rich.console import Console

    from grader.cli.check import exit_code, print_check
    from grader.grade import grade_notebook
    from grader.pack import load_pack

    lab_b = load_pack(ROOT / "reference" / "transfer-lab-b")
    folder = ROOT / "submissions" / "transfer-lab-b" / "student-report-a"
    reports = sorted(p for p in folder.iterdir() if p.suffix in (".md", ".pdf", ".txt"))
    record = grade_notebook(lab_b, None, seed=1, reports=reports)
    lora = next(q for q in record.questions if q.id == "q2-lora")
    assert lora.status == "failed"  # what the student must not be told
    others = [q for q in record.questions if q.id != "q2-lora"]
    assert exit_code(record) == 1  # without the pack, every question counts
    assert exit_code(record, lab_b) == (1 if any(q.status in ("failed", "partial", "error")
                                                 for q in others) else 0)
    out = StringIO()
    print_check(record, lab_b, "report.md", full=True, cache=None,
                out=Console(file=out, width=400))
    assert "q2-lora" not in out.getvalue()
    assert all(q.id in out.getvalue() for q in others)
