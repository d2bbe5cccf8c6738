"""A table of contents opens no section, and a Roman section numeral before a label is a
decoration (held-out-5's two largest families, on small reports written here, not the
corpus's files)."""

from __future__ import annotations

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.vocabulary import contents_lines, undecorated

Q3 = [QuestionSpec("q3a2.p", ("Q3 (a)",), part="(II)"),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]

BODY = ("## Q3 (c) Memory of the scores\n"
        "48 heads × 16,384² scores × 2 bytes = **25.77 GB**.\n"
        "## Q3 (d) FFN parameters\n"
        "48 × 302,020,608 = **14.5 billion**.\n"
        "## Q3 (e) LoRA\n"
        "#### (I) Trainable\n"
        "**9,437,184** parameters.\n"
        "#### (II) Adam\n"
        "9,437,184 × 8 B = **75.5 MB**.\n")


@pytest.mark.parametrize("contents", [
    # a Word contents printed to PDF: a two-column table under its heading
    "## Contents\n| Q3 (c) Memory of the scores | 2 |\n| Q3 (d) FFN parameters | 2 |\n"
    "| Q3 (e) LoRA | 3 |\n| (I) Trainable | 3 |\n| (II) Adam | 4 |\n",
    # dot leaders, no heading
    "Q3 (c) Memory of the scores ........ 2\nQ3 (d) FFN parameters . . . . . . . 2\n"
    "Q3 (e) LoRA …………… 3\n    (I) Trainable ....... 3\n    (II) Adam ........ 4\n",
    # a gap of spaces under "Table of Contents"
    "**Table of Contents**\n\nQ3 (c) Memory        2\nQ3 (d) FFN        2\nQ3 (e) LoRA      3\n",
])
def test_a_table_of_contents_gives_no_page_number_as_an_answer(contents):
    got = extract_answers(f"# Assignment 3\n{contents}\n{BODY}", Q3)
    assert got["q3c"].answer == "25.77 GB"
    assert got["q3d"].answer == "14.5 billion"
    assert got["q3e1"].answer == "9,437,184"
    assert got["q3e2"].answer == "75.5 MB"


def test_what_is_a_contents_and_what_is_not():
    toc = ["Contents", "Intro ..... 1", "Q3 (a) Loss ..... 2", "Q3 (b) Memory ..... 4"]
    assert contents_lines(toc) == {1, 2, 3}
    # a summary table of answers: no heading, no leaders; its small integers are answers
    summary = ["| Q1 | 3 |", "| Q2 | 4 |", "| Q3 | 7 |"]
    assert contents_lines(summary) == set()
    # page numbers that go down are no contents either
    assert contents_lines(["Contents", "| A | 5 |", "| B | 2 |", "| C | 1 |"]) == set()
    # two entries are too few to tell
    assert contents_lines(["Q3 (a) ..... 2", "Q3 (b) ..... 3"]) == set()


@pytest.mark.parametrize("numeral", ["I.", "IV.", "IX.", "XIV.", "XX.", "V"])
def test_a_roman_section_numeral_is_a_decoration(numeral):
    assert undecorated(f"{numeral} Q3 (c) Memory") == len(numeral) + 1
    assert undecorated(f"{numeral}  Question 3") == len(numeral) + 2


def test_a_roman_numeral_is_stripped_only_before_a_label():
    assert undecorated("IV. Results") == 0
    assert undecorated("IIII. Q3 (c)") == 0  # no numeral
    assert undecorated("I think Q3 is hard") == 0  # no label follows "I"


def test_roman_numbered_sections_and_lettered_parts_are_read():
    text = ("# A report\n"
            "## I. Q3 (a) The pre-training task\n"
            "**A. Part (I)** Next-token prediction over unlabelled text.\n"
            "**B. Part (II)** p(mat) = 20.086/26.779 = 0.750\n"
            "## III. Q3 (c) Attention memory\n"
            "M = 48 · 16384^2 · 2 B = 25.77 GB\n"
            "## IV. Q3 (d) FFN\n"
            "14.50 billion parameters\n"
            "## V. Q3 (e) Low-rank adaptation\n"
            "### A. Part (I)\n"
            "P = 96 · 8 · 12288 = 9437184\n"
            "### B. Part (II)\n"
            "M = 8 B · 9437184 = 75.50 MB\n")
    got = extract_answers(text, Q3)
    assert got["q3a2.p"].answer == "0.750"
    assert got["q3c"].answer == "25.77 GB"
    assert got["q3d"].answer == "14.50 billion"
    assert got["q3e1"].answer == "9437184"
    assert got["q3e2"].answer == "75.50 MB"


def test_a_table_row_at_the_top_of_a_page_keeps_its_numbers(tmp_path):
    """A table running over a page break: its first row on the new page sits in the top
    margin, where a lone number is a page number; with text on its baseline it is a cell."""
    pymupdf = pytest.importorskip("pymupdf")
    from grader.written.reading import read_document

    doc = pymupdf.open()
    for page_no, rows in ((1, [(760, ("", "model", "seed", "best_val", "step"))]),
                          (2, [(60, ("0", "pretrained", "1", "0.853", "1200")),
                               (80, ("1", "pretrained", "2", "0.851", "1400")),
                               (100, ("2", "scratch", "1", "0.712", "1800"))])):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 400), f"Results page {page_no}", fontsize=10)
        for y, cells in rows:
            for x, cell in zip((100, 130, 220, 270, 340), cells, strict=True):
                if cell:
                    page.insert_text((x, y), cell, fontsize=10)
        page.insert_text((72, 820), "STAT8021 report", fontsize=10)  # a running footer
        page.insert_text((500, 820), str(page_no), fontsize=10)  # and the page number
    path = tmp_path / "seeds.pdf"
    doc.save(path)
    text = read_document(path).text
    assert "| 0 | pretrained | 1 | 0.853 | 1200 |" in text.splitlines()
    assert not any(line.strip() in ("1", "2") or "STAT8021" in line
                   for line in text.splitlines())
