"""Figures whose seed is named in the next sentence are not certain, so they never contradict.

Why: "Seed 1 reached 0.853 ... . The next run reached 0.851 at step 1400 (test 0.840).
That was seed 2." The middle sentence names no seed, so it used to take seed 1 from the
sentence before, certain, and its three figures then contradicted seed 1's log: an
honest student told their figures are wrong. Now the pairing is not certain (seed 1 or
2) and the logs pair it: the figures are all those of one run among the two. Expected
claims were written from the text by hand: (seed, best validation, step, test, certain).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.checks.claims import Source
from grader.checks.logs import check_logs
from grader.checks.seedclaims import Families, parse_claims
from grader.pack import load_pack
from tests.conftest import ROOT

CHECK = load_pack(ROOT / "reference" / "transfer-lab-b").checks("logs")[0][1]
FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch"]})
TEXT = ("Seed 1 reached 0.853 at step 1200 (test 0.841). The next run reached 0.851 at step "
        "1400 (test 0.840). That was seed 2.")


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """Two pre-trained runs: the best of each at its own step, lower figures elsewhere."""
    rows = ["model,seed,step,val_acc,test_acc"]
    for seed, (val, step, test) in {1: (0.853, 1200, 0.841), 2: (0.851, 1400, 0.840)}.items():
        for at in range(200, 2001, 200):
            v, t = (val, test) if at == step else (round(val - 0.03, 3), round(test - 0.03, 3))
            rows.append(f"pretrained,{seed},{at},{v},{t}")
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def claims(text: str) -> list[tuple[int, float | None, int | None, float | None, bool]]:
    return [(c["seed"], c.get("best_validation"), c.get("step"), c.get("test"),
             c.get("certain", True)) for c in parse_claims(text, FAMILIES)]


def test_figures_followed_by_a_sentence_naming_another_seed_alone_are_not_certain():
    assert claims(TEXT) == [(1, 0.853, 1200, 0.841, True), (1, 0.851, 1400, 0.840, False)]
    uncertain = parse_claims(TEXT, FAMILIES)[1]
    assert uncertain["candidates"] == [1, 2] and "next one names seed 2" in uncertain["why"]


def test_the_logs_pair_them_with_the_run_whose_figures_they_are(log):
    result = check_logs(CHECK, [log], [Source("Pre-trained model. " + TEXT, "report.md")])
    assert result.status == "passed" and result.fraction == 1
    paired = [c for c in result.evidence["claims"] if c.get("paired_by")]
    assert [(c["seed"], c["paired_by"]) for c in paired] == [(2, "the logs")]


def test_a_sentence_with_its_own_seed_or_a_next_sentence_with_figures_stays_certain():
    assert claims("Seed 1 reached 0.853 at step 1200 (test 0.841). Seed 2 was slower.") == [
        (1, 0.853, 1200, 0.841, True)]
    assert claims("For seed 1 the run peaked early. It reached 0.853 at step 1200 (test "
                  "0.841). Seed 2 reached 0.851 at step 1400 (test 0.840).") == [
        (1, 0.853, 1200, 0.841, True), (2, 0.851, 1400, 0.840, True)]


def test_figures_with_no_seed_before_them_stay_unread_as_before():
    # a summary sentence followed by a seed alone: nothing to pair, nothing read
    assert claims("Its best checkpoint comes earlier (step 1200). Seed 2 is shown below.") == []
