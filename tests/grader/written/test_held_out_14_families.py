"""Held-out-14's families (one class as a TA receives it): a label alone on its line
("3c", "3e ii", "q3a ii", typed on a phone), lines a writer broke by hand inside a PDF
paragraph (Google Docs, Word's Shift+Enter, HTML's <br>), a page's navigation one entry a
line, a result printed large as the end of its equation ("= 0.065 %"), and an answer's
parts stated a line each under "**Answer:**"."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.labels import read_mark
from grader.written.vocabulary import contents_lines, value_alone

pymupdf = pytest.importorskip("pymupdf", reason="the reports extra reads PDFs with pymupdf")


@pytest.mark.parametrize(("line", "path"), [
    ("3c", ("?", "3", "c", None)),
    ("3 c", ("?", "3", "c", None)),
    ("3e ii", ("?", "3", "e", "ii")),
    ("3e iii", ("?", "3", "e", "iii")),
    ("q3a ii", ("q", "3", "a", "ii")),
    ("q3 a ii", ("q", "3", "a", "ii")),
    ("Q3 a", ("q", "3", "a", None)),
])
def test_a_label_alone_on_its_line_is_read_whole(line, path):
    mark = read_mark(line, heading=False)
    assert mark is not None and mark.paths == (path,)


@pytest.mark.parametrize("line", ["3d 14.5 billion", "3 GB", "2 × 48"])
def test_a_number_and_letter_followed_by_more_is_no_lone_label(line):
    mark = read_mark(line, heading=False)
    assert mark is None or mark.paths[0][2] is None


PHONE = """stat8021 a3 part 3 - typed on my phone

q3a ii
Softmax: e^3/(e^0.5+e^0.1+e^3+e^0.2+e^1) = 20.09/26.78
-> p(mat) = 0.75

3c
48 heads x 16384 x 16384 x 2 bytes = 25,769,803,776 bytes
-> 25.8 GB

3e ii
9437184 x 8 bytes = 75,497,472 bytes
-> 75.5 MB
"""


def test_a_report_labelled_by_lone_lines_is_read_part_by_part():
    questions = [QuestionSpec("q3a2", ("Q3 (a)",), part="(II)"),
                 QuestionSpec("q3c", ("Q3 (c)",)),
                 QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]
    found = extract_answers(PHONE, questions)
    assert {k: v.answer for k, v in found.items()} == {
        "q3a2": "0.75", "q3c": "25.8 GB", "q3e2": "75.5 MB"}


def _wrap(text: str, width: float, size: float = 11) -> list[str]:
    lines, current = [], ""
    for word in text.split(" "):
        longer = f"{current} {word}".strip()
        if current and pymupdf.get_text_length(longer, "helv", size) > width:
            lines.append(current)
            current = word
        else:
            current = longer
    return [*lines, current]


def _pdf(path: Path, lines: list[str]) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for k, line in enumerate(lines):
        page.insert_text((72, 100 + 14 * k), line, fontsize=11, fontname="helv")
    doc.save(path)
    return path


def test_lines_broken_by_hand_stay_lines_and_a_wrapped_paragraph_stays_one(tmp_path):
    from grader.written.reading import read_document

    prose = ("The softmax of the logits gives the probability of the target word, and the "
             "cross-entropy loss is the negative natural log of that probability, which is "
             "what the model minimises during pre-training on unlabelled text.")
    wrapped = _wrap(prose, 468)  # a 1-inch margin on Letter paper
    assert len(wrapped) >= 2
    hand = ["II. softmax: e^3 / (e^0.5 + e^0.1 + e^3) = 20.09 / 26.78",
            "Ans: probability = 0.75", "cross entropy = -ln(0.75)", "Ans: loss = 0.29"]
    text = read_document(_pdf(tmp_path / "broken.pdf", wrapped + hand)).text
    assert text.splitlines() == [prose, *hand]


def test_the_answer_after_working_broken_by_hand_is_read(tmp_path):
    from grader.written.reading import read_document

    lines = ["Q3(a)", "II. softmax: e^3 / (e^0.5 + e^0.1 + e^3 + e^0.2 + e^1) = 20.09 / 26.78",
             "Ans: probability = 0.75", "cross entropy = -ln(0.75)", "Ans: loss = 0.29"]
    path = _pdf(tmp_path / "gdocs.pdf", lines)
    text = read_document(path).text
    found = extract_answers(text, [
        QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability", "softmax")),
        QuestionSpec("loss", ("Q3 (a)",), part="(II)",
                     labels=("loss", "cross-entropy", "cross entropy", "-ln"))])
    assert (found["p"].answer, found["loss"].answer) == ("0.75", "0.29")


def test_a_navigation_one_entry_a_line_opens_no_section():
    lines = ["Q3 (a) (I) Objective", "Q3 (a) (II) Softmax and loss", "Q3 (b) Architectures",
             "Q3 (c) Attention-score memory", "Home › Assignment 3 › Part 3",
             "## Q3 (a) (I) Objective", "The model predicts the next token."]
    assert contents_lines(lines) == {0, 1, 2, 3}
    # three headings one under another, with their sections between them, are no navigation
    assert contents_lines(["## Q3 (c)", "25.77 GB", "## Q3 (d)", "14.5 billion",
                           "## Q3 (e)", "0.065 %"]) == set()


@pytest.mark.parametrize(("text", "alone"), [
    ("= 0.065 %", True), ("≈ 25.77 GB", True), ("9,437,184 params", True),
    ("= x + y", False), ("3 Results", False),
])
def test_a_result_printed_large_may_open_with_its_equals_sign(text, alone):
    assert value_alone(text) is alone


ANSWER_FIRST = """## Exercise 3
**Answer:**
Language-model network: **21,018,401** trainable parameters
Classifier network: **10,968,602** trainable parameters
Breakdown (n_hid = 200, 4 layers):
| block | count |
|---|---|
| classifier head 200 × 2 + 2 | 402 |
So 10,000,200 + 968,000 + 10,050,201 for the language model and
10,000,200 + 968,000 + 402 for the classifier.
"""


def test_parts_stated_a_line_each_under_the_answer_word_beat_the_working_after_them():
    specs = [QuestionSpec("lm", ("Exercise 3",), part="Language-model network"),
             QuestionSpec("cls", ("Exercise 3",), part="Classifier network")]
    found = extract_answers(ANSWER_FIRST, specs)
    assert (found["lm"].answer, found["cls"].answer) == ("21,018,401", "10,968,602")


def test_the_tail_of_a_longer_expression_is_no_formula():
    from grader.written.formulas import formulas_in_line

    symbols = {"nlayers": 4, "nhid": 200}
    found = formulas_in_line("cls_total <- emb + nlayers * layer + cls_head", symbols,
                             ["nlayers", "nhid"])
    assert all(not text.lstrip().startswith("+")
               for text in ("cls_total <- emb + nlayers * layer + cls_head"[s:e]
                            for s, e, _, _ in found))


def test_a_text_box_in_vml_alone_is_read(tmp_path):
    """A floating text box written as VML only (``w:pict``, no mc:AlternateContent: Word
    2003's format, LibreOffice): its answer is on the page, so it is in the reading."""
    from grader.written.reading import read_document
    from tests.grader.written._word import word_file

    def p(*runs: str) -> str:
        return "<w:p>" + "".join(runs) + "</w:p>"

    def r(text: str) -> str:
        return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'

    box = ('<w:r><w:pict><v:shape id="Text Box 2" type="#_x0000_t202" '
           'style="position:absolute;margin-left:318pt;width:150pt;height:58pt">'
           "<v:textbox><w:txbxContent>" + p(r("Q1 result")) + p(r("Total: 22,696,960"))
           + "</w:txbxContent></v:textbox></v:shape></w:pict></w:r>")
    body = [p(r("Question 1")), p(r("Counting the parameters of the encoder:"), box),
            p(r("Token embeddings: 32000 × 512 = 16,384,000"))]
    text = read_document(word_file(tmp_path, body)).text
    assert "22,696,960" in text
    assert text.index("Total: 22,696,960") < text.index("Token embeddings")


def test_code_among_prose_in_a_pdf_is_fenced(tmp_path):
    """An R Markdown chunk printed to PDF: its output "## [1] 10968602" is no heading and
    its assignment no formula; the prose around it is read as prose."""
    from grader.written.reading import read_document

    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    lines = [("helv", "Question 3"), ("helv", "I counted the parameters by hand in R."),
             ("cour", "cls_head <- nhid * nclasses + nclasses"), ("cour", "cls_total"),
             ("cour", "## [1] 10968602"),
             ("helv", "With the 2-class head the classifier has 10,968,602 parameters."),
             ("helv", "Almost half of the LM model was its output layer.")]
    y, last = 100, "helv"
    for font, text in lines:
        y += 30 if font != last else 0  # the chunk's box: a block of its own
        page.insert_text((72, y), text, fontsize=11, fontname=font)
        y += 24 if font == "helv" else 13
        last = font
    doc.save(tmp_path / "rmd.pdf")
    text = read_document(tmp_path / "rmd.pdf").text.splitlines()
    assert text[2:7] == ["```", "cls_head <- nhid * nclasses + nclasses", "cls_total",
                         "## [1] 10968602", "```"]
    found = extract_answers("\n".join(text), [QuestionSpec("cls", ("Question 3",))])
    assert found["cls"].answer == "10,968,602"


def test_a_page_navigation_under_its_title_opens_no_section():
    """Quarto prints its "On this page" margin beside the text; read in the flow, its
    entries ("3.2 Classification task") would open the part before the real heading."""
    lines = ["LM head (weight)", "**On this page**", "1 Question 1", "2 Question 2",
             "3.1 Language modeling task", "task", "3.2 Classification task",
             "4 Question 4", "**Total**", "3.2 Classification task", "Same body, new head:"]
    assert contents_lines(lines) == {2, 3, 4, 5, 6, 7, 8}
    # a heading "Contents" over prose is no navigation
    assert contents_lines(["## Contents", "This report holds my answers to all parts.",
                           "Q3 (c)", "25.77 GB"]) == set()


def test_a_paragraph_wrapped_in_a_narrow_box_stays_one(tmp_path):
    """A box narrower than the page (a sidebar, a grid's column) wraps its paragraph at its
    own edge: its lines end short of the page's, yet none of them was broken by hand."""
    from grader.written.reading import read_document

    prose = ("The memory of a Transformer grows with the sequence length because every head "
             "keeps a score for every pair of positions, and the optimiser keeps two states.")
    boxed = "Each score is stored in two bytes, so all scores of one head take 0.54 GB while the weights take far less."
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 100
    for line in _wrap(prose, 468):
        page.insert_text((72, y), line, fontsize=11, fontname="helv")
        y += 14
    y += 30  # the box: a block of its own
    for line in _wrap(boxed, 190):
        page.insert_text((72, y), line, fontsize=11, fontname="helv")
        y += 14
    doc.save(tmp_path / "box.pdf")
    lines = read_document(tmp_path / "box.pdf").text.splitlines()
    assert lines == [prose, boxed]
