"""Memory: attention scores, KV cache, optimizer states, training, activations. Exact bytes.

>>> from calculators import attention_scores_memory
>>> str(attention_scores_memory(16384, 48))
'25,769,803,776 bytes = 25.7698 GB (10^9 bytes) = 24 GiB (2^30 bytes)'
"""

from __future__ import annotations

from typing import Any

import sympy

from calculators._checks import positive_int, positive_number, resolve_n_params
from calculators._result import Memory
from calculators.errors import ConfigError
from calculators.params._config import Reader
from calculators.params._spec import symbol
from calculators.params.count import family_of, load_config

S, H, B, L, E = (
    symbol(n) for n in ("seq_len", "n_heads", "batch_size", "n_layers", "bytes_per_element")
)


def attention_scores_memory(
    seq_len: int, n_heads: int, bytes_per_element: Any = 2, batch_size: int = 1, n_layers: int = 1
) -> Memory:
    """Bytes to hold the score matrices QK^T: one (seq_len x seq_len) matrix per head.

    ``bytes_per_element``: 2 for fp16/bf16 (the default), 4 for fp32.
    """
    s = positive_int("seq_len", seq_len)
    h = positive_int("n_heads", n_heads)
    e = positive_number("bytes_per_element", bytes_per_element)
    b = positive_int("batch_size", batch_size)
    n = positive_int("n_layers", n_layers)
    value = b * n * h * s * s * e
    per_head = s * s * e
    return Memory(
        kind="attention_scores_memory",
        value=_exact(value),
        unit="bytes",
        formula=B * L * H * S**2 * E,
        symbols={
            "batch_size": b,
            "n_layers": n,
            "n_heads": h,
            "seq_len": s,
            "bytes_per_element": e,
        },
        notes=(
            f"one head of one sequence: {_exact(per_head):,} bytes (seq_len^2 x bytes_per_element)",
            "Only the scores; softmax outputs and dropout masks, if kept, are as large again.",
        ),
    )


def kv_cache_memory(
    config: Any, seq_len: int, batch_size: int = 1, bytes_per_element: Any = 2
) -> Memory:
    """Keys and values of every layer for ``seq_len`` tokens: 2 L b s n_kv d_head bytes-per-element.

    ``config`` as `count_parameters` (registry name, dict, PretrainedConfig). With
    grouped-query attention only the key/value heads are cached. For T5 this is
    the decoder's self-attention cache. A layer with sliding-window attention (Mistral,
    Qwen2 with ``use_sliding_window``) keeps only the last ``sliding_window - 1`` tokens,
    as transformers' cache does (the token being decoded is the window's last; the
    Mistral paper's rolling buffer counts W slots, one more).
    """
    data, _ = load_config(config)
    family = family_of(data)
    flags, sizes = family.read(Reader(data, family.title))
    layers = sizes.get("n_dec_layers", sizes["n_layers"])
    if "n_kv_heads" in sizes:
        width, width_expr = (
            sizes["n_kv_heads"] * sizes["d_head"],
            symbol("n_kv_heads") * symbol("d_head"),
        )
    elif "d_kv" in sizes:
        width, width_expr = sizes["n_heads"] * sizes["d_kv"], symbol("n_heads") * symbol("d_kv")
    else:
        width, width_expr = sizes["d_model"], symbol("d_model")
    s = positive_int("seq_len", seq_len)
    b = positive_int("batch_size", batch_size)
    e = positive_number("bytes_per_element", bytes_per_element)
    per_token = 2 * layers * width * e
    symbols = {"n_layers": layers, "batch_size": b, "seq_len": s, "bytes_per_element": e}
    window, n_sliding = flags.get("sliding_window"), flags.get("sliding_layers", 0)
    notes = [f"per token (no window reached): {_exact(per_token):,} bytes"]
    if window is not None and n_sliding:
        kept = min(s, window - 1)
        n_full = layers - n_sliding
        tokens = n_full * s + n_sliding * kept
        value = 2 * width * e * b * tokens
        Lf, Ls, K = symbol("n_full_layers"), symbol("n_sliding_layers"), symbol("window_tokens")
        formula = 2 * B * width_expr * E * (Lf * S + Ls * K)
        del symbols["n_layers"]
        symbols.update(n_full_layers=n_full, n_sliding_layers=n_sliding, window_tokens=kept)
        notes.append(
            f"sliding window {window}: {n_sliding} of {layers} layers keep the last "
            f"min(seq_len, {window} - 1) = {kept:,} tokens"
        )
    else:
        value = per_token * s * b
        formula = 2 * L * B * S * width_expr * E
    for name in ("n_kv_heads", "d_head", "n_heads", "d_kv", "d_model"):
        if symbol(name) in width_expr.free_symbols:
            symbols[name] = sizes[name]
    return Memory(
        kind="kv_cache_memory",
        value=_exact(value),
        unit="bytes",
        formula=formula,
        symbols=symbols,
        breakdown={"keys": _exact(value / 2), "values": _exact(value / 2)},
        notes=tuple(notes),
    )


OPTIMIZERS = {
    # name -> (states per parameter, default bytes per state)
    "adam": (2, 4),
    "adamw": (2, 4),
    "adam8bit": (2, 1),
    "sgd": (1, 4),  # with momentum
    "sgd_nomomentum": (0, 4),
    "rmsprop": (1, 4),
    "adagrad": (1, 4),
}


def optimizer_state_memory(
    n_params: Any, optimizer: str = "adam", bytes_per_state: Any = None
) -> Memory:
    """Optimizer state: Adam/AdamW keep two values (momentum, variance) per parameter, SGD
    with momentum one; 8-bit Adam stores its two states in 1 byte each.

    ``n_params``: an int (``7e9`` and ``"7B"`` too), a count result (`count_parameters`,
    `lora_parameters`) or a registry model name (``"Llama-2-7b"``).
    """
    n, source = resolve_n_params(n_params)
    key = optimizer.lower().replace("-", "").replace("_", "")
    table = {k.replace("_", ""): v for k, v in OPTIMIZERS.items()}
    if key not in table:
        raise ConfigError(
            f"unknown optimizer {optimizer!r}; known: {', '.join(OPTIMIZERS)}", field="optimizer"
        )
    states, default_bytes = table[key]
    e = positive_number(
        "bytes_per_state", default_bytes if bytes_per_state is None else bytes_per_state
    )
    N, K, Eb = symbol("n_params"), symbol("states"), symbol("bytes_per_state")
    value = n * states * e
    breakdown = {f"state {i + 1}": _exact(n * e) for i in range(states)}
    return Memory(
        kind="optimizer_state_memory",
        value=_exact(value),
        unit="bytes",
        formula=N * K * Eb,
        symbols={"n_params": n, "states": states, "bytes_per_state": e},
        breakdown=breakdown,
        notes=(f"{optimizer}: {states} state value(s) per parameter, {e} byte(s) each",
               *([source] if source else [])),
    )


def training_memory(
    n_params: Any,
    precision: str = "mixed",
    optimizer: str = "adam",
    master_weights: bool = True,
    *,
    zero_stage: int = 0,
    data_parallel: int = 1,
    tensor_parallel: int = 1,
    offload_optimizer: str | bool | None = None,
    offload_params: str | bool | None = None,
    largest_layer_params: Any = None,
    activations: Memory | int | None = None,
    head: str | None = None,
    convention: str = "standard",
) -> Memory:
    """Per-device memory of training: weights + gradients + optimizer states (+ activations).

    ``precision="mixed"``: fp16/bf16 weights and gradients (2 + 2 bytes), an fp32
    master copy (4) and fp32 Adam states (4 + 4): the 16 bytes per parameter rule.
    ``precision="fp32"``: 4 + 4 bytes plus the states (also 16 for Adam, no master copy).
    ``n_params`` as `optimizer_state_memory`: ``training_memory("Llama-2-7b")`` counts the
    model first (``head`` picks another class than the config's ``architectures``).

    Distributed (the ZeRO paper's model): ``zero_stage`` 1 shards the master weights and
    optimizer states over ``data_parallel`` GPUs, 2 the gradients too, 3 the weights too,
    and ZeRO-3 gathers the largest module whole (4 bytes per parameter of it: from the
    model, or ``largest_layer_params``); ``tensor_parallel`` splits every tensor;
    ``offload_optimizer="cpu"`` (or ``"nvme"``) moves master weights, optimizer states and
    gradients off the GPU, ``offload_params`` (ZeRO-3) the weights. ``activations``: an
    `activation_memory` result (or bytes), added as it is (give it the same tensor/sequence parallel
    degrees). ``convention``: the memory convention (`conventions("memory")`): ``standard``,
    ``fp32_grads``, ``cookbook``, ``deepspeed_estimator``, ``accelerate``; the result's
    ``convention`` says which one its figure follows.
    """
    from calculators.scale import training_states

    return training_states(
        n_params,
        precision,
        optimizer,
        master_weights,
        zero_stage=zero_stage,
        data_parallel=data_parallel,
        tensor_parallel=tensor_parallel,
        offload_optimizer=offload_optimizer,
        offload_params=offload_params,
        largest_layer_params=largest_layer_params,
        head=head,
        convention=convention,
        activations=activations,
    )


def activation_memory(
    seq_len: int,
    batch_size: int,
    d_model: int,
    n_heads: int,
    n_layers: int = 1,
    recompute: str = "none",
    tensor_parallel: int = 1,
    sequence_parallel: bool = False,
) -> Memory:
    """Activations kept for the backward pass, per Korthikanti et al. (2022), 16-bit activations.

    Per layer: ``s b h (34 + 5 a s / h)`` bytes with no recomputation;
    ``34 s b h`` with selective recomputation (attention recomputed); ``2 s b h``
    with full recomputation (only each layer's input kept). Tensor parallelism
    ``t`` divides the parallel parts: ``s b h (10 + 24/t + 5 a s/(h t))``; with
    sequence parallelism everything is divided by ``t``.
    """
    s = positive_int("seq_len", seq_len)
    b = positive_int("batch_size", batch_size)
    h = positive_int("d_model", d_model)
    a = positive_int("n_heads", n_heads)
    n = positive_int("n_layers", n_layers)
    t = positive_int("tensor_parallel", tensor_parallel)
    if recompute not in ("none", "selective", "full"):
        raise ConfigError(f"must be none, selective or full, got {recompute!r}", field="recompute")
    Ss, Bs, Hs, As, Ls, Ts = (
        symbol(x) for x in ("seq_len", "batch_size", "d_model", "n_heads", "n_layers", "t")
    )
    attn = 5 * As * Ss / Hs
    if recompute == "full":
        per = 2 * Ss * Bs * Hs
        per = per / Ts if sequence_parallel else per
    elif sequence_parallel:
        per = Ss * Bs * Hs * (34 + (0 if recompute == "selective" else attn)) / Ts
    else:
        per = Ss * Bs * Hs * (10 + 24 / Ts + (0 if recompute == "selective" else attn / Ts))
    if t == 1:  # no tensor parallelism: keep t out of the formula
        per = sympy.simplify(per.subs(Ts, 1))
    formula = Ls * per
    symbols = {"seq_len": s, "batch_size": b, "d_model": h, "n_heads": a, "n_layers": n}
    if t != 1:
        symbols["t"] = t
    value = formula.subs({symbol(k): v for k, v in symbols.items()})
    per_layer = per.subs({symbol(k): v for k, v in symbols.items()})
    return Memory(
        kind="activation_memory",
        value=_exact(value),
        unit="bytes",
        formula=formula,
        symbols=symbols,
        notes=(
            f"per layer: {_exact(per_layer):,} bytes",
            f"recompute={recompute}, tensor_parallel={t}, sequence_parallel={sequence_parallel}",
        ),
    )


def _exact(v: Any) -> Any:
    v = sympy.Rational(v) if not isinstance(v, int) else v
    if isinstance(v, sympy.Rational) and v.q == 1:
        return int(v)
    return v


def units_text(v: sympy.Rational) -> str:
    return str(int(v)) if v.q == 1 else str(v)
