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
from calculators.answers.reading import read_document

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
    assert "P" in latex and "∑" not in latex  # TeX's big sum has no Unicode in the PDF


# -- family 1: justified lines stretched around inline mathematics ----------------------


def test_a_justified_list_item_with_a_big_operator_stays_one_paragraph(latex):
    """The spaces of a justified line widen past a table's cell gap around inline math,
    and the item's next line hangs under its text: still one paragraph, each label
    before its value, never a table row."""
    item = _line(latex, "(a) ")
    assert "p(mat) = e^3/ ∑_i e^z_i ≈ 0.7500 and the loss is − ln p(mat) ≈ 0.2876 nats." in item
    assert not any(ln.startswith("|") for ln in latex)
    product = _line(latex, "(b) ")
    assert "∏_k q_k ≈ 0.12" in product and product.endswith("− log_2 p ≈ 0.4150 bits.")


# -- family 2: stacked fractions ----------------------------------------------------------


def test_tex_fractions_are_written_linearly(latex):
    assert "p = e^3/(e^0.5+e^3) ≈ 0.9241 stays one formula." in _line(latex, "The inline")
    assert "p = e^3.0/(∑_j e^z_j) = 20.09/26.78 = 0.75" in latex
    # −ln of the whole fraction; two display equations one under the other stay two lines
    assert "L = − ln (e^3/(e^0.5 + e^0.1 + e^3 + e^0.2 + e^1)) = 0.2876" in latex
    assert "r = 75.5/115.98 · 1/1000 = 0.00065" in latex


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


@pytest.fixture(scope="module")
def corpus_pdf():
    reports = DOCS.parent / "report-corpus" / "reports"

    def read(stem: str) -> list[str]:
        return read_document(reports / f"{stem}.pdf").text.splitlines()

    return read
