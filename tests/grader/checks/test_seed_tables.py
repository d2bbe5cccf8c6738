"""Per-seed figures in ASCII-art tables (lab B, T3/T4): rules of `+---+` frame the rows.

Why: plain-text reports draw tables with `+------+------+` rules above, between and
below the `|` rows. A rule is no `|` row, so a reader that takes a table to be a run of
`|` lines sees a header alone, then rows without a header, and reads nothing (held-out
report h6-labB-txt-ascii: 0 of 18 figures). Each expected claim below was written from
the text by hand: (family, seed, best validation, step, test).
"""

from __future__ import annotations

from grader.checks.seedclaims import Families, parse_claims
from grader.checks.seedtables import is_rule, is_table_line

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"],
                     "scratch": ["scratch", "random"]})


def claims(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


SEEDS_AS_COLUMNS = """\
Each cell: best validation accuracy / step / test accuracy at that step.

+--------------------+---------+---------+---------+
|                    | seed 1  | seed 2  | seed 3  |
+--------------------+---------+---------+---------+
| pretrained best val| 0.853   | 0.851   | 0.861   |
| pretrained step    | 1200    | 1400    | 1600    |
| pretrained test    | 0.841   | 0.840   | 0.850   |
+--------------------+---------+---------+---------+
| scratch best val   | 0.712   | 0.705   | 0.720   |
| scratch step       | 1800    | 2000    | 1600    |
| scratch test       | 0.698   | 0.699   | 0.707   |
+--------------------+---------+---------+---------+

The pre-trained model wins on every seed.
"""


def test_an_ascii_table_with_seeds_as_columns_and_an_empty_corner_is_read_whole():
    assert claims(SEEDS_AS_COLUMNS) == [
        ("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.840),
        ("pretrained", 3, 0.861, 1600, 0.850), ("scratch", 1, 0.712, 1800, 0.698),
        ("scratch", 2, 0.705, 2000, 0.699), ("scratch", 3, 0.720, 1600, 0.707)]


def test_each_claim_keeps_the_line_of_its_first_figure_counted_from_first_line():
    lines = [c["line"] for c in parse_claims(SEEDS_AS_COLUMNS, FAMILIES, first_line=30)]
    # the text's line 6 ("| pretrained best val|") and line 10 ("| scratch best val"),
    # counted from 30
    assert lines == [35, 35, 35, 39, 39, 39]


def test_an_ascii_table_with_a_row_per_run_and_a_grid_header_rule_is_read():
    text = """\
+------------+------+--------------+------+----------+
| Model      | Seed | Best val acc | Step | Test acc |
+============+======+==============+======+==========+
| pretrained | 1    | 85.3%        | 1200 | 84.1%    |
+------------+------+--------------+------+----------+
| scratch    | 2    | 70.5%        | 2000 | 69.9%    |
+------------+------+--------------+------+----------+
"""
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                            ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_rule_is_a_table_line_and_a_dashed_sentence_or_a_sum_is_not():
    assert is_table_line("+------+-----+")
    assert is_table_line("  +======+=====+  ")
    assert is_table_line("| seed 1 | 0.85 |")
    assert not is_table_line("----------------------------------------")
    assert not is_table_line("+ 0.853 at step 1200")
    assert not is_table_line("1,050,624 + 525,312 + 2,048")
    assert is_rule("├────────┼──────┤") and is_rule("┡━━━━╇━━━━┩") and is_rule("+---+")
    assert not is_rule("| seed 1 |") and not is_rule("+") and not is_rule("=========")


def test_the_figures_of_a_paragraph_after_a_rule_are_still_read():
    text = ("+--------+\n"
            "For seed 2 the best validation accuracy is 0.851 at step 1400, which gives "
            "0.840 on the test set.\n")
    assert claims(text) == [(None, 2, 0.851, 1400, 0.840)]


TWO_RUNS = [("pretrained", 1, 0.853, 1200, 0.841), ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_table_printed_by_tabulate_or_rich_with_box_drawing_is_read():
    fancy_grid = """\
╒════════════╤════════╤═══════╤════════╤════════╕
│ model      │   seed │   val │   step │   test │
╞════════════╪════════╪═══════╪════════╪════════╡
│ pretrained │      1 │ 0.853 │   1200 │  0.841 │
├────────────┼────────┼───────┼────────┼────────┤
│ scratch    │      2 │ 0.705 │   2000 │  0.699 │
╘════════════╧════════╧═══════╧════════╧════════╛
"""
    rich = """\
┏━━━━━━━━━━━━┳━━━━━━┳━━━━━━━┳━━━━━━┳━━━━━━━┓
┃ model      ┃ seed ┃ val   ┃ step ┃ test  ┃
┡━━━━━━━━━━━━╇━━━━━━╇━━━━━━━╇━━━━━━╇━━━━━━━┩
│ pretrained │ 1    │ 0.853 │ 1200 │ 0.841 │
│ scratch    │ 2    │ 0.705 │ 2000 │ 0.699 │
└────────────┴──────┴───────┴──────┴───────┘
"""
    assert claims(fancy_grid) == TWO_RUNS
    assert claims(rich) == TWO_RUNS


def test_a_table_written_with_spaces_under_a_rule_of_dashes_is_read():
    simple = """\
model         seed    best val    step    test
----------  ------  ----------  ------  ------
pretrained       1       0.853    1200   0.841
scratch          2       0.705    2000   0.699
"""
    assert claims(simple) == TWO_RUNS
    # each claim on its row's line, not the rule's
    assert [c["line"] for c in parse_claims(simple, FAMILIES)] == [3, 4]


def test_a_markdown_table_without_outer_pipes_is_read_by_its_delimiter_row():
    rows = """\
Model | Seed | Best val | Step | Test
--- | --- | --- | --- | ---
pretrained | 1 | 0.853 | 1200 | 0.841
scratch | 2 | 0.705 | 2000 | 0.699
"""
    columns = """\
 | seed 1 | seed 2
---|---|---
scratch best val | 0.712 | 0.705
scratch step | 1800 | 2000
scratch test | 0.698 | 0.699
"""
    assert claims(rows) == TWO_RUNS
    assert claims(columns) == [("scratch", 1, 0.712, 1800, 0.698),
                               ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_pipe_in_prose_with_no_delimiter_row_below_it_is_no_table():
    text = ("Seed 1 | pretrained: best validation 0.853 at step 1200, test 0.841.\n"
            "Nothing else to add.\n")
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841)]


def test_a_cell_of_figures_joined_by_slashes_is_read_by_the_fields_its_label_names():
    columns = """\
| | seed 1 | seed 2 |
|---|---|---|
| pretrained val / step / test | 0.853 / 1200 / 0.841 | 0.851 / 1,400 / 0.840 |
| scratch val / step / test | 0.712 / 1800 / 0.698 | 0.705 / 2000 / 0.699 |
"""
    rows = """\
| Model | Seed | Best val / test | Step |
|---|---|---|---|
| pretrained | 1 | 85.3% / 84.1% | 1200 |
| scratch | 2 | 0.705/0.699 | 2000 |
"""
    assert claims(columns) == [
        ("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.840),
        ("scratch", 1, 0.712, 1800, 0.698), ("scratch", 2, 0.705, 2000, 0.699)]
    assert claims(rows) == TWO_RUNS


def test_a_cell_with_more_figures_than_its_header_names_gives_none_of_them():
    text = """\
| Model | Seed | Best val / test | Step |
|---|---|---|---|
| pretrained | 1 | 85.3% / 84.1% / 3 | 1200 |
"""
    assert claims(text) == [("pretrained", 1, None, 1200, None)]
