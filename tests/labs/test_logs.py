"""Lab B's T3/T4: per-seed claims in a report held against real TensorBoard and CSV logs."""

from __future__ import annotations

import csv

import pytest

from grader.checks.logs import parse_claims
from grader.grade import grade_notebook
from grader.pack import load_pack
from tests.conftest import ROOT

FAMILIES = {"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch", "random"]}


def curve(seed: int, family: str) -> list[tuple[int, float, float]]:
    """(step, validation, test) of a made-up but plausible run: peaks mid-training."""
    top = 0.80 + 0.02 * seed if family == "pretrained" else 0.60 + 0.01 * seed
    return [(step, round(top - abs(step - 400) / 4000, 4), round(top - 0.01 - step / 100000, 4))
            for step in range(100, 1001, 100)]


def best(seed: int, family: str) -> tuple[int, float, float]:
    return max(curve(seed, family), key=lambda row: (row[1], -row[0]))


@pytest.fixture
def tb_logs(tmp_path):
    pytest.importorskip("tensorboard")
    from torch.utils.tensorboard import SummaryWriter

    files = []
    for family in FAMILIES:
        for seed in (1, 2, 3):
            folder = tmp_path / "runs" / family / f"seed-{seed}"
            with SummaryWriter(str(folder)) as writer:
                for step, val, test in curve(seed, family):
                    writer.add_scalar("eval/accuracy", val, step)
                    writer.add_scalar("test/accuracy", test, step)
            files.extend(folder.glob("events.out.tfevents.*"))
    return files


def report(tmp_path, wrong_seed: int | None = None):
    rows = []
    for family in FAMILIES:
        for seed in (1, 2, 3):
            step, val, test = best(seed, family)
            if family == "pretrained" and seed == wrong_seed:
                val = round(val + 0.05, 4)  # rounded up in the report
            rows.append(f"| {family} | {seed} | {val:.4f} | {step} | {test:.4f} |")
    text = ("# Lab B report\n\n## 2 Task 3 & 4\n\n| model | seed | best validation accuracy |"
            " step | test accuracy |\n|---|---|---|---|---|\n" + "\n".join(rows) +
            "\n\nThe pre-trained model is better on every seed.\n\n## 3 Question 2\n\nLoRA...\n")
    path = tmp_path / "report.md"
    path.write_text(text)
    return path


def t34(record):
    return next(q for q in record.questions if q.id == "t34")


@pytest.mark.sandbox
def test_claims_that_match_the_tensorboard_logs_pass(tmp_path, tb_logs):
    pack = load_pack(ROOT / "reference" / "transfer-lab-b")
    record = grade_notebook(pack, None, reports=[report(tmp_path), *tb_logs])
    q = t34(record)
    assert q.status == "passed" and q.score == q.max, q.message
    runs = q.checks[0]["evidence"]["runs"]
    assert len(runs) == 6 and {r["family"] for r in runs} == set(FAMILIES)
    assert record.submission["logs"] and record.submission["evidence"] == "report"


@pytest.mark.sandbox
def test_a_figure_the_logs_contradict_is_named(tmp_path, tb_logs):
    pack = load_pack(ROOT / "reference" / "transfer-lab-b")
    record = grade_notebook(pack, None, reports=[report(tmp_path, wrong_seed=2), *tb_logs])
    q = t34(record)
    assert q.status == "partial" and 0 < q.score < q.max
    assert "best validation" in q.message and "seed 2" in q.message


@pytest.mark.sandbox
def test_csv_logs_and_prose_claims(tmp_path):
    path = tmp_path / "pretrained-log.csv"
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["seed", "step", "val_acc", "test_acc"])
        for step, val, test in curve(1, "pretrained"):
            writer.writerow([1, step, val, test])
    step, val, test = best(1, "pretrained")
    claim = tmp_path / "r.md"
    claim.write_text("## Task 3\n\nPre-trained, seed 1: best validation accuracy "
                     f"{val * 100:.2f}% at step {step}, test accuracy {test:.4f}.\n")
    pack = load_pack(ROOT / "reference" / "transfer-lab-b")
    q = t34(grade_notebook(pack, None, reports=[claim, path]))
    assert q.status == "passed", q.message


@pytest.mark.sandbox
def test_without_logs_a_ta_reads_the_figures(tmp_path):
    pack = load_pack(ROOT / "reference" / "transfer-lab-b")
    record = grade_notebook(pack, None, reports=[report(tmp_path)])
    q = t34(record)
    assert q.status == "manual" and q.score is None and record.status == "incomplete"
    evidence = q.checks[0]["evidence"]
    assert len(evidence["claims"]) == 6 and "| pretrained | 1 |" in evidence["answer_text"]
    assert "Question 2" not in evidence["answer_text"]  # the quote ends at its section


def test_claims_from_a_table_by_header():
    text = "| Seed | Model | Test acc | Step | Val acc |\n|--|--|--|--|--|\n| 2 | scratch | 61% | 300 | 0.64 |"
    (claim,) = parse_claims(text, FAMILIES)
    assert claim["seed"] == 2 and claim["family"] == "scratch" and claim["step"] == 300
    assert claim["test"] == 0.61 and claim["best_validation"] == 0.64
