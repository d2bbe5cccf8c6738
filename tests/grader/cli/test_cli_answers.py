"""`grader answers check|lint` in-process, on the real sample reports where present."""

from __future__ import annotations

import json

import pytest

from grader.cli import main
from tests.calculators.answers._shared import SAMPLE_REPORTS
from tests.calculators.answers.q3 import SCORES
from tests.conftest import ROOT


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_names_the_gib_convention(capsys):
    code, out, _ = run(
        capsys, "answers", "check", "24 GB", "--expected", "25769803776 bytes", "--json"
    )
    assert code == 0
    verdict = json.loads(out)
    assert verdict["verdict"] == "convention" and verdict["convention"] == "gib_vs_gb"


def test_check_wrong_answer_still_exits_0(capsys):
    code, out, _ = run(capsys, "answers", "check", "14.5 million", "--expected", "14496989184")
    assert code == 0 and out.startswith("wrong")


def test_unreadable_expected_is_usage_error(capsys):
    code, _, err = run(capsys, "answers", "check", "1", "--expected", "__import__('os')")
    assert code == 2 and err.startswith("error: expected: ")


def test_lint_missing_file_exit_2(capsys, tmp_path):
    code, _, err = run(capsys, "answers", "lint", str(tmp_path / "none.md"))
    assert code == 2 and err.startswith("error: report: ")


def test_lint_own_report(capsys, tmp_path):
    path = tmp_path / "r.md"
    path.write_text("Total: $4 \\times 261,200 = 968,000$ parameters.\nSo r = 16.\n")
    code, out, _ = run(capsys, "answers", "lint", str(path), "--json")
    assert code == 0
    slips = json.loads(out)["slips"]
    assert [(s["line"], s["true_value"]) for s in slips] == [(1, "1044800")]


def test_lint_sample_reports(capsys):
    code, out, _ = run(
        capsys, "answers", "lint", str(SAMPLE_REPORTS / "lab-lm-report-a.md"), "--json"
    )
    assert code == 0
    assert [s["line"] for s in json.loads(out)["slips"]] == [38, 49, 51, 53, 57, 69]
    code, out, _ = run(
        capsys, "answers", "lint", str(SAMPLE_REPORTS / "lab-roberta-report-a.md"), "--json"
    )
    assert json.loads(out)["slips"] == []


# -- --question: the pack's own answer check (key computed by calculators) ------------------

PACKS = ["--packs-dir", str(ROOT / "reference")]


@pytest.mark.parametrize(("answer", "verdict", "convention", "credit"), [
    ("25.77 GB", "correct", None, "1"),
    ("24 GB", "convention", "gib_vs_gb", "1/2"),
    ("0.54 GB", "convention", "per_head", "1/4"),  # the rubric's convention for one head
    ("2.6 GB", "wrong", None, "0"),
])
def test_check_against_a_pack_question(capsys, answer, verdict, convention, credit):
    code, out, _ = run(capsys, "answers", "check", answer, "--question", "stat8021-a3:q3c",
                       *PACKS, "--json")
    assert code == 0
    got = json.loads(out)
    assert (got["question"], got["verdict"], got["convention"], got["credit"]) == (
        "stat8021-a3:q3c", verdict, convention, credit)
    assert got["expected"] == str(SCORES.bytes)  # bytes, as computed by calculators


def test_check_against_a_pack_question_prints_a_table(capsys):
    code, out, _ = run(capsys, "answers", "check", "24 GB", "--question", "stat8021-a3:q3c",
                       *PACKS)
    assert code == 0
    assert "stat8021-a3:q3c" in out and "gib_vs_gb" in out and "1/2" in out


def test_a_question_with_two_answers_picks_by_label(capsys):
    code, out, _ = run(capsys, "answers", "check", "0.1249", "--question", "stat8021-a3:q3a2",
                       "--label", "Loss", *PACKS, "--json")
    assert code == 0 and json.loads(out)["convention"] == "log10"


@pytest.mark.parametrize(("argv", "field"), [
    (["--question", "stat8021-a3"], "question"),  # no ':'
    (["--question", "stat8021-a3:q3b"], "question"),  # manual: no answer check
    (["--question", "nope:q1"], "pack: assignment"),
    ([], "expected"),  # neither
    (["--question", "stat8021-a3:q3c", "--expected", "1"], "expected"),  # both
])
def test_bad_question_usage_exits_2(capsys, argv, field):
    code, _, err = run(capsys, "answers", "check", "1", *argv, *PACKS)
    assert code == 2 and err.startswith(f"error: {field}"), err
