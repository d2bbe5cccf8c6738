"""The typed record: docs generated from it, unknown keys refused, one needs-a-TA rule."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from grader.record import GradeRecord, needs_a_ta
from grader.record_schema import main as schema_main


def test_docs_and_published_schema_match_the_model():
    assert schema_main(["--check"]) == 0, "run: python -m grader.record_schema"


@pytest.mark.sandbox
def test_a_graded_record_round_trips_and_refuses_unknown_keys(graded):
    record = graded["solution"].record
    data = record.to_dict()
    assert data["schema"] == "transformer-grader/record/1"
    assert GradeRecord.from_dict(data).to_dict() == data
    assert "cache_key" not in data["run"]  # absent until a batch stores the run
    typo = copy.deepcopy(data)
    typo["run"]["seeed"] = 1
    with pytest.raises(ValidationError):
        GradeRecord.from_dict(typo)


def test_needs_a_ta_names_every_reason_including_a_model_fit_on_test():
    record = {"flags": {"tamper": ["replaced torch.allclose"], "printed_mismatch": [{}],
                        "finetune": [{"kind": "test_split_fit"}]},
              "run": {"limits_hit": [{"limit": "cell_timeout"}, {"limit": "cell_timeout"}]},
              "questions": [{"status": "error"}, {"status": "manual"}]}
    assert needs_a_ta(record) == ["tamper flags", "printed values disagree",
                                  "fine-tune: test_split_fit", "limits hit: cell_timeout",
                                  "a question could not run", "manual questions"]
    assert needs_a_ta({"flags": {}, "run": {}, "questions": [{"status": "passed"}]}) == []


def test_the_gradebook_and_summary_use_the_same_rule():
    from grader.pack import expected
    from grader.report import lms, summary

    # one rule: the record's (needs_a_ta), read with the pack's expected cell errors
    assert lms.needs_human is summary.needs_human is expected.needs_a_ta
    assert expected.needs_a_ta({"flags": {"tamper": ["x"]}}) == needs_a_ta(
        {"flags": {"tamper": ["x"]}})
