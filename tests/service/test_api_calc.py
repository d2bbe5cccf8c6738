"""The calculator endpoints over real HTTP: the library's JSON, plus MathML; errors name fields."""

from __future__ import annotations

import json

import httpx
import pytest

import calculators as calc
from tests.service.conftest import assert_error


def library(result) -> dict:
    """What `grader calc ... --json` prints for a result."""
    return json.loads(result.to_json())


def test_distilbert_seq_cls_matches_the_library_json(client: httpx.Client) -> None:
    r = client.post("/v1/calc/params", json={"model": "distilbert-base-uncased",
                                            "head": "seq-cls", "num_labels": 4})
    assert r.status_code == 200
    body = r.json()
    assert body["total"] == body["value"] == 66_956_548
    assert body["unit"] == "parameters"
    expected = library(calc.count_parameters("distilbert-base-uncased", head="seq-cls",
                                             num_labels=4))
    assert {k: body[k] for k in expected} == expected
    assert sum(body["breakdown"].values()) == 66_956_548
    assert body["breakdown"]["head/classifier"] == 593_668
    assert body["mathml"].startswith('<math xmlns="http://www.w3.org/1998/Math/MathML"')
    assert "<mi>labels</mi>" in body["mathml"]


def test_a_pasted_config_counts_like_the_registry_name(client: httpx.Client) -> None:
    from calculators.params import registry

    config = registry.load("gpt2")
    by_config = client.post("/v1/calc/params", json={"config": config, "head": "causal-lm"})
    by_name = client.post("/v1/calc/params", json={"model": "gpt2", "head": "causal-lm"})
    assert by_config.status_code == by_name.status_code == 200
    assert by_config.json()["total"] == by_name.json()["total"] == 124_439_808


@pytest.mark.parametrize(("path", "body", "result"), [
    ("/v1/calc/lora", {"model": "roberta-base", "head": "seq-cls", "num_labels": 2,
                       "target_modules": ["query", "value"], "task_type": "SEQ_CLS"},
     lambda: calc.lora_parameters("roberta-base", "seq-cls", 2, target_modules=["query", "value"],
                                  task_type="SEQ_CLS")),
    ("/v1/calc/memory/attention", {"seq_len": 16384, "n_heads": 48},
     lambda: calc.attention_scores_memory(16384, 48)),
    ("/v1/calc/memory/attention", {"seq_len": 1024, "n_heads": 12, "bytes_per_element": 0.5},
     lambda: calc.attention_scores_memory(1024, 12, "0.5")),
    ("/v1/calc/memory/kv", {"model": "Llama-2-7b", "seq_len": 4096},
     lambda: calc.kv_cache_memory("Llama-2-7b", 4096)),
    ("/v1/calc/memory/optimizer", {"n_params": 9437184},
     lambda: calc.optimizer_state_memory(9437184)),
    ("/v1/calc/memory/training", {"n_params": 7_000_000_000},
     lambda: calc.training_memory(7_000_000_000)),
    ("/v1/calc/cross-entropy", {"logits": [0.5, 0.1, 3.0, 0.2, 1.0], "target": 2},
     lambda: calc.cross_entropy(["0.5", "0.1", "3.0", "0.2", "1.0"], 2)),
    ("/v1/calc/cross-entropy", {"logits": [1, 2], "target": 0, "base": "2"},
     lambda: calc.cross_entropy([1, 2], 0, 2)),
    ("/v1/calc/flops", {"n_params": 124439808, "n_tokens": 10**9},
     lambda: calc.training_flops(124439808, 10**9)),
    ("/v1/calc/flops/forward", {"n_params": 124439808, "n_layers": 12, "seq_len": 1024,
                                "d_model": 768},
     lambda: calc.forward_flops_per_token(124439808, 12, 1024, 768)),
])
def test_every_calculator_answers_with_the_library_json(client: httpx.Client, path: str,
                                                        body: dict, result) -> None:
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    got = r.json()
    expected = library(result())
    assert {k: got[k] for k in expected} == expected
    for key in ("value", "unit", "breakdown", "formula", "latex", "mathml", "explanation"):
        assert key in got, key
    assert got["mathml"].startswith("<math")


def test_registry_and_conventions_are_listed(client: httpx.Client) -> None:
    from calculators.params import registry

    models = client.get("/v1/calc/models").json()["models"]
    assert list(models) == registry.names()
    assert models["distilbert-base-uncased"] == registry.hub_id("distilbert-base-uncased")
    # the counting conventions only (calc.conventions() lists the memory ones after them)
    assert client.get("/v1/calc/conventions").json()["conventions"] == calc.conventions("params")


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/v1/calc/params", {"model": "no-such-model"}, "model"),
    ("/v1/calc/params", {}, "model"),
    ("/v1/calc/params", {"model": "gpt2", "config": {"model_type": "gpt2"}}, "model"),
    ("/v1/calc/params", {"model": "gpt2", "head": "seq2seq-lm"}, "head"),
    ("/v1/calc/params", {"model": "gpt2", "convention": "no_such_convention"}, "convention"),
    ("/v1/calc/params", {"config": {"model_type": "bert", "hidden_size": 100,
                                    "num_attention_heads": 12}}, "num_attention_heads"),
    ("/v1/calc/lora", {"model": "roberta-base", "bias": "some"}, "bias"),
    ("/v1/calc/memory/optimizer", {"n_params": 10, "optimizer": "lion2"}, "optimizer"),
    ("/v1/calc/memory/training", {"n_params": 10, "precision": "fp8"}, "precision"),
    ("/v1/calc/cross-entropy", {"logits": [1, 2], "target": 5}, "target"),
])
def test_a_calculator_complaint_is_a_422_naming_its_field(client: httpx.Client, path: str,
                                                          body: dict, field: str) -> None:
    assert_error(client.post(path, json=body), 422, field, "invalid_input")


@pytest.mark.parametrize(("body", "field"), [
    ({"seq_len": "long", "n_heads": 12}, "seq_len"),
    ({"seq_len": 0, "n_heads": 12}, "seq_len"),
    ({"seq_len": 128}, "n_heads"),
    ({"seq_len": 128, "n_heads": 12, "bytes_per_element": -2}, "bytes_per_element"),
    ({"seq_len": 128, "n_heads": 12, "colour": "red"}, "colour"),
    ({"seq_len": 10**30, "n_heads": 12}, "seq_len"),
])
def test_a_malformed_body_is_a_422_naming_its_field(client: httpx.Client, body: dict,
                                                    field: str) -> None:
    assert_error(client.post("/v1/calc/memory/attention", json=body), 422, field,
                 "invalid_input")


def test_broken_json_wrong_method_and_unknown_path_are_json_errors(client: httpx.Client) -> None:
    r = client.post("/v1/calc/params", content=b'{"model": "gpt2"',
                    headers={"content-type": "application/json"})
    assert_error(r, 422, "body", "invalid_input")
    assert_error(client.get("/v1/calc/params"), 405, None, "method_not_allowed")
    assert_error(client.get("/v1/calc/nothing-here"), 404, None, "not_found")
    r = client.post("/v1/calc/cross-entropy", content=b'{"logits": [NaN], "target": 0}',
                    headers={"content-type": "application/json"})
    assert_error(r, 422, "logits.0", "invalid_input")


def test_openapi_schema_lists_the_versioned_paths(client: httpx.Client) -> None:
    schema = client.get("/openapi.json").json()
    paths = set(schema["paths"])
    assert {"/v1/calc/params", "/v1/calc/lora", "/v1/calc/memory/kv", "/v1/calc/cross-entropy",
            "/v1/calc/flops", "/v1/answers/check", "/v1/answers/lint",
            "/v1/selfcheck", "/v1/selfcheck/{job_id}"} <= paths
    assert all(p.startswith("/v1/") or p == "/healthz" for p in paths)


def test_an_input_the_calculators_trip_on_is_a_4xx_not_a_500(client: httpx.Client) -> None:
    # 3 x 3 x 0.5 = 4.5 bytes per head: the library's note formatting cannot show a fraction
    # (a calculators bug, reported); the service must still answer with a JSON 4xx
    r = client.post("/v1/calc/memory/attention",
                    json={"seq_len": 3, "n_heads": 1, "bytes_per_element": 0.5})
    assert r.status_code < 500, r.text
    if r.status_code != 200:
        assert_error(r, 422, "body", "unsupported_input")


@pytest.mark.parametrize("path", ["/v1/calc/params", "/v1/calc/lora", "/v1/calc/memory/kv"])
def test_a_model_is_never_a_file_on_the_server(client: httpx.Client, tmp_path, path: str) -> None:
    # a real, readable config.json on the server: the library would count it from the path
    from calculators.params import registry

    real = tmp_path / "gpt2.json"
    real.write_text(json.dumps(registry.load("gpt2")))
    extra = {"seq_len": 8} if path.endswith("/kv") else {}
    messages = []
    for model in (str(real), str(tmp_path / "missing.json"), "/etc/passwd"):
        error = assert_error(client.post(path, json={"model": model, **extra}), 422, "model",
                             "invalid_input")
        messages.append(error["message"].replace(repr(model), "MODEL"))
        assert "no such file" not in error["message"] and "readable" not in error["message"]
    # the same answer whether the path exists or not: nothing is read, nothing is told
    assert len(set(messages)) == 1, messages
    assert "registry" in messages[0] and "config" in messages[0]
