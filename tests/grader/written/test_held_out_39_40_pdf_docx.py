"""Held-out-39 and -40's families in PDF and Word: a result in a frame drawn round it
(ConTeXt's \\framed), lined note paper under the text (Notability), a strike-out drawn by
hand (Xournal++), a page number drawn before the page's text, a table whose header cells
wrap above a body row whose model cell wraps too (Nuclino printed), and a bordered
one-cell Word table holding the final answers. Each test fails on the readers before
these families were read."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec

E1 = [QuestionSpec("e1", ("Q3 (e)(I)",))]


def _page(pymupdf):  # type: ignore[no-untyped-def]
    doc = pymupdf.open()
    return doc, doc.new_page(width=595, height=842)


def _read(doc, path: Path) -> str:  # type: ignore[no-untyped-def]
    from grader.written.reading import read_document
    doc.save(path)
    return read_document(path).text


def test_a_line_alone_in_a_frame_is_set_off_as_the_answer(tmp_path: Path):
    pymupdf = pytest.importorskip("pymupdf")
    doc, page = _page(pymupdf)
    page.insert_text((60, 80), "Q3 (e)(I)", fontsize=14)
    page.insert_text((60, 110), "Each matrix gets 8 · 6144 + 6144 · 8 = 98 304 parameters; two "
                     "in each of 48 layers:", fontsize=10)
    page.insert_text((240, 130), "2 × 48 × 98 304", fontsize=10)
    page.insert_text((220, 156), "9 437 184 trainable parameters", fontsize=10)
    page.draw_rect(pymupdf.Rect(215, 144, 385, 161), color=(0, 0, 0), width=0.6)
    page.draw_rect(pymupdf.Rect(55, 180, 300, 240), color=(0, 0, 0), width=0.6)  # a callout
    page.insert_text((60, 200), "Note: 98 304 per matrix", fontsize=10)
    page.insert_text((60, 220), "and 196 608 per layer.", fontsize=10)
    text = _read(doc, tmp_path / "framed.pdf")
    assert "**9 437 184 trainable parameters**" in text
    assert "**Note" not in text  # a frame round two lines marks neither


def test_lines_ruled_across_the_page_strike_nothing_out(tmp_path: Path):
    pymupdf = pytest.importorskip("pymupdf")
    doc, page = _page(pymupdf)
    for y in range(100, 400, 24):  # lined note paper, edge to edge
        page.draw_line((0, y), (595, y), color=(0.8, 0.9, 0.95), width=0.6)
    page.insert_text((86, 200), "Q1 total = 22,696,960", fontsize=14)  # sits on y = 196
    page.draw_line((86, 271), (200, 271), color=(0, 0, 0), width=0.8)  # a real strike-out
    page.insert_text((86, 275), "old 22,829,056", fontsize=12)
    text = _read(doc, tmp_path / "lined.pdf")
    assert "Q1 total = 22,696,960" in text
    assert "22,829,056" not in text


def test_a_strike_drawn_by_hand_in_pieces_strikes_the_whole_value(tmp_path: Path):
    pymupdf = pytest.importorskip("pymupdf")
    doc, page = _page(pymupdf)
    page.insert_text((80, 100), "Q3 (c)", fontsize=14)
    page.insert_text((80, 130), "Memory = 51.54 GB.", fontsize=11)
    width = pymupdf.get_text_length("Memory = 51.54 GB.", fontsize=11)
    y = 130 - 3.5
    page.draw_polyline([(78, y), (120, y - 0.9), (80 + width + 3, y - 0.3)], color=(0.9, 0, 0),
                       width=1.4)
    page.insert_text((80, 150), "Memory = 25.77 GB.", fontsize=11)
    text = _read(doc, tmp_path / "struck.pdf")
    assert "51.54" not in text and "Memory = 25.77 GB." in text


def test_a_note_drawn_last_goes_before_the_nearest_text_below_it(tmp_path: Path):
    pymupdf = pytest.importorskip("pymupdf")
    doc, page = _page(pymupdf)
    page.insert_text((120, 800), "1", fontsize=9)  # the page number, drawn first
    lines = ["Q3 (c)", "One score per pair and head, 2 bytes each.", "Q3 (d)",
             "Each FFN has 302,020,608 parameters.", "Q3 (e)", "LoRA adds 98,304 a matrix."]
    for k, line in enumerate(lines):
        page.insert_text((80, 100 + 40 * k), line, fontsize=11)
    page.insert_text((80, 160), "Note: 25.77 GB in all.", fontsize=10)  # drawn last, under (c)
    text = _read(doc, tmp_path / "annotated.pdf")
    assert text.index("Note: 25.77 GB") < text.index("Q3 (d)")
    assert text.index("Note: 25.77 GB") > text.index("One score per pair")


def test_a_header_that_wraps_over_a_body_whose_model_cell_wraps_keeps_its_columns():
    """Nuclino's table printed by Chromium: the header's cells wrap ("Best val" / "acc") and
    the pre-trained rows' model cell too ("pre-" / "trained"), so those rows keep no
    places; the columns are the widest row's whose places are known."""
    from grader.written.reading.pdf_tables import _aligned
    five = [(217.5, 250.5), (281.5, 287.2), (322.4, 351.0), (395.2, 418.1), (434.3, 462.9)]
    rows = [(["Model", "Seed", "Step"], [(217.5, 248.3), (281.5, 306.6), (395.2, 418.5)]),
            (["Best val", "Test acc at that"], [(322.4, 363.2), (434.3, 512.6)]),
            (["acc", "step"], [(322.4, 339.2), (434.3, 456.5)]),
            (["pre- trained", "1", "85.3%", "1200", "84.1%"], []),
            (["scratch", "3", "72.0%", "1600", "70.7%"], five)]
    assert _aligned(rows)[:3] == [["Model", "Seed", "", "Step", ""],
                                  ["", "", "Best val", "", "Test acc at that"],
                                  ["", "", "acc", "", "step"]]


def test_a_one_cell_word_table_of_several_paragraphs_is_a_box_of_lines(tmp_path: Path):
    docx = pytest.importorskip("docx")
    from grader.written.reading import read_document
    document = docx.Document()
    document.add_heading("Question 3", level=1)
    document.add_paragraph("Embedding 10,000,200; layers 968,000; heads as below.")
    document.add_heading("Question 4", level=1)
    document.add_paragraph("The pre-trained model is better.")
    cell = document.add_table(rows=1, cols=1).cell(0, 0)
    cell.paragraphs[0].add_run("FINAL ANSWERS").bold = True
    cell.add_paragraph("Q3 – Language modeling task: 20,968,400 trainable parameters")
    cell.add_paragraph("Q3 – Classification task: 10,968,600 trainable parameters")
    document.save(tmp_path / "box.docx")
    lines = read_document(tmp_path / "box.docx").text.split("\n")
    assert "Q3 – Classification task: 10,968,600 trainable parameters" in lines
    assert not any(line.startswith("|") for line in lines)
