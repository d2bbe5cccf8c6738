"""The typed record: docs generated from it, unknown keys refused, one needs-a-TA rule."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from pydantic import ValidationError

from grader.record import Flags, GradeRecord, needs_a_ta, read_record
from grader.record_schema import main as schema_main
from tests.report import small


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


def record(**parts: Any) -> dict[str, Any]:
    """The JSON of a small valid record (tests/report/small.py), `parts` replaced."""
    return small.record_json(parts.pop("questions", [question("failed")]), **parts)


def question(status: str) -> dict[str, Any]:
    return small.question(f"q-{status}", status)


def test_needs_a_ta_names_every_reason_including_a_model_fit_on_test():
    data = record(flags={"tamper": ["replaced torch.allclose"], "printed_mismatch": [{}],
                         "finetune": [{"kind": "test_split_fit"}]},
                  questions=[question("error"), question("manual")])
    data["run"]["limits_hit"] = [{"limit": "cell_timeout"}, {"limit": "cell_timeout"}]
    # a kind's flag reads as the kind's label (the registry's), then what it found
    assert needs_a_ta(GradeRecord.from_dict(data)) == [
        "tamper flags", "printed values disagree", "fine-tuning: test_split_fit",
        "limits hit: cell_timeout", "a question could not run", "manual questions"]
    assert needs_a_ta(GradeRecord.from_dict(record())) == []


def test_a_flag_no_kind_declares_is_refused_and_a_declared_one_is_kept():
    typo = record(flags={"finetunes": [{"kind": "x"}]})
    with pytest.raises(ValidationError, match="no check kind raises the flag"):
        GradeRecord.from_dict(typo)
    with pytest.raises(ValidationError, match="list of objects"):
        GradeRecord.from_dict(record(flags={"finetune": "x"}))
    kept = GradeRecord.from_dict(record(flags={"finetune": [{"kind": "x"}]}))
    assert kept.flags.raised() == {"finetune": [{"kind": "x"}]}
    assert kept.to_dict()["flags"]["finetune"] == [{"kind": "x"}]
    assert set(Flags.names()) >= {"tamper", "printed_mismatch", "grader", "finetune"}


def test_a_new_kinds_flag_is_accepted_once_the_kind_is_registered():
    from grader.checks.kind import Kind
    from grader.checks.registry import register, unregister

    class Drift(Kind):
        name = "drift-example"
        label = "drift"
        flags = ("drift_example",)

    data = record(flags={"drift_example": [{"question": "q1", "kind": "moved"}]})
    with pytest.raises(ValidationError):
        GradeRecord.from_dict(data)
    register(Drift())
    try:
        typed = GradeRecord.from_dict(data)
        assert needs_a_ta(typed) == ["drift: moved"]
        assert "drift_example" in Flags.names()
    finally:
        unregister("drift-example")


def test_read_record_refuses_a_misspelled_field_naming_file_and_field(tmp_path):
    path = tmp_path / "ada.json"
    data = record()
    data["run"]["seeed"] = 3
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=r"ada.json: not a valid record: run.seeed"):
        read_record(path)
    path.write_text(json.dumps(record()), encoding="utf-8")
    assert isinstance(read_record(path), GradeRecord)


def test_the_gradebook_and_summary_use_the_same_rule():
    from grader.report import lms, summary

    # one rule, the record's: a cell error the pack expects (marked by mark_expected) is
    # no reason, whoever asks
    assert lms.needs_human is summary.needs_human is needs_a_ta
    data = record()
    data["run"]["cell_errors"] = [{"cell": 1, "ename": "FileNotFoundError", "evalue": "x"}]
    assert needs_a_ta(GradeRecord.from_dict(data)) == ["cells crashed: FileNotFoundError"]
    data["run"]["cell_errors"][0]["expected"] = "needs COCO"
    assert needs_a_ta(GradeRecord.from_dict(data)) == []
