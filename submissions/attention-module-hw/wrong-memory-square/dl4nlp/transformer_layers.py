"""Transformer layers for DL4NLP Homework 4.

Write your code in this file, in the places marked TODO. Attention_Module.ipynb imports
the two classes from here and checks them on a small example; the autograder imports
this file the same way and calls your classes on inputs you have never seen (other batch
sizes, other query and key lengths, every mask form below, with dropout on and then
`eval()`). Keep the class names, the signatures and the layer names as they are.
"""

import math

import torch
from einops import rearrange
from torch import nn


class MultiHeadAttention(nn.Module):
    """Multi-head attention of a sequence of queries over a sequence of keys and values.

    The decoder of this homework uses it twice: as masked self-attention (query, key
    and value are the same sequence) and as cross-attention (queries from the captions,
    keys and values from the image features, of another length).
    """

    def __init__(self, embed_dim, num_heads, dropout=0.1):
        """
        Inputs:
         - embed_dim: E, the width of every token's embedding
         - num_heads: H, the number of attention heads; it divides E
         - dropout: the dropout probability applied to the attention weights
        """
        super().__init__()
        assert embed_dim % num_heads == 0

        # The layers, by the names the autograder loads its weights into. Head i owns the
        # features i * E/H ... (i+1) * E/H - 1 of each projection's output.
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.attn_drop = nn.Dropout(dropout)

        self.num_heads = num_heads
        self.embed_dim = embed_dim
        self.head_dim = embed_dim // num_heads

    def forward(self, query, key, value, attn_mask=None):
        """
        Inputs:
         - query: (N, S, E), the S positions that attend
         - key: (N, T, E), the T positions attended to
         - value: (N, T, E), what each of the T positions hands back
         - attn_mask: None, or an (S, T) tensor saying which keys each query may attend
           to, in one of the three forms the course's code passes:
             * bool: True = may attend, False = blocked (the decoder's causal mask);
             * float of 0s and 1s: 1.0 = may attend, 0.0 = blocked (a padding mask);
             * additive float: 0.0 = may attend, -inf = blocked, added to the scores
               (what nn.Transformer.generate_square_subsequent_mask returns).
           A 0 (False) in a bool or 0/1 mask means blocked. A float mask with a negative
           entry is additive. No row of a mask blocks every key.

        Returns:
         - output: (N, S, E)
        """
        N, S, E = query.shape
        N, T, E = value.shape
        ############################################################################
        # TODO: Implement multi-head attention.
        #  1. Project query, key and value with q_proj, k_proj and v_proj, and split the
        #     last dimension into heads: (N, S, E) -> (N, H, S, E/H) (einops' rearrange is
        #     installed: "n s (h d) -> n h s d").
        #  2. Scores: q @ k^T / sqrt(E/H), of shape (N, H, S, T).
        #  3. Apply attn_mask, if given, so that blocked pairs get zero weight (any form).
        #  4. Softmax over the keys, then dropout on the weights (self.attn_drop).
        #  5. Weighted sum of the values, heads merged back to (N, S, E), then out_proj.
        # Write the attention out: nn.MultiheadAttention and F.scaled_dot_product_attention
        # are not allowed here.
        ############################################################################
        H = self.num_heads
        q = rearrange(self.q_proj(query), "n s (h d) -> n h s d", h=H)  # (N, H, S, E/H)
        k = rearrange(self.k_proj(key), "n t (h d) -> n h t d", h=H)  # (N, H, T, E/H)
        v = rearrange(self.v_proj(value), "n t (h d) -> n h t d", h=H)  # (N, H, T, E/H)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)  # (N, H, S, T)
        if attn_mask is not None:
            if attn_mask.dtype == torch.bool:
                scores = scores.masked_fill(~attn_mask, float("-inf"))  # False = blocked
            elif (attn_mask < 0).any():
                scores = scores + attn_mask  # additive: -inf = blocked
            else:
                scores = scores.masked_fill(attn_mask == 0, float("-inf"))  # 0 = blocked
        weights = self.attn_drop(torch.softmax(scores, dim=-1))  # (N, H, S, T)
        output = self.out_proj(rearrange(weights @ v, "n h s d -> n s (h d)"))  # (N, S, E)
        ############################################################################
        #                             END OF YOUR CODE                             #
        ############################################################################
        return output


class PositionalEncoding(nn.Module):
    """Adds the sinusoidal position table to a batch of embeddings, then dropout."""

    def __init__(self, embed_dim, dropout=0.1, max_len=5000):
        """
        Inputs:
         - embed_dim: E, the width of the embeddings; it is even
         - dropout: the dropout probability applied to the sum
         - max_len: the longest sequence the table covers
        """
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        assert embed_dim % 2 == 0
        ############################################################################
        # TODO: Build the (max_len, E) table: for position p and 0 <= 2i < E,
        #   table[p, 2i] = sin(p / 10000^(2i/E)),  table[p, 2i+1] = cos(p / 10000^(2i/E)).
        # Keep it in the module so that it moves with the module: model.to("cuda") and
        # model.half() must take it along, and it must not be a learned parameter.
        ############################################################################
        position = torch.arange(max_len).unsqueeze(1)  # (max_len, 1)
        div = torch.exp(torch.arange(0, embed_dim, 2) * (-math.log(10000.0) / embed_dim))
        pe = torch.zeros(max_len, embed_dim)  # (max_len, E)
        pe[:, 0::2] = torch.sin(position * div)
        pe[:, 1::2] = torch.cos(position * div)
        self.register_buffer("pe", pe)  # a buffer: it follows .to(), .half() and .cuda()
        ############################################################################
        #                             END OF YOUR CODE                             #
        ############################################################################

    def forward(self, x):
        """
        Inputs:
         - x: (N, S, E), a batch of embedded sequences, S <= max_len

        Returns:
         - output: (N, S, E), x plus the table's first S rows, then dropout
        """
        N, S, E = x.shape
        ############################################################################
        # TODO: Add the positional table to x and apply dropout.
        ############################################################################
        output = self.dropout(x + self.pe[:S])  # (N, S, E) + (S, E)
        ############################################################################
        #                             END OF YOUR CODE                             #
        ############################################################################
        return output
