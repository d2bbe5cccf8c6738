"""The document model: every format read into the same blocks, tables with their empty
cells and their header row and column (seeds as columns too)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import read_document
from grader.written.blocks import Table, blocks, cells, table_of

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "report-corpus" / "reports"


def test_markdown_reads_into_headings_items_tables_math_and_code_with_their_lines():
    text = "\n".join([
        "# Assignment 3",                      # 1
        "## Q3 (c) **Attention** memory",      # 2
        "- scores per head: *S_max*^2",        # 3
        "(a) the **answer** is below",         # 4
        "$$",                                  # 5
        "48 \\times 16384^2 \\times 2",        # 6
        "$$",                                  # 7
        "```python",                           # 8
        "print(48 * 16384**2 * 2)",            # 9
        "```",                                 # 10
        "| Part | Answer |",                   # 11
        "|---|---|",                           # 12
        "| (c) | 25.77 GB |",                  # 13
        "**Summary**",                         # 14
        "That is all.",                        # 15
    ])
    got = [(b.kind, b.line, b.end_line, b.level, b.marker) for b in blocks(text)]
    assert got == [("heading", 1, 1, 1, None), ("heading", 2, 2, 2, None),
                   ("item", 3, 3, None, "-"), ("item", 4, 4, None, "(a)"),
                   ("math", 5, 7, None, None), ("code", 8, 10, None, None),
                   ("table", 11, 13, None, None), ("heading", 14, 14, 6, None),
                   ("paragraph", 15, 15, None, None)]
    heading = blocks(text)[1]
    assert heading.text == "Q3 (c) Attention memory"
    assert [(heading.text[e.start:e.end], e.kind) for e in heading.emphasis] == [
        ("Attention", "bold")]
    item = blocks(text)[2]
    assert [(item.text[e.start:e.end], e.kind) for e in item.emphasis] == [("S_max", "italic")]
    table = blocks(text)[6].table
    assert table == Table((("Part", "Answer"), ("(c)", "25.77 GB")), 1, 1)
    assert table.value("(c)", "answer") == "25.77 GB" and not table.transposed


def test_a_table_keeps_its_empty_cells():
    assert cells("|  | Seed 1 | | Seed 3 |") == ("", "Seed 1", "", "Seed 3")
    t = table_of(["| | Seed 1 | Seed 2 |", "| best val. acc. | 0.853 | 0.851 |",
                  "| step | 1200 | |"])
    assert t.rows[2] == ("step", "1200", "")
    assert (t.header_rows, t.header_columns, t.transposed) == (1, 1, True)
    assert t.value("step", "Seed 1") == "1200" and t.value("step", "seed 2") == ""


def test_a_usual_table_of_records_is_no_transposed_one():
    t = table_of(["| Model | Seed | Best val. acc. |", "|---|---|---|",
                  "| pretrained | 1 | 0.853 |", "| scratch | 1 | 0.712 |"])
    assert (t.header_rows, t.header_columns, t.transposed) == (1, 1, False)
    assert t.value("scratch", "best val. acc.") == "0.712"


@pytest.mark.parametrize("name", ["h3-labB-docx-transposed.docx", "h3-labB-docx-transposed.md"])
def test_word_and_markdown_give_the_same_transposed_table(name):
    doc = read_document(CORPUS / name)
    tables = [b.table for b in doc.blocks() if b.kind == "table"]
    assert len(tables) == 2
    first = tables[0]
    assert first.rows[0] == ("", "Seed 1", "Seed 2", "Seed 3")
    assert first.transposed and first.value("Best validation accuracy", "Seed 2") == "0.851"


def test_a_pdf_table_with_an_empty_top_left_cell_keeps_its_columns():
    """Seeds as columns, the corner cell empty: MuPDF gives the header row a block of its
    own with three cells; without the empty corner every column would shift one left."""
    doc = read_document(CORPUS / "h4-labB-word-pages.pdf")
    table_block = next(b for b in doc.blocks() if b.kind == "table")
    table = table_block.table
    assert table_block.page == 1
    assert table.rows[0] == ("", "**Seed 1**", "**Seed 2**", "**Seed 3**")
    assert all(len(r) == 4 for r in table.rows)
    assert table.transposed
    assert table.value("Pre-trained — step", "Seed 3") == "1600"
    assert table.value("From scratch — test acc.", "Seed 1") == "0.698"


def test_a_word_table_of_working_is_read_by_its_header_without_a_separator_line():
    """Word writes no |---| line: the header row is a first row of names over figures. A
    "Value" column of working concludes in its last row; an "Answer" column answers in
    every row."""
    from grader.written import QuestionSpec, extract_answers

    working = ("## Question 3 (d)\n| **Step** | **Expression** | **Value** |\n"
               "| First linear layer | H x 4H | 150,994,944 |\n"
               "| Per layer | 8H^2 | 301,989,888 |\n"
               "| All layers | 48 x 301,989,888 | 14,495,514,624 |\n")
    got = extract_answers(working, [QuestionSpec("d", ("Q3 (d)",))])["d"]
    assert (got.answer, got.why, got.shotgun) == ("14,495,514,624", "answer cell", ())
    two = ("## Q3 (a)\n(II) in the table:\n| **Step** | **Expression** | **Value** |\n"
           "| Probability of 'mat' | e^3 / 26.779 | 0.750 |\n"
           "| Cross-entropy loss | -ln(0.750) | 0.288 |\n")
    specs = [QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("probability",)),
             QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss",))]
    got = extract_answers(two, specs)
    assert (got["p"].answer, got["p"].why) == ("0.750", "value cell")  # not e^3 / 26.779
    assert (got["loss"].answer, got["loss"].why) == ("0.288", "answer cell")
    answers = ("## Q3 (c)\n| Part | Working | Answer |\n| (c) | 48 x 16384^2 x 2 B | 25.77 GB |\n")
    got = extract_answers(answers, [QuestionSpec("c", ("Q3 (c)",))])["c"]
    assert (got.answer, got.why) == ("25.77 GB", "answer cell")


def test_a_notebooks_markdown_cells_read_into_the_same_blocks():
    from grader.written.blocks import notebook_blocks

    notebook = {"cells": [
        {"cell_type": "markdown", "source": ["## Q3 (c)\n", "- memory: **25.77 GB**\n"]},
        {"cell_type": "code", "source": "print(1)", "outputs": []},
        {"cell_type": "markdown", "source": "| | Seed 1 |\n| step | 1200 |\n"},
    ]}
    got = notebook_blocks(notebook)
    assert [(b.kind, b.cell, b.line) for b in got] == [
        ("heading", 0, 1), ("item", 0, 2), ("table", 2, 1)]
    assert got[2].table is not None and got[2].table.value("step", "Seed 1") == "1200"


def test_a_pdf_heading_wrapped_onto_a_second_line_is_one_heading():
    """Typst and LaTeX titles in a narrow column wrap, and MuPDF gives each line a block of
    its own: "Pre-training with lan-" | "guage modelling" at the heading's size on one page
    is one heading, its soft hyphen gone; a heading after a finished one stays apart."""
    from grader.written.reading.pdf import _join_wrapped_headings, _Para

    def heading(text: str, size: float = 14.0, page: int = 1) -> _Para:
        return _Para(f"**{text}**", page, size, size, rows=[text])

    paras = [heading("A Q3 (a) Pre-training with lan\xad"), heading("guage modelling"),
             _Para("The model predicts the next token.", 1, None, 10.0,
                   rows=["The model predicts the next token."]),
             heading("B Q3 (b) Decoder-only"), heading("versus the other two"),
             heading("C Q3 (c) Memory."), heading("scores", page=2),
             heading("D Q3 (d) FFN", size=10.0), heading("parameters", size=10.0),
             heading("in all layers")]
    got = [p.rows[0] for p in _join_wrapped_headings(paras)]
    assert got == ["A Q3 (a) Pre-training with language modelling",
                   "The model predicts the next token.",
                   "B Q3 (b) Decoder-only versus the other two",
                   "C Q3 (c) Memory.", "scores", "D Q3 (d) FFN parameters", "in all layers"]


def test_a_table_drawn_in_plain_text_is_one_transposed_table():
    text = ("Each cell: best validation accuracy.\n\n"
            "+--------------------+---------+---------+\n"
            "|                    | seed 1  | seed 2  |\n"
            "+--------------------+---------+---------+\n"
            "| pretrained best val| 0.853   | 0.851   |\n"
            "| pretrained step    | 1200    | 1400    |\n"
            "+--------------------+---------+---------+\n"
            "| scratch best val   | 0.712   | 0.705   |\n"
            "+--------------------+---------+---------+\n\nThe pre-trained model wins.\n")
    (table,) = [b for b in blocks(text) if b.kind == "table"]
    assert (table.line, table.end_line) == (3, 10)
    assert table.table.rows[0] == ("", "seed 1", "seed 2")
    assert table.table.transposed
    assert table.table.value("scratch best val", "seed 2") == "0.705"
