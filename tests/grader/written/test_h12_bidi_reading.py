"""Reading right-to-left reports (held-out-12's Hebrew report printed to PDF): each line
in the order the student typed it, whatever order the PDF draws it in.

The PDFs here are drawn as Chromium draws a right-to-left page: a line's runs left to
right, the letters of each Hebrew run from right to left, so the content stream holds
neither the order typed nor the order seen. Neighbours: an English page quoting a Hebrew
word (only the word turns), and Hebrew in Word and Markdown files, which store the text
in the order typed and are read as they stand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written.reading import read_document, read_here
from tests.grader.written._word import word_file

CORPUS = Path(__file__).parents[2] / "fixtures" / "report-corpus" / "reports"
FONTS = Path("/usr/share/fonts/truetype/dejavu")


def _fonts() -> tuple[Path, Path]:
    regular, bold = FONTS / "DejaVuSans.ttf", FONTS / "DejaVuSans-Bold.ttf"
    if not (regular.is_file() and bold.is_file()):
        pytest.skip("drawing Hebrew needs the DejaVu Sans fonts (fonts-dejavu-core)")
    return regular, bold


def _rtl_pdf(tmp_path: Path, lines: list[tuple[float, bool, list[tuple[str, bool]]]],
             right_edge: float = 520) -> Path:
    """A page of lines, each (size, bold, runs in visual order left to right); a run is
    (text as typed, right to left?). A line is right aligned, as a right-to-left page
    sets it; the letters of a right-to-left run are drawn one by one from its right end,
    in the order typed."""
    pymupdf = pytest.importorskip("pymupdf", reason="the reports extra reads PDFs with pymupdf")
    regular, bold = _fonts()
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 90.0
    for size, heavy, runs in lines:
        path = bold if heavy else regular
        name = "dvb" if heavy else "dv"
        font = pymupdf.Font(fontfile=str(path))
        width = sum(font.text_length(text, fontsize=size) for text, _ in runs)
        x = right_edge - width
        for text, rtl in runs:
            run_width = font.text_length(text, fontsize=size)
            if rtl:
                right = x + run_width
                for char in text:
                    right -= font.text_length(char, fontsize=size)
                    page.insert_text((right, y), char, fontname=name, fontfile=str(path),
                                     fontsize=size)
            else:
                page.insert_text((x, y), text, fontname=name, fontfile=str(path), fontsize=size)
            x += run_width
        y += 2.2 * size
    out = tmp_path / "rtl.pdf"
    doc.save(out)
    doc.close()
    return out


def test_a_hebrew_page_reads_label_and_answer_word_first(tmp_path: Path) -> None:
    path = _rtl_pdf(tmp_path, [
        (16, True, [("3 (e)", False), ("שאלה ", True)]),
        (11, True, [("LoRA", False), (" פרמטרים של ", True), ("(I)", False)]),
        (11, False, [("9,437,184", False), ("תשובה: ", True)]),
        (11, True, [("Adam", False), (" זיכרון מצבי ", True), ("(II)", False)]),
        (11, False, [("75.5 MB", False), ("תשובה: ", True)]),
        (11, False, [(".", True), ("FFN", False), (" מזה של ה-", True), ("0.065%", False),
                     ("הוא בערך ", True)]),
    ])
    lines = read_document(path).text.splitlines()
    assert "שאלה 3 (e)" in lines[0]
    assert lines[1] == "**(I) פרמטרים של LoRA**"
    assert lines[2] == "תשובה: 9,437,184"
    assert lines[3] == "**(II) זיכרון מצבי Adam**"
    assert lines[4] == "תשובה: 75.5 MB"
    assert lines[5] == "הוא בערך 0.065% מזה של ה-FFN."


def test_an_english_page_quoting_hebrew_keeps_its_order(tmp_path: Path) -> None:
    path = _rtl_pdf(tmp_path, [
        (11, False, [("(c) The answer word of Hebrew reports is ", False), ("תשובה", True),
                     (": 25.77 GB", False)]),
    ])
    assert read_document(path).text.strip() == (
        "(c) The answer word of Hebrew reports is תשובה: 25.77 GB")


def test_the_held_out_hebrew_report_reads_as_typed() -> None:
    pytest.importorskip("pymupdf", reason="the reports extra reads PDFs with pymupdf")
    lines = read_here(CORPUS / "h12-p3-word-hebrew.pdf").text.splitlines()
    for line in (
        "## שאלה 3 (a)",
        "**(I) מטרת האימון המקדים**",
        '**(II) ההסתברות של "mat" וההפסד**',
        "תשובה: p(mat) = 0.1015",
        "תשובה: 25.77 GB",
        "תשובה: 9,437,184 פרמטרים ניתנים לאימון",
        "**(III) השוואה ל-FFN**",
        "המודל: L = 48, H = 6144, h = 48, S_max = 16,384.",
    ):
        assert line in lines, line
    # lines with no Hebrew letter (working, code) are left as they stand
    assert "× 48 = 14,496,989,184" in lines


def test_word_and_markdown_store_hebrew_as_typed(tmp_path: Path) -> None:
    typed = ["שאלה 3 (c)", "תשובה: 25.77 GB", "(I) פרמטרים של LoRA"]
    md = tmp_path / "r.md"
    md.write_text("\n\n".join(typed) + "\n", encoding="utf-8")
    assert [ln for ln in read_document(md).text.splitlines() if ln.strip()] == typed
    body = [f"<w:p><w:pPr><w:bidi/></w:pPr><w:r><w:rPr><w:rtl/></w:rPr><w:t xml:space=\"preserve\">"
            f"{line}</w:t></w:r></w:p>" for line in typed]
    docx = word_file(tmp_path, body)
    assert [ln for ln in read_document(docx).text.splitlines() if ln.strip()] == typed
