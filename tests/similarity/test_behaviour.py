"""Behavioural fingerprints read from real stored runs (written by grader.batch.store):
a rare wrong output shared exactly or within tolerance is evidence, a right one or a
common one is not, nor is a difference larger than the check's tolerance."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tests.similarity.conftest import manifest, record, store, tensor_question, write_record

PROBE = "q1b-calculate_multihead_attention"
CASES = ("hidden-a", "hidden-b")


@pytest.fixture(scope="module")
def grades(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """17 students of one seed: six right, a rare wrong output held by two exactly and a
    third within tolerance, a common wrong output held by four, two with the same error,
    one far off, one in bfloat16."""
    import torch

    out = tmp_path_factory.mktemp("grades")
    manifest(out)
    gen = torch.Generator().manual_seed(0)
    right = {c: torch.randn(2, 3, 4, generator=gen) for c in CASES}
    rare = {c: right[c] * 1.7 for c in CASES}
    common = {c: right[c] + 1.0 for c in CASES}

    def student(key: str, outputs: dict[str, torch.Tensor] | None, ok: bool,
                error: str | None = None) -> None:
        cases, tensors = {}, {}
        for c in CASES:
            if error:
                cases[c] = {"status": "error", "kind": "exception", "message": error,
                            "where": {"line": 3, "code": "w = s.softmax(-2)"}}
                continue
            assert outputs is not None
            cases[c] = {"status": "ok", "outputs": {"output": {
                "shape": list(outputs[c].shape), "dtype": str(outputs[c].dtype)[6:],
                "device": "cpu"}}}
            tensors[f"{c}/output"] = outputs[c]
        store(out, key, {PROBE: {"cases": cases, "tensors": tensors,
                                 "ops": {c: ["aten::bmm", "aten::_softmax"] for c in CASES}}})
        write_record(out, key, record(key, [tensor_question("q1b", {
            c: ok and not error for c in CASES})]))

    for i in range(6):
        student(f"right-{i}", right, True)
    student("rare-1", rare, False)
    student("rare-2", rare, False)
    student("rare-near", {c: rare[c] + 1e-5 for c in CASES}, False)
    student("far", {c: rare[c] + 5e-3 for c in CASES}, False)
    for i in range(4):
        student(f"common-{i}", common, False)
    student("error-1", None, False, "RuntimeError: size 12 does not match 4")
    student("error-2", None, False, "RuntimeError: size 20 does not match 5")
    student("bf16", {c: (right[c] * 3).to(torch.bfloat16) for c in CASES}, False)
    return out


@pytest.fixture(scope="module")
def index(grades: Path):
    from grader.similarity import Settings, load_class
    from grader.similarity.behaviour import build_index

    classroom = load_class(grades)
    return build_index(classroom, Settings()), Settings()


def evidence(index, a: str, b: str) -> dict:
    from grader.similarity.behaviour import compare

    found = compare(index[0], a, b, index[1])
    return found[0] if found else {}


def test_right_outputs_are_not_fingerprinted(index) -> None:
    assert index[0].items["right-0"] == []
    assert evidence(index, "right-0", "right-1") == {}


def test_a_rare_wrong_output_shared_bit_for_bit(index) -> None:
    e = evidence(index, "rare-1", "rare-2")
    assert e["kind"] == "output" and e["match"] == "exact" and e["question"] == "q1b"
    assert e["holders"] == 2 and e["class_size"] == 17 and e["shared"] == 2
    assert e["score"] == pytest.approx(math.log2(17 / 2))
    assert e["a"]["values"] == e["b"]["values"] and len(e["a"]["values"]) == 6


def test_within_tolerance_is_one_class_and_weighs_less(index) -> None:
    e = evidence(index, "rare-1", "rare-near")
    assert e["match"] == "within tolerance" and e["holders"] == 3
    assert e["score"] == pytest.approx(0.8 * math.log2(17 / 3))
    assert evidence(index, "rare-1", "far") == {}  # 5e-3 apart: more than atol 1e-3


def test_a_common_mistake_scores_nothing(index) -> None:
    assert evidence(index, "common-0", "common-1") == {}


def test_the_same_error_on_the_same_line(index) -> None:
    e = evidence(index, "error-1", "error-2")
    assert e["kind"] == "error" and e["a"]["code"] == "w = s.softmax(-2)"
    assert e["score"] == pytest.approx(0.7 * math.log2(17 / 2))


def test_bfloat16_outputs_are_read(index) -> None:
    import torch

    (item,) = [i for i in index[0].items["bf16"] if i.kind == "output" and i.case == "hidden-a"]
    values = item.tensor.values()
    assert values is not None and values.shape == (2, 3, 4)
    gen = torch.Generator().manual_seed(0)
    want = (torch.randn(2, 3, 4, generator=gen) * 3).to(torch.bfloat16).to(torch.float64)
    assert values.tolist() == want.tolist()


def test_ranked_pairs_put_the_rare_share_first(grades: Path) -> None:
    from grader.similarity import Settings, find_similar, load_class

    result = find_similar(load_class(grades), Settings(show_score=0.5))
    order = [(p.a, p.b) for p in result.pairs]
    assert order[0] == ("rare-1", "rare-2")
    assert not any(a.startswith("common") and b.startswith("common") for a, b in order)
    assert not any(a.startswith("right") for a, _ in order)
