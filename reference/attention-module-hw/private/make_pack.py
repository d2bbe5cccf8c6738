"""Write Homework 4's generated files: the notebook, both versions of the module, the demo file.

Why one script: the starter (template) and the solution must differ only in the bodies
students write, and the demo file must match the reference. The module is written here
as a list of pieces, each shared or a (starter, solution) pair; the notebooks differ only
in Part 3's written answer (students write their code in `dl4nlp/transformer_layers.py`,
as in the course's real handout, and the notebook only imports and tests it). Cell ids are fixed,
outputs empty and the safetensors header sorted, so a rebuild is byte-for-byte the same.

    python reference/attention-module-hw/private/make_pack.py
"""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import nbformat
import torch
from safetensors.torch import save

PACK = Path(__file__).resolve().parents[1]
NOTEBOOK = "Attention_Module.ipynb"
MODULE = Path("dl4nlp") / "transformer_layers.py"
DEMO = "attention_demo.safetensors"
DEMO_URL = "https://dl4nlp.example.org/hw4/attention_demo.safetensors"
FORMAT = "grader.cases/1"


def src(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


# ----------------------------------------------------------------------------------------
# The module students write in: shared text, and (starter, solution) pairs

BANNER = "#" * 76
END = BANNER + "\n#" + "END OF YOUR CODE".center(74) + "#\n" + BANNER


def todo(indent: str, text: str, starter: str, solution: str) -> tuple[str, str]:
    """A TODO block: the instructions, then the starter's or the solution's body."""
    head = f"{BANNER}\n" + "\n".join(f"# {line}".rstrip() for line in src(text).splitlines())
    head += f"\n{BANNER}"
    return tuple(  # type: ignore[return-value]
        textwrap.indent(f"{head}\n{src(body)}\n{END}", indent) + "\n"
        for body in (starter, solution))


MODULE_HEAD = '''\
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
'''

MHA_TODO = todo(
    " " * 8,
    """
    TODO: Implement multi-head attention.
     1. Project query, key and value with q_proj, k_proj and v_proj, and split the
        last dimension into heads: (N, S, E) -> (N, H, S, E/H) (einops' rearrange is
        installed: "n s (h d) -> n h s d").
     2. Scores: q @ k^T / sqrt(E/H), of shape (N, H, S, T).
     3. Apply attn_mask, if given, so that blocked pairs get zero weight (any form).
     4. Softmax over the keys, then dropout on the weights (self.attn_drop).
     5. Weighted sum of the values, heads merged back to (N, S, E), then out_proj.
    Write the attention out: nn.MultiheadAttention and F.scaled_dot_product_attention
    are not allowed here.
    """,
    'raise NotImplementedError("MultiHeadAttention.forward")',
    """
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
    """,
)

MHA_TAIL = '''\
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
'''

PE_INIT_TODO = todo(
    " " * 8,
    """
    TODO: Build the (max_len, E) table: for position p and 0 <= 2i < E,
      table[p, 2i] = sin(p / 10000^(2i/E)),  table[p, 2i+1] = cos(p / 10000^(2i/E)).
    Keep it in the module so that it moves with the module: model.to("cuda") and
    model.half() must take it along, and it must not be a learned parameter.
    """,
    "pass",
    """
    position = torch.arange(max_len).unsqueeze(1)  # (max_len, 1)
    div = torch.exp(torch.arange(0, embed_dim, 2) * (-math.log(10000.0) / embed_dim))
    pe = torch.zeros(max_len, embed_dim)  # (max_len, E)
    pe[:, 0::2] = torch.sin(position * div)
    pe[:, 1::2] = torch.cos(position * div)
    self.register_buffer("pe", pe)  # a buffer: it follows .to(), .half() and .cuda()
    """,
)

PE_FORWARD_HEAD = '''
    def forward(self, x):
        """
        Inputs:
         - x: (N, S, E), a batch of embedded sequences, S <= max_len

        Returns:
         - output: (N, S, E), x plus the table's first S rows, then dropout
        """
        N, S, E = x.shape
'''

PE_FORWARD_TODO = todo(
    " " * 8,
    "TODO: Add the positional table to x and apply dropout.",
    'raise NotImplementedError("PositionalEncoding.forward")',
    "output = self.dropout(x + self.pe[:S])  # (N, S, E) + (S, E)",
)

PE_TAIL = """\
        return output
"""


def module_source(which: int) -> str:
    """The module: 0 = the starter handed out, 1 = the solution."""
    parts = [MODULE_HEAD, MHA_TODO[which], MHA_TAIL, PE_INIT_TODO[which], PE_FORWARD_HEAD,
             PE_FORWARD_TODO[which], PE_TAIL]
    return "".join(parts)


INIT = '"""DL4NLP course code: the layers you write live in transformer_layers.py."""\n'


# ----------------------------------------------------------------------------------------
# The notebook: written for Colab, as the course hands it out

INTRO = src(f"""
    # DL4NLP Homework 4: multi-head attention and positional encoding

    In this notebook you test the two layers that the Transformer decoder of this
    homework is built from. **You write them in `dl4nlp/transformer_layers.py`**, not
    here: this notebook imports them (and reloads the file each time you edit it).

    | Part | What you write | Points |
    |---|---|---|
    | 1 | `MultiHeadAttention(embed_dim, num_heads, dropout)`, `forward(query, key, value, attn_mask=None)` | 12 |
    | 2 | `PositionalEncoding(embed_dim, dropout, max_len)` | 6 |
    | 3 | A written answer in this notebook: memory of the attention weights | 2 |

    **How it is marked.** The autograder runs this notebook as you hand it in, with your
    `dl4nlp/` folder beside it, then calls your classes on inputs you have not seen:
    other batch sizes, a query length S different from the key length T, key and value
    that differ, every mask form described in `forward`'s docstring (bool, 0/1 float,
    additive), dropout on and then `eval()`, and the positional encoding moved with
    `.half()`. The numbers printed below are for you only. Hand in the whole folder:
    this notebook and `dl4nlp/`.

    The setup cells are written for Google Colab; on your own machine skip the Drive
    cell and install einops once. The demo data is downloaded from {DEMO_URL}.
""")

DRIVE = src("""
    # This mounts your Google Drive to the Colab VM.
    from google.colab import drive

    drive.mount('/content/drive')

    # TODO: Enter the folder in your Drive where you saved the unzipped assignment,
    # e.g. 'dl4nlp/assignments/hw4/'
    FOLDERNAME = 'dl4nlp/assignments/hw4/'
    assert FOLDERNAME is not None, "[!] Enter the foldername."

    # Now that your Drive is mounted, let Python find dl4nlp/ there
    import sys

    sys.path.append(f'/content/drive/MyDrive/{FOLDERNAME}')
    %cd /content/drive/MyDrive/$FOLDERNAME
""")

SETUP = src(f"""
    # einops is not on Colab by default; the demo inputs and our outputs are a small file
    !pip install -q einops==0.8.2
    !wget -nc -q {DEMO_URL}
""")

IMPORTS = src(f"""
    import einops
    import torch
    from safetensors.torch import load_file

    from dl4nlp.transformer_layers import MultiHeadAttention, PositionalEncoding

    # reload dl4nlp/transformer_layers.py whenever you change it
    %load_ext autoreload
    %autoreload 2

    demo = load_file("{DEMO}")
    print("einops", einops.__version__, "| torch", torch.__version__)


    def case(target, name):
        \"\"\"(inputs, expected outputs) of one demo case, by name.\"\"\"
        pre = f"{{target}}/{{name}}/"
        inputs = {{k[len(pre) + 3:]: v for k, v in demo.items() if k.startswith(pre + "in/")}}
        return inputs, demo[pre + "out/output"]


    def max_error(got, want):
        return (got.double() - want.double()).abs().max().item()
""")

MHA_MD = src("""
    ## Part 1: `MultiHeadAttention` (12 points)

    Implement `MultiHeadAttention.forward` in `dl4nlp/transformer_layers.py`. The cell
    below loads our weights into your layer and compares its output with ours on a
    cross-attention example (4 queries over 6 keys), without and with a mask, and
    checks that the three mask forms give the same result.
""")

MHA_DEMO = src("""
    torch.manual_seed(231)
    for name in ("cross", "masked"):
        inputs, want = case("MultiHeadAttention", name)
        attn = MultiHeadAttention(embed_dim=16, num_heads=4, dropout=0.2)
        attn.load_state_dict({k: v for k, v in inputs.items() if "_proj." in k})
        attn.eval()
        got = attn(inputs["query"], inputs["key"], inputs["value"],
                   attn_mask=inputs.get("attn_mask"))
        print(f"{name} attention error: {max_error(got, want):.4e}")

    keep = inputs["attn_mask"]  # bool: True = may attend
    forms = {"0/1 float": keep.float(),
             "additive": torch.zeros(keep.shape).masked_fill(~keep, float("-inf"))}
    for form, mask in forms.items():
        got = attn(inputs["query"], inputs["key"], inputs["value"], attn_mask=mask)
        print(f"{form} mask error: {max_error(got, want):.4e}")
""")

PE_MD = src("""
    ## Part 2: `PositionalEncoding` (6 points)

    Implement `PositionalEncoding` in `dl4nlp/transformer_layers.py`. The cell below
    compares it with ours, in float32 and after `.half()`: the output of a float16
    module fed float16 should be float16.
""")

PE_DEMO = src("""
    inputs, want = case("PositionalEncoding", "demo")
    pos = PositionalEncoding(embed_dim=16, dropout=0.2).eval()
    print(f"positional encoding error: {max_error(pos(inputs['x']), want):.4e}")

    inputs, want = case("PositionalEncoding_half", "demo")
    got = pos.half()(inputs["x"].half())
    print(f"half precision error: {max_error(got, want):.4e}, dtype {got.dtype}")
""")

MEMORY_MD = "## Part 3: memory of the attention weights (2 points)"

MEMORY_Q = src("""
    The captioning decoder's cross-attention takes N = 32 captions of S = 16 tokens over
    T = 196 image features (a 14 x 14 grid), with H = 8 heads. How much memory do the
    attention weights of one such call take in float32, in MB (10^6 bytes)? Write the
    number after `Answer:` and show how you got it.

    Answer: """)

MEMORY_A = src("""
    The captioning decoder's cross-attention takes N = 32 captions of S = 16 tokens over
    T = 196 image features (a 14 x 14 grid), with H = 8 heads. How much memory do the
    attention weights of one such call take in float32, in MB (10^6 bytes)? Write the
    number after `Answer:` and show how you got it.

    Answer: 3.21 MB

    The weights are (N, H, S, T): 32 x 8 x 16 x 196 x 4 bytes = 3,211,264 bytes.""")

CELLS = [
    ("markdown", "intro", INTRO, None),
    ("code", "colab-drive", DRIVE, "colab"),
    ("code", "setup", SETUP, "setup"),
    ("code", "imports", IMPORTS, "imports"),
    ("markdown", "mha-intro", MHA_MD, None),
    ("code", "demo-mha", MHA_DEMO, "demo-mha"),
    ("markdown", "pe-intro", PE_MD, None),
    ("code", "demo-pe", PE_DEMO, "demo-pe"),
    ("markdown", "memory-intro", MEMORY_MD, None),
    ("markdown", "memory", (MEMORY_Q, MEMORY_A), "memory"),
]


def notebook(which: int) -> nbformat.NotebookNode:
    """The notebook: 0 = the starter, 1 = the solution (Part 3's answer written in)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = {
        "colab": {"provenance": []},
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    for kind, cell_id, text, tag in CELLS:
        text = text[which] if isinstance(text, tuple) else text
        make = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell
        cell = make(text, id=cell_id)
        if tag:
            cell.metadata["tags"] = [tag]
        nb.cells.append(cell)
    nbformat.validate(nb)
    return nb


# ----------------------------------------------------------------------------------------
# The demo file (format grader.cases/1, as grader/cases.py reads it)


def load_reference() -> ModuleType:
    """Import `private/reference.py` by path: the pack is a folder, not a package."""
    spec = importlib.util.spec_from_file_location("attention_module_hw_reference",
                                                  PACK / "private" / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def demo_file(reference: ModuleType) -> bytes:
    """Every demo case's inputs and reference outputs; the header's keys sorted."""
    tensors: dict[str, torch.Tensor] = {}
    params: dict[str, dict[str, dict[str, object]]] = {}
    for target, cases in reference.demo_cases().items():
        run = getattr(reference, f"run_{target}")
        for case in cases:
            name = case["name"]
            for key, t in case["tensors"].items():
                tensors[f"{target}/{name}/in/{key}"] = t.detach().clone().contiguous()
            for key, t in run(case).items():
                tensors[f"{target}/{name}/out/{key}"] = t.contiguous()
            params.setdefault(target, {})[name] = dict(case["params"])
    metadata = {"params": json.dumps(params, sort_keys=True), "format": FORMAT}
    blob = save(dict(sorted(tensors.items())), metadata=metadata)
    size = int.from_bytes(blob[:8], "little")
    header = json.dumps(json.loads(blob[8:8 + size]), sort_keys=True, separators=(",", ":"))
    text = header.encode() + b" " * (-len(header) % 8)
    return len(text).to_bytes(8, "little") + text + blob[8 + size:]


def main() -> int:
    for folder, which in (("template", 0), ("solution", 1)):
        (PACK / folder / MODULE).parent.mkdir(parents=True, exist_ok=True)
        (PACK / folder / MODULE).write_text(module_source(which))
        (PACK / folder / MODULE.parent / "__init__.py").write_text(INIT)
        nbformat.write(notebook(which), PACK / folder / NOTEBOOK)
    (PACK / "public").mkdir(exist_ok=True)
    (PACK / "public" / DEMO).write_bytes(demo_file(load_reference()))
    print(f"wrote template/, solution/ and public/{DEMO} under {PACK}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
