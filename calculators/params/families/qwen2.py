"""Qwen2: the LLaMA block with biases on the query, key and value projections only (not
on the output projection or the MLP), grouped-query attention, and optional
sliding-window attention on the layers from ``max_window_layers`` on (no parameters).

Defaults are `Qwen2Config`'s: vocabulary 151936, MLP width 22016, sliding windows off
unless ``use_sliding_window`` is true; an explicit ``layer_types`` list is honoured.
"""

from __future__ import annotations

from calculators.params._config import Reader
from calculators.params.families import llama
from calculators.params.families._family import Family, Flags


def read(r: Reader) -> tuple[Flags, dict[str, int]]:
    flags, sizes = llama.read_sizes(r, vocab=151936, d_ff=22016)
    layers = sizes["n_layers"]
    window = r.optional_int("sliding_window") if r.bool("use_sliding_window", False) else None
    types = r.data.get("layer_types")
    if types is not None:
        r.require(isinstance(types, list) and len(types) == layers
                  and all(t in ("full_attention", "sliding_attention") for t in types),
                  "layer_types", f"must list full_attention or sliding_attention for each of "
                  f"the {layers} layers")
        sliding = sum(t == "sliding_attention" for t in types) if window is not None else 0
    elif window is not None:
        first = r.int("max_window_layers", 28, minimum=0)
        sliding = max(0, layers - first)
    else:
        sliding = 0
    flags.update(
        attention_bias=False,
        mlp_bias=False,
        qkv_bias=True,
        o_bias=False,
        sliding_window=window if sliding else None,
        sliding_layers=sliding,
    )
    return flags, sizes


FAMILY = Family(
    model_type="qwen2",
    title="Qwen2",
    heads={
        "base": "Qwen2Model",
        "causal-lm": "Qwen2ForCausalLM",
        "seq-cls": "Qwen2ForSequenceClassification",
    },
    read=read,
    build=llama.build,
    symbols_doc=llama.SYMBOLS_DOC,
)
