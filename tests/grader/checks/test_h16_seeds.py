"""Held-out-16's per-seed family: a table with a row per model and a group of columns per
seed, its header over two rows ("| Model | Seed 1 | Seed 2 |" above "| | best val | step |
test | best val | step | test |").

Why: a Word table in a landscape section (h16-labB-docx-landscape.docx) spans each "Seed
N" cell over its run's three columns. The DOCX reader gives a merged cell once, so the top
row has a cell per seed and the row under it a cell per figure; read as a column per seed,
the first row's seeds fell on the figures of seed 1 alone and the figures named no field:
not one of the six runs was read. The same header is written by Markdown with the span
left as empty cells, by a reader that repeats a merged cell in each column it covers, or
with "Model" in the second row under an empty top-left cell: each column's seed is the
one its group names, its field the one the row below names. Expected claims were written
from the text by hand: (family, seed, best validation, step, test).
"""

from __future__ import annotations

from grader.checks.seedclaims import parse_claims
from tests.grader.checks._seeds import EXPECTED, FAMILIES, claims

BODY = """| pre-trained | 0.853 | 1200 | 0.841 | 0.851 | 1400 | 0.840 | 0.861 | 1600 | 0.850 |
| from scratch | 0.712 | 1800 | 0.698 | 0.705 | 2000 | 0.699 | 0.720 | 1600 | 0.707 |
"""

# as the DOCX reader gives h16-labB-docx-landscape.docx's Task 3 table: each merged
# "Seed N" cell once
MERGED_ONCE = """## Task 3
| Model | Seed 1 | Seed 2 | Seed 3 |
|  | best val | step | test | best val | step | test | best val | step | test |
""" + BODY


def test_seeds_as_column_groups_over_a_row_per_model_are_read():
    assert claims(MERGED_ONCE) == EXPECTED


def test_each_run_keeps_its_models_row_as_its_line():
    assert [c["line"] for c in parse_claims(MERGED_ONCE, FAMILIES)] == [4, 4, 4, 5, 5, 5]


def test_a_span_written_as_empty_cells_is_of_the_seed_on_its_left():
    text = """| Model | Seed 1 | | | Seed 2 | | | Seed 3 | | |
|---|---|---|---|---|---|---|---|---|---|
|  | Best val acc | Step | Test acc | Best val acc | Step | Test acc | Best val acc | Step | Test acc |
""" + BODY
    assert claims(text) == EXPECTED


def test_a_merged_cell_repeated_in_each_column_it_covers():
    text = """| Model | Seed 1 | Seed 1 | Seed 1 | Seed 2 | Seed 2 | Seed 2 | Seed 3 | Seed 3 | Seed 3 |
| Model | val | step | test | val | step | test | val | step | test |
""" + BODY
    assert claims(text) == EXPECTED


def test_the_model_header_under_an_empty_top_left_cell_and_fields_in_another_order():
    text = """|  | seed 1 | seed 2 |
| Model | test acc | best val acc | step | test acc | best val acc | step |
| Pre-trained | 0.841 | 0.853 | 1200 | 0.840 | 0.851 | 1400 |
| Scratch | 0.698 | 0.712 | 1800 | 0.699 | 0.705 | 2000 |
"""
    assert claims(text) == [r for r in EXPECTED if r[1] in (1, 2)]


def test_groups_that_do_not_divide_the_columns_give_no_figure_a_wrong_seed():
    # three seeds over eight figure columns: which seed a column is of is not known, and
    # a figure put under the wrong seed would contradict the logs
    text = """| Model | Seed 1 | Seed 2 | Seed 3 |
|  | best val | step | test | best val | step | test | best val | step |
| pre-trained | 0.853 | 1200 | 0.841 | 0.851 | 1400 | 0.840 | 0.861 | 1600 |
"""
    assert claims(text) == []


def test_a_seeds_as_columns_table_with_a_row_per_field_is_read_as_before():
    text = """|  | seed 1 | seed 2 |
| pre-trained best val | 0.853 | 0.851 |
| step | 1200 | 1400 |
| test acc | 0.841 | 0.840 |
"""
    assert claims(text) == [r for r in EXPECTED if r[:2] in (("pretrained", 1),
                                                             ("pretrained", 2))]
