"""Memory formulas against the bytes real PyTorch objects hold."""

from __future__ import annotations

import pytest
import sympy
import torch
import transformers

import calculators as calc

torch.manual_seed(0)


def _nbytes(t: torch.Tensor) -> int:
    return t.numel() * t.element_size()


def _kv_tensors(cache):
    """Every key/value tensor of a transformers cache (legacy tuples or Cache objects)."""
    layers = getattr(cache, "layers", None)
    if layers is not None:
        for layer in layers:
            yield layer.keys
            yield layer.values
        return
    for k, v in cache:
        yield k
        yield v


@pytest.mark.parametrize(
    "data",
    [
        {
            "model_type": "llama",
            "vocab_size": 50,
            "hidden_size": 32,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "num_hidden_layers": 3,
            "intermediate_size": 40,
        },
        {
            "model_type": "gpt2",
            "vocab_size": 50,
            "n_embd": 24,
            "n_head": 3,
            "n_layer": 2,
            "n_positions": 64,
        },
        {
            "model_type": "gpt_neox",
            "vocab_size": 50,
            "hidden_size": 32,
            "num_attention_heads": 4,
            "num_hidden_layers": 2,
            "intermediate_size": 40,
        },
        {  # Mistral: every layer slides, the window (5) shorter than the sequence (11)
            "model_type": "mistral",
            "vocab_size": 50,
            "hidden_size": 32,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "num_hidden_layers": 3,
            "intermediate_size": 40,
            "sliding_window": 5,
        },
        {  # Mistral without a window (v0.2 and later)
            "model_type": "mistral",
            "vocab_size": 50,
            "hidden_size": 32,
            "num_attention_heads": 4,
            "num_key_value_heads": 1,
            "num_hidden_layers": 2,
            "intermediate_size": 40,
            "sliding_window": None,
        },
        {  # Qwen2: windows on the layers from max_window_layers (1) on
            "model_type": "qwen2",
            "vocab_size": 50,
            "hidden_size": 32,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "num_hidden_layers": 3,
            "intermediate_size": 40,
            "use_sliding_window": True,
            "sliding_window": 4,
            "max_window_layers": 1,
        },
        {  # Qwen2 as released: use_sliding_window false, so no layer slides
            "model_type": "qwen2",
            "vocab_size": 50,
            "hidden_size": 32,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "num_hidden_layers": 2,
            "intermediate_size": 40,
            "use_sliding_window": False,
            "sliding_window": 4,
            "max_window_layers": 1,
        },
    ],
    ids=["llama-gqa", "gpt2", "neox", "mistral-window", "mistral-full", "qwen2-window",
         "qwen2-full"],
)
def test_kv_cache_equals_a_real_fp16_cache(data):
    cfg = dict(data)
    config = transformers.AutoConfig.for_model(cfg.pop("model_type"), **cfg)
    model = transformers.AutoModelForCausalLM.from_config(config).to(torch.float16).eval()
    batch, seq = 3, 11
    with torch.no_grad():
        out = model(torch.randint(0, 50, (batch, seq)), use_cache=True)
    real = sum(_nbytes(t) for t in _kv_tensors(out.past_key_values))
    assert calc.kv_cache_memory(data, seq, batch, bytes_per_element=2).bytes == real


def test_attention_scores_equal_real_attention_weights():
    config = transformers.BertConfig(
        vocab_size=50,
        hidden_size=24,
        num_attention_heads=6,
        num_hidden_layers=2,
        intermediate_size=30,
        attn_implementation="eager",
    )
    model = transformers.BertModel(config).to(torch.float16).eval()
    batch, seq = 2, 13
    with torch.no_grad():
        out = model(torch.randint(0, 50, (batch, seq)), output_attentions=True)
    real = sum(_nbytes(a) for a in out.attentions)
    assert calc.attention_scores_memory(seq, 6, 2, batch, n_layers=2).bytes == real


@pytest.mark.parametrize(
    ("name", "opt", "kwargs"),
    [
        ("adam", torch.optim.Adam, {}),
        ("adamw", torch.optim.AdamW, {}),
        ("sgd", torch.optim.SGD, {"momentum": 0.9}),
        ("rmsprop", torch.optim.RMSprop, {}),
    ],
)
def test_optimizer_state_equals_torch_state(name, opt, kwargs):
    model = torch.nn.Sequential(torch.nn.Linear(7, 5), torch.nn.LayerNorm(5), torch.nn.Linear(5, 3))
    n = sum(p.numel() for p in model.parameters())
    optimizer = opt(model.parameters(), lr=0.01, **kwargs)
    model(torch.randn(4, 7)).sum().backward()
    optimizer.step()
    real = sum(
        _nbytes(t)
        for state in optimizer.state.values()
        for k, t in state.items()
        if k != "step" and torch.is_tensor(t)
    )
    assert calc.optimizer_state_memory(n, name).bytes == real


def test_stat8021_q3_memory_figures():
    scores = calc.attention_scores_memory(16384, 48, bytes_per_element=2)
    assert scores.bytes == 48 * 16384**2 * 2 == 25_769_803_776
    assert scores.to("GiB") == 24
    assert scores.to("GB") == sympy.Rational(25_769_803_776, 10**9)
    adam = calc.optimizer_state_memory(calc.lora_matrices([(6144, 6144)] * 2, r=8, n_layers=48))
    assert adam.bytes == 9_437_184 * 8
    ffn = calc.ffn_parameters(6144, 48)
    ratio = sympy.Rational(adam.bytes, calc.optimizer_state_memory(ffn.value).bytes)
    assert ratio == sympy.Rational(9_437_184, 14_496_989_184)


def test_training_memory_is_16_bytes_per_parameter_for_mixed_adam():
    t = calc.training_memory(1_000_000)
    assert t.bytes == 16_000_000
    assert sum(t.breakdown.values()) == t.bytes
    assert calc.training_memory(1_000_000, precision="fp32").bytes == 16_000_000
    assert calc.training_memory(1_000_000, optimizer="sgd", master_weights=False).bytes == 8_000_000


def test_activation_memory_matches_the_paper_per_layer_formula():
    s, b, h, a = 2048, 4, 4096, 32
    assert calc.activation_memory(s, b, h, a).bytes == s * b * h * (34 + 5 * a * s // h)
    assert calc.activation_memory(s, b, h, a, recompute="selective").bytes == 34 * s * b * h
    assert calc.activation_memory(s, b, h, a, recompute="full").bytes == 2 * s * b * h
    t = 8
    tp = calc.activation_memory(s, b, h, a, tensor_parallel=t).bytes
    assert tp == s * b * h * (10 + sympy.Rational(24, t) + sympy.Rational(5 * a * s, h * t))
    sp = calc.activation_memory(s, b, h, a, tensor_parallel=t, sequence_parallel=True).bytes
    assert sp == sympy.Rational(s * b * h * (34 + 5 * a * s // h), t)


def test_units_are_never_confused():
    q = calc.attention_scores_memory(1024, 1, bytes_per_element=1)  # 2^20 bytes
    assert q.to("MiB") == 1 and q.to("MB") == sympy.Rational(1048576, 10**6)
    assert q.to("bit") == 8 * 2**20
    assert "1 MiB (2^20 bytes)" in str(q) and "1.0486 MB (10^6 bytes)" in str(q)
    with pytest.raises(ValueError):
        q.to("GBs")
