"""Build transfer lab B's template and solution notebooks (answer cells; the code is Colab's).

Why only answer cells: the lab's code (fine-tuning RoBERTa over 3 seeds, LoRA on
BLOOM-560m) needs a GPU and the Hub, so the grader reads its results from the report
(and the run's logs, when handed in); the notebook carries tagged answer cells.

    python reference/transfer-lab-b/private/make_notebooks.py
"""

from __future__ import annotations

from pathlib import Path

import nbformat

PACK = Path(__file__).resolve().parents[1]
NOTEBOOK = "transfer_lab_b.ipynb"
CELLS = (
    ("q1", "**Q1** Trainable parameters of the encoder (4 layers, d_model 512, 8 heads, "
           "FFN 512, vocabulary 32000, positions 256 + 2): formula and number.",
     "Answer: ", "Answer: 22,829,056\n\n24 d² + d(n_tokens + T + 2) + 42 d with d = 512."),
    ("q2-lora", "**Q2 follow-up** Trainable parameters of "
                "`LoraConfig(r=16, target_modules=[\"query_key_value\"], task_type=\"CAUSAL_LM\")` "
                "on BLOOM-560m, for each `bias` mode.",
     "bias='none': \n\nbias='all': \n\nbias='lora_only': ",
     "bias='none': 1,572,864\n\nbias='all': 1,845,248\n\nbias='lora_only': 1,646,592"),
)


def build(solution: bool) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python",
                                  "name": "python3"}, "language_info": {"name": "python"}}
    nb.cells = [nbformat.v4.new_markdown_cell(
        "# Transfer lab B: fine-tuning RoBERTa; LoRA\n\nWrite one value on each answer line.",
        id="intro")]
    for qid, question, template, answer in CELLS:
        nb.cells.append(nbformat.v4.new_markdown_cell(
            f"{question}\n\n{answer if solution else template}", id=qid,
            metadata={"tags": [qid]}))
    nbformat.validate(nb)
    return nb


def main() -> int:
    for folder, solution in (("template", False), ("solution", True)):
        path = PACK / folder / NOTEBOOK
        nbformat.write(build(solution), path)
        print(f"wrote {path.relative_to(PACK.parents[1])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
