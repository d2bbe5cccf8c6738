"""The Q1(c) "logic inside the class" rule judges the object the probe calls.

Each attack below earned full marks when the rule read only the body of the last
`class MultiHeadAttention`; each must now fail the rule, and the honest classes
(the solution, a class with helpers of its own) must still pass.
"""

from __future__ import annotations

import nbformat
import pytest

from grader.checks.static import check_static
from grader.pack import load_pack
from tests.grader.conftest import PACK_DIR

RULE = load_pack(PACK_DIR).question("q1c").checks[1]
HEAD = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
CLEAN_FORWARD = """    def forward(self, q, k, v, mask=None):
        scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
        return torch.softmax(scores, -1) @ v
"""


def notebook(*cells: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(HEAD), *(nbformat.v4.new_code_cell(c) for c in cells)]
    return nb


ATTACKS = {
    "in a base class": (
        "class Base(nn.Module):\n    def attend(self, q, k, v):\n"
        "        return F.scaled_dot_product_attention(q, k, v)\n",
        "class MultiHeadAttention(Base):\n    def forward(self, q, k, v, mask=None):\n"
        "        return self.attend(q, k, v)\n"),
    "forward assigned after the class": (
        "class MultiHeadAttention(nn.Module):\n    pass\n",
        "def f(self, q, k, v, mask=None):\n    return F.scaled_dot_product_attention(q, k, v)\n"
        "MultiHeadAttention.forward = f\n"),
    "setattr after the class": (
        "class MultiHeadAttention(nn.Module):\n    pass\n",
        "def f(self, q, k, v, mask=None):\n    return F.scaled_dot_product_attention(q, k, v)\n"
        "setattr(MultiHeadAttention, 'forward', f)\n"),
    "a helper function it calls": (
        "def helper(q, k, v):\n    return F.scaled_dot_product_attention(q, k, v)\n",
        "class MultiHeadAttention(nn.Module):\n    def forward(self, q, k, v, mask=None):\n"
        "        return helper(q, k, v)\n"),
    "getattr of a spelled name": (
        "class MultiHeadAttention(nn.Module):\n    def forward(self, q, k, v, mask=None):\n"
        "        return getattr(F, 'scaled_dot_product_' + 'attention')(q, k, v)\n",),
    "getattr of a computed name": (
        "NAME = ''.join(['scaled_dot_product_', 'attention'])\n"
        "class MultiHeadAttention(nn.Module):\n    def forward(self, q, k, v, mask=None):\n"
        "        return getattr(F, NAME)(q, k, v)\n",),
    "a raw aten operator": (
        "class MultiHeadAttention(nn.Module):\n    def forward(self, q, k, v, mask=None):\n"
        "        return torch.ops.aten._scaled_dot_product_attention_math(q, k, v)[0]\n",),
    "vars of the module": (
        "class MultiHeadAttention(nn.Module):\n    def forward(self, q, k, v, mask=None):\n"
        "        return vars(F)['scaled_dot_product_attention'](q, k, v)\n",),
    "eval of a string": (
        "class MultiHeadAttention(nn.Module):\n    def forward(self, q, k, v, mask=None):\n"
        "        return eval('F.scaled_dot_product_attention')(q, k, v)\n",),
    "an annotated alias": (
        "attend: object = F.scaled_dot_product_attention\n"
        "class MultiHeadAttention(nn.Module):\n    def forward(self, q, k, v, mask=None):\n"
        "        return attend(q, k, v)\n",),
    "a clean decoy, the name rebound": (
        "class Real(nn.Module):\n    def forward(self, q, k, v, mask=None):\n"
        "        return F.scaled_dot_product_attention(q, k, v)\n",
        "class MultiHeadAttention(nn.Module):\n" + CLEAN_FORWARD,
        "MultiHeadAttention = Real\n"),
}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_every_way_around_the_rule_fails_it(name):
    result = check_static(RULE, notebook(*ATTACKS[name]))
    assert result.status == "failed", (name, result.message)
    assert result.evidence and all("cell" in hit for hit in result.evidence)


def test_honest_classes_pass():
    helper = ("def split_heads(x, h):\n    b, s, d = x.shape\n"
              "    return x.view(b, s, h, d // h).transpose(1, 2)\n")
    own = "class MultiHeadAttention(nn.Module):\n" + CLEAN_FORWARD + \
          "    def heads(self, x):\n        return split_heads(x, 2)\n"
    assert check_static(RULE, notebook(helper, own)).status == "passed"
    solution = nbformat.read(PACK_DIR / "solution" / "Transformer_practice.ipynb", as_version=4)
    assert check_static(RULE, solution).status == "passed"


def test_an_operator_that_ran_fails_the_runtime_half():
    rule = type(RULE)(RULE.kind, {**RULE.settings.written(),
                                  "forbid_ops": ["aten::_scaled_dot_product_*"]}, gate=True)
    nb = notebook("class MultiHeadAttention(nn.Module):\n" + CLEAN_FORWARD)
    clean = check_static(rule, nb, {"hidden-a": ["aten::matmul", "aten::softmax"]})
    assert clean.status == "passed"
    caught = check_static(rule, nb, {"hidden-a": ["aten::matmul",
                                                  "aten::_scaled_dot_product_flash_attention"]})
    assert caught.status == "failed"
    assert caught.evidence == [{"operator": "aten::_scaled_dot_product_flash_attention"}]
    assert "operator ran while the grader called it" in caught.message


def test_a_cell_too_deep_to_parse_is_skipped_not_a_grader_failure():
    deep = "x = (" + " + ".join(["1"] * 200_000) + ")\n"
    result = check_static(RULE, notebook(deep, "class MultiHeadAttention(nn.Module):\n" +
                                         CLEAN_FORWARD))
    assert result.status == "passed"


def test_a_line_too_long_to_tokenize_is_never_tokenized(monkeypatch):
    """Python 3.12's tokenizer copies a token's line into every token: the one-line sum
    above took 23 GB in the grader process there. Such a cell is left out before any
    tokenizer sees it; a deep sum written over many short lines still reaches the parser
    and is left out there."""
    from IPython.core.inputtransformer2 import TransformerManager

    from grader.checks.pysource import MAX_LINE_CHARS

    seen: list[str] = []
    real = TransformerManager.transform_cell
    monkeypatch.setattr(TransformerManager, "transform_cell",
                        lambda self, cell: seen.append(cell) or real(self, cell))
    long_line = "x = (" + " + ".join(["1"] * 200_000) + ")\n"
    assert len(long_line) > MAX_LINE_CHARS
    many_lines = "x = (\n" + "1 +\n" * 200_000 + "1)\n"
    result = check_static(RULE, notebook(long_line, many_lines,
                                         "class MultiHeadAttention(nn.Module):\n"
                                         + CLEAN_FORWARD))
    assert result.status == "passed"
    assert long_line not in seen and many_lines in seen


def test_similarity_reads_a_too_long_line_as_empty():
    from grader.checks.pysource import MAX_LINE_CHARS
    from grader.similarity.winnow import normalise

    tokens = normalise("a = 1\n" + "b = '" + "x" * (MAX_LINE_CHARS + 1) + "'\nc = 2\n")
    assert [t.text for t in tokens if t.text != "\n"][:3] == ["N", "=", "0"]
    assert sum(1 for t in tokens if t.text == "S") == 0  # the long string was never read


@pytest.mark.sandbox
def test_the_runtime_half_catches_what_no_reader_sees(pack, hf_cache, tmp_path):
    """Through the real sandbox: a correct class whose forward is wrapped, after the class,
    by code that reaches the forbidden function through the module's `__dict__` (no name
    the rule's reader can match) keeps its outputs right. The evasion reader sees the
    lookup by string and holds the question for a TA (issue 25); the runtime half, judged
    on the operators the probe recorded, fails the rule on its own."""
    from grader.grade import grade_notebook
    from tests.conftest import FAST, SAMPLES, needs_bwrap

    needs_bwrap()
    nb = nbformat.read(SAMPLES / "wrong-q1a-transposed-heads.ipynb", as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        "_original = MultiHeadAttention.forward\n"
        "def _forward(self, x, mask=None):\n"
        "    sdpa = torch.nn.functional.__dict__['scaled_dot_product_' + 'attention']\n"
        "    sdpa(x[:, None], x[:, None], x[:, None])\n"
        "    return _original(self, x, mask)\n"
        "MultiHeadAttention.forward = _forward\n"))
    path = tmp_path / "sneaky.ipynb"
    nbformat.write(nb, path)
    runs: list = []
    record = grade_notebook(pack, path, seed=3, limits=FAST, hf_cache=hf_cache,
                            on_run=runs.append)
    q1c = next(q for q in record.questions if q.id == "q1c")
    assert q1c.status == "manual" and q1c.score is None
    assert "functional.__dict__[" in q1c.message and "line 3 of cell" in q1c.message
    probe = runs[0].probes["q1c-MultiHeadAttention"]
    assert probe.status == "ok"
    rule = check_static(RULE, runs[0].executed, probe.ops)
    assert rule.status == "failed" and "the operator ran" in rule.message
    assert any("scaled_dot_product" in hit.get("operator", "") for hit in rule.evidence)
