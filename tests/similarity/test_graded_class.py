"""The planted class with its behaviour from the sandbox: four notebooks graded once for
real (each (question, behaviour) of the class: all right, two sets of mistakes, the
template), then every student's stored run composed from them per probe, and each
student's own written answers judged without a kernel (tests/fixtures/similarity).

What this proves that the fast tier cannot: fingerprints read from runs the grader
really stored (the probe payloads' layout, case names, the records' tensor evidence),
rare wrong outputs shared bit for bit ranking the pairs that share them, a common
mistake (missing 1/sqrt(d_k), seven students) scoring nothing, and `grader similarity`
on that folder end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PACK_DIR, needs_bwrap

pytestmark = pytest.mark.sandbox
SEED = 4242


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory: pytest.TempPathFactory, hf_cache: Path) -> dict[str, Any]:
    needs_bwrap()
    from grader.batch import BatchOptions, Item, LocalEngine, run_batch
    from grader.pack import load_pack
    from tests.fixtures.similarity import make_class as mc

    base = tmp_path_factory.mktemp("graded-class")
    reps = mc.write_class(base / "behaviour", mc.behaviour_students(), part2=False)
    result = run_batch(load_pack(PACK_DIR), [Item(k, p) for k, p in sorted(reps.items())],
                       BatchOptions(out=base / "behaviour-grades", seed=SEED, hf_cache=hf_cache),
                       LocalEngine(2))
    assert sorted(result.records) == sorted(reps) and not result.failed
    students = mc.make_students()
    notebooks = mc.write_class(base / "notebooks", students)
    records = mc.written_records(notebooks, SEED)
    grades = base / "grades"
    mc.compose_grades(base / "behaviour-grades", grades, students, notebooks, records)
    return {"grades": grades, "module": mc, "students": students}


@pytest.fixture(scope="module")
def result(graded_class):
    from grader.similarity import Settings, find_similar, load_class

    return find_similar(load_class(graded_class["grades"]), Settings())


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def test_planted_pairs_first_none_of_the_negatives_flagged(result, graded_class) -> None:
    mc = graded_class["module"]
    planted = {_pair(a, b) for a, b, _ in mc.PLANTED}
    assert {(p.a, p.b) for p in result.pairs[:len(planted)]} == planted
    flagged = {(p.a, p.b) for p in result.pairs if p.flagged}
    assert flagged == planted
    assert not flagged & {_pair(a, b) for a, b, _ in mc.NOT_FLAGGED}
    assert [set(c["members"]) for c in result.clusters] == mc.CLUSTERS


def test_shared_rare_wrong_outputs_are_the_behavioural_evidence(result) -> None:
    by = {(p.a, p.b): p for p in result.pairs}
    expect = {("bug-copy", "bug-src"): ("q1b", 2), ("verbatim-copy", "verbatim-src"): ("q1d", 2),
              ("group-a", "group-b"): ("q1c", 3)}
    for key, (question, holders) in expect.items():
        (e,) = by[key].behaviour
        assert (e["question"], e["kind"], e["match"], e["holders"]) == (
            question, "output", "exact", holders)
        assert e["case"].startswith("hidden-") and e["a"]["values"] == e["b"]["values"]
        assert e["a"]["max_abs_error"] > 1e-3  # wrong: the record says how far off
    # the bug copy's own extra bug (sin/cos swapped) is its alone: nothing shared in q1d
    assert [e["question"] for e in by[("bug-copy", "bug-src")].behaviour] == ["q1b"]


def test_a_common_mistake_is_seen_and_scores_nothing(graded_class, result) -> None:
    from grader.similarity import Settings, load_class
    from grader.similarity.behaviour import build_index, compare

    index = build_index(load_class(graded_class["grades"]), Settings())
    held = [k for k, v in index.items.items()
            if any(i.question == "q1c" and i.kind == "output" for i in v)]
    # seven independent missing-scale students, plus the group's rare q1c mistake
    assert {k for k in held if k.startswith("common-")} == {f"common-{i}" for i in range(1, 8)}
    assert compare(index, "common-1", "common-2", Settings()) == []
    pairs = {(p.a, p.b): p for p in result.pairs}
    assert all(p.parts["behaviour"] == 0 for k, p in pairs.items() if k[0].startswith("common"))


def test_written_numbers_come_from_the_records_verdicts(result) -> None:
    (p,) = [p for p in result.pairs if (p.a, p.b) == ("report-copy", "report-src")]
    verdicts = {x["question"]: x["verdict"] for x in p.numbers}
    assert set(verdicts) == {"q3c", "q3d"} and "correct" not in verdicts.values()


def test_the_command_writes_html_and_json(graded_class, tmp_path) -> None:
    from grader.cli import main

    assert main(["similarity", str(graded_class["grades"]), "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "similarity.json").read_text())
    assert data["schema"] == "transformer-grader/similarity/1" and data["students"] == 44
    assert "never a verdict" in data["statement"]
    html = (tmp_path / "similarity.html").read_text()
    assert "never a verdict" in html and "hidden-" in html
