"""Training-at-scale memory against the tools people compare with, on meta-device models.

accelerate (a dependency of peft, so always here) runs its own ``estimate-memory`` code
on our meta model. DeepSpeed runs when importable (it is not in the dev extras: it builds
from a source tarball); its estimator's published formula, transcribed below, always
runs, and is itself checked against DeepSpeed whenever DeepSpeed is importable.

DeepSpeed's ``*_all_live`` helpers count parameters with ``dict((p.data_ptr(), p.numel())
...)``, and every meta tensor has ``data_ptr() == 0``: on a meta model they see one
parameter. So the tests give DeepSpeed's ``estimate_zero{2,3}_model_states_mem_needs`` the
totals of the meta model counted by identity (which is what the data_ptr dedupe does on a
real device), and its own ``model_to_params`` only for the largest layer, which it counts
per module and which works on meta.
"""

from __future__ import annotations

import argparse
import math

import pytest
import sympy
import torch
from torch import nn

import calculators as calc
from calculators.params import registry
from tests.calculators.realmodels import build

try:  # the real DeepSpeed, when it is installed (DS_BUILD_OPS=0 pip install deepspeed)
    from deepspeed.runtime.zero import stage3 as ds_stage3
    from deepspeed.runtime.zero import stage_1_and_2 as ds_stage2
except ImportError:  # pragma: no cover - depends on the environment
    ds_stage2 = ds_stage3 = None

MODELS = ["Llama-2-7b", "bert-base-uncased", "gpt2", "bloom-560m"]
# the class each checkpoint's config names (what training_memory counts) and AutoModel's
ARCH_HEAD = {"Llama-2-7b": "causal-lm", "bert-base-uncased": "masked-lm", "gpt2": "causal-lm",
             "bloom-560m": "causal-lm"}
GPUS = [1, 3, 8, 64]


@pytest.fixture(scope="module")
def meta():
    cache: dict[tuple[str, str], nn.Module] = {}

    def get(name: str, head: str) -> nn.Module:
        if (name, head) not in cache:
            cache[(name, head)] = build(registry.load(name), head)
        return cache[(name, head)]

    return get


def unique_params(model: nn.Module) -> int:
    """What DeepSpeed's data_ptr dedupe counts on a real device: each tensor once."""
    return sum({id(p): p.numel() for p in model.parameters()}.values())


def largest_direct(model: nn.Module) -> int:
    """The most parameters one module holds directly (DeepSpeed's largest_layer_params)."""
    return max(sum(p.numel() for p in m.parameters(recurse=False)) for m in model.modules())


# DeepSpeed 0.19.8, deepspeed/runtime/zero/stage_1_and_2.py,
# estimate_zero2_model_states_mem_needs, GPU side (total_gpus = nodes x GPUs per node):
#   cpu_offload:  gpu_mem = 2 * total_params
#   otherwise:    gpu_mem = 2 * total_params + int(18 * total_params / total_gpus)
def ds_zero2_gpu(total: int, gpus: int, cpu_offload: bool) -> int:
    return int(2 * total) if cpu_offload else int(2 * total + int(18 * total / gpus))


# DeepSpeed 0.19.8, deepspeed/runtime/zero/stage3.py, estimate_zero3_model_states_mem_needs:
#   largest_layer_memory = 4 * largest_layer_params
#   cpu_offload and cpu_offload_params: gpu_mem = largest_layer_memory
#   cpu_offload only:                   gpu_mem = largest_layer_memory + int(2 * total / gpus)
#   neither:                            gpu_mem = largest_layer_memory + int(18 * total / gpus)
def ds_zero3_gpu(total: int, largest: int, gpus: int, off_opt: bool, off_par: bool):
    layer = 4 * largest
    if off_opt and off_par:
        return layer, layer
    if off_opt:
        return layer + int(2 * total / gpus), layer
    return layer + int(18 * total / gpus), layer


@pytest.mark.parametrize("name", MODELS)
def test_deepspeed_zero2_and_zero3_estimates(meta, name):
    head = ARCH_HEAD[name]
    model = meta(name, head)
    total, largest = unique_params(model), largest_direct(model)
    if ds_stage3 is not None:  # DeepSpeed's own largest-layer count on the same model
        assert ds_stage3.model_to_params(model)[1] == largest
    for gpus in GPUS:
        for off in (False, True):
            expected = ds_zero2_gpu(total, gpus, off)
            if ds_stage2 is not None:
                tool = ds_stage2.estimate_zero2_model_states_mem_needs(
                    total, num_gpus_per_node=gpus, cpu_offload=off)[1]
                assert tool == expected, "the transcription drifted from DeepSpeed"
            got = calc.training_memory(
                name, zero_stage=2, data_parallel=gpus, offload_optimizer="cpu" if off else None,
                convention="deepspeed_estimator")
            assert got.bytes == expected, (name, gpus, off)
            assert got.convention == "deepspeed_estimator"
            assert sum(got.breakdown.values()) == got.bytes
        for off_opt, off_par in ((False, False), (True, False), (True, True)):
            expected, layer = ds_zero3_gpu(total, largest, gpus, off_opt, off_par)
            if ds_stage3 is not None:
                tool = ds_stage3.estimate_zero3_model_states_mem_needs(
                    total, largest, num_gpus_per_node=gpus, cpu_offload=off_opt,
                    cpu_offload_params=off_par)
                assert (tool[1], tool[2]) == (expected, layer), "transcription drifted"
            got = calc.training_memory(
                name, zero_stage=3, data_parallel=gpus,
                offload_optimizer="cpu" if off_opt else None,
                offload_params="cpu" if off_par else None, convention="deepspeed_estimator")
            assert got.bytes == expected, (name, gpus, off_opt, off_par)
    ll = calc.largest_layer(name, convention="deepspeed_estimator")
    assert ll.bytes == 4 * largest and ll.symbols["largest_layer_params"] == largest
    # one GPU, ZeRO-2: DeepSpeed's 20 bytes/parameter against the project's 16
    one = calc.training_memory(name, zero_stage=2, convention="deepspeed_estimator")
    assert one.bytes == 20 * total and calc.training_memory(name).bytes == 16 * total


def test_deepspeed_tool_is_used_when_installed():
    """Say plainly which path ran (the formula path above always runs)."""
    if ds_stage2 is None:
        pytest.skip("DeepSpeed not importable: verified against its transcribed formula only")
    assert ds_stage2.estimate_zero2_model_states_mem_needs(10**9, 1, 1, False)[1] == 20 * 10**9


def accelerate_rows(model: nn.Module, dtypes: list[str]) -> list[list]:
    """accelerate's own estimate-memory table for ``model`` (no Hub: the model is given)."""
    from accelerate.commands import estimate

    original = estimate.create_empty_model
    estimate.create_empty_model = lambda *a, **k: model
    try:
        args = argparse.Namespace(model_name="x", library_name="transformers", dtypes=dtypes,
                                  trust_remote_code=False)
        return estimate.gather_data(args)
    finally:
        estimate.create_empty_model = original


ACC = {"float32": "fp32", "float16": "fp16", "int8": "int8", "int4": "int4"}


@pytest.mark.parametrize("name", MODELS)
def test_accelerate_estimate_memory(meta, name):
    """Every column of ``accelerate estimate-memory`` for AutoModel (the base model)."""
    model = meta(name, "base")
    for dtype, largest, total, training in accelerate_rows(model, list(ACC)):
        dt = ACC[dtype]
        w = calc.weight_memory(name, dt, convention="accelerate")
        assert w.bytes == sympy.Rational(total), (name, dtype, "total")
        assert w.convention == "accelerate"
        ll = calc.largest_layer(name, dt, convention="accelerate")
        assert ll.bytes == sympy.Rational(largest), (name, dtype, "largest layer")
        peak = max(training.values())
        if dtype in ("float32", "float16"):
            t = calc.training_memory(
                name, precision="fp32" if dtype == "float32" else "mixed",
                convention="accelerate")
            assert t.bytes == peak, (name, dtype, "training")
        else:
            assert peak == -1  # accelerate: N/A; the library has no int8/int4 training either
    # fp16 training: twice the fp32 size (8 bytes per element), not a sum of stages
    fp32 = calc.weight_memory(name, "fp32", convention="accelerate").bytes
    assert calc.training_memory(name, convention="accelerate").bytes == 2 * fp32


LAYOUT_CASES = [
    pytest.param(name, head, marks=[] if name in MODELS else [pytest.mark.slow])
    for name in registry.names()
    for head in ("base", "arch")
]


@pytest.mark.parametrize(("name", "head"), LAYOUT_CASES)
def test_accelerate_layout_under_heads(meta, name, head):
    """accelerate's total and largest layer, with the config's task head too (a tied
    weight counted once, where it first appears), for every registry model."""
    from calculators.scale import default_head

    h = default_head(name) if head == "arch" else "base"
    from accelerate.utils import calculate_maximum_sizes

    total, (largest, names) = calculate_maximum_sizes(meta(name, h))
    assert calc.weight_memory(name, "fp32", head=h, convention="accelerate").bytes == total
    ll = calc.largest_layer(name, head=h, convention="accelerate")
    assert ll.bytes == largest


@pytest.mark.parametrize("name", registry.names())
def test_buffers_match_the_real_model(meta, name):
    """The buffers accelerate counts, for every registry model the layout knows."""
    from calculators.scale import layout

    head = "base"
    real = {n: (b.numel(), b.element_size()) for n, b in meta(name, head).named_buffers()}
    ours = {n: (k, e) for n, k, e in layout(name, head).buffers}
    assert ours == real


def paper_zero(n: int, stage: int, nd: int, k: int = 12) -> sympy.Rational:
    """ZeRO paper, Figure 1: (2 + 2 + K) Psi, optimizer / N_d (P_os), gradients too
    (P_os+g), weights too (P_os+g+p)."""
    w, g, o = sympy.Integer(2 * n), sympy.Integer(2 * n), sympy.Integer(k * n)
    if stage >= 1:
        o /= nd
    if stage >= 2:
        g /= nd
    if stage >= 3:
        w /= nd
    return w + g + o


@pytest.mark.parametrize("name", MODELS)
def test_standard_zero_stages_follow_the_paper(meta, name):
    model = meta(name, ARCH_HEAD[name])
    n, largest = unique_params(model), largest_direct(model)
    for nd in (1, 8, 64):
        for stage in (0, 1, 2, 3):
            got = calc.training_memory(name, zero_stage=stage, data_parallel=nd)
            gather = 4 * largest if stage == 3 else 0
            assert got.bytes == paper_zero(n, stage, nd) + gather, (name, stage, nd)
            assert got.convention == "standard"
            assert sum(got.breakdown.values()) == got.bytes
            fp32g = calc.training_memory(name, zero_stage=stage, data_parallel=nd,
                                         convention="fp32_grads")
            g = sympy.Integer(2 * n) / (nd if stage >= 2 else 1)
            assert fp32g.bytes == got.bytes + g  # fp32 gradients: twice the 16-bit ones
    # offload: what stays on the GPU
    z2 = calc.training_memory(name, zero_stage=2, data_parallel=8, offload_optimizer="cpu")
    assert z2.bytes == 2 * n
    z3 = calc.training_memory(name, zero_stage=3, data_parallel=8, offload_optimizer="cpu",
                              offload_params="cpu")
    assert z3.bytes == 4 * largest
    tp = calc.training_memory(name, zero_stage=1, data_parallel=4, tensor_parallel=2)
    assert tp.bytes == paper_zero(n, 1, 4) / 2


def test_formulas_give_the_value():
    """Each result's formula, with its symbols, is its value (the explanation is honest)."""
    acts = calc.activation_memory(4096, 1, 4096, 32, 32, recompute="selective", tensor_parallel=2)
    results = [
        calc.training_memory("Llama-2-7b", zero_stage=s, data_parallel=8, convention=c,
                             offload_optimizer=off)
        for s in (2, 3) for c in ("standard", "fp32_grads", "deepspeed_estimator", "cookbook")
        for off in (None, "cpu") if not (c == "cookbook" and off)
    ]
    results += [
        calc.training_memory("Llama-2-7b", zero_stage=1, data_parallel=4, tensor_parallel=2,
                             activations=acts),
        calc.training_memory("gpt2", convention="accelerate"),
        calc.weight_memory("gpt2", "int4", group_size=128),
        calc.weight_memory("7B", "int4", group_size=64),
        calc.weight_memory("bert-base-uncased", "int8", convention="accelerate"),
        calc.largest_layer("bloom-560m"),
        calc.largest_layer("bloom-560m", "fp16", convention="accelerate"),
    ]
    for r in results:
        subs = {sympy.Symbol(k, positive=True, integer=True): sympy.nsimplify(v)
                for k, v in r.symbols.items()}
        assert sympy.nsimplify(r.formula.subs(subs)) == r.bytes, (r.formula, r.symbols)
        assert sum(r.breakdown.values()) == r.bytes
        assert r.convention in calc.conventions("memory")
        assert f"convention: {r.convention}" in r.explain()


def test_fp32_grads_is_the_cookbooks_18_bytes():
    n = calc.count_parameters("Llama-2-7b", head="causal-lm").total
    assert calc.training_memory("Llama-2-7b", convention="fp32_grads").bytes == 18 * n
    assert calc.training_memory("Llama-2-7b").bytes == 16 * n  # the default is unchanged


def cookbook_per_gpu(n: int, gpus: int, tp: int, stage: int, mixed: bool = True):
    """EleutherAI cookbook calc/calc_transformer_mem.py (calc_mem), training, no MoE,
    pipeline 1, default buckets: model n*bpp/(tp*pp) [/num_gpus at ZeRO-3]; gradients 4n
    [/num_gpus from stage 2]; optimizer 12n [/num_gpus from stage 1]; communication
    5e8*bpp from stage 1 on >1 GPU, + 1e9*bpp at stage 3 on >1 GPU."""
    bpp = 2 if mixed else 4
    model = n * bpp / sympy.Integer(tp)
    if stage == 3:
        model /= gpus
    grads = sympy.Integer(4 * n) / (gpus if stage >= 2 else 1)
    opt = sympy.Integer(12 * n) / (gpus if stage >= 1 else 1)
    comm = (5 * 10**8 * bpp if stage >= 1 and gpus > 1 else 0) + (
        10**9 * bpp if stage == 3 and gpus > 1 else 0)
    return model + grads + opt + comm


@pytest.mark.parametrize("name", MODELS)
def test_cookbook_convention(name):
    n = calc.count_parameters(name, head=ARCH_HEAD[name]).total
    for stage in range(4):
        for dp, tp in ((1, 1), (8, 1), (4, 2)):
            got = calc.training_memory(name, zero_stage=stage, data_parallel=dp,
                                       tensor_parallel=tp, convention="cookbook")
            assert got.bytes == cookbook_per_gpu(n, dp * tp, tp, stage), (stage, dp, tp)


@pytest.mark.parametrize("name", MODELS)
def test_quantized_weights_against_the_real_linear_layers(meta, name):
    """int8/int4 weight memory from the real model's Linear (and GPT-2 Conv1D) modules:
    those inside the repeated blocks are quantized, with ceil(d_in / g) groups per row."""
    from transformers.pytorch_utils import Conv1D

    model = meta(name, ARCH_HEAD[name])
    blocks = {type(m).__name__ for m in model.modules()} & set(model._no_split_modules or ())
    q = groups = 0
    seen: set[int] = set()
    for m in model.modules():
        if type(m).__name__ not in blocks or type(m).__name__.endswith("Embeddings"):
            continue
        for sub in m.modules():
            if isinstance(sub, nn.Linear | Conv1D) and id(sub.weight) not in seen:
                seen.add(id(sub.weight))
                d_in, d_out = (sub.weight.shape if isinstance(sub, Conv1D)
                               else sub.weight.shape[::-1])
                q += sub.weight.numel()
                groups += d_out * math.ceil(d_in / 128)
    n = unique_params(model)
    for dtype, each in (("int8", sympy.Integer(1)), ("int4", sympy.Rational(1, 2))):
        plain = calc.weight_memory(name, dtype)
        assert plain.bytes == q * each + (n - q) * 2, (name, dtype)
        assert plain.convention == "standard"
        grouped = calc.weight_memory(name, dtype, group_size=128)
        assert grouped.bytes == plain.bytes + groups * (2 + sympy.Rational(1, 2))
        sym = calc.weight_memory(name, dtype, group_size=128, zero_point_bytes=0)
        assert sym.bytes == plain.bytes + groups * 2
        assert sum(grouped.breakdown.values()) == grouped.bytes
    assert calc.weight_memory(name, "fp16").bytes == 2 * n
    assert calc.weight_memory(10**9, "int4", group_size=64).bytes == (
        sympy.Rational(10**9, 2) + (10**9 // 64) * sympy.Rational(5, 2))


def test_conventions_list_both_kinds_with_one_line_each():
    every = calc.conventions()
    memory, counting = calc.conventions("memory"), calc.conventions("params")
    assert set(every) == set(memory) | set(counting) and not set(memory) & set(counting)
    for name in ("standard", "fp32_grads", "cookbook", "deepspeed_estimator", "accelerate"):
        assert name in every and "\n" not in every[name]
    with pytest.raises(calc.ConfigError):
        calc.count_parameters("gpt2", convention="accelerate")
    with pytest.raises(calc.ConfigError) as err:
        calc.training_memory("gpt2", convention="no_bias")
    assert err.value.field == "convention"


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: calc.training_memory(7e9, zero_stage=4), "zero_stage"),
        (lambda: calc.training_memory(7e9, zero_stage=3), "largest_layer_params"),
        (lambda: calc.training_memory(7e9, offload_optimizer="cpu"), "offload_optimizer"),
        (lambda: calc.training_memory(7e9, zero_stage=2, offload_params="cpu",
                                      offload_optimizer="cpu"), "offload_params"),
        (lambda: calc.training_memory(7e9, zero_stage=1, convention="deepspeed_estimator"),
         "zero_stage"),
        (lambda: calc.training_memory(7e9, zero_stage=2, convention="accelerate"), "zero_stage"),
        (lambda: calc.weight_memory(7e9, "int3"), "dtype"),
        (lambda: calc.weight_memory(7e9, "fp16", group_size=128), "group_size"),
        (lambda: calc.weight_memory("gpt2", "int4", group_size=128, convention="accelerate"),
         "group_size"),
    ],
)
def test_refusals_name_the_field(call, field):
    with pytest.raises(calc.ConfigError) as err:
        call()
    assert err.value.field == field


@pytest.mark.parametrize("name", registry.names())
def test_model_shape_for_activations_matches_the_config(name):
    """`--seq-len` sizes activations from (hidden size, heads, layers) as transformers reads
    them from the config (its attribute_map covers n_head, n_heads, num_heads)."""
    import transformers

    from calculators.scale import model_shape

    data = dict(registry.load(name))
    cfg = transformers.AutoConfig.for_model(data.pop("model_type"), **data)
    assert model_shape(name) == (cfg.hidden_size, cfg.num_attention_heads,
                                 cfg.num_hidden_layers)


def test_count_results_are_counts_not_models():
    """A ParameterCount or LoraCount is a number of parameters, wherever a model is taken."""
    c = calc.count_parameters("gpt2", head="causal-lm")
    assert calc.training_memory(c, zero_stage=2, data_parallel=4).bytes == (
        2 * c.total + sympy.Rational(14 * c.total, 4))
    assert calc.weight_memory(c, "int4").bytes == sympy.Rational(c.total, 2)
    with pytest.raises(calc.ConfigError) as err:
        calc.training_memory(c, zero_stage=3)
    assert err.value.field == "largest_layer_params"
    acts = calc.activation_memory(1024, 1, 768, 12, 12)
    with_acts = calc.training_memory(c, activations=acts)
    assert with_acts.bytes == 16 * c.total + acts.bytes
    assert calc.training_memory(c, activations=acts.bytes).bytes == with_acts.bytes


def test_zero3_with_a_bare_count_takes_the_largest_layer():
    got = calc.training_memory("7B", zero_stage=3, data_parallel=8, largest_layer_params="131M")
    assert got.bytes == 2 * 7 * 10**9 + 4 * 131 * 10**6


def test_cli_training_weights_largest_layer_and_conventions():
    from typer.testing import CliRunner

    from grader.cli.calc import calc_app

    runner = CliRunner()
    out = runner.invoke(calc_app, ["memory", "training", "--params", "Llama-2-7b", "--zero", "2",
                                   "--gpus", "8", "--convention", "deepspeed_estimator", "--json"])
    assert out.exit_code == 0, out.output
    expected = calc.training_memory("Llama-2-7b", zero_stage=2, data_parallel=8,
                                    convention="deepspeed_estimator")
    assert f'"bytes": {expected.bytes}' in out.output
    assert '"convention": "deepspeed_estimator"' in out.output
    out = runner.invoke(calc_app, ["memory", "weights", "gpt2", "--dtype", "int4",
                                   "--group-size", "128", "--json"])
    assert out.exit_code == 0, out.output
    assert f'"bytes": {calc.weight_memory("gpt2", "int4", group_size=128).bytes}' in out.output
    out = runner.invoke(calc_app, ["memory", "largest-layer", "bert-base-uncased",
                                   "--convention", "accelerate", "--json"])
    ll = calc.largest_layer("bert-base-uncased", convention="accelerate")
    assert out.exit_code == 0 and f'"bytes": {ll.bytes}' in out.output
    out = runner.invoke(calc_app, ["memory", "training", "--params", "gpt2", "--compare",
                                   "--json"])
    assert out.exit_code == 0, out.output
    import json

    rows = json.loads(out.output)
    assert list(rows) == list(calc.conventions("memory"))
    for name, row in rows.items():
        if isinstance(row, str):  # DeepSpeed's estimators start at ZeRO-2
            assert row.startswith("not covered: ") and name == "deepspeed_estimator"
            with pytest.raises(calc.ConfigError):
                calc.training_memory("gpt2", convention=name)
        else:
            assert row["bytes"] == calc.training_memory("gpt2", convention=name).bytes
    out = runner.invoke(calc_app, ["memory", "training", "--params", "gpt2", "--zero", "1",
                                   "--gpus", "4", "--compare", "--json"])
    rows = json.loads(out.output)
    assert rows["deepspeed_estimator"].startswith("not covered: zero_stage")
    assert rows["fp32_grads"]["bytes"] == calc.training_memory(
        "gpt2", zero_stage=1, data_parallel=4, convention="fp32_grads").bytes
    out = runner.invoke(calc_app, ["conventions"])
    assert out.exit_code == 0 and "fp32_grads" in out.output and "no_bias" in out.output


def test_meta_device_is_what_deepspeed_live_helpers_cannot_count():
    """Why the tests above pass totals to DeepSpeed: on meta every data_ptr() is 0."""
    with torch.device("meta"):
        m = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 8))
    assert {p.data_ptr() for p in m.parameters()} == {0}
