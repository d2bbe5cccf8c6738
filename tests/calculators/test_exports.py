"""The public surface is deliberate: pin it, so a rename is a visible decision."""

import calculators


def test_calculators_all():
    assert sorted(calculators.__all__) == sorted(
        [
            "GB",
            "GPU_PEAK_FLOPS",
            "KB",
            "MB",
            "TB",
            "GiB",
            "KiB",
            "MiB",
            "TiB",
            "CalculatorError",
            "ConfigError",
            "UnsupportedConfig",
            "CrossEntropy",
            "LoraCount",
            "Memory",
            "ParameterCount",
            "Quantity",
            "Result",
            "Softmax",
            "activation_memory",
            "attention_scores_memory",
            "conventions",
            "count_parameters",
            "cross_entropy",
            "ffn_parameters",
            "forward_flops_per_token",
            "gpu_hours",
            "kv_cache_memory",
            "largest_layer",
            "lora_matrices",
            "lora_parameters",
            "optimizer_state_memory",
            "registry_names",
            "softmax",
            "training_flops",
            "training_memory",
            "weight_memory",
        ]
    )
    for name in calculators.__all__:
        assert getattr(calculators, name) is not None


def test_errors_pickle_with_their_field():
    import pickle

    err = calculators.ConfigError("must be positive", field="seq_len")
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is calculators.ConfigError and back.field == "seq_len"
    assert str(back) == "seq_len: must be positive"


def test_calculators_do_not_import_the_grader_or_torch():
    import subprocess
    import sys

    code = (
        "import sys, calculators as c; c.count_parameters('gpt2'); "
        "c.training_memory('Llama-2-7b', zero_stage=3, data_parallel=8); "
        "c.weight_memory('gpt2', 'int4', group_size=128); "
        "print(sorted(m for m in ('torch', 'transformers', 'grader') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
