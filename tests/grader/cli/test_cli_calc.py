"""`grader calc ...` driven in-process: output, --json, and exit codes scripts rely on."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import calculators as calc
from grader.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_params_json_is_the_library_result(capsys):
    code, out, _ = run(
        capsys,
        "calc",
        "params",
        "distilbert-base-uncased",
        "--head",
        "seq-cls",
        "--num-labels",
        "4",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    lib = calc.count_parameters("distilbert-base-uncased", head="seq-cls", num_labels=4)
    assert data["total"] == lib.total == 66_956_548
    assert data["breakdown"] == lib.breakdown
    assert data["formula"] == str(lib.formula)


def test_params_table_shows_number_breakdown_and_formula(capsys):
    code, out, _ = run(capsys, "calc", "params", "bert-base-uncased", "--convention", "no_bias")
    assert code == 0
    total = calc.count_parameters("bert-base-uncased", convention="no_bias").total
    assert f"{total:,}" in out
    assert "layers/attn/qkv" in out
    assert "d_model" in out


def test_config_file_path(tmp_path, capsys):
    cfg = {
        "model_type": "torch_transformer_encoder",
        "ntoken": 50001,
        "d_model": 200,
        "nhead": 2,
        "dim_feedforward": 200,
        "nlayers": 4,
    }
    path = tmp_path / "lab_a.json"
    path.write_text(json.dumps(cfg))
    code, out, _ = run(capsys, "calc", "params", str(path), "--head", "causal-lm", "--json")
    assert code == 0
    assert json.loads(out)["total"] == 21_018_401  # transfer-lab A, the LM model


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["calc", "params", "no-such-model"], "model"),
        (["calc", "params", "gpt2", "--head", "masked-lm"], "head"),
        (["calc", "params", "gpt2", "--convention", "no_heads"], "convention"),
        (["calc", "memory", "attention", "--seq-len", "-1", "--heads", "2"], "seq_len"),
        (["calc", "lora", "gpt2", "--targets", "nothing"], "target_modules"),
        (["calc", "ce", "--logits", "1,2", "--target", "9"], "target"),
    ],
)
def test_bad_input_is_one_line_naming_the_field_exit_2(capsys, argv, field):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith(f"error: {field}: ")
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "what"),
    [
        ("{not json", "not a readable JSON file"),
        ('["a list"]', "does not hold a JSON object"),
        (
            '{"model_type": "bert", "hidden_size": 100, "num_attention_heads": 12}',
            "12 does not divide",
        ),
        ('{"model_type": "mamba"}', "not a supported family"),
        ('{"hidden_size": 8}', "model_type"),
        ('{"model_type": "bert", "position_embedding_type": "relative_key"}', "does not model it"),
        ('{"model_type": "gpt2", "n_layer": -2}', "must be at least 1"),
    ],
)
def test_malformed_config_files(tmp_path, capsys, content, what):
    path = tmp_path / "config.json"
    path.write_text(content)
    code, _, err = run(capsys, "calc", "params", str(path))
    assert code == 2
    assert what in err and "Traceback" not in err


def test_usage_error_exit_2_and_help_lists_examples(capsys):
    code, _, _ = run(capsys, "calc", "params")  # missing argument
    assert code == 2
    out = subprocess.run(
        [sys.executable, "-m", "grader", "calc", "params", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Examples" in out and "--num-labels" in out


def test_console_script_runs():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "grader",
            "calc",
            "ce",
            "--logits",
            "0.5,0.1,3.0,0.2,1.0",
            "--target",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0
    assert round(json.loads(proc.stdout)["value"], 6) == 0.287622


# Issue 18, item 11: what a library user types, as a student or a TA would


def test_params_as_written_7e9_7b_or_a_registry_model(capsys):
    outs = {}
    for params in ("7000000000", "7e9", "7B", "7_000_000_000"):
        code, out, _ = run(capsys, "calc", "memory", "training", "--params", params, "--json")
        assert code == 0, params
        outs[params] = json.loads(out)["bytes"]
    assert set(outs.values()) == {16 * 7_000_000_000}
    code, out, _ = run(capsys, "calc", "memory", "training", "--params", "Llama-2-7b", "--json")
    assert code == 0
    data = json.loads(out)
    llama = calc.count_parameters("Llama-2-7b", head="causal-lm").total
    assert data["bytes"] == 16 * llama == 107_814_649_856
    assert any("Llama-2-7b (causal-lm) has 6,738,415,616 parameters" in n for n in data["notes"])
    code, _, err = run(capsys, "calc", "memory", "optimizer", "--params", "7.5")
    assert code == 2 and err.startswith("error: n_params: must be a whole number")
    code, _, err = run(capsys, "calc", "flops", "--params", "Llama-2-7x", "--tokens", "1e9")
    assert code == 2 and "did" not in err and "Llama-2-7b" in err  # names the known models


def test_flops_read_in_scientific_form_with_gpu_hours_at_a_stated_mfu(capsys):
    code, out, _ = run(capsys, "calc", "flops", "--params", "7e9", "--tokens", "2e12",
                       "--gpu", "h100", "--mfu", "0.4", "--gpus", "1000")
    assert code == 0
    assert "8.4e+22 FLOPs" in out and "84,000,000,000,000,000,000,000" in out
    assert "H100-hours" in out and "40 % model FLOPs utilisation" in out
    assert "9.895e+14 FLOP/s" in out  # the stated peak of an H100 SXM, dense BF16
    code, out, _ = run(capsys, "calc", "flops", "--params", "7e9", "--tokens", "2e12",
                       "--gpu", "h100", "--mfu", "0.4", "--json")
    data = json.loads(out)
    assert data["value"] == 84 * 10**21 and data["value_scientific"] == "8.4e+22"
    hours = data["gpu_hours"]
    # 8.4e22 / (989.5e12 * 0.4) / 3600 GPU-hours, exactly
    import sympy

    exact = sympy.Rational(84 * 10**21) / (sympy.Rational(9895 * 10**11) * sympy.Rational(2, 5) * 3600)
    assert hours["value"] == str(exact) and round(hours["value_float"]) == 58952
    code, _, err = run(capsys, "calc", "flops", "--params", "7e9", "--tokens", "2e12",
                       "--gpu", "h100", "--mfu", "1.5")
    assert code == 2 and err.startswith("error: mfu: ")


def test_lora_table_tells_the_adapted_modules_apart(capsys):
    code, out, _ = run(capsys, "calc", "lora", "roberta-base", "--head", "seq-cls",
                       "--num-labels", "2", "--targets", "query,value", "--task-type", "SEQ_CLS")
    assert code == 0
    table = out.split("LoRA rank")[0]
    assert "lora/…query" in table and "lora/…value" in table
    assert "roberta.encoder.layer.*.attention.self." in table.replace("\n", "")
    assert "…│" not in table  # no cell cut off with an ellipsis


def test_mistral_and_qwen2_from_the_registry(capsys):
    code, out, _ = run(capsys, "calc", "models")
    assert code == 0 and "mistralai/Mistral-7B-v0.1" in out and "Qwen/Qwen2-0.5B" in out
    code, out, _ = run(capsys, "calc", "params", "Mistral-7B-v0.1", "--head", "causal-lm",
                       "--json")
    assert code == 0 and json.loads(out)["total"] == 7_241_732_096
    code, out, _ = run(capsys, "calc", "params", "Qwen/Qwen2-0.5B", "--head", "causal-lm")
    assert code == 0 and "494,032,768" in out
    # Mistral's sliding window: the cache of 32k tokens is that of 4,095
    code, out, _ = run(capsys, "calc", "memory", "kv", "Mistral-7B-v0.1", "--seq-len", "32768",
                       "--json")
    data = json.loads(out)
    assert data["bytes"] == 2 * 32 * 8 * 128 * 2 * 4095
    assert data["symbols"]["window_tokens"] == 4095
