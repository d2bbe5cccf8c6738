"""Build the Homework 4 sample submissions (folders, as students hand them in) and their manifest.

Why generated: each sample is the pack's solution or starter folder (notebook plus
`dl4nlp/`) with one realistic defect in the student's module, so it tests one thing.
Every edit is an exact replacement that must match once, so a change to the pack that
would silently leave a sample correct fails here instead. The expected scores are
written here, from the defect and the rubric, before any grading; `expected.toml` and
README.md are generated from the same table, and tests/grader/test_second_pack.py grades
the folders against `expected.toml`.

    python submissions/attention-module-hw/make_samples.py
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACK = HERE.parents[1] / "reference" / "attention-module-hw"
MODULE = Path("dl4nlp") / "transformer_layers.py"
NOTEBOOK = "Attention_Module.ipynb"
POINTS = {"mha": 12, "pe": 6, "memory": 2}
PE_VALUES, PE_HALF = 2, 1  # the weights of Part 2's two checks (pack.toml)


@dataclass(frozen=True)
class Sample:
    name: str
    base: str  # "solution" or "template": the pack folder the sample is copied from
    what: str  # one line for the manifest
    scores: dict[str, float]  # expected score per question, written before grading
    edits: tuple[tuple[str, str], ...] = field(default=())  # (old, new) in the module
    notebook_edits: tuple[tuple[str, str], ...] = field(default=())  # (old, new) in the notebook

    def build(self) -> None:
        out = HERE / self.name
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(PACK / self.base, out)
        for path, edits in ((MODULE, self.edits), (Path(NOTEBOOK), self.notebook_edits)):
            (out / path).write_text(edited(self.name, (out / path).read_text(), edits))


def edited(name: str, text: str, edits: tuple[tuple[str, str], ...]) -> str:
    """`text` with each (old, new) applied; `old` must occur exactly once."""
    for old, new in edits:
        count = text.count(old)
        assert count == 1, f"{name}: expected 1 match, found {count}: {old!r}"
        text = text.replace(old, new)
    return text


FULL = dict(POINTS)
MHA_LOST = {**FULL, "mha": 0}

SAMPLES = [
    Sample("correct", "solution", "The solution as a student hands it in.", FULL),
    Sample(
        "wrong-values-from-key", "solution",
        "Projects the values from `key`: right whenever key is value (self-attention), "
        "wrong in cross-attention.",
        MHA_LOST,
        (('rearrange(self.v_proj(value), "n t (h d) -> n h t d", h=H)',
          'rearrange(self.v_proj(key), "n t (h d) -> n h t d", h=H)'),),
    ),
    Sample(
        "wrong-plus-inf", "solution",
        "Fills blocked scores of bool and 0/1 masks with +inf: the softmax gives NaN; "
        "unmasked and additive cases still match.",
        MHA_LOST,
        (('scores.masked_fill(~attn_mask, float("-inf"))',
          'scores.masked_fill(~attn_mask, float("inf"))'),
         ('scores.masked_fill(attn_mask == 0, float("-inf"))',
          'scores.masked_fill(attn_mask == 0, float("inf"))')),
    ),
    Sample(
        "wrong-mask-square-only", "solution",
        "Reshapes the mask to (1, 1, S, S): right when S == T, raises when the query and "
        "key lengths differ.",
        MHA_LOST,
        (("        if attn_mask is not None:\n",
          "        if attn_mask is not None:\n"
          "            attn_mask = attn_mask.reshape(1, 1, S, S)  # broadcast over N and H\n"),),
    ),
    Sample(
        "wrong-tilde-float-mask", "solution",
        "Handles additive masks, but blocks with `~attn_mask` for 0/1 float masks too: "
        "`~` on a float tensor raises; bool masks still match.",
        MHA_LOST,
        (('            if attn_mask.dtype == torch.bool:\n'
          '                scores = scores.masked_fill(~attn_mask, float("-inf"))  # False = blocked\n'
          '            elif (attn_mask < 0).any():\n'
          '                scores = scores + attn_mask  # additive: -inf = blocked\n'
          '            else:\n'
          '                scores = scores.masked_fill(attn_mask == 0, float("-inf"))  # 0 = blocked\n',
          '            if attn_mask.dtype != torch.bool and (attn_mask < 0).any():\n'
          '                scores = scores + attn_mask  # additive: -inf = blocked\n'
          '            else:\n'
          '                scores = scores.masked_fill(~attn_mask, float("-inf"))  # 0 = blocked\n'),),
    ),
    Sample(
        "wrong-pe-plain-attribute", "solution",
        "Keeps the positional table as a plain tensor attribute (`self.pe = pe`), not a "
        "buffer: values right, but `.half()` (or `.cuda()`) leaves it behind, so the "
        "float16 output comes back float32.",
        {**FULL, "pe": POINTS["pe"] * PE_VALUES / (PE_VALUES + PE_HALF)},
        (('self.register_buffer("pe", pe)  # a buffer: it follows .to(), .half() and .cuda()',
          "self.pe = pe  # (max_len, E)"),),
    ),
    Sample(
        "wrong-uses-sdpa", "solution",
        "Calls `F.scaled_dot_product_attention` (0/1 masks turned to bool first): every "
        "output right, but the starter asks for the attention written out; the static "
        "gate reads the module and zeroes Part 1.",
        MHA_LOST,
        (("import math\n\nimport torch\n",
          "import math\n\nimport torch\nimport torch.nn.functional as F\n"),
         ('        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)  # (N, H, S, T)\n'
          '        if attn_mask is not None:\n'
          '            if attn_mask.dtype == torch.bool:\n'
          '                scores = scores.masked_fill(~attn_mask, float("-inf"))  # False = blocked\n'
          '            elif (attn_mask < 0).any():\n'
          '                scores = scores + attn_mask  # additive: -inf = blocked\n'
          '            else:\n'
          '                scores = scores.masked_fill(attn_mask == 0, float("-inf"))  # 0 = blocked\n'
          '        weights = self.attn_drop(torch.softmax(scores, dim=-1))  # (N, H, S, T)\n'
          '        output = self.out_proj(rearrange(weights @ v, "n h s d -> n s (h d)"))  # (N, S, E)\n',
          '        if attn_mask is not None and attn_mask.dtype != torch.bool and (attn_mask >= 0).all():\n'
          '            attn_mask = attn_mask.bool()  # 0/1 -> True = may attend, as SDPA reads it\n'
          '        drop = self.attn_drop.p if self.training else 0.0\n'
          '        y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, dropout_p=drop)\n'
          '        output = self.out_proj(rearrange(y, "n h s d -> n s (h d)"))  # (N, S, E)\n'),),
    ),
    Sample(
        "wrong-memory-square", "solution",
        "Part 3 answered with S x S weights per head (0.26 MB): the convention is named, "
        "no credit.",
        {**FULL, "memory": 0},
        notebook_edits=(("Answer: 3.21 MB", "Answer: 0.26 MB"),
                        ("32 x 8 x 16 x 196 x 4 bytes = 3,211,264 bytes",
                         "32 x 8 x 16 x 16 x 4 bytes = 262,144 bytes")),
    ),
    Sample("unfilled", "template", "The starter folder as handed out.",
           dict.fromkeys(POINTS, 0)),
    Sample(
        "broken-syntax", "solution",
        "A syntax error in the module (a missing colon): the notebook's import fails, so "
        "neither class exists; Part 3's written answer still counts.",
        {"mha": 0, "pe": 0, "memory": POINTS["memory"]},
        (("    def forward(self, x):\n", "    def forward(self, x)\n"),),
    ),
]


def manifest() -> tuple[str, str]:
    """(expected.toml, README.md), both from SAMPLES."""
    toml = ["# Expected scores, written before grading (make_samples.py); total 20.", ""]
    rows = []
    for s in SAMPLES:
        total = sum(s.scores.values())
        toml += [f'[{s.name}]', f"score = {total:g}",
                 "questions = { " + ", ".join(f"{q} = {v:g}" for q, v in s.scores.items())
                 + " }", ""]
        rows.append(f"| `{s.name}/` | {s.base} | {s.what} | {total:g} |")
    readme = "\n".join([
        "# Sample submissions: DL4NLP Homework 4 (`reference/attention-module-hw/`)",
        "",
        "Each sample is a folder as a student hands it in: `Attention_Module.ipynb` and the",
        "`dl4nlp/` package beside it, where the student's code is. Each is the pack's",
        "solution or starter folder with one defect (in `dl4nlp/transformer_layers.py`, or",
        "in the notebook's written answer for `wrong-memory-square`), built",
        "by `make_samples.py`; do not edit them by hand, change the script and run it again:",
        "",
        "    python submissions/attention-module-hw/make_samples.py",
        "",
        "Scores are out of 20 (Part 1 `mha` 12, Part 2 `pe` 6: its float32 values weigh 2,",
        "the float16 check 1; Part 3 `memory` 2, a written answer in the notebook) and were",
        "written before grading; `expected.toml` holds the",
        "same figures per question for tests/grader/test_second_pack.py. Grade them all with",
        "",
        "    grader grade submissions/attention-module-hw -a attention-module-hw --out OUT",
        "",
        "| Folder | Built from | What it does | Score /20 |",
        "|---|---|---|---|",
        *rows,
        "",
        "## What the hidden cases catch",
        "",
        "- `wrong-values-from-key` matches the self-attention case (key is value) and",
        "  fails every cross-attention case.",
        "- `wrong-plus-inf` matches the unmasked and the additive-mask cases, and the 1x1",
        "  case (it blocks nothing); every other bool or 0/1 float case has NaN rows.",
        "- `wrong-mask-square-only` matches the unmasked cases and the masked ones with",
        "  S == T (the causal 6x6, the 1x1); it raises on every masked case with S != T.",
        "- `wrong-tilde-float-mask` matches bool and additive cases and raises on 0/1",
        "  float masks.",
        "- `wrong-pe-plain-attribute` matches every float32 case of Part 2; only the",
        "  `.half()` cases see the table left behind.",
        "- `wrong-uses-sdpa` matches every case: only the static gate, which reads",
        "  `dl4nlp/transformer_layers.py` (and the operators the probe saw run), finds it.",
        "",
    ])
    return "\n".join(toml), readme


def main() -> int:
    for sample in SAMPLES:
        sample.build()
    toml, readme = manifest()
    (HERE / "expected.toml").write_text(toml)
    (HERE / "README.md").write_text(readme)
    print(f"wrote {len(SAMPLES)} sample folders, expected.toml and README.md in {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
