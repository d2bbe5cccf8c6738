"""Companion modules (attention-module-hw: a `dl4nlp/` package beside the notebook): the
pack's template module never makes two students alike; a renamed copy of a written
module is found, and its matching lines point into the module."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from tests.similarity.conftest import ROOT

PACK = ROOT / "reference" / "attention-module-hw"
MODULE = "dl4nlp/transformer_layers.py"


def _student(base: Path, key: str, module: str) -> Path:
    folder = base / key
    (folder / "dl4nlp").mkdir(parents=True)
    shutil.copy(PACK / "template" / "Attention_Module.ipynb", folder / f"{key}.ipynb")
    (folder / "dl4nlp" / "__init__.py").write_text(
        (PACK / "template" / "dl4nlp" / "__init__.py").read_text())
    (folder / MODULE).write_text(module)
    return folder / f"{key}.ipynb"


def test_template_module_subtracted_and_a_renamed_copy_found(tmp_path: Path) -> None:
    from grader.similarity import Settings, class_from_notebooks, find_similar

    template = (PACK / "template" / MODULE).read_text()
    solution = (PACK / "solution" / MODULE).read_text()
    renamed = re.sub(r"\bscores\b", "logits", solution)
    renamed = re.sub(r"\bweights\b", "probs", renamed)
    renamed = re.sub(r"\bposition\b", "where", renamed).replace("# (N, H, S, T)", "")
    assert renamed != solution
    # a third student writes the same module another way: einsum, no rearrange
    other = solution.replace("q @ k.transpose(-2, -1)", 'torch.einsum("nhsd,nhtd->nhst", q, k)')
    other = other.replace("torch.exp(torch.arange(0, embed_dim, 2) * (-math.log(10000.0) / "
                          "embed_dim))", "1.0 / 10000.0 ** (torch.arange(0, embed_dim, 2) / "
                          "embed_dim)")
    paths = [_student(tmp_path, "source", solution), _student(tmp_path, "copy", renamed),
             _student(tmp_path, "starter-1", template), _student(tmp_path, "starter-2", template),
             _student(tmp_path, "apart", other)]
    classroom = class_from_notebooks(paths, PACK, module_globs=["dl4nlp/**/*.py"])
    assert {w.key: sorted(w.modules) for w in classroom.works}["copy"] == [
        "dl4nlp/__init__.py", MODULE]
    result = find_similar(classroom, Settings(show_score=0.0, baseline_quantile=0.0))
    by = {(p.a, p.b): p for p in result.pairs}
    assert ("starter-1", "starter-2") not in by  # the handout alone: nothing of their own
    copy = by[("copy", "source")]
    assert copy.code is not None and copy.code["containment"] > 0.9
    (region,) = [r for r in copy.code["regions"] if r["unit"] == MODULE]
    assert region["a"]["lines"] and "def forward" in region["a"]["source"]
    assert result.pairs[0] is copy
