"""Transfer lab B's answer key, computed by `calculators`: Q1's encoder and the LoRA follow-up.

The lab's encoder is RoBERTa as fairseq builds it: 4 layers, d_model 512, 8 heads, FFN
512, vocabulary 32000, learned positions for 256 + 2, LayerNorm after the embeddings,
and neither a token-type table nor a pooler. `calculators` counts the Hugging Face
`RobertaModel` (which has both), so the key is that count less those two parts, read
from the calculator's own breakdown.
"""

from __future__ import annotations

from typing import Any

import calculators as calc

CONFIG = {"model_type": "roberta", "vocab_size": 32000, "hidden_size": 512,
          "num_hidden_layers": 4, "num_attention_heads": 8, "intermediate_size": 512,
          "max_position_embeddings": 258, "type_vocab_size": 1}
NOT_IN_THE_LAB = ("embeddings/token_type", "pooler")


def encoder(convention: str = "exact") -> int:
    """Trainable parameters of the lab's encoder under a counting convention."""
    result = calc.count_parameters(CONFIG, head="base", convention=convention)
    return int(result.total) - sum(int(result.breakdown.get(part, 0)) for part in NOT_IN_THE_LAB)


def lora_bloom(bias: str = "none") -> Any:
    """Q2's follow-up: LoraConfig(r=16, target_modules=["query_key_value"], bias=...) on
    BLOOM-560m (causal LM), as peft's get_nb_trainable_parameters() reports it."""
    return calc.lora_parameters("bloom-560m", "causal-lm", r=16,
                                target_modules=["query_key_value"], bias=bias,
                                task_type="CAUSAL_LM")
