"""FLOPs: the 6ND rule for training and 2N (+ attention) per token for a forward pass."""

from __future__ import annotations

from calculators._checks import n_params_of, positive_int
from calculators._result import Result
from calculators.params._spec import symbol


def training_flops(n_params, n_tokens: int) -> Result:
    """Training compute ~ 6 N D: 2 N per token forward, 4 N backward (Kaplan et al. 2020)."""
    n = n_params_of(n_params)
    d = positive_int("n_tokens", n_tokens)
    N, D = symbol("N"), symbol("D")
    return Result(
        kind="training_flops",
        value=6 * n * d,
        unit="FLOPs",
        formula=6 * N * D,
        symbols={"N": n, "D": d},
        breakdown={"forward (2ND)": 2 * n * d, "backward (4ND)": 4 * n * d},
        notes=("attention's own FLOPs (quadratic in context) are left out, as in the 6ND rule",),
    )


def forward_flops_per_token(
    n_params, n_layers: int | None = None, seq_len: int | None = None, d_model: int | None = None
) -> Result:
    """Forward FLOPs per token: 2 N for the weights, plus 2 n_layers seq_len d_model for
    attention scores and values when the context is given (Kaplan et al. 2020, Table 1)."""
    n = n_params_of(n_params)
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
    )
