"""Write the Part 1 template and solution notebooks from one list of cells.

Why one list: the template and the solution must differ only in the bodies students
write. Each code cell here has its template source and, where students write code, a
solution source; everything else (intro, demo cells, tags, cell ids) is shared, so the
two notebooks cannot drift apart. Cell ids are fixed and outputs empty, so a rebuild is
byte-for-byte the same and leaves git clean.

    python reference/stat8021-a3/private/make_notebooks.py           # write both notebooks
    python reference/stat8021-a3/private/make_notebooks.py --check   # and run the solution

`--check` executes the solution with nbclient in a temporary folder holding a copy of
`public/part1_demo.safetensors`, and compares every printed line with the reference.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import re
import shutil
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat import NotebookNode

PACK = Path(__file__).resolve().parents[1]
NOTEBOOK_NAME = "Transformer_practice.ipynb"
DEMO_FILE = PACK / "public" / "part1_demo.safetensors"


def src(text: str) -> str:
    """Dedent a cell body written inline below, and drop the blank edges."""
    return textwrap.dedent(text).strip("\n")


def with_body(head: str, body: str) -> str:
    """A function cell: its `def` line and docstring, then the body indented under it."""
    return head + "\n" + textwrap.indent(src(body), "    ")


@dataclass(frozen=True)
class Cell:
    """One notebook cell; `solution` replaces `source` in the solution notebook."""

    kind: str  # "markdown" or "code"
    id: str  # fixed cell id, so rebuilds are reproducible
    source: str
    solution: str | None = None
    tag: str | None = None  # the grader finds the question cells by these tags


# ----------------------------------------------------------------------------------------
# Shared cells: intro, imports, demo data

INTRO = src(r"""
    # STAT8021 Assignment 3: Transformer practice

    ## Part 1: building a Transformer's core by hand (Q1, 30 points)

    This notebook holds the code part of Part 1. You will write the two components
    that every Transformer layer relies on:

    | Question | What you write | Points |
    |---|---|---|
    | Q1(a) | `get_multihead_qkv`: queries, keys and values, split into heads | 6 |
    | Q1(b) | `calculate_multihead_attention`: scaled dot-product attention | 6 |
    | Q1(c) | `class MultiHeadAttention`: the full layer with learned projections | 12 |
    | Q1(d) | `class PositionalEncoding`: the sinusoidal position table | 6 |

    Each question has a cell for your code (replace `# YOUR CODE HERE` and the
    `raise NotImplementedError`) and a demo cell below it that runs your code on a
    small fixed example and prints what the handout asks for. The demo inputs and our
    reference outputs are in `part1_demo.safetensors`, which must sit in the same folder
    as this notebook.

    ### How your code is marked

    The printed numbers are only for you to check your work. To mark it, the grader
    runs this notebook and then calls your functions and classes itself, on inputs you
    have never seen (other batch sizes, sequence lengths, model widths and head counts,
    with and without a mask), and compares what they return with a reference
    implementation. Getting the demo numbers right is therefore not enough, and a
    hard-coded answer earns nothing. In practice:

    - keep every name and signature exactly as given: function and class names,
      argument names, order and defaults, and the layer names in Q1(c);
    - return the values described below (tensors, or tuples of tensors, of the stated
      shapes); do not just print them;
    - read the sizes from the inputs (`B, S, D = x.shape`) rather than assuming the demo's;
    - leave the cells, and their tags (`q1a`, `demo-q1a`, ...), where they are; and
    - before you hand in, restart the kernel and run all cells from the top.

    ### Conventions (the grader assumes exactly these)

    Notation: `x` has shape `(B, S, D)`, i.e. batch, sequence length and model width,
    in `float32`. `h` is the number of heads; it divides `D`, and each head has width
    `d_k = D // h`.

    - **Projections (Q1(a))** are plain matrix products `x @ w_q`, `x @ w_k`, `x @ w_v`
      with each `w` of shape `(D, D)` and no bias.
    - **Heads.** Head `i` owns the consecutive features `i*d_k, ..., (i+1)*d_k - 1` of the
      last dimension. To split, reshape `(B, S, D)` to `(B, S, h, d_k)` and then swap the
      sequence and head axes to get `(B, h, S, d_k)`. To merge heads, undo exactly that:
      `(B, h, S, d_k)` to `(B, S, h, d_k)` to `(B, S, D)`.
    - **Attention.** `scores = q @ kᵀ / sqrt(d_k)`, of shape `(B, h, S, S)`; the softmax
      runs over the last dimension (the keys); the output is `weights @ v`.
    - **Masks** are either `None` or a `(S, S)` boolean tensor in which **`True` marks a
      pair that may NOT attend** (row = query position, column = key position). The
      same mask applies to every batch element and every head. The causal mask, for
      example, is `torch.triu(torch.ones(S, S, dtype=torch.bool), diagonal=1)`. Set the
      blocked scores to `-inf` **before** the softmax, so that they get zero weight and
      every row of weights still sums to one.
    - **`MultiHeadAttention` (Q1(c))** holds four `nn.Linear(d_model, d_model)` layers,
      with bias, stored as attributes named `W_q`, `W_k`, `W_v` and `W_o`. Its
      `state_dict()` must contain exactly these eight tensors: `W_q.weight`, `W_q.bias`,
      ..., `W_o.bias`, and nothing else (the grader loads its own weights into your
      layer with `load_state_dict(..., strict=True)`). Write the attention steps inside
      the class: calling `get_multihead_qkv` or `calculate_multihead_attention` from it is
      not allowed (the handout says so, and the grader checks the code), and neither is
      `nn.MultiheadAttention` or `F.scaled_dot_product_attention`.
    - **`PositionalEncoding` (Q1(d))** takes batch-first input `(B, S, D)`. It keeps the
      table as a buffer named `pe`, of shape `(max_len, d_model)`, where `d_model` is
      even and, for position `pos` and `i = 0, 1, ..., d_model/2 - 1`,

      $$PE_{(pos,\,2i)} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right), \qquad
      PE_{(pos,\,2i+1)} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right).$$

      `forward(x)` returns `dropout(x + pe[:S])`. In `eval()` mode the dropout does
      nothing, which is how both the demo and the grader call it.
    """)

IMPORTS = src("""
    import json
    import math

    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from safetensors import safe_open
    from safetensors.torch import load_file
    """)

DEMO_DATA_INTRO = src("""
    ### The demo data

    `case(target, name)` gives one demo case's inputs, tensors and settings in one
    dictionary (for instance `case("get_multihead_qkv", "demo")["num_heads"]`), and
    `expected(target, name)` gives our reference outputs for it.
    """)

DEMO_DATA = src('''
    DEMO_FILE = "part1_demo.safetensors"
    demo = load_file(DEMO_FILE)
    with safe_open(DEMO_FILE, framework="pt") as f:
        demo_params = json.loads(f.metadata()["params"])


    def _strip(prefix):
        return {key[len(prefix):]: t for key, t in demo.items() if key.startswith(prefix)}


    def case(target, name):
        """The inputs of one demo case: its tensors and its settings, in one dict."""
        return {**_strip(f"{target}/{name}/in/"), **demo_params[target][name]}


    def expected(target, name):
        """Our reference outputs for one demo case."""
        return _strip(f"{target}/{name}/out/")
    ''')

# ----------------------------------------------------------------------------------------
# Q1(a)

Q1A_TEXT = src("""
    ### Q1(a) Queries, keys and values per head [6 points]

    Complete `get_multihead_qkv(x, w_q, w_k, w_v, num_heads)`. Project `x` (`(B, S, D)`)
    with `x @ w_q`, `x @ w_k` and `x @ w_v` (each `w` is `(D, D)`, no bias), then split
    each result into `num_heads` heads as described in the conventions. Return the tuple
    `(q, k, v)`, each of shape `(B, num_heads, S, D // num_heads)`.

    The demo cell prints the shape of `q` and its L2 norm (`q.norm()`).
    """)

Q1A_HEAD = src('''
    def get_multihead_qkv(x, w_q, w_k, w_v, num_heads):
        """Project x (B, S, D) with x @ w and split into heads.

        Returns (q, k, v), each of shape (B, num_heads, S, D // num_heads).
        """
    ''')

Q1A_TEMPLATE = with_body(Q1A_HEAD, """
        # YOUR CODE HERE
        raise NotImplementedError("Q1(a): complete get_multihead_qkv")
    """)

Q1A_SOLUTION = with_body(Q1A_HEAD, """
        B, S, D = x.shape
        d_k = D // num_heads

        def split_heads(t):
            # (B, S, D) -> (B, S, h, d_k) -> (B, h, S, d_k)
            return t.view(B, S, num_heads, d_k).transpose(1, 2)

        return split_heads(x @ w_q), split_heads(x @ w_k), split_heads(x @ w_v)
    """)

Q1A_DEMO = src("""
    c = case("get_multihead_qkv", "demo")
    q, k, v = get_multihead_qkv(c["x"], c["w_q"], c["w_k"], c["w_v"], c["num_heads"])
    print(f"q shape: {tuple(q.shape)}")
    print(f"q L2 norm: {q.norm().item():.6f}")
    """)

# ----------------------------------------------------------------------------------------
# Q1(b)

Q1B_TEXT = src("""
    ### Q1(b) Scaled dot-product attention over heads [6 points]

    Complete `calculate_multihead_attention(q, k, v, mask=None)`. The inputs have shape
    `(B, h, S, d_k)`; `mask` is `None` or a `(S, S)` boolean tensor with `True` where
    attention is blocked. Return the tuple `(output, weights)`: `weights` are the softmax
    attention weights, `(B, h, S, S)`, and `output` is `weights @ v` with the heads
    merged back, `(B, S, h * d_k)`.

    The demo cell runs it without a mask (`self_attn_output`) and with the causal mask
    (`masked_self_attn_output`) on the same `q, k, v`, and prints the shape of the
    weights and the L2 norm of both outputs.
    """)

Q1B_HEAD = src('''
    def calculate_multihead_attention(q, k, v, mask=None):
        """Attention over q, k, v (B, h, S, d_k); mask (S, S) bool, True = blocked.

        Returns (output (B, S, h * d_k), weights (B, h, S, S)).
        """
    ''')

Q1B_TEMPLATE = with_body(Q1B_HEAD, """
        # YOUR CODE HERE
        raise NotImplementedError("Q1(b): complete calculate_multihead_attention")
    """)

Q1B_SOLUTION = with_body(Q1B_HEAD, """
        B, h, S, d_k = q.shape
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B, h, S, S)
        if mask is not None:
            scores = scores.masked_fill(mask, float("-inf"))  # blocked before the softmax
        weights = torch.softmax(scores, dim=-1)  # (B, h, S, S)
        output = (weights @ v).transpose(1, 2).contiguous().view(B, S, h * d_k)
        return output, weights
    """)

Q1B_DEMO = src("""
    c = case("calculate_multihead_attention", "self")
    self_attn_output, attn_weights = calculate_multihead_attention(c["q"], c["k"], c["v"])

    c = case("calculate_multihead_attention", "masked")
    masked_self_attn_output, masked_attn_weights = calculate_multihead_attention(
        c["q"], c["k"], c["v"], mask=c["mask"]
    )

    print(f"attention weights shape: {tuple(attn_weights.shape)}")
    print(f"self_attn_output L2 norm: {self_attn_output.norm().item():.6f}")
    print(f"masked_self_attn_output L2 norm: {masked_self_attn_output.norm().item():.6f}")
    """)

# ----------------------------------------------------------------------------------------
# Q1(c)

Q1C_TEXT = src("""
    ### Q1(c) The multi-head attention layer [12 points]

    Complete `class MultiHeadAttention(nn.Module)`. `__init__(self, d_model, num_heads)`
    creates the four layers `W_q`, `W_k`, `W_v`, `W_o`, each `nn.Linear(d_model, d_model)`
    with bias. `forward(self, x, mask=None)` is self-attention on `x` (`(B, S, D)`):
    project with `W_q`, `W_k`, `W_v`, split into heads, attend (same mask convention as
    Q1(b)), merge the heads and apply `W_o`. It returns a tensor of shape `(B, S, D)`.

    **Important:** write the logic inside the class. Do not call the functions from
    Q1(a) and Q1(b), nor `nn.MultiheadAttention` or `F.scaled_dot_product_attention`.

    The demo cell loads our weights into your layer and prints the largest absolute
    difference from our output, without and with the causal mask. A correct layer gives
    well under `1e-5`; the handout asks for at most `1e-3`.
    """)

Q1C_TEMPLATE = src('''
    class MultiHeadAttention(nn.Module):
        """Multi-head self-attention with learned projections W_q, W_k, W_v and W_o."""

        def __init__(self, d_model, num_heads):
            super().__init__()
            # YOUR CODE HERE
            # TODO: keep num_heads and the width of one head, d_k = d_model // num_heads
            # TODO: create W_q, W_k, W_v and W_o, each nn.Linear(d_model, d_model)

        def forward(self, x, mask=None):
            """x: (B, S, D); mask: None or (S, S) bool, True = blocked. Returns (B, S, D)."""
            # YOUR CODE HERE
            raise NotImplementedError("Q1(c): complete MultiHeadAttention.forward")
    ''')

Q1C_SOLUTION = src('''
    class MultiHeadAttention(nn.Module):
        """Multi-head self-attention with learned projections W_q, W_k, W_v and W_o."""

        def __init__(self, d_model, num_heads):
            super().__init__()
            assert d_model % num_heads == 0, "num_heads must divide d_model"
            self.num_heads = num_heads
            self.d_k = d_model // num_heads
            self.W_q = nn.Linear(d_model, d_model)
            self.W_k = nn.Linear(d_model, d_model)
            self.W_v = nn.Linear(d_model, d_model)
            self.W_o = nn.Linear(d_model, d_model)

        def forward(self, x, mask=None):
            """x: (B, S, D); mask: None or (S, S) bool, True = blocked. Returns (B, S, D)."""
            B, S, D = x.shape
            h, d_k = self.num_heads, self.d_k
            # project, then split into heads: (B, S, D) -> (B, h, S, d_k)
            q = self.W_q(x).view(B, S, h, d_k).transpose(1, 2)
            k = self.W_k(x).view(B, S, h, d_k).transpose(1, 2)
            v = self.W_v(x).view(B, S, h, d_k).transpose(1, 2)
            scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B, h, S, S)
            if mask is not None:
                scores = scores.masked_fill(mask, float("-inf"))
            weights = torch.softmax(scores, dim=-1)  # (B, h, S, S)
            out = (weights @ v).transpose(1, 2).contiguous().view(B, S, D)  # merge heads
            return self.W_o(out)
    ''')

Q1C_DEMO = src('''
    MHA_STATE_KEYS = [f"{layer}.{kind}" for layer in ("W_q", "W_k", "W_v", "W_o")
                      for kind in ("weight", "bias")]


    def demo_attention_error(name):
        """Largest absolute difference between your layer and ours on one demo case."""
        c = case("MultiHeadAttention", name)
        mha = MultiHeadAttention(c["d_model"], c["num_heads"])
        mha.load_state_dict({key: c[key] for key in MHA_STATE_KEYS})
        mha.eval()
        with torch.no_grad():
            out = mha(c["x"], mask=c["mask"]) if c["masked"] else mha(c["x"])
        return (out - expected("MultiHeadAttention", name)["output"]).abs().max().item()


    print(f"attention output error: {demo_attention_error('self'):.6e}")
    print(f"masked attention output error: {demo_attention_error('masked'):.6e}")
    ''')

# ----------------------------------------------------------------------------------------
# Q1(d)

Q1D_TEXT = src("""
    ### Q1(d) Sinusoidal positional encoding [6 points]

    Complete `class PositionalEncoding(nn.Module)`. `__init__(self, d_model, dropout=0.1,
    max_len=5000)` builds the `(max_len, d_model)` table from the formula in the
    conventions and registers it as a buffer named `pe` (`self.register_buffer("pe", ...)`),
    and keeps an `nn.Dropout(dropout)`. `forward(x)` takes batch-first `x` (`(B, S, D)`)
    and returns `dropout(x + pe[:S])`, of the same shape.

    The demo cell prints the largest absolute difference from our output in `eval()`
    mode. A correct table gives well under `1e-5`; the handout asks for at most `1e-3`.
    """)

Q1D_TEMPLATE = src('''
    class PositionalEncoding(nn.Module):
        """Adds the sinusoidal position table to a batch-first input, then dropout."""

        def __init__(self, d_model, dropout=0.1, max_len=5000):
            super().__init__()
            # YOUR CODE HERE
            # TODO: keep an nn.Dropout(p=dropout)
            # TODO: build the (max_len, d_model) table: sin in even columns, cos in odd ones
            # TODO: register it as a buffer named "pe"

        def forward(self, x):
            """x: (B, S, D). Returns dropout(x + pe[:S]), shape (B, S, D)."""
            # YOUR CODE HERE
            raise NotImplementedError("Q1(d): complete PositionalEncoding.forward")
    ''')

Q1D_SOLUTION = src('''
    class PositionalEncoding(nn.Module):
        """Adds the sinusoidal position table to a batch-first input, then dropout."""

        def __init__(self, d_model, dropout=0.1, max_len=5000):
            super().__init__()
            self.dropout = nn.Dropout(p=dropout)
            position = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)  # (max_len, 1)
            div_term = torch.exp(
                torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model)
            )  # (d_model / 2,): 1 / 10000^(2i / d_model)
            pe = torch.zeros(max_len, d_model)
            pe[:, 0::2] = torch.sin(position * div_term)
            pe[:, 1::2] = torch.cos(position * div_term)
            self.register_buffer("pe", pe)  # (max_len, d_model)

        def forward(self, x):
            """x: (B, S, D). Returns dropout(x + pe[:S]), shape (B, S, D)."""
            return self.dropout(x + self.pe[: x.size(1)])  # (S, D) broadcasts over the batch
    ''')

Q1D_DEMO = src("""
    c = case("PositionalEncoding", "demo")
    pos_enc = PositionalEncoding(c["d_model"], dropout=0.1, max_len=c["max_len"])
    pos_enc.eval()  # dropout off, so the output is deterministic
    with torch.no_grad():
        pe_output = pos_enc(c["x"])
    err = (pe_output - expected("PositionalEncoding", "demo")["output"]).abs().max().item()
    print(f"pe_output error: {err:.6e}")
    """)

# ----------------------------------------------------------------------------------------
# Part 2: fine-tuning for news classification

PART2_TEXT = src(r"""
    ## Part 2: fine-tuning a pre-trained Transformer (Q2, 40 points)

    You fine-tune `DistilBertForSequenceClassification` to tell the topic of a news item
    (0 World, 1 Sports, 2 Business, 3 Sci/Tech), test it on a few generated news items,
    then fine-tune a second pre-trained model of another architecture and compare.

    | Question | What you write | Points |
    |---|---|---|
    | Q2(a) | tokenise the data, set it to torch format, print the first 3 training samples | 12 |
    | Q2(b) | DataLoaders, the DistilBERT model with 4 labels, the training loop; print train and test accuracy per epoch | 12 |
    | Q2(c) | predict and print a label for every generated news item | 8 |
    | Q2(d) | a second model of another architecture: fine-tune, print accuracies per epoch | 8 |

    ### How Part 2 is marked

    The grader runs your notebook, then gives your fine-tuned models news items they
    have never seen (a hidden test split) and measures their accuracy itself; Q2(b)
    and Q2(d) need at least 85 % there for full credit. Printed accuracies are compared
    with that measurement, so print what your code really computed. Please:

    - keep the names `tokenizer`, `train_dataset`, `test_dataset` and `model` (Q2(a)-(c))
      and `tokenizer2`, `model2` (Q2(d)); the grader finds your models by these names;
    - do not shuffle or reorder `train_dataset` itself (shuffle in the DataLoader), so its
      first three samples are the file's first three;
    - print one line per epoch that says which accuracy is which, for example
      `Epoch 2: train accuracy 0.9312, test accuracy 0.9050`;
    - keep the `QUICK` switch: `grader check` sets `GRADER_QUICK=1` so that a self-check
      on a laptop trains on a small subset for one epoch (accuracy is then not marked).

    Models load with `from_pretrained("distilbert-base-uncased")` as usual; the grader
    provides them offline, so do not pass a local path or download anything yourself.
    """)

PART2_SETUP = src("""
    import os
    import time

    from datasets import load_dataset
    from torch.utils.data import DataLoader
    from transformers import DistilBertForSequenceClassification, DistilBertTokenizerFast

    QUICK = os.environ.get("GRADER_QUICK") == "1"  # set by `grader check`: a short run
    LABELS = ["World", "Sports", "Business", "Sci/Tech"]
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.manual_seed(0)

    raw_datasets = load_dataset(
        "json", data_files={"train": "ag_news_train.jsonl", "test": "ag_news_test.jsonl"}
    )
    if QUICK:
        raw_datasets["train"] = raw_datasets["train"].select(range(400))
        raw_datasets["test"] = raw_datasets["test"].select(range(200))
    print(raw_datasets)
    """)

Q2A_TEMPLATE = src("""
    tokenizer = DistilBertTokenizerFast.from_pretrained("distilbert-base-uncased")

    # YOUR CODE HERE: tokenise the "text" of raw_datasets (truncate and pad), keep
    # input_ids, attention_mask and the labels, set the format to "torch", name the
    # splits train_dataset and test_dataset, and print the first 3 training samples.
    train_dataset = None
    test_dataset = None
    raise NotImplementedError
    """)

Q2A_SOLUTION = src("""
    tokenizer = DistilBertTokenizerFast.from_pretrained("distilbert-base-uncased")


    def tokenize(batch):
        return tokenizer(batch["text"], truncation=True, padding="max_length", max_length=64)


    tokenized = raw_datasets.map(tokenize, batched=True).rename_column("label", "labels")
    tokenized.set_format("torch", columns=["input_ids", "attention_mask", "labels"])
    train_dataset, test_dataset = tokenized["train"], tokenized["test"]
    for i in range(3):
        print(train_dataset[i])
    """)

Q2B_TEMPLATE = src("""
    # YOUR CODE HERE: DataLoaders for train_dataset and test_dataset, then
    # model = DistilBertForSequenceClassification.from_pretrained(..., num_labels=4),
    # then train it, printing the train and test accuracy after each epoch.
    model = None
    raise NotImplementedError
    """)

Q2B_SOLUTION = src('''
    def accuracy(net, loader):
        """Share of correct predictions of `net` over a DataLoader."""
        net.eval()
        correct = total = 0
        with torch.no_grad():
            for batch in loader:
                batch = {k: v.to(device) for k, v in batch.items()}
                logits = net(input_ids=batch["input_ids"],
                             attention_mask=batch["attention_mask"]).logits
                correct += (logits.argmax(-1) == batch["labels"]).sum().item()
                total += len(batch["labels"])
        return correct / total


    def fine_tune(net, train_loader, test_loader, epochs, lr):
        """AdamW over all weights; prints both accuracies per epoch; returns seconds."""
        optimizer = torch.optim.AdamW(net.parameters(), lr=lr)
        start = time.perf_counter()
        for epoch in range(epochs):
            net.train()
            for batch in train_loader:
                batch = {k: v.to(device) for k, v in batch.items()}
                loss = net(**batch).loss
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            train_acc, test_acc = accuracy(net, train_loader), accuracy(net, test_loader)
            print(f"Epoch {epoch + 1}: train accuracy {train_acc:.4f}, "
                  f"test accuracy {test_acc:.4f}")
        return time.perf_counter() - start


    train_loader = DataLoader(train_dataset, batch_size=32, shuffle=True)
    test_loader = DataLoader(test_dataset, batch_size=64)
    model = DistilBertForSequenceClassification.from_pretrained(
        "distilbert-base-uncased", num_labels=4
    ).to(device)
    seconds = fine_tune(model, train_loader, test_loader, epochs=1 if QUICK else 2, lr=5e-4)
    print(f"DistilBERT: {seconds:.1f} s of training")
    ''')

Q2C_TEMPLATE = src("""
    generated = load_dataset("json", data_files="generated_news.jsonl")["train"]

    # YOUR CODE HERE: predict a label with `model` for every text of `generated`, and
    # print one line per item with its label name, e.g. "3 Sci/Tech: <the text>".
    raise NotImplementedError
    """)

Q2C_SOLUTION = src("""
    generated = load_dataset("json", data_files="generated_news.jsonl")["train"]

    texts = list(generated["text"])
    model.eval()
    with torch.no_grad():
        enc = tokenizer(texts, truncation=True, padding=True, max_length=64,
                        return_tensors="pt").to(device)
        predictions = model(**enc).logits.argmax(-1).tolist()
    for text, label in zip(texts, predictions, strict=True):
        print(f"{label} {LABELS[label]}: {text}")
    """)

Q2D_TEMPLATE = src("""
    # YOUR CODE HERE: pick another pre-trained model of a different architecture (for
    # instance RobertaTokenizerFast and RobertaForSequenceClassification from
    # "roberta-base"), name them tokenizer2 and model2, fine-tune with 4 labels and
    # print the train and test accuracy after each epoch.
    tokenizer2 = None
    model2 = None
    raise NotImplementedError
    """)

Q2D_SOLUTION = src("""
    from transformers import RobertaForSequenceClassification, RobertaTokenizerFast

    tokenizer2 = RobertaTokenizerFast.from_pretrained("roberta-base")


    def tokenize2(batch):
        return tokenizer2(batch["text"], truncation=True, padding="max_length", max_length=64)


    tokenized2 = raw_datasets.map(tokenize2, batched=True).rename_column("label", "labels")
    tokenized2.set_format("torch", columns=["input_ids", "attention_mask", "labels"])
    train_loader2 = DataLoader(tokenized2["train"], batch_size=32, shuffle=True)
    test_loader2 = DataLoader(tokenized2["test"], batch_size=64)
    model2 = RobertaForSequenceClassification.from_pretrained("roberta-base", num_labels=4)
    model2 = model2.to(device)
    seconds2 = fine_tune(model2, train_loader2, test_loader2, epochs=1 if QUICK else 2, lr=5e-4)
    print(f"RoBERTa: {seconds2:.1f} s of training")
    """)

PART2_CELLS = (
    Cell("markdown", "part2-text", PART2_TEXT),
    Cell("code", "part2-setup", PART2_SETUP, tag="part2-setup"),
    Cell("code", "q2a", Q2A_TEMPLATE, Q2A_SOLUTION, tag="q2a"),
    Cell("code", "q2b", Q2B_TEMPLATE, Q2B_SOLUTION, tag="q2b"),
    Cell("code", "q2c", Q2C_TEMPLATE, Q2C_SOLUTION, tag="q2c"),
    Cell("code", "q2d", Q2D_TEMPLATE, Q2D_SOLUTION, tag="q2d"),
)


# ----------------------------------------------------------------------------------------
# Part 3: written answers, one Markdown cell per sub-question, tagged with its id. The
# grader reads the `Answer:` line (one value, with its unit; working may follow below it)
# and, for the explanations, the whole cell. A report handed in beside the notebook is
# read too, for the same questions (docs/answers.md).

PART3_TEXT = src("""
    ## Part 3: Transformer pre-training and fine-tuning analysis (30 points)

    "Project Aether": a GPT-style decoder-only model with L = 48 layers, hidden size
    H = 6144, h = 48 heads (H/h = 128) and context length S_max = 16,384.

    Answer each sub-question **in its own cell below** (double-click to edit). For a
    numeric answer, write **one value on the `Answer:` line**, with its unit where the
    question asks for one (for example `Answer: 1.5 GB` or `Answer: 3,000,000`); put any
    working on the lines after it. Keep the cells and their tags (`q3a1`, `q3c`, ...). The
    same answers may also be given in your PDF report; the notebook's `Answer:` line wins.
    """)


def answer_cell(qid: str, question: str, template: str, solution: str) -> Cell:
    """A tagged Markdown answer cell: the question, then `Answer:` (blank in the template)."""
    head = f"**{question}**\n\n"
    return Cell("markdown", qid, head + template, head + solution, tag=qid)


PART3_CELLS = (
    Cell("markdown", "part3-text", PART3_TEXT),
    answer_cell("q3a1", "Q3(a)(I) The objective of language-model pre-training (explain).",
                "Answer: ", "Answer: predict each next token from the tokens before it, "
                "maximising the likelihood of the text (minimising the cross-entropy of the "
                "true next token), with no labels beyond the text itself."),
    answer_cell("q3a2", "Q3(a)(II) Probability of \"mat\" and the cross-entropy loss.",
                "p(mat): \n\nLoss: ",
                "p(mat): 0.7500\n\nLoss: 0.2876\n\nsoftmax of the logits at index 2, "
                "then -ln p."),
    answer_cell("q3b", "Q3(b) Decoder-only versus encoder-only and encoder-decoder (comment).",
                "Answer: ", "Answer: a decoder-only model generates text naturally and "
                "scales simply (one stack, causal attention); it sees only left context, so "
                "an encoder-only model (bidirectional) suits understanding tasks better, and "
                "an encoder-decoder suits input-to-output tasks such as translation."),
    answer_cell("q3c", "Q3(c) Memory of the attention scores QK^T, one layer, all 48 heads, "
                "fp16 (in GB).", "Answer: ",
                "Answer: 25.77 GB\n\n48 × 16384² × 2 bytes = 25,769,803,776 bytes."),
    answer_cell("q3d", "Q3(d) FFN parameters across all 48 layers (in billions).", "Answer: ",
                "Answer: 14.50 billion\n\n48 × (2 × 6144 × 24576 + 24576 + 6144) "
                "= 14,496,989,184."),
    answer_cell("q3e1", "Q3(e)(I) Trainable LoRA parameters (W_Q and W_V, r = 8, 48 layers).",
                "Answer: ", "Answer: 9,437,184\n\n48 × 2 × 8 × (6144 + 6144)."),
    answer_cell("q3e2", "Q3(e)(II) Adam optimizer-state memory of the LoRA parameters.",
                "Answer: ", "Answer: 75.50 MB\n\n9,437,184 × 8 bytes = 75,497,472 bytes."),
    answer_cell("q3e3", "Q3(e)(III) LoRA optimizer memory as a fraction of the FFN's.",
                "Answer: ", "Answer: 0.065 %\n\n75.5 MB / 115.98 GB, about 1/1536."),
)


CELLS = (
    Cell("markdown", "intro", INTRO),
    Cell("code", "imports", IMPORTS, tag="imports"),
    Cell("markdown", "demo-data-intro", DEMO_DATA_INTRO),
    Cell("code", "demo-data", DEMO_DATA, tag="demo-data"),
    Cell("markdown", "q1a-text", Q1A_TEXT),
    Cell("code", "q1a", Q1A_TEMPLATE, Q1A_SOLUTION, tag="q1a"),
    Cell("code", "demo-q1a", Q1A_DEMO, tag="demo-q1a"),
    Cell("markdown", "q1b-text", Q1B_TEXT),
    Cell("code", "q1b", Q1B_TEMPLATE, Q1B_SOLUTION, tag="q1b"),
    Cell("code", "demo-q1b", Q1B_DEMO, tag="demo-q1b"),
    Cell("markdown", "q1c-text", Q1C_TEXT),
    Cell("code", "q1c", Q1C_TEMPLATE, Q1C_SOLUTION, tag="q1c"),
    Cell("code", "demo-q1c", Q1C_DEMO, tag="demo-q1c"),
    Cell("markdown", "q1d-text", Q1D_TEXT),
    Cell("code", "q1d", Q1D_TEMPLATE, Q1D_SOLUTION, tag="q1d"),
    Cell("code", "demo-q1d", Q1D_DEMO, tag="demo-q1d"),
    *PART2_CELLS,
    *PART3_CELLS,
)


# ----------------------------------------------------------------------------------------
# Building and checking


def build(solution: bool) -> NotebookNode:
    """The template (solution=False) or the solution notebook, without outputs."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    for cell in CELLS:
        text = cell.solution if solution and cell.solution is not None else cell.source
        metadata = {"tags": [cell.tag]} if cell.tag else {}
        if cell.kind == "markdown":
            node = nbformat.v4.new_markdown_cell(text, id=cell.id, metadata=metadata)
        else:
            node = nbformat.v4.new_code_cell(text, id=cell.id, metadata=metadata)
        nb.cells.append(node)
    nbformat.validate(nb)
    return nb


def write_notebooks() -> None:
    for folder, solution in (("template", False), ("solution", True)):
        path = PACK / folder / NOTEBOOK_NAME
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(build(solution), path)
        print(f"wrote {path.relative_to(PACK.parent.parent)}")


def _reference_lines() -> dict[str, float | tuple[int, ...]]:
    """What each printed label should show, from the reference on the demo cases."""
    path = PACK / "private" / "reference.py"
    spec = importlib.util.spec_from_file_location("stat8021_a3_reference", path)
    assert spec is not None and spec.loader is not None
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    cases = {(t, c["name"]): c for t, cs in ref.demo_cases().items() for c in cs}
    q = ref.run_get_multihead_qkv(cases["get_multihead_qkv", "demo"])["q"]
    attention = "calculate_multihead_attention"
    self_attn = ref.run_calculate_multihead_attention(cases[attention, "self"])
    masked = ref.run_calculate_multihead_attention(cases[attention, "masked"])
    return {
        "q shape": tuple(q.shape),
        "q L2 norm": q.norm().item(),
        "attention weights shape": tuple(self_attn["weights"].shape),
        "self_attn_output L2 norm": self_attn["output"].norm().item(),
        "masked_self_attn_output L2 norm": masked["output"].norm().item(),
        "attention output error": 0.0,
        "masked attention output error": 0.0,
        "pe_output error": 0.0,
    }


def check_solution(tolerance: float = 1e-5) -> int:
    """Run the solution notebook in a scratch folder; compare each printed line."""
    from nbclient import NotebookClient  # only needed here

    want = _reference_lines()
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(DEMO_FILE, Path(tmp) / DEMO_FILE.name)
        nb = build(solution=True)
        client = NotebookClient(
            nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": tmp}}
        )
        client.execute()
    printed = "".join(
        out.get("text", "") for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
    )
    got = dict(re.findall(r"^([^:\n]+): (.+)$", printed, flags=re.MULTILINE))
    failures = 0
    for label, value in want.items():
        text = got.get(label)
        if isinstance(value, tuple):
            ok = text == str(value)
        else:
            ok = text is not None and math.isclose(float(text), value, abs_tol=tolerance)
        failures += not ok
        print(f"{'ok ' if ok else 'BAD'} {label}: printed {text}, reference {value}")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="also execute the solution")
    args = parser.parse_args(argv)
    write_notebooks()
    return check_solution() if args.check else 0


if __name__ == "__main__":
    sys.exit(main())
