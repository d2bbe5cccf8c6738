"""Training at scale: ZeRO stages, offload, quantized weights, and the tools' conventions.

People check a memory figure against a tool, and the tools disagree with each other
because each counts differently. So every figure here is computed under a *named*
memory convention (`MEMORY_CONVENTIONS`), the result says which, and the same question
can be asked under another tool's convention to explain a different number:

- ``standard`` (the default, the project's documented rule): the ZeRO paper's model
  (Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion
  Parameter Models", section 3 and figure 1): 16-bit weights and gradients (2 + 2 bytes),
  fp32 master weights and two fp32 Adam states (K = 12 bytes), the optimizer part
  sharded over the data-parallel GPUs from stage 1, the gradients from stage 2, the
  weights from stage 3; ZeRO-3 also gathers the largest module whole (DeepSpeed's
  ``largest_layer_memory``, 4 bytes per parameter of it).
- ``fp32_grads``: the same, with gradients kept in fp32 (4 bytes), as the EleutherAI
  cookbook's ``calc/calc_transformer_mem.py`` does by default (``--bytes-per-grad-ele 4``).
- ``cookbook``: that script's per-GPU model states and its ZeRO communication buffers
  (activations, if given, are the library's, not the script's own formula).
- ``deepspeed_estimator``: DeepSpeed's ``estimate_zero2_model_states_mem_needs`` and
  ``estimate_zero3_model_states_mem_needs`` (deepspeed 0.19.8,
  ``deepspeed/runtime/zero/stage_1_and_2.py`` and ``stage3.py``).
- ``accelerate``: ``accelerate estimate-memory`` (accelerate 1.15,
  ``accelerate/commands/estimate.py``): buffers counted, every dtype's size taken from the
  fp32 size, the training figure the largest single stage rather than a sum.

The formulas are transcribed in docs/calculators.md with these citations; the tests run
the real tools on meta-device models where they are installed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import sympy

from calculators._checks import positive_int, positive_number, resolve_n_params, whole_number
from calculators._result import Memory
from calculators.errors import ConfigError, UnsupportedConfig
from calculators.params._spec import CONV1D, LINEAR, Param, symbol

MEMORY_CONVENTIONS: dict[str, str] = {
    "standard": (
        "memory, the default: weights at their dtype (int8/int4 on the blocks' linear layers, group"
        " scales and zeros); training per the ZeRO paper, 2 + 2 + 12 bytes/parameter for mixed"
        " Adam, sharded by stage, ZeRO-3 plus the largest module x 4 bytes"
    ),
    "fp32_grads": (
        "memory: as standard with fp32 gradients (4 bytes): 18 bytes/parameter, the EleutherAI"
        " cookbook's default (--bytes-per-grad-ele 4)"
    ),
    "cookbook": (
        "memory: EleutherAI cookbook calc_transformer_mem.py's per-GPU states: fp32 gradients,"
        " sharding over all GPUs, ZeRO all-gather bucket (5e8) and ZeRO-3 live parameters (1e9)"
        " at 16-bit (its activation formula is not used)"
    ),
    "deepspeed_estimator": (
        "memory: DeepSpeed's estimate_zero2/zero3_model_states_mem_needs (0.19.8): ZeRO-2"
        " 2 + 18/G bytes/parameter per GPU, ZeRO-3 4 x largest layer + 18/G, offload variants"
    ),
    "accelerate": (
        "memory: accelerate estimate-memory (1.15): parameters and buffers, dtype sizes from the"
        " fp32 size, training = the largest stage (8 bytes/element fp16, 16 fp32), largest layer"
    ),
}
"""The memory conventions, each with a one-line explanation (`calc.conventions("memory")`)."""

DTYPE_BYTES: dict[str, sympy.Rational] = {
    "fp32": sympy.Integer(4),
    "fp16": sympy.Integer(2),
    "bf16": sympy.Integer(2),
    "fp8": sympy.Integer(1),
    "int8": sympy.Integer(1),
    "int4": sympy.Rational(1, 2),
}
_DTYPE_ALIASES = {
    "float32": "fp32", "float": "fp32", "float16": "fp16", "half": "fp16", "bfloat16": "bf16",
    "float8": "fp8", "nf4": "int4", "fp4": "int4", "4bit": "int4", "8bit": "int8",
}
# accelerate divides the fp32 size by these (estimate.py, gather_data)
_ACCELERATE_DIVISOR = {"fp32": 1, "fp16": 2, "bf16": 2, "int8": 4, "int4": 8}

# The cookbook's defaults (calc_transformer_mem.py: --zero-allgather-bucket-size,
# --zero3-max-live-params): elements held at 16-bit per GPU for ZeRO's communication.
COOKBOOK_ALLGATHER_BUCKET = 500_000_000
COOKBOOK_ZERO3_LIVE_PARAMS = 1_000_000_000

# Buffers transformers registers (what accelerate counts beside the parameters), found by
# listing named_buffers() of every registry model on the meta device (tests check them):
# model_type -> (module relative to the base model, buffer, elements(sizes, data), bytes each)
_INT64, _FP32 = 8, 4


def _rotary_len(sizes: dict[str, int], data: dict[str, Any], default_factor: float) -> int:
    """inv_freq holds one frequency per pair of rotated dimensions."""
    d_head = sizes.get("d_head") or sizes["d_model"] // _heads(sizes, data)
    rope = data.get("rope_parameters") or data.get("rope_scaling") or {}
    factor = rope.get("partial_rotary_factor", data.get("partial_rotary_factor",
                      data.get("rotary_pct", default_factor)))
    return math.ceil(int(d_head * factor) / 2)


def _heads(sizes: dict[str, int], data: dict[str, Any]) -> int:
    """Attention heads, under whichever name the config uses (gpt2/bloom ``n_head``,
    distilbert ``n_heads``, t5 ``num_heads``)."""
    if sizes.get("n_heads"):
        return sizes["n_heads"]
    for key in ("num_attention_heads", "n_head", "n_heads", "num_heads"):
        if data.get(key):
            return int(data[key])
    raise ConfigError("the config gives no number of attention heads",
                      field="num_attention_heads")


def _positions(sizes: dict[str, int], data: dict[str, Any]) -> int:
    """position_ids / token_type_ids: one entry per learned position."""
    return sizes["n_positions"]


def _llama_like(default_factor: float):
    return (
        ("rotary_emb", "inv_freq", lambda s, d: _rotary_len(s, d, default_factor), _FP32),
        ("rotary_emb", "original_inv_freq", lambda s, d: _rotary_len(s, d, default_factor), _FP32),
    )


BUFFERS: dict[str, tuple[tuple[str, str, Any, int], ...]] = {
    "bert": (
        ("embeddings", "position_ids", _positions, _INT64),
        ("embeddings", "token_type_ids", _positions, _INT64),
    ),
    "roberta": (
        ("embeddings", "position_ids", _positions, _INT64),
        ("embeddings", "token_type_ids", _positions, _INT64),
    ),
    "distilbert": (("embeddings", "position_ids", _positions, _INT64),),
    "llama": _llama_like(1.0),
    "mistral": _llama_like(1.0),
    "qwen2": _llama_like(1.0),
    "gpt_neox": _llama_like(0.25),
    "gpt2": (),
    "bloom": (),
    "opt": (),
    "t5": (),
}
# Modules accelerate keeps whole when it looks for the largest layer (each model class's
# ``_no_split_modules``): the repeated block, and BERT/RoBERTa's embeddings module.
_NO_SPLIT_BLOCK = {"distilbert": False}
_NO_SPLIT_EMBEDDINGS = {"bert", "roberta"}
# The first parameter of the base model, to find its prefix under a head ("bert.", "model.")
_ANCHOR = {
    "bert": "embeddings.word_embeddings.weight",
    "roberta": "embeddings.word_embeddings.weight",
    "distilbert": "embeddings.word_embeddings.weight",
    "llama": "embed_tokens.weight",
    "mistral": "embed_tokens.weight",
    "qwen2": "embed_tokens.weight",
    "gpt_neox": "embed_in.weight",
}


def conventions(kind: str | None = None) -> dict[str, str]:
    """Every named convention with a one-line explanation: the counting conventions
    `count_parameters` takes (``kind="params"``), then the memory conventions of
    `training_memory`, `weight_memory` and `largest_layer` (``kind="memory"``, each text
    starting ``memory:``); both when ``kind`` is None. The names never overlap."""
    from calculators.params.conventions import conventions as counting

    if kind not in (None, "params", "memory"):
        raise ConfigError(f"must be params, memory or None, got {kind!r}", field="kind")
    out: dict[str, str] = {}
    if kind in (None, "params"):
        out.update(counting())
    if kind in (None, "memory"):
        out.update(MEMORY_CONVENTIONS)
    return out


def check_convention(convention: str) -> str:
    if convention not in MEMORY_CONVENTIONS:
        raise ConfigError(
            f"unknown memory convention {convention!r}; known: {', '.join(MEMORY_CONVENTIONS)}",
            field="convention",
        )
    return convention


def dtype_name(dtype: str) -> str:
    key = str(dtype).lower().replace("torch.", "").replace("-", "").replace("_", "")
    key = _DTYPE_ALIASES.get(key, key)
    if key not in DTYPE_BYTES:
        raise ConfigError(
            f"unknown dtype {dtype!r}; known: {', '.join(DTYPE_BYTES)} (and float32, float16,"
            " bfloat16, nf4)",
            field="dtype",
        )
    return key


# --------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class Layout:
    """What memory needs of a model beyond its count: tensors, buffers, module units."""

    name: str
    head: str
    model_type: str
    params: tuple[Param, ...]  # every parameter use, tied duplicates included (tied_to set)
    buffers: tuple[tuple[str, int, int], ...]  # (full name, elements, bytes per element)

    @property
    def n_params(self) -> int:
        return sum(p.count() for p in self.params if p.tied_to is None)

    @property
    def buffer_bytes(self) -> int:
        return sum(n * b for _, n, b in self.buffers)


def layout(config: Any, head: str) -> Layout:
    """The parameters and buffers of ``config`` under ``head``."""
    from calculators.params._config import Reader
    from calculators.params.count import count_parameters, family_of, load_config

    data, _ = load_config(config)
    family = family_of(data)
    count = count_parameters(config, head=head, convention="untied")
    _, sizes = family.read(Reader(data, family.title))
    spec = BUFFERS.get(family.model_type)
    if spec is None:
        raise UnsupportedConfig(
            f"the buffers of {family.title} models are not modelled (a notebook's own "
            "positional-encoding buffer has the size it chooses)",
            field="model_type",
        )
    prefix = _prefix(count.params, family.model_type)
    buffers = tuple(
        (f"{prefix}{module}.{leaf}", int(size(sizes, data)), each)
        for module, leaf, size, each in spec
    )
    return Layout(count.name or count.model_type, head, family.model_type, count.params, buffers)


def _prefix(params: tuple[Param, ...], model_type: str) -> str:
    anchor = _ANCHOR.get(model_type)
    if anchor is None:
        return ""
    for p in params:
        if p.name.endswith(anchor):
            return p.name[: -len(anchor)]
    return ""


def default_head(config: Any) -> str:
    """The head the config's ``architectures`` names (as `resolve_n_params` counts it)."""
    from calculators.params.count import family_of, load_config

    data, _ = load_config(config)
    archs = data.get("architectures") or []
    heads = family_of(data).heads
    return next(
        (h for h in ("causal-lm", "seq2seq-lm", "masked-lm") if heads.get(h) in archs), "base"
    )


def is_model(value: Any) -> bool:
    """Whether ``value`` names a model (registry name, config dict or object), not a count."""
    from calculators._checks import _number

    if isinstance(value, str):
        return _number(value) is None
    if getattr(value, "total", None) is not None:  # a count result: a number, not a model
        return False
    return isinstance(value, dict) or callable(getattr(value, "to_dict", None))


def model_shape(config: Any) -> tuple[int, int, int]:
    """(hidden size, attention heads, layers) of a model, for its activation memory."""
    from calculators.params._config import Reader
    from calculators.params.count import family_of, load_config

    data, _ = load_config(config)
    family = family_of(data)
    _, sizes = family.read(Reader(data, family.title))
    return sizes["d_model"], _heads(sizes, data), sizes["n_layers"]


def _template(name: str) -> str:
    """A repeated block's instance name pattern: ``model.layers.{i}.mlp.up_proj.weight`` ->
    ``model.layers.{i}``."""
    return name[: name.index("{i}") + 3]


def largest_module_deepspeed(params: tuple[Param, ...]) -> tuple[int, list[str]]:
    """DeepSpeed's ``largest_layer_params`` (stage3.py ``model_to_params``): the most
    parameters any one module holds directly (``parameters(recurse=False)``), a tied weight
    counted in each module that holds it."""
    per_module: dict[str, int] = {}
    for p in params:
        per_module[p.module] = per_module.get(p.module, 0) + int(p.size())
    best = max(per_module.values())
    return best, [m for m, v in per_module.items() if v == best]


def largest_layer_accelerate(lay: Layout) -> tuple[int, list[str]]:
    """accelerate's largest layer (``calculate_maximum_sizes`` / ``get_max_layer_size``), in
    fp32 bytes: the biggest of the modules kept whole (``_no_split_modules``: the repeated
    block, BERT's embeddings) and of the leaf modules outside them; parameters (a tied weight
    once, where it first appears) and buffers (at their own dtype) both count. A module with
    children that is not kept whole is split, and its own direct tensors are not looked at."""
    block_whole = _NO_SPLIT_BLOCK.get(lay.model_type, True)
    emb_whole = lay.model_type in _NO_SPLIT_EMBEDDINGS
    prefix = _prefix(lay.params, lay.model_type)
    tensors: list[tuple[str, str, int]] = []  # (tensor name, owning module, bytes)
    for p in lay.params:
        if p.tied_to is None:
            tensors.append((p.name, p.module, 4 * int(p.size())))
    for name, n, each in lay.buffers:
        tensors.append((name, name.rsplit(".", 1)[0], n * each))
    modules = {m for _, m, _ in tensors}
    units: dict[str, int] = {}
    for name, module, size in tensors:
        if block_whole and "{i}" in name:
            unit = _template(name)
        elif emb_whole and module.startswith(f"{prefix}embeddings"):
            unit = f"{prefix}embeddings"
        elif module == "":
            unit = name  # a direct tensor of the model itself is its own entry
        elif any(m.startswith(module + ".") for m in modules):
            continue  # split into its children; its own tensors are skipped
        else:
            unit = module
        units[unit] = units.get(unit, 0) + size
    best = max(units.values())
    return best, [u for u, v in units.items() if v == best]


# --------------------------------------------------------------------------- weights


def weight_memory(
    model: Any,
    dtype: str = "fp16",
    *,
    group_size: int | None = None,
    scale_bytes: Any = 2,
    zero_point_bytes: Any = "1/2",
    keep_bytes: Any = 2,
    head: str | None = None,
    convention: str = "standard",
) -> Memory:
    """Bytes of a model's weights in ``dtype`` (fp32, fp16, bf16, fp8, int8, int4/nf4).

    ``standard``: parameters only. With a model (registry name, config) and an integer
    dtype, the linear layers of the repeated Transformer blocks are quantized, as GPTQ and
    AWQ do; embeddings, norms, biases and the head stay at ``keep_bytes`` (16-bit). With
    ``group_size`` g each row of a quantized matrix is cut into ceil(d_in / g) groups, each
    with a scale (``scale_bytes``, fp16) and a zero point (``zero_point_bytes``, a packed
    4-bit value as GPTQ/AWQ store them; 0 for symmetric schemes). A bare count is all
    quantized. ``accelerate``: the ``Total Size`` column of ``accelerate estimate-memory``,
    buffers included and every tensor at the dtype's share of its fp32 size.
    """
    check_convention(convention)
    dt = dtype_name(dtype)
    each = DTYPE_BYTES[dt]
    if group_size is not None:
        group_size = positive_int("group_size", group_size)
        if dt not in ("int8", "int4"):
            raise ConfigError(f"group scales apply to int8/int4, not {dt}", field="group_size")
    if convention == "accelerate":
        if dt not in _ACCELERATE_DIVISOR or group_size is not None:
            raise ConfigError(
                "accelerate estimate-memory knows float32, float16, int8 and int4, no groups",
                field="dtype" if group_size is None else "group_size",
            )
        return _accelerate_weights(model, dt, head)
    if convention != "standard":
        raise ConfigError(
            f"weights are sized under 'standard' or 'accelerate', not {convention!r}",
            field="convention",
        )
    quantized = dt in ("int8", "int4")
    N, Eb = symbol("n_params"), symbol("bytes_per_param")
    if not is_model(model) or not quantized:
        if head is not None and is_model(model):
            model = _count_with_head(model, head)
        n, source = resolve_n_params(model)
        parts: dict[str, Any] = {f"weights ({dt})": n * each}
        formula = N * Eb
        symbols: dict[str, Any] = {"n_params": n, "bytes_per_param": each}
        notes = [*([source] if source else [])]
        if quantized and group_size is not None:
            groups = -(-n // group_size)
            parts[f"scales ({_b(scale_bytes)} bytes, one per {group_size} weights)"] = (
                groups * positive_number("scale_bytes", scale_bytes))
            zp = _zero_bytes(zero_point_bytes)
            if zp:
                parts[f"zero points ({_b(zp)} bytes each)"] = groups * zp
            G, Sb, Zb = symbol("groups"), symbol("scale_bytes"), symbol("zero_point_bytes")
            formula = N * Eb + G * (Sb + Zb)
            symbols.update(groups=groups, scale_bytes=positive_number("scale_bytes", scale_bytes),
                           zero_point_bytes=zp)
            notes.append(f"groups = ceil(n_params / {group_size}) = {groups:,}")
        return _memory("weight_memory", parts, formula, symbols, notes, "standard")
    # a model, an integer dtype: quantize the blocks' linear layers, keep the rest 16-bit
    h = head or default_head(model)
    lay = layout_params(model, h)
    keep = positive_number("keep_bytes", keep_bytes)
    q_elems = kept = groups = 0
    for p in lay:
        if p.tied_to is not None:
            continue
        if "{i}" in p.name and p.kind in (LINEAR, CONV1D) and len(p.shape) == 2:
            q_elems += p.count()
            if group_size is not None:
                d_in = p.shape[0] if p.kind == CONV1D else p.shape[1]
                d_out = p.shape[1] if p.kind == CONV1D else p.shape[0]
                groups += int(p.repeat) * d_out * -(-d_in // group_size)
        else:
            kept += p.count()
    Q, K, Eb, Kb = (symbol(x) for x in ("quantized_params", "kept_params", "bytes_per_param",
                                         "keep_bytes"))
    parts = {f"quantized weights ({dt})": q_elems * each}
    formula = Q * Eb
    symbols = {"quantized_params": q_elems, "bytes_per_param": each}
    notes = [f"{_label(model, h)}: the linear layers of the repeated blocks are quantized "
             f"({q_elems:,} parameters); embeddings, norms, biases and heads stay at "
             f"{_b(keep)} bytes ({kept:,} parameters)"]
    if group_size is not None:
        sb = positive_number("scale_bytes", scale_bytes)
        zp = _zero_bytes(zero_point_bytes)
        parts[f"scales ({_b(sb)} bytes, one per group of {group_size})"] = groups * sb
        if zp:
            parts[f"zero points ({_b(zp)} bytes each)"] = groups * zp
        G, Sb, Zb = symbol("groups"), symbol("scale_bytes"), symbol("zero_point_bytes")
        formula += G * (Sb + Zb)
        symbols.update(groups=groups, scale_bytes=sb, zero_point_bytes=zp)
        notes.append(f"groups: each matrix row of d_in inputs has ceil(d_in / {group_size}) "
                     f"groups: {groups:,} in all")
    parts["kept weights (embeddings, norms, biases, head)"] = kept * keep
    formula += K * Kb
    symbols.update(kept_params=kept, keep_bytes=keep)
    return _memory("weight_memory", parts, formula, symbols, notes, "standard")


def layout_params(model: Any, head: str) -> tuple[Param, ...]:
    from calculators.params.count import count_parameters

    return count_parameters(model, head=head, convention="untied").params


def _count_with_head(model: Any, head: str) -> Any:
    from calculators.params.count import count_parameters

    return count_parameters(model, head=head)


def _zero_bytes(value: Any) -> Any:
    if value in (0, "0", None):
        return 0
    return positive_number("zero_point_bytes", value)


def _b(v: Any) -> str:
    v = sympy.nsimplify(v)
    return str(v) if not isinstance(v, sympy.Rational) or v.q == 1 else f"{float(v):g}"


def _label(model: Any, head: str) -> str:
    name = model if isinstance(model, str) else (
        model.get("_name_or_path") or model.get("model_type") if isinstance(model, dict)
        else getattr(model, "name_or_path", None) or type(model).__name__)
    return f"{name} ({head})"


def _accelerate_size(model: Any, head: str | None) -> tuple[int, Layout | None, list[str]]:
    """The fp32 bytes accelerate starts from (parameters x 4 + buffers), and notes."""
    if not is_model(model):
        n, _ = resolve_n_params(model)
        return 4 * n, None, [f"{n:,} parameters x 4 bytes (a bare count: no buffers known)"]
    h = head or "base"
    lay = layout(model, h)
    notes = [
        f"{lay.name} ({h}) as accelerate builds it"
        + (" (AutoModel: no task head)" if head is None else "")
        + f": {lay.n_params:,} parameters x 4 bytes + buffers "
        + (", ".join(f"{n} ({k:,} x {b} bytes)" for n, k, b in lay.buffers) or "none")
    ]
    return 4 * lay.n_params + lay.buffer_bytes, lay, notes


def _accelerate_weights(model: Any, dt: str, head: str | None) -> Memory:
    total, lay, notes = _accelerate_size(model, head)
    div = _ACCELERATE_DIVISOR[dt]
    parts = {"parameters": (4 * lay.n_params if lay else total) / sympy.Integer(div)}
    if lay and lay.buffer_bytes:
        parts["buffers (counted as accelerate does)"] = lay.buffer_bytes / sympy.Integer(div)
    notes.append(f"{dt}: the fp32 size / {div}, buffers included (accelerate divides the "
                 "whole fp32 size, int64 buffers too)")
    T, D = symbol("fp32_bytes"), symbol("divisor")
    return _memory("weight_memory", parts, T / D, {"fp32_bytes": total, "divisor": div},
                   notes, "accelerate")


# --------------------------------------------------------------------------- largest layer


def largest_layer(
    model: Any, dtype: str = "fp32", *, head: str | None = None, convention: str = "standard"
) -> Memory:
    """The largest module, the one ZeRO-3 gathers whole and accelerate's "Largest Layer".

    ``standard`` and ``deepspeed_estimator``: DeepSpeed's ``largest_layer_params`` (the most
    parameters one module holds directly), times 4 bytes: its 16-bit weights and gradients,
    DeepSpeed's ``largest_layer_memory``. ``accelerate``: the largest module kept whole or
    leaf, parameters and buffers, at the dtype's share of the fp32 size.
    """
    check_convention(convention)
    dt = dtype_name(dtype)
    if convention == "accelerate":
        if dt not in _ACCELERATE_DIVISOR:
            raise ConfigError("accelerate knows float32, float16, int8 and int4", field="dtype")
        h = head or "base"
        lay = layout(model, h)
        size, names = largest_layer_accelerate(lay)
        div = _ACCELERATE_DIVISOR[dt]
        value = sympy.Integer(size) / div
        return _memory(
            "largest_layer", {names[0]: value}, symbol("layer_fp32_bytes") / symbol("divisor"),
            {"layer_fp32_bytes": size, "divisor": div},
            [f"{lay.name} ({h}); largest: {', '.join(names[:4])}"
             + (f" and {len(names) - 4} more" if len(names) > 4 else ""),
             "parameters x 4 bytes + buffers, / the dtype's divisor (accelerate's rule)"],
            "accelerate")
    if convention not in ("standard", "deepspeed_estimator"):
        raise ConfigError(f"the largest layer is sized under standard, deepspeed_estimator or "
                          f"accelerate, not {convention!r}", field="convention")
    h = head or default_head(model)
    params, names = largest_module_deepspeed(layout_params(model, h))
    return _memory(
        "largest_layer",
        {f"{names[0]}: 16-bit weights": 2 * params, f"{names[0]}: 16-bit gradients": 2 * params},
        4 * symbol("largest_layer_params"), {"largest_layer_params": params},
        [f"{_label(model, h)}: {names[0]} holds {params:,} parameters directly"
         + (f" (other modules as large: {len(names) - 1})" if len(names) > 1 else ""),
         "what ZeRO-3 gathers whole: DeepSpeed's largest_layer_memory = 4 x largest_layer_params"],
        convention)


def largest_layer_params(model: Any, head: str | None = None) -> tuple[int, str]:
    """DeepSpeed's ``largest_layer_params`` of a model, and the module's name."""
    h = head or default_head(model)
    n, names = largest_module_deepspeed(layout_params(model, h))
    return n, names[0]


# --------------------------------------------------------------------------- training


def training_states(
    n_params: Any,
    precision: str,
    optimizer: str,
    master_weights: bool,
    *,
    zero_stage: int,
    data_parallel: int,
    tensor_parallel: int,
    offload_optimizer: str | None,
    offload_params: str | None,
    largest_layer_params: int | None,
    head: str | None,
    convention: str,
    activations: Memory | int | None,
) -> Memory:
    """Per-device training memory (model states, plus activations when given); see
    `calculators.training_memory`."""
    from calculators.memory import OPTIMIZERS

    check_convention(convention)
    stage = _stage(zero_stage)
    dp = positive_int("data_parallel", data_parallel)
    tp = positive_int("tensor_parallel", tensor_parallel)
    off_opt = _offload("offload_optimizer", offload_optimizer)
    off_par = _offload("offload_params", offload_params)
    if precision not in ("mixed", "fp32"):
        raise ConfigError(f"must be 'mixed' or 'fp32', got {precision!r}", field="precision")
    if off_par and stage != 3:
        raise ConfigError("parameters are offloaded by ZeRO-3 only", field="offload_params")
    if off_opt and stage == 0:
        raise ConfigError("optimizer offload needs a ZeRO stage (1-3)", field="offload_optimizer")
    if off_par and not off_opt:
        raise ConfigError("DeepSpeed offloads parameters only with the optimizer",
                          field="offload_params")
    key = optimizer.lower().replace("-", "").replace("_", "")
    table = {k.replace("_", ""): v for k, v in OPTIMIZERS.items()}
    if key not in table:
        raise ConfigError(
            f"unknown optimizer {optimizer!r}; known: {', '.join(OPTIMIZERS)}", field="optimizer"
        )
    if activations is not None:  # an activation_memory result, or bytes
        activations = (activations.bytes if isinstance(activations, Memory)
                       else whole_number("activations", activations))
    if convention == "accelerate":
        return _accelerate_training(n_params, precision, key, stage, dp, tp, off_opt, head,
                                    activations)
    if head is not None and is_model(n_params):
        n, source = resolve_n_params(_count_with_head(n_params, head))
        source = f"n_params: {_label(n_params, head)} has {n:,} parameters"
    else:
        n, source = resolve_n_params(n_params)
    notes: list[str] = []
    largest = None
    if stage == 3 and convention in ("standard", "fp32_grads", "deepspeed_estimator"):
        largest = _largest_for(n_params, largest_layer_params, head)
    if convention == "deepspeed_estimator":
        return _deepspeed(n, source, precision, key, stage, dp, tp, off_opt, off_par, largest,
                          activations)
    if convention == "cookbook":
        return _cookbook(n, source, precision, key, master_weights, stage, dp, tp, off_opt,
                         activations)
    states, state_bytes = table[key]
    grad_bytes = 4 if convention == "fp32_grads" or precision == "fp32" else 2
    w_bytes = 2 if precision == "mixed" else 4
    # (label, bytes per parameter, the first ZeRO stage that shards it, offload target)
    comps: list[tuple[str, Any, int, str | None]] = [
        (f"weights ({'16-bit' if w_bytes == 2 else 'fp32'})", w_bytes, 3, off_par),
        (f"gradients ({'16-bit' if grad_bytes == 2 else 'fp32'})", grad_bytes, 2, off_opt),
    ]
    if precision == "mixed" and master_weights:
        comps.append(("fp32 master weights", 4, 1, off_opt))
    comps.append(("optimizer states", states * state_bytes, 1, off_opt))
    psi = sympy.Integer(n) / tp
    gpu: dict[str, Any] = {}
    terms = []
    for label, b, first, target in comps:
        shard = dp if stage >= first else 1
        v = psi * b / shard
        where = f" / {dp} GPUs (ZeRO-{stage})" if shard > 1 else ""
        if not target:
            gpu[f"{label}{where}"] = v
            terms.append(sympy.Integer(b) / (symbol("N_d") if shard > 1 else 1))
        else:
            notes.append(f"{label}{where} offloaded to {target}: {_show(v)} bytes")
    Nn = symbol("n_params") / (symbol("t") if tp > 1 else 1)
    formula = Nn * sympy.Add(*terms) if terms else sympy.Integer(0)
    symbols: dict[str, Any] = {"n_params": n}
    if tp > 1:
        symbols["t"] = tp
        notes.append(f"tensor parallel {tp}: every tensor split {tp} ways (Megatron keeps norms "
                     "and some biases whole: a slight under-count)")
    if symbol("N_d") in formula.free_symbols:
        symbols["N_d"] = dp
    if largest is not None:
        lp, lname = largest
        lp_dev = sympy.Integer(lp) / tp
        gpu[f"ZeRO-3 gather buffer: {lname} whole (16-bit weights and gradients)"] = 4 * lp_dev
        formula += 4 * symbol("largest_layer_params") / (symbol("t") if tp > 1 else 1)
        symbols["largest_layer_params"] = lp
    if activations is not None:
        gpu["activations"] = activations
        formula += symbol("activation_bytes")
        symbols["activation_bytes"] = activations
    per_param = sympy.Rational(sum(b for _, b, _, _ in comps))
    notes.insert(0, f"{_b(per_param)} bytes of model states per parameter before sharding; "
                 f"ZeRO stage {stage} on {dp} data-parallel GPU(s)"
                 + ("" if activations is not None else "; activations not included"))
    if source:
        notes.append(source)
    return _memory("training_memory", gpu, formula, symbols, notes, convention)


def _stage(zero_stage: Any) -> int:
    if isinstance(zero_stage, bool) or zero_stage not in (0, 1, 2, 3):
        raise ConfigError(f"must be 0, 1, 2 or 3, got {zero_stage!r}", field="zero_stage")
    return int(zero_stage)


def _offload(field: str, value: Any) -> str | None:
    if value in (None, False, "none", ""):
        return None
    if value is True:
        return "cpu"
    if value not in ("cpu", "nvme"):
        raise ConfigError(f"must be none, cpu or nvme, got {value!r}", field=field)
    return str(value)


def _largest_for(model: Any, given: int | None, head: str | None) -> tuple[int, str]:
    if given is not None:
        return whole_number("largest_layer_params", given), "the largest layer"
    if not is_model(model):
        raise ConfigError(
            "ZeRO-3 gathers the largest layer whole: give a model (e.g. 'Llama-2-7b') or "
            "largest_layer_params", field="largest_layer_params")
    return largest_layer_params(model, head)


def _deepspeed(n, source, precision, key, stage, dp, tp, off_opt, off_par, largest,
               activations) -> Memory:
    """DeepSpeed 0.19.8's estimators (stage_1_and_2.py, stage3.py), GPU side."""
    if stage not in (2, 3):
        raise ConfigError("DeepSpeed's estimators cover ZeRO-2 and ZeRO-3 only",
                          field="zero_stage")
    if precision != "mixed" or key not in ("adam", "adamw") or tp != 1:
        raise ConfigError("DeepSpeed's estimators assume mixed-precision Adam and no tensor "
                          "parallelism", field="precision" if precision != "mixed" else
                          ("optimizer" if tp == 1 else "tensor_parallel"))
    N, G = symbol("n_params"), symbol("G")
    symbols: dict[str, Any] = {"n_params": n, "G": dp}
    parts: dict[str, Any] = {}
    if stage == 2:
        parts["16-bit weights (not sharded)"] = 2 * n
        formula = 2 * N
        if not off_opt:
            parts["sharded: 16-bit and fp32 gradients, fp32 master weights, Adam states "
                  "(18 bytes/parameter / G, rounded down)"] = (18 * n) // dp
            formula += sympy.floor(18 * N / G)
        what = "ZeRO-2" + (", offload_optimizer" if off_opt else "")
    else:
        lp, lname = largest
        L = symbol("largest_layer_params")
        symbols["largest_layer_params"] = lp
        parts[f"largest layer ({lname}) x 4 bytes"] = 4 * lp
        formula = 4 * L
        if not off_opt:
            parts["sharded states (18 bytes/parameter / G, rounded down)"] = (18 * n) // dp
            formula += sympy.floor(18 * N / G)
        elif not off_par:
            parts["sharded 16-bit weights (2 bytes/parameter / G, rounded down)"] = (2 * n) // dp
            formula += sympy.floor(2 * N / G)
        what = "ZeRO-3" + (", offload_optimizer" if off_opt else "") + (
            ", offload_param" if off_par else "")
    notes = [f"{what} on G = {dp} GPU(s): per-GPU estimate of estimate_zero{stage}_model_"
             "states_mem_needs (DeepSpeed 0.19.8); the tool's per-CPU figure is not given here"]
    if activations is not None:
        parts["activations"] = activations
        formula += symbol("activation_bytes")
        symbols["activation_bytes"] = activations
    if source:
        notes.append(source)
    return _memory("training_memory", parts, formula, symbols, notes, "deepspeed_estimator")


def _cookbook(n, source, precision, key, master_weights, stage, dp, tp, off_opt,
              activations) -> Memory:
    """EleutherAI cookbook calc/calc_transformer_mem.py (training, no MoE, pipeline 1)."""
    if off_opt:
        raise ConfigError("the cookbook's calculator has no offload", field="offload_optimizer")
    if key not in ("adam", "adamw"):
        raise ConfigError("the cookbook's calculator counts Adam (12 bytes/parameter)",
                          field="optimizer")
    gpus = dp * tp
    bpp = 2 if precision == "mixed" else 4
    model_mem = sympy.Integer(n * bpp) / tp
    if stage == 3:
        model_mem /= gpus
    grads = sympy.Integer(4 * n) / (gpus if stage >= 2 else 1)
    opt = sympy.Integer(12 * n) / (gpus if stage >= 1 else 1)
    parts = {
        f"model ({bpp} bytes/parameter / tensor parallel" + (" / GPUs)" if stage == 3 else ")"):
            model_mem,
        "gradients (fp32, 4 bytes/parameter" + (" / GPUs)" if stage >= 2 else ")"): grads,
        "optimizer (12 bytes/parameter" + (" / GPUs)" if stage >= 1 else ")"): opt,
    }
    comm = 0
    if stage >= 1 and gpus > 1:
        comm += COOKBOOK_ALLGATHER_BUCKET * bpp
    if stage == 3 and gpus > 1:
        comm += COOKBOOK_ZERO3_LIVE_PARAMS * bpp
    if comm:
        parts["communication (ZeRO all-gather bucket 5e8" + (
            ", ZeRO-3 live parameters 1e9" if stage == 3 else "") + f" x {bpp} bytes)"] = comm
    if activations is not None:
        parts["activations"] = activations
    notes = [f"{gpus} GPU(s) = data parallel {dp} x tensor parallel {tp}; the cookbook divides "
             "gradients and optimizer by all GPUs, the model by tensor parallel (and all GPUs "
             "at ZeRO-3); its own parameter formula is replaced by the exact count"]
    if source:
        notes.append(source)
    N, T, G = symbol("n_params"), symbol("t"), symbol("G")
    formula = (N * bpp / T / (G if stage == 3 else 1) + 4 * N / (G if stage >= 2 else 1)
               + 12 * N / (G if stage >= 1 else 1) + comm)
    if activations is not None:
        formula += symbol("activation_bytes")
    symbols = {"n_params": n, "t": tp, "G": gpus, "activation_bytes": (
        activations if activations is not None else None)}
    symbols = {k: v for k, v in symbols.items() if symbol(k) in formula.free_symbols}
    return _memory("training_memory", parts, formula, symbols, notes, "cookbook")


def _accelerate_training(model, precision, key, stage, dp, tp, off_opt, head,
                         activations) -> Memory:
    """accelerate estimate-memory's "Training using Adam" (estimate_training_usage)."""
    if stage or dp != 1 or tp != 1 or off_opt:
        raise ConfigError("accelerate estimate-memory sizes one device without ZeRO or "
                          "parallelism", field="zero_stage" if stage else "data_parallel")
    if key not in ("adam", "adamw") or activations is not None:
        raise ConfigError("accelerate estimate-memory sizes Adam, without activations",
                          field="optimizer" if activations is None else "activations")
    total, _, notes = _accelerate_size(model, head)
    t = sympy.Integer(total)
    if precision == "mixed":
        stages = {"model": t, "gradients": t + t // 2, "optimizer": 2 * t, "step": 2 * t}
    else:
        stages = {"model": t, "gradients": t, "optimizer": 2 * t, "step": 4 * t}
    peak = max(stages.values())
    name = next(k for k, v in stages.items() if v == peak)
    row = "float16" if precision == "mixed" else "float32"
    notes.append(f"accelerate's {row} row reports the largest single stage, not a sum: "
                 + ", ".join(f"{k} {_show(v)}" for k, v in stages.items()) + " bytes")
    return _memory(
        "training_memory", {f"largest stage: {name}": peak},
        (2 if precision == "mixed" else 4) * symbol("fp32_bytes"), {"fp32_bytes": total}, notes,
        "accelerate")


# --------------------------------------------------------------------------- helpers


def _memory(kind: str, parts: dict[str, Any], formula: Any, symbols: dict[str, Any],
            notes: list[str], convention: str) -> Memory:
    from calculators.memory import _exact

    value = sum(parts.values())
    return Memory(
        kind=kind,
        value=_exact(value),
        unit="bytes",
        formula=sympy.sympify(formula),
        symbols=symbols,
        breakdown={k: _exact(v) for k, v in parts.items()},
        notes=tuple(n for n in notes if n),
        convention=convention,
    )


def _show(v: Any) -> str:
    from calculators import units

    return units.show(sympy.nsimplify(v))
