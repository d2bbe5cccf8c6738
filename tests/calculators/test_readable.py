"""Results read well where a library user meets them: print, the REPL, Jupyter, `.to()`."""

from __future__ import annotations

import sympy

import calculators as calc
from calculators.units import Quantity

RESULTS = {
    "params": lambda: calc.count_parameters("bert-base-uncased"),
    "lora": lambda: calc.lora_parameters(
        "roberta-base", "seq-cls", 2, target_modules=["query", "value"], task_type="SEQ_CLS"
    ),
    "lora_matrices": lambda: calc.lora_matrices([(6144, 6144)] * 2, r=8, n_layers=48),
    "memory": lambda: calc.attention_scores_memory(16384, 48),
    "ffn": lambda: calc.ffn_parameters(6144, 48),
    "flops": lambda: calc.training_flops(7_000_000_000, 2 * 10**12),
    "softmax": lambda: calc.softmax([0.5, 0.1, 3.0]),
    "cross_entropy": lambda: calc.cross_entropy([0.5, 0.1, 3.0, 0.2, 1.0], 2),
}


def test_every_result_prints_one_readable_line_not_a_dataclass_repr():
    shown = {name: str(make()) for name, make in RESULTS.items()}
    for name, text in shown.items():
        assert "\n" not in text and "=(" not in text and "breakdown=" not in text, (name, text)
    assert shown["params"] == "bert-base-uncased (base): 109,482,240 parameters"
    assert shown["lora"] == "LoRA r=8: 887,042 trainable parameters (0.7066 % of 125,534,212)"
    assert shown["memory"] == "25,769,803,776 bytes = 25.7698 GB (10^9 bytes) = 24 GiB (2^30 bytes)"
    assert shown["ffn"] == "ffn parameters: 14,496,989,184 parameters"
    assert shown["flops"] == "training FLOPs: 8.4e+22 FLOPs"
    assert shown["cross_entropy"] == "cross-entropy, target 2: 0.287622 nats (p = 0.750045)"
    # the REPL shows the type and the same line
    assert repr(RESULTS["params"]()) == f"<ParameterCount {shown['params']}>"


def test_every_result_renders_an_html_table_in_jupyter():
    for name, make in RESULTS.items():
        html = make()._repr_html_()
        assert html.startswith("<div>") and "<table>" in html and "</table>" in html, name
        assert str(make()).replace("&", "&amp;").replace("<", "&lt;") in html.replace(
            "&#x27;", "'"
        ), name
    assert "109,482,240" in RESULTS["params"]()._repr_html_()


def test_memory_to_a_unit_reads_and_converts_and_stays_exact():
    kv = calc.kv_cache_memory("Llama-2-7b", seq_len=4096)
    gb = kv.to("GB")
    assert isinstance(gb, Quantity)
    assert str(gb) == "2.147 GB" and str(kv.to("GiB")) == "2 GiB"
    assert float(gb) == 2.147483648 and gb.exact == sympy.Rational(2**31, 10**9)
    assert f"{gb:.2f}" == "2.15 GB"
    # existing callers compare with numbers and sympy rationals, and do arithmetic
    assert kv.to("GiB") == 2 and gb == sympy.Rational(2147483648, 10**9)
    assert gb == kv.to("GiB") and gb.to("MiB") == 2048
    assert sympy.Rational(gb) == gb.exact and 2 * kv.to("GiB") == 4
    assert kv.to("GiB") / kv.to("MiB") == 1
    scores = calc.attention_scores_memory(16384, 48)
    assert str(scores.to("GB")) == "25.77 GB" and scores.to("GiB") == 24
    assert scores.to("bit") == 8 * 25_769_803_776
    assert repr(scores.to("GB")) == "<Quantity 25.77 GB = 50331648/1953125 GB>"


def test_rich_tables_never_cut_long_names_to_a_shared_prefix():
    from io import StringIO

    from rich.console import Console

    out = StringIO()
    Console(file=out, width=60).print(RESULTS["lora"]())
    text = out.getvalue()
    assert "lora/…query" in text and "lora/…value" in text
    assert "roberta.encoder.layer.*.attention.self." in text.replace("\n", "")
