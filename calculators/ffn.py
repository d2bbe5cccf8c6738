"""Feed-forward (MLP) parameters of a Transformer stack, the way a handout asks for them."""

from __future__ import annotations

from calculators._checks import positive_int
from calculators._result import Result
from calculators.params._spec import symbol


def ffn_parameters(
    hidden: int, n_layers: int, d_ff: int | None = None, bias: bool = True, gated: bool = False
) -> Result:
    """Parameters of the FFN sub-layers across ``n_layers``: H -> d_ff -> H.

    ``d_ff`` defaults to 4 H. ``gated=True`` is the SwiGLU/GEGLU form (LLaMA, T5
    v1.1): two input projections instead of one. With biases, each linear layer
    adds its output width.
    """
    h = positive_int("hidden", hidden)
    n = positive_int("n_layers", n_layers)
    f = 4 * h if d_ff is None else positive_int("d_ff", d_ff)
    H, L = symbol("H"), symbol("n_layers")
    F = 4 * H if d_ff is None else symbol("d_ff")
    ups = 2 if gated else 1
    up_w, up_b = ups * h * f, (ups * f if bias else 0)
    down_w, down_b = f * h, (h if bias else 0)
    per_layer_expr = ups * H * F + F * H + ((ups * F + H) if bias else 0)
    breakdown = {"up projection weights": n * up_w, "down projection weights": n * down_w}
    if bias:
        breakdown["up projection biases"] = n * up_b
        breakdown["down projection biases"] = n * down_b
    symbols = {"H": h, "n_layers": n}
    if d_ff is not None:
        symbols["d_ff"] = f
    return Result(
        kind="ffn_parameters",
        value=sum(breakdown.values()),
        unit="parameters",
        formula=L * per_layer_expr,
        symbols=symbols,
        breakdown=breakdown,
        notes=(f"per layer: {up_w + up_b + down_w + down_b:,}",),
    )
