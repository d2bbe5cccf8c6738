"""The fast tier's one grading from end to end: `grader grade` on a sample, through the real
sandbox and a real kernel, as the README's main job runs it (issue 28: the fast tier holds
one end-to-end grading; the full tier grades every sample).

It is also what a new interpreter must get right first (issue 24): on Python 3.12 and
3.13 this test hung, since the harness's own check refused the baseline and the runner
then stopped the kernel's own threads. CI runs the fast tier on 3.11, 3.12 and 3.13.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import PACK_DIR, SAMPLES, needs_bwrap, readme_scores

SAMPLE = "wrong-q1c-missing-scale"
"""A Part 1 sample: no fine-tuning, so seconds of kernel time, yet every Part 1 probe runs
on hidden inputs and one question is wrong (its score is not the trivial 0 or maximum)."""


@pytest.mark.sandbox
@pytest.mark.smoke
def test_grader_grade_scores_a_sample_as_its_readme_says(tmp_path, hf_cache):
    needs_bwrap()
    out = tmp_path / "grades"
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", str(SAMPLES / f"{SAMPLE}.ipynb"),
         "-a", str(PACK_DIR), "--out", str(out), "-j", "1", "--no-report"],
        capture_output=True, text=True, timeout=900, check=False,
        env={**__import__("os").environ, "GRADER_HF_CACHE": str(hf_cache)})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    record = json.loads((out / f"{SAMPLE}.json").read_text())
    assert record["score"] == readme_scores()[SAMPLE]
    assert record["run"]["sandbox"] == "bwrap"
    assert record["environment"]["python"].startswith(
        f"{sys.version_info.major}.{sys.version_info.minor}")
    # the grader's own side held: its baseline was taken, no grader cell hung, and the
    # kernel's threads were left alone (only a notebook's own are ever stopped)
    assert record["flags"]["grader"] == [] and "hangs" not in record["run"]
    assert record["flags"]["tamper"] == []
