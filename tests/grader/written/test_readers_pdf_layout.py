"""The readers on the ways students set the same thing, family by family (issue 15).

PDF: ``tests/fixtures/documents/variants-latex.pdf`` (pdfLaTeX, two columns) and
``variants-mathml.pdf`` (MathML printed by Chromium), made by ``make_variants.py``.
Each assertion is on something the raw PyMuPDF text gets wrong (checked first, so the
tests cannot pass by accident): a justified line stretched around inline mathematics,
stacked fractions (numerator line, bar, denominator line), a table cell taller than its
row. Word: .docx files built here with python-docx, with what Word writes and python-docx
does not read as text: automatic list numbers, Office Math, soft line breaks, text
boxes, symbol-font characters, headings set by size.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from calculators.answers.parse import parse_answer
from grader.written.reading import read_document
from tests.grader.written._word import word_file

pymupdf = pytest.importorskip("pymupdf", reason="the reports extra reads PDFs with pymupdf")

DOCS = Path(__file__).parents[2] / "fixtures" / "documents"


def _raw(name: str) -> str:
    with pymupdf.open(DOCS / name) as doc:
        return "\n".join(page.get_text() for page in doc)


@pytest.fixture(scope="module")
def latex() -> list[str]:
    return read_document(DOCS / "variants-latex.pdf").text.splitlines()


@pytest.fixture(scope="module")
def mathml() -> list[str]:
    return read_document(DOCS / "variants-mathml.pdf").text.splitlines()


def _line(lines: list[str], start: str) -> str:
    found = [ln for ln in lines if ln.startswith(start)]
    assert len(found) == 1, (start, lines)
    return found[0]


def test_the_variants_are_hard_for_a_plain_extractor():
    latex, mathml = _raw("variants-latex.pdf"), _raw("variants-mathml.pdf")
    assert "20.09\n26.78" in latex  # numerator and denominator on lines of their own
    assert "20.0855\n26.7791" in mathml
    assert "decoder (with bias)\n200 × 50001 +" in mathml  # a cell taller than its row
    assert "= 9, 437, 184" in mathml
    assert "P" in latex and "∑" not in latex  # TeX's big sum has no Unicode in the PDF
    assert "need in total\n25.77 GB" in latex and "adapters add\n1\n" in latex  # apart


# -- family 1: justified lines stretched around inline mathematics ----------------------


def test_a_justified_list_item_with_a_big_operator_stays_one_paragraph(latex):
    """The spaces of a justified line widen past a table's cell gap around inline math,
    and the item's next line hangs under its text: still one paragraph, each label
    before its value, never a table row."""
    item = _line(latex, "(a) ")
    assert "p(mat) = e^3/ ∑_i e^z_i ≈ 0.7500 and the loss is − ln p(mat) ≈ 0.2876 nats." in item
    assert [ln for ln in latex if ln.startswith("|")][0] == "| Model | Params | Memory | Time | Seeds |"
    product = _line(latex, "(b) ")
    assert "∏_k q_k ≈ 0.12" in product and product.endswith("− log_2 p ≈ 0.4150 bits.")


def test_a_value_opening_the_next_column_or_page_stays_with_its_label(latex):
    """"... need in total" ends column 1, "25.77 GB of memory" opens column 2; "The
    adapters add" ends page 1. Page 2's columns start on one baseline: its right column's
    first line ("**75.5 MB**.") is not the left column's line carried on."""
    assert (
        "(c) Each score takes two bytes, and with h = 48 heads the scores need in total "
        "25.77 GB of memory, far more than one GPU holds."
    ) in latex
    assert (
        "(d) The adapters add 9,437,184 trainable parameters, and the states of Adam take "
        "**75.5 MB**."
    ) in latex


def test_lines_stretched_word_by_word_are_a_paragraph_and_a_table_stays_a_table(latex):
    """Forced line breaks stretch a justified line's spaces past a table's cell gap, line
    after line; their words line up with nothing, while a table's columns do."""
    assert (
        "(e) Each score takes two bytes, and with h = 48 heads the scores need in total "
        "25.77 GB of memory, far more than one GPU holds. The adapters add 9,437,184 "
        "trainable parameters, and the states of Adam take **75.5 MB**, as the table shows."
    ) in latex
    at = latex.index("| Model | Params | Memory | Time | Seeds |")
    assert latex[at + 1 : at + 4] == [
        "| base | 110 M | 0.44 GB | 1.0 h | 1, 2, 3 |",
        "| large | 340 M | 1.36 GB | 13.2 h | 1, 2 |",
        "| xl | 1,500 M | 6 GB | 30 h | 1 |",
    ]


# -- family 2: stacked fractions ----------------------------------------------------------


def test_tex_fractions_are_written_linearly(latex):
    assert "p = e^3/(e^0.5+e^3) ≈ 0.9241 stays one formula." in _line(latex, "The inline")
    assert "p = e^3.0/(∑_j e^z_j) = 20.09/26.78 = 0.75" in latex
    # −ln of the whole fraction; two display equations one under the other stay two lines
    assert "L = − ln (e^3/(e^0.5 + e^0.1 + e^3 + e^0.2 + e^1)) = 0.2876" in latex
    assert "r = 75.5/115.98 · 1/1000 = 0.00065" in latex
    # MuPDF sets the numerator in the row's line and the denominator in a block of its
    # own, a whole line under it (the bar between them, the denominator centred on it)
    assert "mem = (48 × 16384^2 × 2)/10^9 GB = 25.77 GB" in latex
    # a display sum's limits, set under and over it, are its scripts, the lower first
    assert "N = ∑_(l=1)^48 2rH = 9,437,184" in latex


def test_mathml_fractions_printed_by_chromium_are_written_linearly(mathml):
    assert (
        "**(II)** p ( mat ) = e^3/(e^0.5 + e^0.1 + e^3 + e^0.2 + e^1) is the probability "
        "of the masked word."
    ) in mathml
    # a sum with its index and a nested subscript in the denominator, after −ln
    assert "The loss is L = − ln (e^3/(∑_j e^z_j)) nats." in mathml
    # a display fraction MuPDF puts in two blocks, and two small fractions side by side
    assert "p = 20.0855/26.7791 = 0.7500" in mathml
    assert "Two fractions: 1/2 × 3/4 = 0.375." in mathml
    assert "mem = (48 × 16384^2 × 2)/10^9 GB = 25.77 GB" in mathml
    assert "N = ∑_(l= 1)^48 2rH = 9,437,184" in mathml  # "l" and "= 1" set apart
    # digit groups Chromium sets as separators ("= 9, 437, 184") are one number
    assert "The adapters add 2rH × 96 = 9,437,184 parameters." in mathml


def test_a_rebuilt_fraction_is_a_formula_the_answer_parser_evaluates(mathml):
    line = _line(mathml, "**(II)**")
    formula = line.split(" = ", 1)[1].split(" is the")[0]
    assert abs(float(parse_answer(formula).value) - 0.7500) < 1e-4
    latex_loss = "− ln (e^3/(e^0.5 + e^0.1 + e^3 + e^0.2 + e^1))".replace("−", "-")
    assert abs(float(parse_answer(latex_loss).value) - 0.2876) < 1e-4


def test_a_table_cell_taller_than_its_row_is_not_a_fraction(mathml):
    """Two lines centred on a row look like a numerator and a denominator; no bar is
    drawn between them, and the cell's borders hold the whole row."""
    assert "| decoder (with bias) | 200 × 50001 + 50001 = 10,050,201 |" in mathml
    assert not any("/10,050,201" in ln for ln in mathml)


def test_the_corpus_fractions_are_read(corpus_pdf):
    assert "p(mat) = e^3.0/(e^0.5 + e^0.1 + e^3.0 + e^0.2 + e^1.0) = 0.7500" in corpus_pdf(
        "p3-latex-terse"
    )
    assert "**III.** (75.5 MB)/(115.98 GB) = 0.065%" in corpus_pdf("p3-latex-boxed")


def test_a_page_in_two_columns_is_read_column_by_column_not_as_a_table(corpus_pdf):
    """A grid of question (left) and answer (right), each cell its own block between the
    same borders, printed by Chromium: the raw text interleaves nothing, but read as a
    table every printed line was a row, '| …, 2 | **Memory = … = 25.77 GB** |', and the
    answer a shotgun of the question's figures and the working. Cells that hold
    paragraphs are a page in columns: each paragraph is a line, the question's first."""
    raw = _raw_corpus("h6-p3-word-twocol")
    assert "Memory = 2.577e10 B = 25.77 GB" in raw  # a line of its own in the raw text too
    lines = corpus_pdf("h6-p3-word-twocol")
    at = lines.index("**Q3 (c)**")
    assert lines[at:at + 4] == [
        "**Q3 (c)**",
        "Memory of the attention score matrix QK^T, all 48 heads, S = 16,384, 2 bytes per "
        "score, in GB.",
        "h·S^2 = 48 × 16384^2 = 1.2885e10 scores; × 2 bytes = 2.577e10 bytes.",
        "**Memory = 2.577e10 B = 25.77 GB**",
    ]
    # two bold results under the working, set apart by a margin, are two lines
    assert "**p(mat) = 0.7500**" in lines and "**loss = −ln(0.7500) = 0.2876**" in lines
    assert not any(ln.startswith("|") for ln in lines)


def test_digit_groups_a_math_font_spaces_are_one_number(corpus_pdf):
    """Typst (and TeX without {,}) set a space after each comma in mathematics: the text
    layer says '25, 769, 803, 776', four small numbers to anything reading it."""
    from grader.written.reading.pdf_page import _digit_groups

    assert "25, 769, 803, 776" in _raw_corpus("h6-p3-latex-answerfirst")
    text = "\n".join(corpus_pdf("h6-p3-latex-answerfirst"))
    assert "at 2 bytes each 25,769,803,776 bytes." in text
    assert "two matrices per layer and 48 layers: 98,304 × 96." in text
    assert "115,964,116,992/75,497,472 ≈1536" in text
    # a tuple or set of numbers, a list of small ones, decimals: as they stand
    for kept in ("(128, 256, 512)", "{128, 256}", "1, 2, 3", "[0.5, 0.1, 3.0]", "0.5, 100"):
        assert _digit_groups(kept) == kept


def test_a_heading_that_wraps_into_the_next_block_and_soft_hyphens(corpus_pdf):
    """Typst sets a heading's last words in the block of the paragraph under it, and
    hyphenates with a soft hyphen (U+00AD) the PDF keeps: read as it stood, the heading
    lost 'loss' to a bold run-in '**loss** The softmax…', and 'lan\xad guage' kept a
    space mid-word."""
    raw = _raw_corpus("h4-p3-latex-typst")
    assert "lan\xad\nguage" in raw or "lan\xad \nguage" in raw or "lan-\nguage" in raw
    lines = corpus_pdf("h4-p3-latex-typst")
    assert "### A.2 (II) Probability of “mat” and the loss" in lines
    assert any(ln.startswith("The softmax over the five logits") for ln in lines)
    assert "### A.1 (I) Objective" in lines
    text = "\n".join(lines)
    assert "causal language-modelling objective" in text and "training minimises" in text
    assert "\xad" not in text
    # a variation selector the math font keeps after a glyph ('L\ufe00=') is dropped
    assert "\ufe00" in raw and "L= −log_2 p(mat)" in text


def _raw_corpus(stem: str) -> str:
    with pymupdf.open(DOCS.parent / "report-corpus" / "reports" / f"{stem}.pdf") as doc:
        return "\n".join(page.get_text() for page in doc)


@pytest.fixture(scope="module")
def corpus_pdf():
    reports = DOCS.parent / "report-corpus" / "reports"

    def read(stem: str) -> list[str]:
        return read_document(reports / f"{stem}.pdf").text.splitlines()

    return read


# -- family 3: Word documents as Word writes them ---------------------------------------

def _docx(
    tmp_path: Path, body: list[str], numbering: str = "", styles: str = "", name: str = "r.docx"
) -> Path:
    """A .docx as Word writes it (``tests/grader/written/_word.py``)."""
    return word_file(tmp_path, body, numbering, styles, name)


def _p(*runs: str, ppr: str = "") -> str:
    return f"<w:p>{f'<w:pPr>{ppr}</w:pPr>' if ppr else ''}{''.join(runs)}</w:p>"


def _r(text: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def _numpr(num: int, level: int = 0) -> str:
    return f'<w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num}"/></w:numPr>'


LISTS = """
<w:abstractNum w:abstractNumId="70"><w:lvl w:ilvl="0"><w:start w:val="1"/>
<w:numFmt w:val="lowerLetter"/><w:lvlText w:val="(%1)"/></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%2."/>
</w:lvl></w:abstractNum>
<w:abstractNum w:abstractNumId="71"><w:lvl w:ilvl="0"><w:start w:val="3"/>
<w:numFmt w:val="decimal"/><w:lvlText w:val="Q%1"/></w:lvl></w:abstractNum>
<w:num w:numId="70"><w:abstractNumId w:val="70"/></w:num>
<w:num w:numId="71"><w:abstractNumId w:val="70"/></w:num>
<w:num w:numId="72"><w:abstractNumId w:val="70"/><w:lvlOverride w:ilvl="0">
<w:startOverride w:val="1"/></w:lvlOverride></w:num>
<w:num w:numId="73"><w:abstractNumId w:val="71"/></w:num>
"""


def test_word_list_numbers_are_written_before_their_paragraphs(tmp_path):
    """Word keeps "(a)", "II." and "Q3" out of the text: they come from numbering.xml.
    A second list of the same definition carries on its letters; one that restarts them
    (startOverride) starts again; a style that numbers its paragraphs numbers them."""
    body = [
        _p(_r("Pre-training"), ppr=_numpr(73)),
        _p(_r("Objective: next-token prediction."), ppr=_numpr(70)),
        _p(_r("p = 0.7500"), ppr=_numpr(70, 1)),
        _p(_r("loss = 0.2876"), ppr=_numpr(70, 1)),
        _p(_r("A remark between the parts.")),
        _p(_r("Decoder-only."), ppr=_numpr(71)),  # carries on: (b)
        _p(_r("Memory: 25.77 GB"), ppr=_numpr(71)),  # (c)
        _p(_r("Another list starts again."), ppr=_numpr(72)),  # (a)
        _p(_r("not numbered"), ppr=_numpr(0)),  # numId 0 switches numbering off
        _p(_r("first step"), ppr='<w:pStyle w:val="ListNumber"/>'),
        _p(_r("second step"), ppr='<w:pStyle w:val="ListNumber"/>'),
    ]
    lines = read_document(_docx(tmp_path, body, LISTS)).text.splitlines()
    assert lines == [
        "Q3 Pre-training",
        "(a) Objective: next-token prediction.",
        "I. p = 0.7500",
        "II. loss = 0.2876",
        "A remark between the parts.",
        "(b) Decoder-only.",
        "(c) Memory: 25.77 GB",
        "(a) Another list starts again.",
        "not numbered",
        "1. first step",
        "2. second step",
    ]


def _math(xml: str) -> str:
    return f"<m:oMath>{xml}</m:oMath>"


def _mr(text: str) -> str:
    return f"<m:r><m:t>{text}</m:t></m:r>"


def test_office_math_is_written_linearly(tmp_path):
    """Equations typed with Word's equation editor (OMML): sums with limits, functions,
    fractions, radicals, matrices and accents, as the answer parser reads them."""
    softmax = _math(
        _mr("p=")
        + "<m:f><m:num><m:sSup><m:e>" + _mr("e") + "</m:e><m:sup>" + _mr("3")
        + "</m:sup></m:sSup></m:num><m:den><m:nary><m:naryPr><m:chr m:val=\"∑\"/></m:naryPr>"
        "<m:sub>" + _mr("i=1") + "</m:sub><m:sup>" + _mr("5") + "</m:sup><m:e><m:sSup><m:e>"
        + _mr("e") + "</m:e><m:sup><m:sSub><m:e>" + _mr("z") + "</m:e><m:sub>" + _mr("i")
        + "</m:sub></m:sSub></m:sup></m:sSup></m:e></m:nary></m:den></m:f>"
    )
    loss = _math(
        _mr("L=−") + "<m:func><m:fName>" + _mr("ln") + "</m:fName><m:e>" + _mr("0.7500")
        + "</m:e></m:func>" + _mr("=0.2876")
    )
    root = _math(
        "<m:rad><m:radPr><m:degHide m:val=\"1\"/></m:radPr><m:deg/><m:e>" + _mr("64")
        + "</m:e></m:rad>" + _mr("=8,  ") + "<m:acc><m:e>" + _mr("y") + "</m:e></m:acc>"
        + _mr("=") + "<m:m><m:mr><m:e>" + _mr("1") + "</m:e><m:e>" + _mr("2")
        + "</m:e></m:mr></m:m>"
    )
    body = [_p(_r("(II) "), softmax), _p(_r("The loss is "), loss), _p(root)]
    lines = read_document(_docx(tmp_path, body)).text.splitlines()
    assert lines[0] == "(II) p=(e^3)/(∑_(i=1)^5 e^(z_i))"
    assert lines[1] == "The loss is L=−ln(0.7500)=0.2876"
    assert lines[2] == "sqrt(64)=8, y=[1, 2]"


def test_soft_line_breaks_start_a_part_only_before_a_marker(tmp_path):
    """Shift+Enter inside one paragraph: "(b) ..." after it is a part of its own (parts
    are found at line starts); "25.77 GB" after it is the same sentence."""
    br = "<w:r><w:br/></w:r>"
    body = [
        _p(_r("(a) p(mat) = 0.7500."), br, _r("(b) The loss is 0.2876.")),
        _p(_r("The scores need"), br, _r("25.77 GB in fp16.")),
        _p(_r("I. 9,437,184 parameters"), br, _r("II. "), _r("75.5 MB", "<w:b/>")),
        _p(_r("Page one"), '<w:r><w:br w:type="page"/></w:r>', _r("(c) after a page break")),
    ]
    lines = read_document(_docx(tmp_path, body)).text.splitlines()
    assert lines == [
        "(a) p(mat) = 0.7500.",
        "(b) The loss is 0.2876.",
        "The scores need 25.77 GB in fp16.",
        "I. 9,437,184 parameters",
        "II. **75.5 MB**",
        "Page one (c) after a page break",
    ]


def test_headings_set_by_size_symbols_text_boxes_and_hidden_text(tmp_path):
    """A student who makes headings by enlarging Normal text, inserts × from the Symbol
    font, writes an answer in a text box (Word stores it twice: DrawingML and VML) and
    hides a draft: the reader sees what the page shows, once."""
    box = (
        '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx>'
        "<w:txbxContent>" + _p(_r("Answer: 14.5 billion")) + "</w:txbxContent></wps:txbx>"
        "</w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox><w:txbxContent>"
        + _p(_r("Answer: 14.5 billion")) + "</w:txbxContent></v:textbox></w:pict>"
        "</mc:Fallback></mc:AlternateContent></w:r>"
    )
    body = [
        _p(_r("Question 3", '<w:b/><w:sz w:val="32"/>')),
        _p(_r("Part (c)", '<w:b/><w:sz w:val="28"/>')),
        _p(_r("48 "), '<w:r><w:sym w:font="Symbol" w:char="F0B4"/></w:r>', _r(" 16,384"),
           _r("2", '<w:vertAlign w:val="superscript"/>'), _r(" "),
           '<w:r><w:sym w:font="Symbol" w:char="F0BB"/></w:r>', _r(" 25.77 GB")),
        _p(_r("draft: 12 GB", "<w:vanish/>"), _r("final, see the box")),
        _p(box),
        _p(_r("A large word in a sentence", '<w:sz w:val="32"/>'), _r(" and normal text.")),
    ]
    lines = read_document(_docx(tmp_path, body)).text.splitlines()
    assert lines == [
        "# Question 3",
        "## Part (c)",
        "48 × 16,384^2 ≈ 25.77 GB",
        "final, see the box",
        "Answer: 14.5 billion",
        "A large word in a sentence and normal text.",
    ]


def test_a_table_inside_a_table_cell_is_read_once(tmp_path):
    def cell(*content: str) -> str:
        return f"<w:tc>{''.join(content)}</w:tc>"

    inner = "<w:tbl>" + "<w:tr>" + cell(_p(_r("fp16"))) + cell(_p(_r("25.77 GB"))) + "</w:tr></w:tbl>"
    outer = (
        "<w:tbl><w:tr>" + cell(_p(_r("Q3(c)"))) + cell(inner, _p())
        + "</w:tr><w:tr>" + cell(_p(_r("Q3(d)"))) + cell(_p(_r("14.5 billion"))) + "</w:tr></w:tbl>"
    )
    lines = read_document(_docx(tmp_path, [outer])).text.splitlines()
    assert lines == ["| Q3(c) | | fp16 | 25.77 GB | |", "| Q3(d) | 14.5 billion |"]


def test_numbered_heading_styles_keep_their_number_after_the_hashes(tmp_path):
    """Word's multilevel heading numbering ("Question 3", "3.1") set through the Heading
    styles: the number is part of the heading's text."""
    numbering = """
<w:abstractNum w:abstractNumId="80"><w:lvl w:ilvl="0"><w:start w:val="3"/>
<w:numFmt w:val="decimal"/><w:lvlText w:val="Question %1"/></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/>
<w:lvlText w:val="(%2)"/></w:lvl></w:abstractNum>
<w:num w:numId="80"><w:abstractNumId w:val="80"/></w:num>
"""
    body = [
        _p(_r("Transformers"), ppr='<w:pStyle w:val="Heading1"/>' + _numpr(80)),
        _p(_r("Pre-training"), ppr='<w:pStyle w:val="Heading2"/>' + _numpr(80, 1)),
        _p(_r("p(mat) = 0.7500")),
        _p(_r("Architectures"), ppr='<w:pStyle w:val="Heading2"/>' + _numpr(80, 1)),
    ]
    lines = read_document(_docx(tmp_path, body, numbering)).text.splitlines()
    assert lines == [
        "# Question 3 Transformers",
        "## (a) Pre-training",
        "p(mat) = 0.7500",
        "## (b) Architectures",
    ]


def test_bold_from_styles_and_cells_merged_down(tmp_path):
    """Bold set by a student's own character style ("Answer") or by a paragraph style,
    a positional tab, and a question cell merged down over its parts' rows (vMerge)."""
    styles = """
<w:style w:type="character" w:styleId="Answer"><w:name w:val="Answer"/><w:rPr><w:b/>
<w:color w:val="C00000"/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="Result"><w:name w:val="Result"/>
<w:basedOn w:val="Normal"/><w:rPr><w:b/></w:rPr></w:style>
<w:style w:type="paragraph" w:styleId="ResultPlain"><w:name w:val="Result plain"/>
<w:basedOn w:val="Result"/><w:rPr><w:b w:val="0"/></w:rPr></w:style>
"""

    def cell(text: str, merge: str = "") -> str:
        pr = f'<w:tcPr><w:vMerge w:val="{merge}"/></w:tcPr>' if merge == "restart" else (
            "<w:tcPr><w:vMerge/></w:tcPr>" if merge else "")
        return f"<w:tc>{pr}{_p(_r(text)) if text else _p()}</w:tc>"

    table = (
        "<w:tbl><w:tr>" + cell("Q3 (e)", "restart") + cell("(I)") + cell("9,437,184")
        + "</w:tr><w:tr>" + cell("", "continue") + cell("(II)") + cell("75.5 MB")
        + "</w:tr><w:tr>" + cell("", "continue") + cell("(III)") + cell("0.065 %")
        + "</w:tr></w:tbl>"
    )
    body = [
        _p(_r("The scores need "), _r("25.77 GB", '<w:rStyle w:val="Answer"/>'), _r(".")),
        _p(_r("Final: 14.5 billion"), ppr='<w:pStyle w:val="Result"/>'),
        _p(_r("Working: 48 layers"), ppr='<w:pStyle w:val="ResultPlain"/>'),
        _p(_r("Answer:"), "<w:r><w:ptab w:relativeTo=\"margin\" w:alignment=\"right\" "
           "w:leader=\"none\"/></w:r>", _r("0.2876")),
        table,
    ]
    lines = read_document(_docx(tmp_path, body, styles=styles)).text.splitlines()
    assert lines == [
        "The scores need **25.77 GB**.",
        "**Final: 14.5 billion**",
        "Working: 48 layers",
        "Answer: 0.2876",
        "| Q3 (e) | (I) | 9,437,184 |",
        "| Q3 (e) | (II) | 75.5 MB |",
        "| Q3 (e) | (III) | 0.065 % |",
    ]
