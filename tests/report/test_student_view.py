"""The student's view is built from an allow-list: what it holds, field by field.

Every sample record (the session's graded notebooks, the hand-built finetune/answer
record, and the two lab reports graded as a batch would store them) is viewed, and
every field of every view is searched: no absolute path, no cache key or digest, no
seed, no hidden-case reference value. Unit tests then show that a field nobody allowed
stays out, and how evidence is scrubbed.
"""

from __future__ import annotations

import copy
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from grader.report import render_student, student_view
from grader.report.visibility import SAFE_KEYS, SECRET_KEY, WITHHELD, is_hidden_case
from tests.conftest import ROOT

ABSOLUTE = re.compile(r"(?:^|[\s'\"(\[=,:])~?(/[\w.+-]+){2,}")
"""A slash-rooted path of two or more parts (`/tmp/x`), where a path can start."""
MACHINERY = {"_key", "key", "cache_key", "fingerprint", "rubric", "retries", "seed", "path"}
"""Keys of record fields a student never gets."""
CACHE_KEY = "c0ffee" * 5 + "ab"
RUBRIC = "feedface" * 2
EXECUTION = "deadbeef" * 8


def _fields(value: Any, where: str = "") -> list[tuple[str, str, Any]]:
    """(path, key, value) of every field below `value`, lists expanded."""
    out: list[tuple[str, str, Any]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((f"{where}.{k}", str(k), v))
            out += _fields(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((f"{where}[{i}]", "", v))
            out += _fields(v, f"{where}[{i}]")
    return out


def as_batch_stores_it(record: dict[str, Any], key: str) -> dict[str, Any]:
    """What `grader.batch` adds to a stored record (docs/records.md), and a render's `_key`."""
    record = copy.deepcopy(record)
    record["assignment"]["rubric"] = RUBRIC
    record["run"].update(cache_key=CACHE_KEY, retries=1, execution=EXECUTION)
    record["_key"] = key
    return record


@pytest.fixture(scope="module")
def lab_records() -> dict[str, dict[str, Any]]:
    """The sample lab reports graded alone (no kernel: fast), taken in as intake does."""
    from grader.grade import grade_notebook
    from grader.intake.lms import intake
    from grader.pack import load_pack

    out = {}
    with tempfile.TemporaryDirectory(prefix="grader-intake-test-") as tmp:
        for lab in ("transfer-lab-a", "transfer-lab-b"):
            pack = load_pack(ROOT / "reference" / lab)
            for sub in intake(ROOT / "submissions" / lab, Path(tmp) / lab):
                record = grade_notebook(pack, sub.notebook, seed=1, reports=sub.reports)
                out[f"{lab}/{sub.student.key}"] = record.to_dict()
    return out


@pytest.fixture(scope="module")
def every_record(records, rich_record, lab_records) -> dict[str, dict[str, Any]]:
    graded = {**records, "rich": rich_record, **lab_records}
    return {name: as_batch_stores_it(r, name) for name, r in graded.items()}


def _hidden_values(record: dict[str, Any]) -> set[float | str]:
    """Values the TA view holds under hidden cases in keys named like the reference's.

    A matching output's own `norm` equals the reference's: that number is the
    student's, so a value equal to its row's own `norm` does not count.
    """
    out: set[float | str] = set()

    def walk(value: Any, hidden: bool) -> None:
        if isinstance(value, dict):
            hidden = hidden or ("case" in value and is_hidden_case(value["case"]))
            own = value.get("norm")
            for k, v in value.items():
                if hidden and SECRET_KEY.match(k) and k not in SAFE_KEYS and not isinstance(
                        v, dict | list) and v is not None and not isinstance(v, bool):
                    if isinstance(v, float) and isinstance(own, float) and \
                            abs(own - v) <= 1e-6 * abs(v):
                        continue
                    out.add(v)
                walk(v, hidden)
        elif isinstance(value, list):
            for v in value:
                walk(v, hidden)

    for q in record.get("questions", []):
        for c in q.get("checks", []):
            walk(c.get("evidence"), False)
    return out


@pytest.mark.sandbox
def test_every_field_of_every_student_view_is_clean(every_record, pack):
    assert len(every_record) >= 22
    known_paths = {str(ROOT), tempfile.gettempdir() + "/", str(Path.home()) + "/"}
    hidden_seen = 0
    for name, record in every_record.items():
        digests = {CACHE_KEY, RUBRIC, EXECUTION, record["assignment"]["fingerprint"]}
        files = [record["submission"].get("path")] + [
            r.get("path") for r in record["submission"].get("reports", [])]
        hidden = _hidden_values(record)
        hidden_seen += bool(hidden)
        view = student_view(record, pack.raw if "/" not in name else None)
        for where, key, value in _fields(view):
            assert key not in MACHINERY, (name, where)
            if isinstance(value, str):
                assert not ABSOLUTE.search(value), (name, where, value[:200])
                assert not any(p in value for p in known_paths), (name, where)
                assert not any(f and (f in value) for f in files), (name, where)
                assert not any(d in value for d in digests), (name, where)
            if isinstance(value, int | float) and not isinstance(value, bool):
                assert value != record["run"].get("seed"), (name, where)
            if isinstance(value, str | float) and not isinstance(value, bool):
                assert value not in hidden, (name, where, value)
        text = json.dumps(view, ensure_ascii=False)
        assert not any(isinstance(v, float) and repr(v) in text for v in hidden), name
    # the wrong answers really had reference values to hide: Part 1's four wrong samples
    # (the hostile samples built on them are held for a TA since issue 25: no evidence)
    assert hidden_seen >= 4


@pytest.mark.sandbox
def test_the_ta_view_really_holds_what_was_dropped(every_record):
    record = every_record["transfer-lab-a/student-report-a"]
    # the TA renders the record as stored (no render's `_key`, no key the model lacks)
    stored = {k: v for k, v in record.items() if k != "_key"}
    stored["run"] = {k: v for k, v in record["run"].items() if k != "execution"}
    ta = render_student(stored, "json", audience="ta")
    assert record["submission"]["reports"][0]["path"] in ta and CACHE_KEY in ta
    shown = student_view(record)
    assert shown["submission"]["reports"] == [
        {k: v for k, v in record["submission"]["reports"][0].items() if k != "path"}]


@pytest.mark.sandbox
def test_what_the_reports_show_survives(every_record):
    solution = student_view(every_record["solution"])
    assert [q["id"] for q in solution["questions"]] == [
        q["id"] for q in every_record["solution"]["questions"]]
    assert solution["score"] == every_record["solution"]["score"]
    assert {m["question"] for m in solution["run"]["models"]} == {"q2b", "q2d"}
    assert solution["environment"]["grader"] and solution["assignment"]["title"]
    crash = student_view(every_record["crash-pe-cell"])
    assert crash["run"]["cell_errors"][0]["ename"] == "AttributeError"
    for name in ("hostile-fork-bomb", "hostile-infinite-loop", "hostile-os-exit"):
        run = every_record[name]["run"]
        assert run["limits_hit"] and student_view(every_record[name])["run"]["limits_hit"] == \
            run["limits_hit"] and student_view(every_record[name])["run"]["cell_errors"] == \
            run["cell_errors"]
    wrong = student_view(every_record["wrong-q1c-missing-scale"])
    case = wrong["questions"][2]["checks"][0]["evidence"][0]
    assert case["outputs"][0]["expected_shape"] and "max_abs_error" in case["outputs"][0]
    assert "expected_norm" not in case["outputs"][0]
    rich = student_view(every_record["rich"])
    models = rich["questions"][-3]["checks"][0]["evidence"]["models"]
    assert models[1]["lora_rank"] == 8  # free-form evidence keeps unknown keys
    assert rich["questions"][-1]["checks"][0]["evidence"]["nested"] == {"a": [1, 2]}


@pytest.mark.parametrize("where", [
    (), ("assignment",), ("submission",), ("submission", "reports", 0), ("run",),
    ("run", "models", 0), ("run", "limits_hit", 0), ("run", "cell_errors", 0),
    ("questions", 0), ("questions", 0, "checks", 0), ("questions", 0, "printed", 0),
    ("flags",), ("flags", "printed_mismatch", 0), ("flags", "finetune", 0), ("environment",),
])
def test_a_field_nobody_allowed_stays_out(records, where):
    record = copy.deepcopy(records["hostile-fake-prints"])
    record["submission"]["reports"] = [{"name": "r.md", "path": "/srv/r.md", "format": "md"}]
    record["run"]["models"] = [{"question": "q2b", "architecture": "Bert"}]
    record["run"]["limits_hit"] = [{"limit": "cell_timeout", "cell": 2, "message": "m"}]
    record["run"]["cell_errors"] = [{"cell": 1, "status": "error", "ename": "E", "evalue": ""}]
    record["flags"]["finetune"] = [{"question": "q2b", "kind": "k", "message": "m"}]
    record["questions"][0]["printed"] = [{"label": "l", "printed": "1", "status": "agrees"}]
    assert record["flags"]["printed_mismatch"]
    node = record
    for step in where:
        node = node[step]
    node["new_field"] = "NEW-FIELD-VALUE"
    node["new_table"] = {"nested": "NEW-NESTED-VALUE"}
    shown = student_view(record)
    text = json.dumps(shown)
    assert "NEW-FIELD-VALUE" not in text and "NEW-NESTED-VALUE" not in text
    assert "new_field" not in text
    # the allowed fields beside it are still there
    kept = shown
    for step in where:
        kept = kept[step]
    assert kept


def test_a_field_of_the_wrong_shape_is_dropped(records):
    record = copy.deepcopy(records["solution"])
    record["run"]["seconds"] = {"secret": "SHAPE-CHANGED"}
    record["questions"][0]["title"] = ["ok", {"secret": "IN-A-LIST"}]
    shown = student_view(record)
    assert "seconds" not in shown["run"] and "title" not in shown["questions"][0]
    assert "SHAPE-CHANGED" not in json.dumps(shown) and "IN-A-LIST" not in json.dumps(shown)


def test_evidence_is_scrubbed_of_paths_machinery_and_hidden_values():
    check = {"kind": "tensor", "fraction": 0.0, "status": "failed", "message": "m",
             "gate": False, "evidence": [
                 {"case": "hidden-b1", "passed": False, "seed": 99, "cache_key": "abc",
                  "_internal": 1, "log": "/tmp/grader-plan-x/q1.safetensors",
                  "files": ["/srv/out/.runs/abc/run.json", "kept.txt", ".runs/abc"],
                  "problem": "could not read /tmp/g-1/work/data.csv here",
                  "outputs": [{"output": "y", "expected_shape": [2], "expected_norm": 3.5,
                               "reference_value": 1.0, "max_abs_error": 0.5}]},
                 {"case": "demo", "expected_norm": 2.0, "where": "~/notes/x.md"}]}
    record = {"questions": [{"id": "q1", "checks": [check]}]}
    shown = student_view(record)["questions"][0]["checks"][0]["evidence"]
    hidden, demo = shown
    assert set(hidden) == {"case", "passed", "files", "problem", "outputs"}
    assert hidden["files"] == ["kept.txt"]
    assert hidden["problem"] == "could not read …/data.csv here"
    assert hidden["outputs"] == [{"output": "y", "expected_shape": [2], "max_abs_error": 0.5}]
    assert demo == {"case": "demo", "expected_norm": 2.0}  # a demo case's values are public


def test_a_kind_whose_seed_is_the_students_keeps_it_and_no_other_does():
    """`Kind.students_seed`: training seeds read from a student's logs are theirs to see;
    any other kind's `seed` (and a kind this grader does not know) is machinery."""
    from grader.checks.kind import Kind
    from grader.checks.registry import register, unregister

    class OwnSeeds(Kind):
        name = "own-seeds-example"
        students_seed = True

    runs = [{"family": "pretrained", "seed": 1, "best_validation": 0.8, "log": "s1.csv"}]
    checks = [{"kind": "own-seeds-example", "evidence": {"runs": runs}},
              {"kind": "finetune", "evidence": {"runs": copy.deepcopy(runs)}},
              {"kind": "unknown-kind", "evidence": {"runs": copy.deepcopy(runs)}},
              {"kind": "logs", "evidence": {"runs": copy.deepcopy(runs)}}]
    record = {"questions": [{"id": "q1", "checks": checks}]}
    register(OwnSeeds())
    try:
        own, other, unknown, logs = student_view(record)["questions"][0]["checks"]
    finally:
        unregister("own-seeds-example")
    assert own["evidence"]["runs"][0]["seed"] == 1
    assert "seed" not in other["evidence"]["runs"][0]
    assert "seed" not in unknown["evidence"]["runs"][0]
    assert logs["evidence"]["runs"][0]["seed"] == 1  # lab B's seeds are the student's runs


def test_rows_of_a_withheld_question_go_with_it(records, pack):
    raw = copy.deepcopy(pack.raw)
    next(q for q in raw["questions"] if q["id"] == "q2b")["visibility"] = "score"
    next(q for q in raw["questions"] if q["id"] == "q1c")["visibility"] = "hidden"
    record = copy.deepcopy(records["solution"])
    record["flags"]["printed_mismatch"] = [{"question": "q1c", "label": "x", "status": "disagrees"}]
    record["flags"]["finetune"] = [{"question": "q2b", "kind": "test_split_fit", "message": "m"}]
    shown = student_view(record, raw)
    assert [m["question"] for m in shown["run"]["models"]] == ["q2d"]
    assert shown["flags"]["printed_mismatch"] == [] and shown["flags"]["finetune"] == []
    q2b = next(q for q in shown["questions"] if q["id"] == "q2b")
    assert q2b["message"] == WITHHELD and q2b["checks"] == [] and q2b["visibility"] == "score"
    assert "q1c" not in {q["id"] for q in shown["questions"]}
