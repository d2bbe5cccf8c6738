"""Mistral: the LLaMA block (grouped-query attention, SwiGLU, RMSNorm, no biases) with
sliding-window attention, which has no parameters of its own: it only bounds what each
layer attends to and what the KV cache keeps (`kv_cache_memory`).

Defaults are `MistralConfig`'s (Mistral 7B: 8 key/value heads, MLP width 14336,
window 4096); biases are not configurable in transformers' Mistral, so
``attention_bias``/``mlp_bias`` in a config are ignored there and here.
"""

from __future__ import annotations

from calculators.params._config import Reader
from calculators.params.families import llama
from calculators.params.families._family import Family, Flags


def read(r: Reader) -> tuple[Flags, dict[str, int]]:
    flags, sizes = llama.read_sizes(r, d_ff=14336, n_kv_heads=8)
    r.unsupported_if("layer_types" in r.data, "layer_types",
                     "per-layer attention types (Ministral's alternating windows)")
    window = r.optional_int("sliding_window")
    flags.update(
        attention_bias=False,
        mlp_bias=False,
        sliding_window=window,
        sliding_layers=sizes["n_layers"] if window is not None else 0,
    )
    return flags, sizes


FAMILY = Family(
    model_type="mistral",
    title="Mistral",
    heads={
        "base": "MistralModel",
        "causal-lm": "MistralForCausalLM",
        "seq-cls": "MistralForSequenceClassification",
    },
    read=read,
    build=llama.build,
    symbols_doc=llama.SYMBOLS_DOC,
)
