"""Held-out-15's families: an answers-only sheet whose labels are set off from their
answers by a column of spaces ("3e-III  0.065 percent"), LaTeX exam-class markers hung in
the margin and printed after the text they mark, and a result alone on its line under the
product it completes, with no "=" between them."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.labels import read_mark

pymupdf = pytest.importorskip("pymupdf", reason="the reports extra reads PDFs with pymupdf")


@pytest.mark.parametrize(("line", "path"), [
    ("3a-I    next-token prediction", ("?", "3", "a", "i")),
    ("3a-II   p(mat) = 0.750   loss = 0.288", ("?", "3", "a", "ii")),
    ("3c      25.8 gigabytes", ("?", "3", "c", None)),
    ("3e-III  0.065 percent", ("?", "3", "e", "iii")),
    ("3e ii\t75.5 MB", ("?", "3", "e", "ii")),
])
def test_a_label_set_off_by_a_column_of_spaces_is_read(line, path):
    mark = read_mark(line, heading=False)
    assert mark is not None and mark.paths == (path,)


@pytest.mark.parametrize("line", ["3 GB of memory", "3d 14.5 billion", "3 c is the part"])
def test_one_space_after_a_number_and_letter_is_prose(line):
    mark = read_mark(line, heading=False)
    assert mark is None or mark.paths[0][2] is None


SHEET = """STAT8021 A3  Part 3 -- answers only

3a-II   p(mat) = 0.750   loss = 0.288
3c      25.8 gigabytes
3e-I    9437184
3e-II   75.5 megabytes
3e-III  0.065 percent
"""


def test_an_answers_only_sheet_is_read_line_by_line():
    specs = [QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("e1", ("Q3 (e)",), part="(I)"),
             QuestionSpec("e2", ("Q3 (e)",), part="(II)"),
             QuestionSpec("e3", ("Q3 (e)",), part="(III)")]
    found = extract_answers(SHEET, specs)
    assert {k: v.answer for k, v in found.items()} == {
        "c": "25.8 gigabytes", "e1": "9437184", "e2": "75.5 megabytes", "e3": "0.065 percent"}


def _exam_pdf(path: Path) -> Path:
    """The exam class as Chromium prints it: each part's marker a block of its own, left of
    its text and on its first baseline, written to the page after the text."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((76, 100), "3. Project Aether: L = 48, H = 6144.", fontsize=10)
    page.insert_text((95, 130), "One score per query-key pair per head, 2 bytes each:",
                     fontsize=10)
    page.insert_text((200, 150), "48 x 16384^2 x 2 B = 25,769,803,776 B", fontsize=10)
    page.insert_text((101, 172), "25.77 GB", fontsize=10)
    page.insert_text((76, 130), "(c)", fontsize=10)  # the marker, after its text
    page.insert_text((95, 210), "Per adapted matrix r*H + H*r = 98,304; 48 layers:",
                     fontsize=10)
    page.insert_text((200, 230), "98,304 x 2 x 48", fontsize=10)
    page.insert_text((140, 252), "9,437,184", fontsize=10)
    page.insert_text((76, 210), "(e)", fontsize=10)
    doc.save(path)
    return path


def test_a_marker_hung_in_the_margin_opens_the_text_it_marks(tmp_path):
    from grader.written.reading import read_document

    lines = read_document(_exam_pdf(tmp_path / "exam.pdf")).text.splitlines()
    assert lines[1].startswith("(c) One score per query-key pair")
    assert "(c)" not in lines[2:]


def test_a_result_under_the_product_it_completes_is_the_answer(tmp_path):
    from grader.written.reading import read_document

    text = read_document(_exam_pdf(tmp_path / "exam.pdf")).text
    found = extract_answers(text, [QuestionSpec("c", ("Q3 (c)",)),
                                   QuestionSpec("e", ("Q3 (e)",))])
    assert found["e"].answer == "9,437,184"


GDOC_TABLES = """# A3 part 3
| **Q3 (c)** | 48 * 16384^2 * 2 bytes = 25,769,803,776 bytes / 2^30 (1 GB = 2^30 bytes) **Final: 24 GB** |
| **Q3 (d)** | (8H^2 + 5H) * 48 = 14,496,989,184 **Final: 14.5 billion** |
| **Q3 (e)** | 9,437,184 / 14,496,989,184 = 0.00065 |
"""


def test_a_cell_holding_its_working_and_a_bold_final_answers_with_the_bold_value():
    specs = [QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",)),
             QuestionSpec("e", ("Q3 (e)",))]
    found = extract_answers(GDOC_TABLES, specs)
    assert (found["c"].answer, found["d"].answer) == ("24 GB", "14.5 billion")
    assert found["e"].answer == "0.00065"  # no bold in the cell: the cell answers as before


OUT_OF_ORDER = """## Q3
### (e) (I)
**Answer:** 9,437,184 trainable parameters
### (e) (III)
Against the FFN's optimizer memory of all 48 layers.
**Answer:** about 0.0651%
### (e) (II)
9,437,184 × 8 bytes = 75,497,472 bytes
**Answer:** 75.50 MB
"""


def test_headings_answered_out_of_order_each_open_their_part():
    specs = [QuestionSpec(f"e{n}", ("Q3 (e)",), part=f"({r})")
             for n, r in ((1, "I"), (2, "II"), (3, "III"))]
    found = extract_answers(OUT_OF_ORDER, specs)
    assert {k: v.answer for k, v in found.items()} == {
        "e1": "9,437,184", "e2": "75.50 MB", "e3": "0.0651%"}


def test_a_list_going_back_inside_an_answer_is_no_heading():
    text = "## Q3 (c)\nTwo cases:\n(a) fp16: 25.77 GB\n(b) fp32: 51.54 GB\nso 25.77 GB.\n"
    found = extract_answers(text, [QuestionSpec("c", ("Q3 (c)",))])
    assert found["c"].answer == "25.77 GB"


def test_what_the_working_gets_is_its_result():
    text = ("## Q3 (e)\n(II) Adam needs 8 bytes per parameter, so memory is 9,437,184 × 8 = "
            "75,497,472 bytes. Dividing by 1024^2, we can get 72 MB.\n")
    found = extract_answers(text, [QuestionSpec("e2", ("Q3 (e)",), part="(II)")])
    assert found["e2"].answer == "72 MB"
