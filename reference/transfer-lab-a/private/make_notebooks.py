"""Build transfer lab A's template and solution notebooks and its small public corpus.

Why generated: both notebooks share every cell but the student's code, so they cannot
drift apart; the corpus is made from a fixed seed, so it is the same on every machine.

    python reference/transfer-lab-a/private/make_notebooks.py

The code part is the PyTorch tutorial model at tiny sizes (so CI runs it in seconds):
pre-train it as a language model on the corpus, fine-tune it for 2-class sentiment,
and compare with the same classifier trained from scratch (Q4). Q3's counts are
printed for the lab's real configuration (ntoken 50001, nhid 200, 4 layers): building
that model is instant, only training is kept tiny.
"""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import nbformat

PACK = Path(__file__).resolve().parents[1]
NOTEBOOK = "transfer_lab_a.ipynb"


def src(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


def corpus(n: int = 400, seed: int = 0) -> list[dict[str, object]]:
    """Short film reviews, half positive: enough words for a tiny LM and an easy task."""
    rng = random.Random(seed)
    good = ["great", "wonderful", "moving", "funny", "brilliant", "charming"]
    bad = ["boring", "awful", "dull", "clumsy", "tedious", "weak"]
    things = ["film", "story", "cast", "script", "ending", "music"]
    rows = []
    for i in range(n):
        label = i % 2
        word = rng.choice(good if label else bad)
        rows.append({"text": f"the {rng.choice(things)} was {word} and the {rng.choice(things)} "
                             f"was {rng.choice(good if label else bad)}", "label": label})
    rng.shuffle(rows)
    return rows


SETUP = src('''
    import json
    import math

    import torch
    from torch import nn

    torch.manual_seed(0)
    with open("reviews.jsonl") as fh:
        rows = [json.loads(line) for line in fh]
    vocab = sorted({w for r in rows for w in r["text"].split()})
    stoi = {w: i for i, w in enumerate(vocab)}
    encoded = [(torch.tensor([stoi[w] for w in r["text"].split()]), r["label"]) for r in rows]
    train, valid = encoded[:320], encoded[320:]
    print(f"{len(vocab)} words, {len(train)} training and {len(valid)} validation reviews")
    ''')

MODEL = src('''
    class PositionalEncoding(nn.Module):
        def __init__(self, d_model, max_len=512):
            super().__init__()
            pos = torch.arange(max_len).unsqueeze(1)
            div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
            pe = torch.zeros(max_len, 1, d_model)
            pe[:, 0, 0::2] = torch.sin(pos * div)
            pe[:, 0, 1::2] = torch.cos(pos * div)
            self.register_buffer("pe", pe)

        def forward(self, x):
            return x + self.pe[: x.size(0)]


    class TransformerModel(nn.Module):
        """The tutorial model: embedding, sinusoidal positions, encoder, a linear head."""

        def __init__(self, ntoken, nhead, nhid, nlayers, nout, dropout=0.0):
            super().__init__()
            self.embedding = nn.Embedding(ntoken, nhid)
            self.pos_encoder = PositionalEncoding(nhid)
            layer = nn.TransformerEncoderLayer(nhid, nhead, nhid, dropout)
            self.transformer_encoder = nn.TransformerEncoder(layer, nlayers)
            self.linear = nn.Linear(nhid, nout)
            self.nhid = nhid

        def forward(self, src, mask=None):  # src: (S, B)
            x = self.pos_encoder(self.embedding(src) * math.sqrt(self.nhid))
            return self.linear(self.transformer_encoder(x, mask))
    ''')

Q3_TEMPLATE = src('''
    # Q3: build the LM model and the classification model with the lab's configuration
    # (ntoken = 50001, nhid = 200, nhead = 2, nlayers = 4, nclasses = 2) and print
    #   LM model trainable parameters: <number>
    #   Classification model trainable parameters: <number>
    # TODO
    raise NotImplementedError("Q3: count the trainable parameters")
    ''')

Q3_SOLUTION = src('''
    def trainable(model):
        return sum(p.numel() for p in model.parameters() if p.requires_grad)


    lm_model = TransformerModel(50001, 2, 200, 4, nout=50001)
    cls_model = TransformerModel(50001, 2, 200, 4, nout=2)
    print(f"LM model trainable parameters: {trainable(lm_model)}")
    print(f"Classification model trainable parameters: {trainable(cls_model)}")
    del lm_model, cls_model
    ''')

Q4_TEMPLATE = src('''
    # Q4: pre-train a tiny model (nhid 32, 2 layers) as a language model on the training
    # reviews, replace its head by a 2-class one and fine-tune it; train the same classifier
    # from scratch; print per epoch
    #   epoch k: pretrained val accuracy 0.xx, scratch val accuracy 0.xx
    # TODO
    raise NotImplementedError("Q4: pre-train, fine-tune, compare")
    ''')

Q4_SOLUTION = src('''
    def causal_mask(S):
        return torch.triu(torch.full((S, S), float("-inf")), diagonal=1)


    def pretrain(model, epochs=3):
        opt = torch.optim.Adam(model.parameters(), lr=3e-3)
        for _ in range(epochs):
            for ids, _label in train:
                x, y = ids[:-1].unsqueeze(1), ids[1:]
                logits = model(x, causal_mask(len(x))).squeeze(1)
                loss = nn.functional.cross_entropy(logits, y)
                opt.zero_grad()
                loss.backward()
                opt.step()


    def accuracy(model, data):
        with torch.no_grad():
            hits = sum(int(model(ids.unsqueeze(1)).mean(0).argmax()) == label for ids, label in data)
        return hits / len(data)


    def fine_tune(model, epochs):
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        series = []
        for _ in range(epochs):
            for ids, label in train:
                logits = model(ids.unsqueeze(1)).mean(0)
                loss = nn.functional.cross_entropy(logits, torch.tensor([label]))
                opt.zero_grad()
                loss.backward()
                opt.step()
            series.append(accuracy(model, valid))
        return series


    EPOCHS = 3
    pretrained = TransformerModel(len(vocab), 2, 32, 2, nout=len(vocab))
    pretrain(pretrained)
    pretrained.linear = nn.Linear(32, 2)  # the classification head replaces the LM head
    scratch = TransformerModel(len(vocab), 2, 32, 2, nout=2)
    ours, theirs = fine_tune(pretrained, EPOCHS), fine_tune(scratch, EPOCHS)
    for k, (a, b) in enumerate(zip(ours, theirs, strict=True), start=1):
        print(f"epoch {k}: pretrained val accuracy {a:.3f}, scratch val accuracy {b:.3f}")
    ''')


Q4_CLAIM_TEMPLATE = (
    "**Q4, in one sentence:** compare the two curves printed above (which model reaches "
    "the higher validation accuracy, or neither). The grader holds this sentence, or the "
    "same one in your report's Question 4, against the printed numbers.")
Q4_CLAIM_SOLUTION = (
    "**Q4, in one sentence:** both models reach the same validation accuracy here (1.000 "
    "from the first epoch): this tiny corpus is too easy for pre-training to show, unlike "
    "the lab's full dataset.")


def markdown(qid: str, text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(text, id=qid, metadata={"tags": [qid]})


def build(solution: bool) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python",
                                  "name": "python3"}, "language_info": {"name": "python"}}
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "# Transfer lab A: pre-train a small Transformer LM, then fine-tune it\n\n"
            "Answer Q1, Q2 and Q5 in your report (or in the tagged cells below); Q3 and Q4 "
            "are answered by the code cells' printed lines and in your report.",
            id="intro"),
        nbformat.v4.new_code_cell(SETUP, id="setup", metadata={"tags": ["setup"]}),
        nbformat.v4.new_code_cell(MODEL, id="model", metadata={"tags": ["model"]}),
        nbformat.v4.new_code_cell(Q3_SOLUTION if solution else Q3_TEMPLATE, id="q3",
                                  metadata={"tags": ["q3"]}),
        nbformat.v4.new_code_cell(Q4_SOLUTION if solution else Q4_TEMPLATE, id="q4",
                                  metadata={"tags": ["q4"]}),
        markdown("q4a", Q4_CLAIM_SOLUTION if solution else Q4_CLAIM_TEMPLATE),
    ]
    nbformat.validate(nb)
    return nb


def main() -> int:
    public = PACK / "public" / "reviews.jsonl"
    public.write_text("".join(json.dumps(r) + "\n" for r in corpus()), encoding="utf-8")
    for folder, solution in (("template", False), ("solution", True)):
        path = PACK / folder / NOTEBOOK
        nbformat.write(build(solution), path)
        print(f"wrote {path.relative_to(PACK.parents[1])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
