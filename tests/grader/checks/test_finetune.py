"""Part 2 graded for real: tiny models from the seeded cache fine-tuned in the sandbox,
exported as weights and re-evaluated by the clean evaluator on the hidden split; quick and
no-execute modes.

The records of the solution and the two Part 2 samples come from the shared grading
pass (`graded`); quick mode and no-execute grade once more here.
"""

from __future__ import annotations

import json

import nbformat
import pytest

from tests.conftest import FAST, PACK_DIR, SAMPLES

pytestmark = pytest.mark.sandbox

PART2 = ("q2a", "q2b", "q2c", "q2d")


def question(record, qid: str):
    return next(q for q in record.questions if q.id == qid)


def model_evidence(record, qid: str) -> dict:
    check = next(c for c in question(record, qid).checks if c["evidence"]
                 and isinstance(c["evidence"], dict))
    return check["evidence"]["models"][0]


def hidden_accuracy(pack, record, qid: str) -> float:
    """Recompute the hidden accuracy from nothing but the labels file and the record's count."""
    return model_evidence(record, qid)["reevaluated_accuracy"]


def test_solution_passes_part2_on_the_hidden_split(graded, pack):
    record = graded["solution"].record
    for qid in PART2:
        assert question(record, qid).status == "passed", question(record, qid).message
    for qid in ("q2b", "q2d"):
        model = model_evidence(record, qid)
        assert model["reevaluated_accuracy"] >= 0.85
        assert model["reported"]["test_accuracy"] and model["reported"]["train_accuracy"]
        assert model["train_seconds"] > 0 and model["device"] == "cpu"
        assert model["peak_memory_bytes"] > 0
        assert model["weight_distance"] > 1e-3  # fine-tuned away from its checkpoint
        # measured outside the kernel: its exported weights, in the library's class, with
        # the pack's tokenizer, by the clean evaluator in the sandbox
        evaluated = model["evaluated"]
        assert (evaluated["status"], evaluated["sandbox"]) == ("ok", "bwrap")
        assert evaluated["student_class"] == evaluated["architecture"] == model["architecture"]
        assert evaluated["seconds"] > 0
    assert model_evidence(record, "q2b")["architecture"] == "DistilBertForSequenceClassification"
    assert model_evidence(record, "q2d")["architecture"] == "RobertaForSequenceClassification"
    assert record.run["device"] == "cpu" and record.run["quick"] is False
    assert record.flags["finetune"] == []


def test_hidden_labels_never_reach_the_kernel(graded, pack):
    """The probe gets texts; the kernel's outputs never contain the hidden labels file."""
    hidden = (PACK_DIR / "private" / "news_hidden.jsonl").read_text(encoding="utf-8")
    first = json.loads(hidden.splitlines()[0])
    run = graded["solution"].run
    outputs = "\n".join(str(o.get("text", "")) for c in run.executed.cells
                        for o in c.get("outputs", []))
    assert json.dumps(first) not in outputs
    assert "news_hidden" not in outputs


def test_printing_a_high_accuracy_without_training_scores_nothing(graded):
    record = graded["wrong-q2b-fake-accuracy"].record
    q2b = question(record, "q2b")
    assert q2b.score == 0 and q2b.status == "failed"
    assert "99.0%" in q2b.message and "not what your model scores" in q2b.message
    assert model_evidence(record, "q2b")["reevaluated_accuracy"] < 0.4
    # it never trained: its encoder is the checkpoint's, and the record says so
    assert [f["kind"] for f in record.flags["finetune"]] == ["weights_unchanged",
                                                             "reported_accuracy"]
    assert model_evidence(record, "q2b")["weight_distance"] == 0
    assert question(record, "q2c").status == "passed"  # it prints its own model's predictions
    assert record.needs_human


def test_training_on_the_test_split_is_caught_by_the_hidden_split(graded, pack):
    record = graded["wrong-q2b-trains-on-test"].record
    model = model_evidence(record, "q2b")
    assert model["public_test_accuracy"] - model["reevaluated_accuracy"] > 0.06
    assert model["test_split_fit"] is True
    assert [f["kind"] for f in record.flags["finetune"]] == ["test_split_fit"]
    accuracy = next(c for c in pack.question("q2b").checks if c.settings.evaluate == "accuracy")
    kept = accuracy.settings.test_fit_credit
    # accuracy check (weight 3) keeps `kept` of its credit; the honest printed series keeps its 1
    assert question(record, "q2b").score == pytest.approx(12 * (3 * kept + 1) / 4)


def test_part1_samples_do_not_fine_tune(graded):
    record = graded["wrong-q1a-transposed-heads"].record
    for qid in PART2:
        assert question(record, qid).score == 0
    errors = {e["ename"] for e in record.run["cell_errors"] if set(e["tags"]) & set(PART2)}
    assert errors == {"NotImplementedError"}


@pytest.fixture(scope="module")
def quick_record(pack, hf_cache):
    from grader.grade import grade_notebook

    return grade_notebook(pack, SAMPLES / "solution.ipynb", mode="check", limits=FAST,
                          hf_cache=hf_cache)


def test_quick_mode_reports_accuracy_but_does_not_grade_the_threshold(quick_record):
    record = quick_record
    assert record.run["quick"] is True and record.status == "incomplete"
    for qid in ("q2b", "q2d"):
        q = question(record, qid)
        assert q.score is None and q.status == "not_graded"
        assert "not graded in quick mode" in q.message
    assert question(record, "q2a").status == "passed"
    assert question(record, "q2c").status == "passed"
    series = model_evidence(record, "q2b")["reported"]["test_accuracy"]
    assert len(series) == 1  # GRADER_QUICK=1 reached the template: one epoch


@pytest.fixture(scope="module")
def executed_solution(graded, tmp_path_factory):
    path = tmp_path_factory.mktemp("executed") / "solution.ipynb"
    nbformat.write(graded["solution"].run.executed, path)
    return path


def test_no_execute_grades_saved_outputs_and_runs_nothing(pack, executed_solution, monkeypatch):
    from grader import grade
    from grader.grade import grade_notebook

    def no_runner(*args, **kwargs):
        raise AssertionError("--no-execute must not start a kernel")

    monkeypatch.setattr(grade, "Runner", no_runner)
    record = grade_notebook(pack, executed_solution, execute=False)
    assert record.run["executed"] is False and record.run["sandbox"] == "not executed"
    assert question(record, "q1a").status == "not_graded"
    q2b = question(record, "q2b")
    assert q2b.status == "passed" and "--no-execute" in " ".join(
        c["message"] for c in q2b.checks)
    assert question(record, "q2a").status == "not_graded"
    assert record.status == "incomplete"


def test_a_missing_model_cache_stops_before_any_kernel(pack, tmp_path):
    from grader.grade import grade_notebook
    from grader.models.cache import ModelCacheError

    with pytest.raises(ModelCacheError, match="grader models seed --tiny"):
        grade_notebook(pack, SAMPLES / "solution.ipynb", hf_cache=tmp_path / "empty")
