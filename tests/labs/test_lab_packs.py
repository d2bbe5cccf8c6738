"""The two transfer-lab packs, graded end to end from the real sample reports and notebooks.

Expected values come from the packs' references (calculators), never retyped here: the
verdicts are what a careful TA gives (report A: LM count right despite its slips, the
classification count 1,000 off, six slips listed; report B: Q1 right).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from calculators.answers import lint_arithmetic
from grader.grade import grade_notebook
from grader.intake.lms import intake
from grader.pack import export_public, load_pack
from grader.report.manual import manual_sheet
from grader.report.render import render_student
from tests.calculators.answers._shared import SAMPLE_REPORTS, SHARED_SAMPLE_REPORTS
from tests.conftest import ROOT, needs_bwrap

LAB_A = ROOT / "reference" / "transfer-lab-a"
LAB_B = ROOT / "reference" / "transfer-lab-b"
SUBMISSIONS = ROOT / "submissions"


@pytest.fixture(scope="module")
def lab_a():
    return load_pack(LAB_A)


@pytest.fixture(scope="module")
def lab_b():
    return load_pack(LAB_B)


def _take_in(name: str, tmp_path: Path):
    """The sample folder through the LMS intake, as `grader grade` would receive it."""
    (sub,) = intake(SUBMISSIONS / name, tmp_path / name)
    return sub


def _check(record, qid: str, index: int = 0) -> dict:
    question = next(q for q in record.questions if q.id == qid)
    return [c for c in question.checks if c["kind"] == "answer"][index]


@pytest.fixture(scope="module")
def report_a(lab_a, tmp_path_factory):
    sub = _take_in("transfer-lab-a", tmp_path_factory.mktemp("in"))
    assert sub.notebook is None and [p.name for p in sub.reports] == ["lab-lm-report-a.md"]
    return sub, grade_notebook(lab_a, sub.notebook, seed=1, reports=sub.reports)


@pytest.mark.sandbox
def test_report_a_lm_count_is_right_despite_its_slips(lab_a, report_a):
    _, record = report_a
    lm = _check(record, "q3", 0)
    assert lm["evidence"]["verdict"] == "correct" and lm["fraction"] == 1
    assert lm["evidence"]["answer"] == "21,018,401"
    assert lm["evidence"]["source"] == "report"
    assert lm["evidence"]["where"] == "lab-lm-report-a.md line 58"
    assert len(lm["evidence"]["slips"]) == 5  # lines 38-57, inside the LM part


@pytest.mark.sandbox
def test_report_a_classification_count_is_1000_off(lab_a, report_a):
    _, record = report_a
    cls = _check(record, "q3", 1)
    key = lab_a.reference().count(head="seq-cls")
    assert cls["evidence"]["verdict"] == "close"
    assert int(cls["evidence"]["answer"].replace(",", "")) - key == 1000
    credit = float(lab_a.question("q3").checks[1].settings.tolerance.close_credit)
    assert cls["fraction"] == credit
    q3 = next(q for q in record.questions if q.id == "q3")
    assert q3.score == lab_a.question("q3").points * (1 + credit) / 2
    assert "10,968,602" in q3.message  # the checker names the right value for the TA


@pytest.mark.sandbox
def test_report_a_lists_its_six_slips(report_a):
    sub, record = report_a
    slips = [s for i in (0, 1) for s in _check(record, "q3", i)["evidence"]["slips"]]
    linted = lint_arithmetic(sub.reports[0].read_text(encoding="utf-8"))
    assert len(slips) == 6 == len(linted)
    assert [s["line"] for s in slips] == [s.line for s in linted]
    assert all(set(s) == {"line", "quote", "message"} for s in slips)


@pytest.mark.sandbox
def test_report_a_manual_questions_go_to_the_ta_with_the_students_text(report_a):
    sub, record = report_a
    assert record.submission["evidence"] == "report" and record.submission["path"] is None
    assert record.status == "incomplete"
    manual = {q.id: q for q in record.questions if q.status == "manual"}
    # q4a's curves are the notebook's, which this student did not hand in: the claim is
    # found and the question goes to the TA with the section quoted, nothing is scored
    assert set(manual) == {"q1", "q2", "q4a", "q4b", "q5"}
    assert all(q.score is None for q in manual.values())
    q4 = manual["q4b"].checks[0]["evidence"]["answer_text"]
    assert "Results of Task 7" in q4 and "0.81 vs 0.76" in q4 and "Question 5" not in q4
    q4a = manual["q4a"].checks[0]
    assert q4a["status"] == "manual" and q4a["evidence"]["claim"]["better"] == "pretrained"
    assert q4a["evidence"]["answer_text"] == q4
    sheet = manual_sheet([(sub.student, record.to_dict())])
    assert "square mask" in sheet and "masked language models" in sheet.lower()
    assert "[The curves come from the notebook's printed lines" in sheet


@pytest.mark.sandbox
def test_report_a_renders_with_answers_and_slips(report_a, lab_a):
    _, record = report_a
    html = render_student(record.to_dict(), "html", pack_raw=lab_a.raw)
    assert "21,018,401" in html and "10,969,602" in html
    assert "120,000 + 600 + 40,000 + 200" in html  # a slip, quoted
    md = render_student(record.to_dict(), "md", pack_raw=lab_a.raw)
    assert "10,969,602" in md


@pytest.mark.sandbox
def test_report_b_q1_is_right(lab_b, tmp_path):
    sub = _take_in("transfer-lab-b", tmp_path)
    record = grade_notebook(lab_b, sub.notebook, seed=1, reports=sub.reports)
    q1 = _check(record, "q1")
    assert q1["evidence"]["verdict"] == "correct" and q1["fraction"] == 1
    assert int(q1["evidence"]["answer"]) == lab_b.reference().encoder()
    assert q1["evidence"]["slips"] == []  # report B has none
    assert "LORA" in next(q for q in record.questions if q.id == "q2").checks[0][
        "evidence"]["answer_text"]


@pytest.mark.sandbox
def test_lab_b_solution_scores_full_marks_and_the_template_none(lab_b):
    for notebook, want in ((lab_b.solution, 1.0), (lab_b.template, 0.0)):
        record = grade_notebook(lab_b, notebook, seed=1, execute=False)
        auto = [q for q in record.questions if q.status not in ("manual", "not_graded")]
        assert auto and all(c["fraction"] == want for q in auto for c in q.checks), notebook
        # T3/T4 figures are checked against training logs, which a notebook alone lacks:
        # a TA scores them
        t34 = next(q for q in record.questions if q.id == "t34")
        assert t34.status == "manual" and t34.score is None and "No training logs" in t34.message
    assert record.score == 0


@pytest.mark.parametrize("bias", ["none", "all", "lora_only"])
def test_lab_b_lora_follow_up_key_comes_from_calculators(lab_b, bias):
    from grader.checks.answer import answer_key

    check = next(c for c in lab_b.question("q2-lora").checks if bias in c.settings.label)
    key = answer_key(check, "q2-lora", lab_b.reference)
    assert key.expected == lab_b.reference().lora_bloom(bias).total
    assert key.check(f"{key.expected:,}").verdict == "correct"


@pytest.mark.sandbox
def test_lab_a_solution_scores_full_marks_in_the_sandbox(lab_a):
    needs_bwrap()
    record = grade_notebook(lab_a, lab_a.solution, seed=1)
    assert record.run["cell_errors"] == []
    auto = sum(q.points for q in lab_a.questions
               if not all(c.kind == "manual" for c in q.checks))
    assert auto == 50 and record.score == auto and record.status == "incomplete"
    q4a = next(q for q in record.questions if q.id == "q4a")
    assert q4a.status == "passed" and "no clear winner" in q4a.message
    q3 = next(q for q in record.questions if q.id == "q3")
    assert q3.status == "passed"
    assert {c["evidence"]["source"] for c in q3.checks} == {"printed"}
    assert record.run["seconds"] < 60


@pytest.mark.parametrize("pack_dir", [LAB_A, LAB_B])
def test_lab_public_part_has_no_key(pack_dir, tmp_path):
    export_public(load_pack(pack_dir), tmp_path / "public")
    rubric = (tmp_path / "public" / "pack.toml").read_text()
    assert not re.search(r"^\s*expected\s*=", rubric, re.MULTILINE)
    assert not (tmp_path / "public" / "private").exists()
    public = load_pack(tmp_path / "public")
    assert public.is_public


@pytest.mark.parametrize(("name", "lab"), [("lab-lm-report-a.md", "transfer-lab-a"),
                                         ("lab-roberta-report-a.md", "transfer-lab-b")])
def test_sample_reports_are_the_fixtures(name, lab):
    copy = SUBMISSIONS / lab / "student-report-a" / name
    assert copy.read_bytes() == (SAMPLE_REPORTS / name).read_bytes()


@pytest.mark.parametrize("name", ["lab-lm-report-a.md", "lab-roberta-report-a.md"])
def test_sample_report_fixtures_are_the_shared_originals(name):
    original = SHARED_SAMPLE_REPORTS / name
    if not original.is_file():
        pytest.skip("../shared is not beside the repository")
    assert (SAMPLE_REPORTS / name).read_bytes() == original.read_bytes()


def test_grader_grade_takes_a_folder_of_student_folders_with_reports_only(tmp_path):
    """`grader grade submissions/transfer-lab-a` as a TA runs it: one student folder
    holding only a report; the record, its evidence source and the rendered report."""
    import json
    import subprocess
    import sys

    from tests.conftest import ROOT

    out = tmp_path / "grades"
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", str(ROOT / "submissions" / "transfer-lab-a"),
         "-a", "transfer-lab-a", "--out", str(out), "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (record,) = json.loads(done.stdout)
    assert record["submission"]["evidence"] == "report"
    assert record["flags"]["tamper"] == []  # nothing ran, so nothing to compare
    assert (out / "student-report-a.json").is_file()
    assert (out / "reports" / "students" / "student-report-a.html").is_file()
    q3 = next(q for q in record["questions"] if q["id"] == "q3")
    assert 0 < q3["score"] < q3["max"]  # the LM count right, the classifier's 1,000 off


@pytest.mark.sandbox
def test_both_lab_packs_validate_with_the_ta_share_named():
    """`pack validate` on a lab whose per-seed figures need logs the solution does not
    hand in: the solution owes full marks on what it can be scored on, and the
    question that goes to a TA is named rather than counted as lost."""
    from grader.validate import validate_pack

    for lab in ("transfer-lab-a", "transfer-lab-b"):
        findings = validate_pack(load_pack(ROOT / "reference" / lab))
        assert all(f.ok for f in findings), (lab, [(f.name, f.detail) for f in findings])
        solution = next(f for f in findings if f.name == "solution")
        assert ("t34 awaits a TA" in solution.detail) == (lab == "transfer-lab-b"), solution
