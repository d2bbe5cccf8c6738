"""Held-out-37 and -38's families: a Word text box anchored mid-paragraph (its text ends
where the box does), headings a screen-reader user announces in words, and a sub-part
spelled out ("part e, subpart 2")."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.labels import read_mark
from grader.written.reading.plain import read_plain

C_D = [QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",))]

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _boxed_docx(path: Path) -> None:
    """A Word file whose answers sit in text boxes anchored in a paragraph of working, the
    working's text after the anchor (as Word writes a floating box)."""
    docx = pytest.importorskip("docx")
    from docx.oxml import parse_xml
    document = docx.Document()
    for label, working, answer in (
            ("Q3 (c)", "48 × 16,384^2 = 12,884,901,888 scores; 2 bytes each = 25,769,803,776 "
             "bytes.", "Answer: 25.77 GB"),
            ("Q3 (d)", "Per layer 302,020,608; × 48 layers = 14,496,989,184.",
             "Answer: 14.50 billion")):
        document.add_heading(label, level=1)
        paragraph = document.add_paragraph()
        box = parse_xml(
            f'<w:r xmlns:w="{_W}"><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml">'
            f'<v:textbox><w:txbxContent><w:p><w:r><w:rPr><w:b/></w:rPr><w:t>{label}</w:t>'
            f'</w:r></w:p><w:p><w:r><w:t>{answer}</w:t></w:r></w:p></w:txbxContent>'
            '</v:textbox></v:shape></w:pict></w:r>')
        paragraph._p.append(box)
        paragraph.add_run(working)
    document.save(path)


def test_text_after_a_text_boxs_anchor_is_the_paragraphs(tmp_path: Path):
    from grader.written.reading import read_document
    _boxed_docx(tmp_path / "boxes.docx")
    text = read_document(tmp_path / "boxes.docx").text
    assert "| **Q3 (c)** | Answer: 25.77 GB |" in text
    assert "\n48 × 16,384^2 = 12,884,901,888 scores" in text
    assert {k: v.answer for k, v in extract_answers(text, C_D).items()} == {
        "c": "25.77 GB", "d": "14.50 billion"}


def test_headings_announced_in_words_are_headings(tmp_path: Path):
    report = tmp_path / "nvda.txt"
    report.write_text("""Note: I write with a screen reader.

Heading level 2: Question 3 part c.
The number of scores is 48 times 16384 squared, which is 12,884,901,888 scores.
Answer for part c: 25.77 gigabytes (GB).

Heading 2: Question 3 part d.
Answer for part d: 14.50 billion parameters.
""", encoding="utf-8")
    text = read_plain(report).text
    assert "## Question 3 part c\n" in text
    assert {k: v.answer for k, v in extract_answers(text, C_D).items()} == {
        "c": "25.77 gigabytes", "d": "14.50 billion"}
    # a sentence that starts with the word is no heading
    other = tmp_path / "other.txt"
    other.write_text("Heading into part d: the FFN.\n", encoding="utf-8")
    assert read_plain(other).text.startswith("Heading into part d")


@pytest.mark.parametrize("label", ["Question 3 part e, subpart 2", "Q3 (e), sub-part 2",
                                   "Part (e), subpart ii"])
def test_a_sub_part_spelled_out_is_the_parts_numeral(label: str):
    mark = read_mark(label, True)
    assert mark is not None and mark.paths[0][2:] == ("e", "ii")


E_PARTS = [QuestionSpec("e1", ("Q3 (e)(I)",)), QuestionSpec("e2", ("Q3 (e)(II)",))]


def test_a_part_then_its_sub_part_after_a_comma_answers_that_sub_part(tmp_path: Path):
    """A screen-reader user's "Part e, subpart 1." headings under "Question 3 part e",
    each answered "Answer for part e, subpart 1: …" after its working: the sub-part's
    number is the label's, and the line is the answer's, not the working's "that is"."""
    report = tmp_path / "jaws.txt"
    report.write_text("""Heading level 2: Question 3 part e.

Heading level 3: Part e, subpart 1.
A is r times H. That is 2 times 8 times 6144, which is 98,304 for one matrix.
Answer for part e, subpart 1: 9,437,184 trainable parameters.

Heading level 3: Part e, subpart 2.
Two moments of 4 bytes each. That is 8 bytes per parameter, 75,497,472 bytes.
Answer for part e, subpart 2: 75.50 megabytes (MB).
""", encoding="utf-8")
    text = read_plain(report).text
    assert {k: v.answer for k, v in extract_answers(text, E_PARTS).items()} == {
        "e1": "9,437,184", "e2": "75.50 megabytes"}
    mark = read_mark("Part e, subpart 1.", True)
    assert mark is not None and mark.paths[0][2:] == ("e", "i")


def test_excels_tab_delimited_text_is_one_table_with_its_unit_column(tmp_path: Path):
    report = tmp_path / "sheet.txt"
    report.write_bytes(
        b"Question\tWorking\tAnswer\tUnit\r\nSTAT8021 A3 Part 3 - Daniel Osei\t\t\t\r\n\t\t\t\r\n"
        b"Q3 (a)(II)\tsoftmax of the logits\t\t\r\n\tp(mat)\t0.75\t\r\n"
        b"\tloss = -ln(0.75)\t0.2876\tnats\r\n"
        b"Q3 (c)\t48 x 16384^2 x 2 bytes / 10^9\t25.77\tGB\r\n")
    text = read_plain(report).text
    assert "| Q3 (c) | 48 x 16384^2 x 2 bytes / 10^9 | 25.77 GB |" in text
    specs = [QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability")),
             QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "-ln")),
             QuestionSpec("c", ("Q3 (c)",))]
    # the rows under "Q3 (a)(II)" leave their first cell empty: their second names them
    assert {k: v.answer for k, v in extract_answers(text, specs).items()} == {
        "p": "0.75", "loss": "0.2876", "c": "25.77 GB"}  # "nats" names no unit
    # a tab that indents code is no table
    code = tmp_path / "code.txt"
    code.write_text("def f():\n\treturn 1\n\treturn 2\n", encoding="utf-8")
    assert "|" not in read_plain(code).text


def test_a_unit_column_under_a_sheets_column_letters_and_title_joins_its_values():
    from grader.written.reading.normalise import unit_columns
    text = """| A | B | C | D |
| **STAT8021 A3 – Part 3 (Q3)** |  |  |  |
| **Label** | **Formula** | **Value** | **Unit** |
| Q3 (c) attention scores | =C13^2*2/10^9 | **0.537** | GB |
| Q3 (e)(III) LoRA / FFN | =C16/(C15*10^9) | **0.0651%** |"""
    lines = unit_columns(text).splitlines()
    assert "| **0.537** GB |" in lines[3].replace("  ", " ")
    assert lines[4] == "| Q3 (e)(III) LoRA / FFN | =C16/(C15*10^9) | **0.0651%** |"


def test_a_contents_of_links_with_neither_title_nor_page_numbers_opens_nothing():
    from grader.written.vocabulary import contents_lines
    lines = ["# Transfer Lab B report", "Sofia Lindgren", "Question 1", "Tasks 3 and 4",
             "Question 2", "## Question 1", "Total: **22,829,056**", "## Tasks 3 and 4",
             "pre-trained, seed 1: best val 0.853 at step 1200, test 0.841", "## Question 2",
             "r = 16"]
    assert contents_lines(lines) == {2, 3, 4}
    # two such lines are no contents, nor lines naming headings out of their order
    assert contents_lines(["Question 2", "Question 1", "Tasks 3 and 4", "## Question 1",
                           "## Tasks 3 and 4", "## Question 2"]) == set()
