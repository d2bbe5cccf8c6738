"""Per-seed figures as the held-out-10 batch wrote them (lab B, T3), by family.

Why: each form below read no row at all, so the logs check had nothing to hold against
the logs. The families: figures listed in the order of a range of seeds ("seeds 1–3
reach 0.853, 0.851 and 0.861 at steps …", the last list ending the sentence); a table
with a column per seed whose cells name each figure ("val 0.853 step 1200 test 0.841");
and a dict printed by Python, its tuples' order given by a legend. Expected claims were
written from the text by hand: (family, seed, best validation, step, test).
"""

from __future__ import annotations

import pytest

from grader.checks.seedclaims import Families, parse_claims
from grader.checks.seedprints import printed_lines

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch"]})


def claims(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


def test_a_range_of_seeds_pairs_each_list_in_order():
    text = ("From scratch: seeds 1–3 reach 0.712, 0.705 and 0.720 at steps 1800, 2000 and 1400,"
            " with test accuracies 0.698, 0.699 and 0.707.")
    assert claims(text) == [("scratch", 1, 0.712, 1800, 0.698), ("scratch", 2, 0.705, 2000, 0.699),
                            ("scratch", 3, 0.720, 1400, 0.707)]


@pytest.mark.parametrize("seeds", ["seeds 3–1", "seeds 1-40"])
def test_a_range_that_runs_down_or_far_is_no_list_of_seeds(seeds):
    text = f"Pre-trained: {seeds} reach 0.853, 0.851 and 0.861 at steps 1200, 1400 and 1600."
    assert not [c for c in claims(text) if c[2] is not None and c[3] is not None]


def test_a_column_per_seed_with_cells_that_name_their_figures():
    text = ("| **Model** | **Seed 1** | **Seed 2** |\n"
            "| Pre-trained | val 0.853 step 1200 test 0.841 | val 0.851 step 1400 test 0.840 |\n"
            "| From scratch | val 0.712 step 1800 test 0.698 | val 0.705 step 2000 test 0.699 |\n")
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                            ("pretrained", 2, 0.851, 1400, 0.840),
                            ("scratch", 1, 0.712, 1800, 0.698), ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_cell_with_an_unnamed_figure_is_not_read():
    text = ("| Model | Seed 1 | Seed 2 |\n"
            "| Pre-trained | val 0.853 1200 test 0.841 | val 0.851 1400 test 0.840 |\n")
    assert claims(text) == []


PPRINT = """>>> pprint(best, width=40)
{'pretrained': {1: (0.853, 1200, 0.841),
                2: (0.851, 1400, 0.84)},
 'scratch': {1: (0.712, 1800, 0.698),
             2: (0.705, 2000, 0.699)}}
"""


def test_a_printed_dict_of_tuples_is_read_in_the_order_its_legend_gives():
    text = PPRINT + "\nEach tuple is (test accuracy, step, best validation accuracy).\n"
    # the legend puts the test accuracy first: 0.853 is the test figure here
    assert claims(text) == [("pretrained", 1, 0.841, 1200, 0.853), ("pretrained", 2, 0.84, 1400, 0.851),
                            ("scratch", 1, 0.698, 1800, 0.712), ("scratch", 2, 0.699, 2000, 0.705)]


def test_a_printed_dict_takes_the_order_of_the_code_that_built_it():
    text = ("...     best.setdefault(m, {})[s] = (r.val_acc, int(r.step), r.test_acc)\n"
            + PPRINT)
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.84),
                            ("scratch", 1, 0.712, 1800, 0.698), ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_printed_tuple_without_a_legend_is_not_read():
    assert claims(PPRINT) == []


def test_a_printed_dict_whose_keys_name_the_fields():
    text = ("{('pretrained', 1): {'best_val': 0.853, 'step': 1200, 'test_acc': 0.841},\n"
            " ('scratch', 1): {'best_val': 0.712, 'step': 1800, 'test_acc': 0.698}}\n")
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841), ("scratch", 1, 0.712, 1800, 0.698)]


def test_prose_holding_a_tuple_is_no_printed_line():
    lines = ["Seed 1: (0.853, 1200, 0.841) was the best run.", "- 1: (0.85, 0.84)",
             "{1: {'val': 0.85, 'step': 1200, 'test': 0.84},", "  2: [0.8, 100, 0.7]]"]
    assert printed_lines(lines) == {2, 3}
