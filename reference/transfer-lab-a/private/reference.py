"""Transfer lab A's answer key, computed by `calculators` (never typed in): Q3's counts.

The lab's model is the PyTorch `nn.Transformer` language-modeling tutorial model with
ntoken = 50001, nhid = 200, nhead = 2, nlayers = 4, dim_feedforward = nhid. The exact
count is what `sum(p.numel() for p in model.parameters() if p.requires_grad)` prints;
the conventions students follow (no biases, no LayerNorm, no out-projection, a head
without bias, 5·nhid² per layer) are the same calculator with another convention.
"""

from __future__ import annotations

from typing import Any

import calculators as calc

CONFIG = {"model_type": "torch_transformer_encoder", "ntoken": 50001, "d_model": 200,
          "nhead": 2, "dim_feedforward": 200, "nlayers": 4}
NCLASSES = 2


def count(head: str = "causal-lm", convention: str = "exact", head_bias: bool = True) -> Any:
    """Trainable parameters of the LM (`causal-lm`) or classification (`seq-cls`) model.

    `head_bias=False` leaves out the head's bias vector only (a common way to count).
    """
    labels = NCLASSES if head == "seq-cls" else None
    result = calc.count_parameters(CONFIG, head=head, num_labels=labels, convention=convention)
    if head_bias:
        return result.total
    bias = NCLASSES if head == "seq-cls" else CONFIG["ntoken"]
    return result.total - bias
