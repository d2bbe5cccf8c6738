"""FLOPs: the 6ND rule for training, 2N (+ attention) per token for a forward pass, and the
GPU time a FLOP count takes at a stated utilisation.

FLOPs print in scientific form (``8.4e+22 FLOPs``); ``.value`` keeps the exact integer.
"""

from __future__ import annotations

from typing import Any

import sympy

from calculators import units
from calculators._checks import positive_int, positive_number, resolve_n_params, whole_number
from calculators._result import Result
from calculators.errors import ConfigError
from calculators.params._spec import symbol

GPU_PEAK_FLOPS: dict[str, tuple[str, int]] = {
    # name: (what it is, dense 16-bit tensor-core peak in FLOP/s). From NVIDIA's datasheets;
    # where a datasheet gives the figure "with sparsity", this is half of it.
    "v100": ("NVIDIA V100 SXM2, FP16 tensor core", 125 * 10**12),
    "t4": ("NVIDIA T4, FP16 tensor core", 65 * 10**12),
    "a100": ("NVIDIA A100 (SXM or PCIe), BF16/FP16 tensor core, dense", 312 * 10**12),
    "l4": ("NVIDIA L4, BF16/FP16 tensor core, dense", 121 * 10**12),
    "h100": ("NVIDIA H100 SXM, BF16/FP16 tensor core, dense", 9895 * 10**11),
    "h100-pcie": ("NVIDIA H100 PCIe, BF16/FP16 tensor core, dense", 7565 * 10**11),
    "h200": ("NVIDIA H200 SXM, BF16/FP16 tensor core, dense", 9895 * 10**11),
}
"""Peak FLOP/s a GPU name stands for in `gpu_hours`; pass ``peak_flops`` for any other."""


def training_flops(n_params, n_tokens) -> Result:
    """Training compute ~ 6 N D: 2 N per token forward, 4 N backward (Kaplan et al. 2020).

    ``n_params``: an int (``7e9``, ``"7B"``), a count result, or a registry model name
    (``"Llama-2-7b"``); ``n_tokens`` likewise a whole number (``2e12``, ``"2T"``).
    """
    n, source = resolve_n_params(n_params)
    d = whole_number("n_tokens", n_tokens)
    N, D = symbol("N"), symbol("D")
    return Result(
        kind="training_flops",
        value=6 * n * d,
        unit="FLOPs",
        formula=6 * N * D,
        symbols={"N": n, "D": d},
        breakdown={"forward (2ND)": 2 * n * d, "backward (4ND)": 4 * n * d},
        notes=("attention's own FLOPs (quadratic in context) are left out, as in the 6ND rule",
               *([source] if source else [])),
    )


def forward_flops_per_token(
    n_params, n_layers: int | None = None, seq_len: int | None = None, d_model: int | None = None
) -> Result:
    """Forward FLOPs per token: 2 N for the weights, plus 2 n_layers seq_len d_model for
    attention scores and values when the context is given (Kaplan et al. 2020, Table 1)."""
    n, source = resolve_n_params(n_params)
    N = symbol("N")
    breakdown = {"weights (2N)": 2 * n}
    formula = 2 * N
    symbols: dict[str, int] = {"N": n}
    if n_layers is not None or seq_len is not None or d_model is not None:
        layers = positive_int("n_layers", n_layers)
        ctx = positive_int("seq_len", seq_len)
        d = positive_int("d_model", d_model)
        breakdown["attention (2 n_layers seq_len d_model)"] = 2 * layers * ctx * d
        formula = formula + 2 * symbol("n_layers") * symbol("seq_len") * symbol("d_model")
        symbols.update(n_layers=layers, seq_len=ctx, d_model=d)
    return Result(
        kind="forward_flops_per_token",
        value=sum(breakdown.values()),
        unit="FLOPs",
        formula=formula,
        symbols=symbols,
        breakdown=breakdown,
        notes=tuple([source] if source else []),
    )


def gpu_hours(
    flops: Any,
    gpu: str | None = "h100",
    mfu: Any = "0.4",
    n_gpus: int = 1,
    peak_flops: Any = None,
) -> Result:
    """GPU-hours to compute ``flops`` at model FLOPs utilisation ``mfu``: C / (P U) / 3600.

    ``flops``: a count (``8.4e22``) or a FLOPs result (`training_flops`). ``gpu``: a name
    of `GPU_PEAK_FLOPS` (its dense 16-bit peak P), or ``peak_flops`` for another device.
    ``mfu``: the share of the peak the training reaches (0.3 to 0.5 is typical of large
    runs). ``n_gpus`` spreads the hours over GPUs running at once (the wall-clock note).
    """
    c = flops.value if isinstance(flops, Result) else whole_number("flops", flops)
    if peak_flops is not None:
        peak = whole_number("peak_flops", peak_flops)
        what = f"peak {units.scientific(peak)} FLOP/s (given)"
        gpu_name = gpu or "gpu"
    else:
        key = (gpu or "").strip().lower()
        if key not in GPU_PEAK_FLOPS:
            raise ConfigError(
                f"unknown GPU {gpu!r}; known: {', '.join(GPU_PEAK_FLOPS)} (or give peak_flops)",
                field="gpu",
            )
        what, peak = GPU_PEAK_FLOPS[key]
        what = f"{what}: peak {units.scientific(peak)} FLOP/s"
        gpu_name = key
    u = positive_number("mfu", mfu)
    if u > 1:
        raise ConfigError(f"is a share of the peak, at most 1, got {mfu!r}", field="mfu")
    n = positive_int("n_gpus", n_gpus)
    hours = sympy.Rational(c) / (peak * u * 3600)
    C, P, U = symbol("C"), symbol("P"), symbol("U")
    wall = hours / n
    return Result(
        kind="gpu_hours",
        value=hours if hours.q != 1 else int(hours),
        unit=f"{gpu_name.upper()}-hours",
        formula=C / (3600 * P * U),
        symbols={"C": int(c), "P": peak, "U": u},
        notes=(
            what,
            f"at {float(u) * 100:g} % model FLOPs utilisation: "
            f"{units.scientific(peak * u)} FLOP/s per GPU",
            f"on {n} GPU(s) at once: {units.readable(wall)} hours = "
            f"{units.readable(wall / 24)} days of wall-clock time",
        ),
    )
