"""A report in which none of the pack's questions is found goes to a TA, not to 0: its
labels are written in a way the reader does not know, and a TA sees the answers at once.
A report that labels some questions and leaves one out still scores that one missing."""

from __future__ import annotations

from pathlib import Path

from grader.checks.kind import Context
from grader.checks.registry import kind
from grader.pack import load_pack
from grader.written import Reports

PACK = load_pack(Path(__file__).parents[3] / "reference" / "transfer-lab-a")


def _q3(tmp_path: Path, text: str) -> list:
    report = tmp_path / "report.md"
    report.write_text(text, encoding="utf-8")
    ctx = Context(pack=PACK, mode="grade", seed=0, notebook=None,
                  reports=Reports.read([report]), logs=[])
    question = PACK.question("q3")
    return [kind("answer").score(c, question, ctx) for c in question.checks
            if c.kind == "answer"]


def test_a_report_with_no_label_the_reader_knows_goes_to_a_ta(tmp_path):
    results = _q3(tmp_path, "❖ Ⅰ masks …\n\n❖ Ⅲ counts: the LM has 21,018,401 trainable "
                            "parameters and the classifier 10,968,602.\n")
    assert results
    for r in results:
        assert r.status == "manual" and r.evidence["verdict"] == "needs_ta", r.message
        assert "none of the questions' headings was found" in r.evidence["needs_ta"][0]
        assert "A TA will read your report" in r.message


def test_a_report_that_labels_other_questions_scores_a_missing_one_missing(tmp_path):
    results = _q3(tmp_path, "# Question 1\nThe mask hides the future.\n\n"
                            "# Question 2\nOne logit per word.\n")
    for r in results:
        assert r.status == "failed" and r.evidence["verdict"] == "missing", r.message
