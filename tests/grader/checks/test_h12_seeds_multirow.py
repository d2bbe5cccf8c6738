"""A table's model written once over its runs' rows (LaTeX multirow), as held-out-12 had it.

Why: a landscape LaTeX report wrote "Pre-trained" and "From scratch" once each, in the
first row of each model's three seeds, the cells below left empty; its PDF joins the
caption under the table to the paragraph after it, which names the pre-trained model
first. The empty rows took the caption's model, so two scratch runs were read as
pre-trained ones and five figures were said to disagree with honest logs. Expected
claims were written from the text by hand: (family, seed, best validation, step, test).
"""

from __future__ import annotations

from grader.checks.seedclaims import Families, parse_claims

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch"]})


def claims(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


# as the PDF reader gives h12-labB-latex-landscape.pdf's table
LANDSCAPE = """| Model | Seed | Best val. acc. | Step | Test acc. (same step)† |
| *Pre-trained* | 1 | 0.853 | 1200 | 0.841 |
|  | 2 | 0.851 | 1400 | 0.840 |
| *From scratch* | 1 | 0.712 | 1800 | 0.698 |
|  | 2 | 0.705 | 2000 | 0.699 |
|  | 3 | 0.720 | 1600 | 0.707 |
Table 1: Best validation accuracy per seed. †Test accuracy of the checkpoint. The pre-trained encoder reaches 0.851–0.861 against 0.705–0.720 from scratch.
"""


def test_an_empty_model_cell_is_of_the_model_named_above_it():
    assert claims(LANDSCAPE) == [("pretrained", 1, 0.853, 1200, 0.841),
                                 ("pretrained", 2, 0.851, 1400, 0.840),
                                 ("scratch", 1, 0.712, 1800, 0.698),
                                 ("scratch", 2, 0.705, 2000, 0.699),
                                 ("scratch", 3, 0.720, 1600, 0.707)]


def test_a_model_cell_that_names_no_model_carries_none_down():
    text = ("| Model | Seed | Val | Step | Test |\n"
            "| Pre-trained | 1 | 0.853 | 1200 | 0.841 |\n"
            "| RoBERTa-small | 2 | 0.705 | 2000 | 0.699 |\n")
    assert claims(text)[1] == (None, 2, 0.705, 2000, 0.699)


def test_a_caption_naming_both_models_names_neither():
    text = ("## Pre-trained model\n\n"
            "| Seed | Val | Step | Test |\n"
            "| 1 | 0.853 | 1200 | 0.841 |\n"
            "Table 2: seeds of the pre-trained model (the scratch ones are in Table 3).\n")
    # the heading's model holds; a caption that names two models says nothing of the rows
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841)]
    lone = ("## Runs\n\n| Seed | Val | Step | Test |\n| 1 | 0.712 | 1800 | 0.698 |\n"
            "Table 3: from scratch.\n")
    assert claims(lone) == [("scratch", 1, 0.712, 1800, 0.698)]


def test_a_table_written_with_spaces_carries_its_model_down_too():
    text = ("Model         Seed  Best val acc  Step  Test acc\n"
            "Pre-trained   1     0.853         1200  0.841\n"
            "              2     0.851         1400  0.840\n"
            "From scratch  1     0.712         1800  0.698\n"
            "              2     0.705         2000  0.699\n")
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                            ("pretrained", 2, 0.851, 1400, 0.840),
                            ("scratch", 1, 0.712, 1800, 0.698),
                            ("scratch", 2, 0.705, 2000, 0.699)]
