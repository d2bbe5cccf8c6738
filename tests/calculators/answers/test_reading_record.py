"""What the record says about reports read by read_document (grader/written.py Reports):
the reader and page count of each, why a TA must read a scan, and an unreadable file's
message, and a scanned report gives each question that reason, not 'no heading'."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec, Reports, report_answer

pymupdf = pytest.importorskip("pymupdf", reason="the reports extra reads PDFs with pymupdf")

DOCS = Path(__file__).parents[2] / "fixtures" / "documents"


@pytest.fixture(scope="module")
def scan(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("scan") / "scan.pdf"
    with pymupdf.open(DOCS / "latex-twocol.pdf") as src:
        pix = src[0].get_pixmap(dpi=40, colorspace=pymupdf.csGRAY)
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_image(page.rect, stream=pix.tobytes("png"))
    doc.save(path)
    doc.close()
    return path


def test_the_record_names_reader_pages_and_scans(tmp_path, scan):
    locked = tmp_path / "locked.pdf"
    with pymupdf.open(DOCS / "word-like.pdf") as doc:
        doc.save(locked, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="x", owner_pw="y")
    reports = Reports.read([DOCS / "latex-twocol.pdf", DOCS / "pandoc.docx", scan, locked])
    rows = reports.describe()
    keep = ("name", "format", "reader", "pages", "needs_ta")
    assert [{k: r[k] for k in keep} for r in rows[:3]] == [
        {
            "name": "latex-twocol.pdf",
            "format": "pdf",
            "reader": rows[0]["reader"],
            "pages": 2,
            "needs_ta": None,
        },
        {
            "name": "pandoc.docx",
            "format": "docx",
            "reader": rows[1]["reader"],
            "pages": None,
            "needs_ta": None,
        },
        {
            "name": "scan.pdf",
            "format": "pdf",
            "reader": rows[2]["reader"],
            "pages": 1,
            "needs_ta": "the PDF has no text layer: its 1 page is an image (a scan or photo); "
            "a TA must read it",
        },
    ]
    assert rows[0]["reader"].startswith("pymupdf 1.") and rows[1]["reader"].startswith(
        "python-docx"
    )
    assert rows[3] == {
        "error": "locked.pdf: the PDF is protected by a password; ask the student "
        "for an unprotected copy, or a TA reads it"
    }
    assert reports.needs_ta() == [f"scan.pdf: {rows[2]['needs_ta']}"]


def test_a_scanned_report_gives_each_question_the_reason(scan):
    found = report_answer(Reports.read([scan]), QuestionSpec("q3b", ("Q3 (b)",)))
    assert found.text is None
    assert found.reason == (
        "scan.pdf: the PDF has no text layer: its 1 page is an image (a scan or photo); "
        "a TA must read it"
    )


@pytest.mark.sandbox
def test_a_scanned_report_goes_to_a_ta_not_to_zero(scan):
    """A report-only lab handed in as a scan: every question answered from a report
    awaits a TA (status manual, no score), and the record is not `graded`."""
    from grader.grade import grade_notebook
    from grader.pack import load_pack

    pack = load_pack(Path(__file__).parents[3] / "reference" / "transfer-lab-a")
    record = grade_notebook(pack, None, seed=1, reports=[scan])
    from_report = [q for q in record.questions
                   if any(c.kind == "answer" for c in pack.question(q.id).checks)]
    assert from_report
    for q in from_report:
        assert (q.status, q.score) == ("manual", None), (q.id, q.status, q.message)
        assert "A TA will read your report" in q.message
    assert record.status != "graded"
