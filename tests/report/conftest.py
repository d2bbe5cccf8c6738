"""Report tests read real records (the session's one grading pass in tests/conftest.py).

Records for check kinds the grader cannot produce yet (finetune, answer) are built
here by hand in the documented shape, on top of a real record.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest


@pytest.fixture(scope="session")
def records(graded) -> dict[str, dict[str, Any]]:
    """Every sample's real GradeRecord as a dict, by notebook stem."""
    return {stem: g.record.to_dict() for stem, g in graded.items()}


FINETUNE_CHECK = {
    "kind": "finetune", "fraction": 0.5, "status": "partial", "gate": False,
    "message": "1 of 2 models reach the accuracy threshold on the hidden news set.",
    "evidence": {"models": [
        {"name": "distilbert", "architecture": "DistilBertForSequenceClassification",
         "reported": {"train_accuracy": [0.61, 0.83, 0.9], "test_accuracy": [0.58, 0.8, 0.86]},
         "reevaluated_accuracy": 0.87, "threshold": 0.85, "train_seconds": 12.3,
         "peak_memory_bytes": 123456789, "device": "cpu"},
        {"name": "tiny-bert", "architecture": "BertForSequenceClassification",
         "reported": {"train_accuracy": [0.4, 0.52, 0.6, 0.66],
                      "test_accuracy": [0.38, 0.5, 0.55, 0.61]},
         "reevaluated_accuracy": 0.6, "threshold": 0.85, "train_seconds": 4.0,
         "peak_memory_bytes": 23456789, "device": "cpu", "lora_rank": 8}],
        "quick": False},
}
ANSWER_CHECK = {
    "kind": "answer", "fraction": 0.5, "status": "partial", "gate": False,
    "message": "Right number, GiB written as GB.",
    "evidence": {"answer": "24 GB", "verdict": "convention", "convention": "GiB written as GB",
                 "message": "24 GiB is 25.77 GB.",
                 "slips": [{"line": 12, "quote": "4 x 512 = 2024",
                            "message": "4 x 512 is 2048"}],
                 "parsed_bytes": 25769803776},
}
MYSTERY_CHECK = {"kind": "mystery", "fraction": 1.0, "status": "passed", "gate": False,
                 "message": "A check kind from the future.",
                 "evidence": {"widget_count": 7, "nested": {"a": [1, 2]}}}


@pytest.fixture(scope="session")
def rich_record(records) -> dict[str, Any]:
    """The solution's real record plus fine-tune, answer and unknown-kind questions."""
    record = copy.deepcopy(records["solution"])
    # Part 1 only: the real Part 2 questions would add charts this fixture does not count
    record["questions"] = [q for q in record["questions"] if q["id"].startswith("q1")]
    record["score"] = sum(q["score"] for q in record["questions"])
    record["max_score"] = sum(q["max"] for q in record["questions"])
    extra = [("q2", "Q2 Fine-tuning on news", 40.0, 20.0, "partial", FINETUNE_CHECK),
             ("q3a", "Q3(a) KV cache size", 4.0, 2.0, "partial", ANSWER_CHECK),
             ("q9", "Q9 Future question", 1.0, 1.0, "passed", MYSTERY_CHECK)]
    for qid, title, top, score, status, check in extra:
        record["questions"].append({"id": qid, "title": title, "score": score, "max": top,
                                    "status": status, "message": check["message"],
                                    "hint": f"hint for {qid}", "checks": [check],
                                    "printed": []})
        record["score"] += score
        record["max_score"] += top
    return record
