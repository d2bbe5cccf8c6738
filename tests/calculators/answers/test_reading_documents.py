"""read_document on real reports: a two-column LaTeX PDF, a Chromium-printed Word-like PDF,
a pandoc .docx (tests/fixtures/documents, made by make_documents.py), and Markdown.

Each assertion is on text a plain extractor gets wrong: the raw PyMuPDF/pypdf text of the
same files has "16,3842", "0.54" and "GB" on different lines, the running headers, and
𝟏𝟎,𝟎𝟓𝟎 (checked below, so these tests cannot pass by accident).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec, extract_answers, read_report
from grader.written.reading import Document, read_document

pymupdf = pytest.importorskip("pymupdf", reason="the reports extra reads PDFs with pymupdf")
pytest.importorskip("docx", reason="the reports extra reads .docx with python-docx")

DOCS = Path(__file__).parents[2] / "fixtures" / "documents"


@pytest.fixture(scope="module")
def latex() -> Document:
    return read_document(DOCS / "latex-twocol.pdf")


@pytest.fixture(scope="module")
def chromium() -> Document:
    return read_document(DOCS / "word-like.pdf")


@pytest.fixture(scope="module")
def word() -> Document:
    return read_document(DOCS / "pandoc.docx")


def _raw(name: str) -> str:
    with pymupdf.open(DOCS / name) as doc:
        return "\n".join(page.get_text() for page in doc)


def test_the_fixtures_are_hard_for_a_plain_extractor():
    for name in ("latex-twocol.pdf", "word-like.pdf"):
        raw = _raw(name)
        assert "16,3842" in raw
        assert "0.54\nGB" in raw
    assert "STAT8021 A3 – Chan Tai Man" in _raw("latex-twocol.pdf")
    assert "𝟏𝟎" in _raw("word-like.pdf") and "file:///" in _raw("word-like.pdf")
    assert "Q3 (e)(II) the\nAdam state of\nthe adapters\nmemory" in _raw("word-like.pdf")
    assert "holds 3n2\nhid + 3nhid weights" in _raw("overleaf-article.pdf")  # stacked scripts
    assert "p(mat) = 20.0855\n26.7791 = 0.7500" in _raw("overleaf-article.pdf")  # a fraction


def test_latex_two_column_pdf(latex):
    lines = latex.text.splitlines()
    assert latex.format == "pdf" and latex.reader.startswith("pymupdf 1.")
    assert latex.pages == 2 and latex.needs_ta is None and latex.notes == ()
    # headings by size: the title, \section, \subsection
    assert lines[0] == "# STAT8021 Assignment 3: Part 3"
    assert "## Question 3" in lines and "### Q3 (a)" in lines and "### Q3 (d)" in lines
    # emphasis, superscript, a number joined to its unit across a line break
    assert (
        "With a context of 16,384 tokens the score matrix of one head has 16,384^2 entries, "
        "that is **268,435,456** scores." in latex.text
    )
    assert any("take 0.54 GB while the weights take far less." in ln for ln in lines)
    assert any(ln.endswith("The final answer is **0.54 GB** per head.") for ln in lines)
    # a booktabs table keeps its rows
    assert "| Question | Quantity | Answer |\n| Q3 (c) | KV cache | 25.77 GB |" in latex.text
    # a paragraph cut by the column break is one line again; italics kept
    assert (
        "We omit the biases and the normalization layers. The model then has "
        "**14.5 billion** parameters, about *four times* the base model." in lines
    )
    # list items stay items; running header and "Page N" footer are gone
    assert "I. Scores are kept in half precision." in lines
    assert "II. The optimiser is Adam with two moments per weight." in lines
    assert "STAT8021 A3" not in latex.text and "Part 3 answers" not in latex.text
    assert not any(ln.startswith("Page ") for ln in lines)
    assert latex.line_pages is not None and len(latex.line_pages) == len(lines)
    assert latex.line_pages[0] == 1 and latex.line_pages[-1] == 2


@pytest.mark.browser
def test_chromium_printed_pdf(chromium):
    lines = chromium.text.splitlines()
    assert chromium.pages == 2 and chromium.reader.startswith("pymupdf")
    assert lines[:3] == ["# STAT8021 Assignment 3", "## Question 3", "### Q3 (a)"]
    assert "16,384^2 entries, that is **268,435,456** scores." in lines[3]
    assert (
        "Each score is stored in two bytes, so all scores of one head take 0.54 GB while the "
        "weights take far less." in lines
    )
    assert "The small model has 10,050 parameters;" in chromium.text  # NFKC of 𝟏𝟎,𝟎𝟓𝟎
    assert "| **Question** | **Quantity** | **Answer** |" in lines
    assert "| Q3 (d) | parameters | 14.5 billion |" in lines
    # a row whose first cell wraps over three lines is still one row
    assert "| Q3 (e)(II) the Adam state of the adapters | memory | 75.5 MB |" in lines
    # Chromium's own header and footer (date, title, file URL, "1/2") are dropped
    assert "file://" not in chromium.text and "A3 report - Chan Tai Man" not in chromium.text
    assert not any(ln.strip() in ("1/2", "2/2") for ln in lines)
    assert not any(ln.endswith(("AM", "PM")) for ln in lines)


def test_word_docx(word):
    lines = word.text.splitlines()
    assert (word.format, word.pages, word.needs_ta) == ("docx", None, None)
    assert word.reader.startswith("python-docx ")
    assert lines[0] == "# STAT8021 Assignment 3: Part 3"
    assert "# Question 3" in lines and "## Q3 (b)" in lines
    assert "16,384^2 entries, that is **268,435,456** scores." in word.text
    assert "| Q3 (c) | KV cache | 25.77 GB |" in lines
    # Word's automatic list numbers are not in the paragraphs' text: they are written in
    assert "I. Scores are kept in half precision." in lines
    assert "II. The optimiser is Adam with two moments per weight." in lines
    # a Word equation (Office Math) is text, not lost
    assert "**14.5 billion** parameters, N=12×d^2 per layer" in word.text


@pytest.mark.parametrize("name", ["latex-twocol.pdf", "word-like.pdf", "pandoc.docx"])
def test_answers_are_found_in_every_format(name):
    text = read_report(DOCS / name).text
    got = extract_answers(
        text,
        [
            QuestionSpec("a", ("Q3 (a)",)),
            QuestionSpec("b", ("Q3 (b)",)),
            QuestionSpec("d", ("Q3 (d)",)),
        ],
    )
    assert got["a"].answer == "268,435,456"
    assert got["b"].answer == "0.54 GB"
    assert got["d"].answer == "14.5 billion"


def test_markdown_and_text_keep_their_lines(tmp_path):
    md = tmp_path / "report.md"
    md.write_text("\ufeff# Q3 (a)\n\nThe model has 𝟏𝟎,𝟎𝟓𝟎 weights, 16,384² scores.\n", "utf-8")
    doc = read_document(md)
    assert (doc.format, doc.reader, doc.pages, doc.needs_ta) == ("markdown", "text", None, None)
    assert doc.text == "# Q3 (a)\n\nThe model has 10,050 weights, 16,384^2 scores.\n"
    txt = tmp_path / "answers"  # no suffix: read as text
    txt.write_text("Q3 (d) 14.5 billion\n", "utf-8")
    assert read_document(txt).format == "text"


def test_without_pymupdf_pypdf_reads_plain_text():
    pytest.importorskip("pypdf")
    from grader.written.reading.pdf import _read_pypdf

    doc = _read_pypdf(DOCS / "latex-twocol.pdf")
    assert doc.reader.startswith("pypdf ") and doc.pages == 2
    assert "268,435,456" in doc.text and "**" not in doc.text


def test_overleaf_default_article():
    raw = _raw("overleaf-article.pdf")
    assert raw.rstrip().endswith("\n1") and "85,054,464" in raw  # bare page number; bold digits
    doc = read_document(DOCS / "overleaf-article.pdf")
    assert doc.text.splitlines() == [
        "# 1 Question 1",
        "The feed-forward block has two matrices and the attention block has four, so the "
        "count per layer follows from the model width and we write it out in full here.",
        "N = 12 × 768^2 = 7,077,888 (1)",
        "With the embeddings added, as the default article class indents every paragraph after "
        "the first, the final count is **85,054,464** parameters for the base model. "
        "The in-projection alone holds 3n_hid^2 + 3n_hid weights, and "
        "p(mat) = 20.0855/26.7791 = 0.7500",
        "## Q1 (b)",
        "Another indented paragraph: the cache holds 2 × 12 × 768 values per token, so a "
        "context of 16,384 tokens in fp16 takes **0.6 GB** in all.",
    ]
