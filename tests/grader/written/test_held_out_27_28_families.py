"""Held-out-27 and -28's families: a WhatsApp chat whose TA's name has a title, a
spreadsheet printed with its grid (cells set close to their borders, a "Unit" column,
several rows naming one question), and rows whose label opened their section."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.reading.normalise import unit_columns
from grader.written.reading.plain import read_plain

P = [QuestionSpec("p", ("Q3 (a)",), part="(II)",
                  labels=("p(mat)", 'p("mat")', "p_mat", "probability", "softmax")),
     QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "cross-entropy")),
     QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",))]


def answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


WHATSAPP = """27/11/2026, 22:14 - Wanjiru Kamau: Good evening Mr Ofori, sending my Part 3 here
27/11/2026, 22:15 - TA Samuel Ofori: Evening Wanjiru. Fine, send it part by part
27/11/2026, 22:33 - Wanjiru Kamau: Q3 c
one score matrix is S x S = 16384^2 = 268,435,456 scores
= 0.537 GB per head
27/11/2026, 22:35 - TA Samuel Ofori: Is that final? 48 heads would be 25.77 GB
27/11/2026, 22:38 - Wanjiru Kamau: Yes sir it's per head. Final answer 0.537 GB
27/11/2026, 22:44 - Wanjiru Kamau: Q3 d
x 48 layers = 14,496,989,184
≈ 14.5 billion parameters
"""


def test_a_whatsapp_chat_with_a_titled_speaker_is_a_transcript(tmp_path: Path):
    path = tmp_path / "chat.txt"
    path.write_text(WHATSAPP, encoding="utf-8")
    text = read_plain(path).text
    assert "25.77" not in text  # the TA's words are not the student's
    assert answers(text, P)["c"] == "0.537 GB" and answers(text, P)["d"] == "14.5 billion"


SHEET = [("Part", "Inputs", "Result", "Unit"),
         ("Q3 (a)(II) sum exp", "0.5, 0.1, 3, 0.2, 1", "26.7791", ""),
         ("Q3 (a)(II) p(mat)", "index 2 (3.0)", "0.7500", ""),
         ("Q3 (a)(II) loss", "p(mat)", "0.2876", ""),
         ("Q3 (c)", "1 GB = 10^9 B", "25.77", "GB"),
         ("Q3 (d) per layer", "H=6144", "302,020,608", "params"),
         ("Q3 (d)", "L=48", "14.497", "billion")]


def _sheet_pdf(path: Path) -> None:
    """A sheet printed with its grid: each cell's text set right up to its border."""
    pymupdf = pytest.importorskip("pymupdf")
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    xs = [50.0, 132.0, 212.0, 262.0, 300.0]  # borders; the texts nearly fill the cells
    y = 100.0
    for row in SHEET:
        for k, cell in enumerate(row):
            page.insert_text((xs[k] + 1, y + 12), cell, fontsize=9)
        for x in xs:
            page.draw_line((x, y), (x, y + 16), width=0.5)
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
        y += 16
    page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    doc.save(path)


def test_a_spreadsheet_printed_with_its_grid_reads_cell_by_cell(tmp_path: Path):
    from grader.written.reading import read_document

    path = tmp_path / "sheet.pdf"
    _sheet_pdf(path)
    text = read_document(path).text
    assert "| Q3 (a)(II) sum exp | 0.5, 0.1, 3, 0.2, 1 | 26.7791 |" in text
    got = answers("# STAT8021 A3 Part 3\n" + text, P)
    assert got == {"p": "0.7500", "loss": "0.2876", "c": "25.77 GB", "d": "14.497 billion"}


def test_a_box_round_a_value_is_no_table():
    """Two borders round a value (LaTeX's boxed result) split nothing: a table's row
    crosses three borders or more."""
    from grader.written.reading.pdf_page import _Wall
    from grader.written.reading.pdf_rows import _grid_walls

    box = (_Wall(200, 90, 110), _Wall(260, 90, 110))
    assert _grid_walls(box, 100) == ()
    grid = (*box, _Wall(320, 90, 110))
    assert _grid_walls(grid, 100) == grid and _grid_walls(grid, 200) == ()


def test_a_unit_column_joins_the_value_before_it():
    table = ("| Part | Result | Unit | Note |\n|---|---|---|---|\n| Q3 (c) | 25.77 | GB | 10^9 |\n"
             "| Q3 (e)(I) | 9437184 | params | |\n| Q3 (b) | see text | | |")
    lines = unit_columns(table).splitlines()
    assert "25.77 GB" in lines[2] and "9437184 params" in lines[3]
    assert lines[4] == "| Q3 (b) | see text | | |"  # no value, nothing joined
    assert unit_columns("| Part | Result |\n| Q3 (c) | 25.77 |") == (
        "| Part | Result |\n| Q3 (c) | 25.77 |")  # no unit column


def test_rows_of_a_run_summary_are_owned_by_their_keys_not_by_their_digits():
    text = """RUN SUMMARY
| **Key** | **Value** |
| q3a2_p_mat | 0.75 |
| q3a2_loss_log10 | 0.12494 |
| q3c_attn_scores_bytes | 25769803776 |
"""
    got = answers(text, P)
    assert (got["p"], got["loss"]) == ("0.75", "0.12494")


LAB_A = [QuestionSpec("q1", ("Question 1",)), QuestionSpec("q2", ("Question 2",)),
         QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
         QuestionSpec("cls", ("Question 3",), part="Classification task"),
         QuestionSpec("q4", ("Question 4",))]


def test_struck_out_text_of_a_printed_suggestion_is_no_text(tmp_path: Path):
    """Google Docs' suggestions (Word's tracked changes) printed: the deleted count struck
    through, the inserted one right after it, in one run of text."""
    pymupdf = pytest.importorskip("pymupdf")
    from grader.written.reading import read_document

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Question 3", fontsize=14)
    page.insert_text((72, 130), "Language modeling task: 20,857,60121,018,401", fontsize=11)
    width = pymupdf.get_text_length("Language modeling task: ", fontsize=11)
    struck = pymupdf.get_text_length("20,857,601", fontsize=11)
    page.draw_line((72 + width, 126.5), (72 + width + struck, 126.5), width=0.8)  # through
    page.draw_line((72 + width + struck, 132), (72 + width + 2 * struck, 132), width=0.8)
    page.insert_text((72, 160), "Question 4", fontsize=14)
    path = tmp_path / "suggested.pdf"
    doc.save(path)
    text = read_document(path).text
    assert "20,857,601" not in text and "21,018,401" in text  # the underlined insertion stays
    assert answers(text, LAB_A)["lm"] == "21,018,401"


def test_a_parts_name_and_value_over_its_breakdown_is_the_answer():
    text = """> Question 3: trainable parameters. Your cell printed 20,963,600 - without biases?

>> HB: Yes, sorry. With biases and LayerNorm included:
Language modeling task: 21,018,401
  embedding 50001*200 = 10,000,200
  LM head 200*50001 + 50001 = 10,050,201
Classification task: 10,968,602
  same embedding + encoder = 10,968,200, head 200*2 + 2 = 402

> Question 4: validation accuracy per epoch
"""
    got = answers(text, LAB_A)
    assert (got["lm"], got["cls"]) == ("21,018,401", "10,968,602")


def test_questions_numbered_without_a_word_are_the_questions():
    text = """# Transfer Lab A
**1. (10 points) The square mask; positional encodings.**
**Solution:** the mask hides the future.
**2. (10 points) Replacing the head.**
**Solution:** a new Linear(200, 2).
**3. (10 points) Trainable parameters.**
| Model | Head | Trainable parameters |
| Language modeling task | 200 × 50,001 + 50,001 | 21,018,401 |
| Classification task | 200 × 2 | 10,968,600 |
**4. (20 points) Validation accuracy.**
"""
    got = answers(text, LAB_A)
    assert (got["lm"], got["cls"]) == ("21,018,401", "10,968,600")
    # where the report names its questions, a bare number is a subsection of its own
    named = text.replace("**1. (10 points)", "**Question 1 (10 points)").replace(
        "**3. (10 points) Trainable parameters.**", "**3. Results**")
    assert answers(named, LAB_A)["lm"] is None
