"""Counts as users write them (7e9, "7B", a model name) and the GPU time of a FLOP count."""

from __future__ import annotations

import pytest
import sympy

import calculators as calc


def test_a_registry_model_name_is_a_parameter_count():
    llama = calc.count_parameters("Llama-2-7b", head="causal-lm")
    assert calc.training_memory("Llama-2-7b").bytes == calc.training_memory(llama).bytes
    assert calc.training_memory("Llama-2-7b").bytes == 16 * 6_738_415_616
    assert calc.optimizer_state_memory("meta-llama/Llama-2-7b-hf").bytes == 8 * llama.total
    assert calc.training_flops("gpt2", 10**9).value == 6 * 124_439_808 * 10**9
    note = calc.training_memory("Llama-2-7b").notes[-1]
    assert note == "n_params: Llama-2-7b (causal-lm) has 6,738,415,616 parameters"


@pytest.mark.parametrize("written", [7e9, "7e9", "7E9", "7B", "7b", "7_000_000_000",
                                     "7,000,000,000", 7_000_000_000, sympy.Integer(7 * 10**9)])
def test_float_like_whole_numbers_are_counts(written):
    assert calc.training_memory(written).bytes == 16 * 7_000_000_000
    assert calc.training_flops(written, "2T").value == 6 * 7 * 10**9 * 2 * 10**12


def test_floats_are_read_as_written_not_as_binary_approximations():
    assert calc.training_flops(1, 8.4e22 / 6).value != 0  # a float that is not whole...
    assert calc.gpu_hours(8.4e22, peak_flops=1e15, mfu=1).symbols["C"] == 84 * 10**21


@pytest.mark.parametrize(("written", "says"), [
    (7.5, "must be a whole number"), ("1e-3", "must be a whole number"),
    (True, "must be an integer"), (0, "at least 1"),
    ("Llama-9", "neither a number (7e9, 7B) nor a registry model"),
])
def test_what_is_not_a_count_is_refused_naming_n_params(written, says):
    with pytest.raises(calc.ConfigError, match=f"^n_params: .*{says}".replace("(", r"\(")
                       .replace(")", r"\)")) as err:
        calc.training_memory(written)
    assert err.value.field == "n_params"


def test_gpu_hours_at_a_stated_utilisation():
    flops = calc.training_flops("Llama-2-7b", "2T")
    a100 = calc.gpu_hours(flops, "a100", mfu=0.4, n_gpus=1024)
    exact = sympy.Rational(flops.value) / (312 * 10**12 * sympy.Rational(2, 5) * 3600)
    assert a100.value == exact and a100.unit == "A100-hours"
    assert str(a100) == "GPU hours: 179,979 A100-hours"  # Llama 2's paper reports 184,320
    assert "on 1024 GPU(s) at once: 175.8 hours = 7.323 days" in a100.notes[-1]
    assert a100.symbols == {"C": flops.value, "P": 312 * 10**12, "U": sympy.Rational(2, 5)}
    assert a100.formula.subs(a100.subs()) == a100.value
    for name, (_, peak) in calc.GPU_PEAK_FLOPS.items():
        assert calc.gpu_hours(3600 * peak, name, mfu=1).value == 1
    assert calc.gpu_hours(10**18, "H100", mfu="0.5").value == calc.gpu_hours(
        10**18, peak_flops=9895 * 10**11, mfu=0.5).value
    with pytest.raises(calc.ConfigError, match="^gpu: unknown GPU 'b200'"):
        calc.gpu_hours(flops, "b200")
    with pytest.raises(calc.ConfigError, match="^mfu: "):
        calc.gpu_hours(flops, "h100", mfu=1.5)
