"""Held-out-11's reader families: a YAML answers file, a Python script handed in as the
report, a PDF whose answers are its annotations, a LaTeX exam-class answer sheet."""

from __future__ import annotations

from pathlib import Path

from grader.written import Reports


def _text(path: Path) -> str:
    return Reports.read([path]).docs[0].text


def test_a_yaml_answers_file_reads_its_key_paths_as_labels(tmp_path: Path) -> None:
    """Nested keys give the path (``q3:`` / ``a:`` / ``II:``): a key path naming a
    question is its heading and a leaf under it its answer line; working and comments
    stay text, the line count is kept."""
    source = (
        "# my answers\n"
        "student:\n"
        "  name: A. Student\n"
        "q3:\n"
        "  a:\n"
        "    II:\n"
        "      working: |\n"
        "        p = 20.09 / 26.78\n"
        "      p_mat: 0.7500\n"
        "      loss: 0.2876   # natural log\n"
        "  c:\n"
        "    answer: \"0.537 GB\"\n"
        "  e:\n"
        "    III:\n"
        "      answer: >\n"
        "        1536x\n"
        "        less\n"
    )
    path = tmp_path / "answers.txt"
    path.write_text(source, encoding="utf-8")
    lines = _text(path).split("\n")
    assert len(lines) == len(source.split("\n"))
    assert lines[3] == "## Q3"
    assert lines[5] == "#### Q3 (a) (ii)"
    assert lines[7] == "p = 20.09 / 26.78"
    assert lines[8] == "Answer: **Q3 (a) (ii) p_mat** = 0.7500"
    assert lines[9] == "Answer: **Q3 (a) (ii) loss** = 0.2876 (natural log)"
    assert lines[11] == "Answer: **Q3 (c)** = 0.537 GB"
    assert lines[14] == "Answer: **Q3 (e) (iii)** = 1536x less"
    assert lines[1:3] == ["student:", "  name: A. Student"]


def test_prose_with_colons_is_no_yaml_file(tmp_path: Path) -> None:
    """A report whose lines say ``Note: …`` is kept as written."""
    source = "Q3:\n  Note: the answer is below.\n(c) 0.54 GB\nWorking: 2 bytes\n"
    path = tmp_path / "report.txt"
    path.write_text(source, encoding="utf-8")
    assert _text(path).split("\n")[:4] == source.split("\n")[:4]


def test_a_python_script_reads_its_comments_and_docstrings_as_the_report(tmp_path: Path) -> None:
    """A banner comment naming a question is its heading, comments and docstrings are
    text, and code is fenced, so the program's constants are no answer."""
    source = (
        '"""My report as a script."""\n'
        "import math\n"
        "\n"
        "NTOKEN, NHID = 50001, 200\n"
        "\n"
        "# ------------------------------ Question 3 ----\n"
        "def count_lm():\n"
        '    """Question 3, language modeling task.\n'
        "\n"
        "    # embedding   50001 * 200 = 10,000,200\n"
        "    ANSWER (language modeling task): 20,857,601\n"
        '    """\n'
        "    return NTOKEN * NHID\n"
        "\n"
        "\n"
        "# Interpretation: scratch ends higher.\n"
    )
    path = tmp_path / "report.txt"
    path.write_text(source, encoding="utf-8")
    lines = _text(path).split("\n")
    assert lines[0] == "My report as a script."
    assert lines[1:5] == ["`import math`", "```", "NTOKEN, NHID = 50001, 200", "```"]
    assert lines[5] == "## Question 3"
    assert lines[6] == "`def count_lm():`"
    assert lines[9] == "embedding   50001 * 200 = 10,000,200"
    assert lines[10] == "ANSWER (language modeling task): 20,857,601"
    assert lines[11:14] == ["```", "    return NTOKEN * NHID", "```"]
    assert lines[15] == "Interpretation: scratch ends higher."


def test_a_text_that_is_no_script_is_kept(tmp_path: Path) -> None:
    """Prose with a ``#`` line is no Python script: Python cannot parse it."""
    source = "# Question 3\nThe count is 20,857,601 parameters.\n"
    path = tmp_path / "report.txt"
    path.write_text(source, encoding="utf-8")
    assert _text(path).split("\n")[:2] == source.split("\n")[:2]


def test_an_exam_sheets_point_tallies_are_no_answers(tmp_path: Path) -> None:
    """``exam``-class points flush right on a part's label line ("(4 points)") are the
    teacher's: dropped, so the label line is no table row whose only number is the 4.
    A student's sentence naming points is kept."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    bold, roman = pymupdf.Font("tibo"), pymupdf.Font("tiro")

    def line(x: float, y: float, text: str, font: pymupdf.Font) -> None:
        writer = pymupdf.TextWriter(page.rect)
        writer.append((x, y), text, font=font, fontsize=11)
        writer.write_text(page)

    line(72, 146, "(c)", bold)
    line(96, 146, "Memory of the attention scores, in GB.", roman)
    line(523 - roman.text_length("(4 points)", fontsize=11), 146, "(4 points)", roman)
    line(104, 180, "Solution: Memory = 25.77 GB", roman)
    line(104, 210, "I lost (2 points) here last time.", roman)
    path = tmp_path / "sheet.pdf"
    doc.save(path)
    lines = _text(path).split("\n")
    assert lines[0].startswith("**(c)**") and "|" not in lines[0]
    assert "4 points" not in lines[0]
    assert "I lost (2 points) here last time." in lines


def test_a_pdfs_freetext_annotations_are_read_beside_their_questions(tmp_path: Path) -> None:
    """Answers typed in FreeText boxes in the margin of the handout are read after the
    question they stand beside, not all at the page's end; a sticky note and a
    highlight add no text."""
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 150), "(c) Memory of the scores of all h = 48 heads, in GB.", fontsize=11)
    page.insert_text((72, 300), "(d) Parameters of the FFN sub-layers, in billions.", fontsize=11)
    page.add_freetext_annot(pymupdf.Rect(412, 138, 586, 170), "(c) 25.77 GB", fontsize=10)
    page.add_freetext_annot(pymupdf.Rect(412, 288, 586, 320), "(d) 14.50 billion", fontsize=10)
    page.add_text_annot((392, 290), "ask the TA about rounding")
    page.add_highlight_annot(pymupdf.Rect(72, 290, 200, 302))
    path = tmp_path / "annotated.pdf"
    doc.save(path)
    lines = [ln for ln in _text(path).split("\n") if ln.strip()]
    assert lines == [
        "(c) Memory of the scores of all h = 48 heads, in GB.",
        "(c) 25.77 GB",
        "(d) Parameters of the FFN sub-layers, in billions.",
        "(d) 14.50 billion",
    ]


def test_a_freetext_box_with_no_drawn_text_is_read_from_its_contents(tmp_path: Path) -> None:
    """A box whose appearance MuPDF draws no text for (a reader that wrote none) is read
    from its /Contents, beside the question it stands by."""
    import pymupdf

    from grader.written.reading.pdf_annotations import annotations_in_place
    from grader.written.reading.pdf_page import _page_blocks

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 150), "(c) Memory of the scores, in GB.", fontsize=11)
    page.insert_text((72, 300), "(d) Parameters of the FFN, in billions.", fontsize=11)
    blocks, _ = _page_blocks(page, 1)
    placed = annotations_in_place(blocks, [((412.0, 138.0, 586.0, 170.0), "FreeText",
                                             "(c) 25.77 GB")], 1)
    assert [ln.text for b in placed for ln in b.lines] == [
        "(c) Memory of the scores, in GB.", "(c) 25.77 GB",
        "(d) Parameters of the FFN, in billions."]
