"""Bad files give a clear ReportReadError (or a TA flag), never a crash or a silent zero.

Every file is built here for real: an AES-encrypted PDF, a zip and a Word file named
.pdf, a 500-page PDF, a scanned page (an image, no text), a 21 MiB upload, a zip bomb
named .docx, an old .doc, a photo named .pdf.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from grader.written.reading import (
    MAX_PAGES,
    MAX_UNPACKED_BYTES,
    ReportReadError,
    read_document,
)

pymupdf = pytest.importorskip("pymupdf", reason="the reports extra reads PDFs with pymupdf")

DOCS = Path(__file__).parents[2] / "fixtures" / "documents"


def _scan_page(doc: object, source: Path) -> None:
    """Append a page that is a grey picture of ``source``'s first page: a scan."""
    with pymupdf.open(source) as src:
        pix = src[0].get_pixmap(dpi=40, colorspace=pymupdf.csGRAY)
    page = doc.new_page(width=612, height=792)  # type: ignore[attr-defined]
    page.insert_image(page.rect, stream=pix.tobytes("png"))


def test_encrypted_pdf(tmp_path):
    path = tmp_path / "locked.pdf"
    with pymupdf.open(DOCS / "latex-twocol.pdf") as doc:
        doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="s3cret", owner_pw="o")
    with pytest.raises(ReportReadError, match=r"locked\.pdf: the PDF is protected by a password"):
        read_document(path)


def test_a_zip_named_pdf(tmp_path):
    path = tmp_path / "report.pdf"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("report/answers.txt", "Q3 (d) 14.5 billion")
    with pytest.raises(ReportReadError, match=r"report\.pdf: a ZIP archive, not a Word document"):
        read_document(path)


def test_a_word_file_named_pdf_is_read_as_word(tmp_path):
    path = tmp_path / "report.pdf"
    shutil.copy(DOCS / "pandoc.docx", path)
    doc = read_document(path)
    assert doc.format == "docx" and "## Q3 (b)" in doc.text
    assert doc.notes == ("a Word document named .pdf; read as Word",)


def test_a_500_page_pdf_is_refused_before_reading(tmp_path):
    path = tmp_path / "thesis.pdf"
    doc = pymupdf.open()
    for number in range(500):
        doc.new_page().insert_text((72, 72), f"page {number}")
    doc.save(path)
    doc.close()
    with pytest.raises(ReportReadError, match=f"500 pages, more than the {MAX_PAGES}"):
        read_document(path)


def test_a_scan_is_flagged_for_a_ta(tmp_path):
    path = tmp_path / "scan.pdf"
    doc = pymupdf.open()
    _scan_page(doc, DOCS / "latex-twocol.pdf")
    doc.save(path)
    doc.close()
    read = read_document(path)
    assert read.text == "" and read.pages == 1 and read.reader.startswith("pymupdf")
    assert read.needs_ta == (
        "the PDF has no text layer: its 1 page is an image (a scan or photo); a TA must read it"
    )
    assert read.notes == ("the PDF has no text layer (a scan?); nothing could be read",)


def test_a_scanned_page_inside_a_typed_report_is_flagged(tmp_path):
    path = tmp_path / "mixed.pdf"
    with pymupdf.open(DOCS / "word-like.pdf") as doc:
        _scan_page(doc, DOCS / "latex-twocol.pdf")
        doc.save(path)
    read = read_document(path)
    assert read.pages == 3 and "**268,435,456**" in read.text
    assert read.needs_ta == (
        "page 3 of the PDF is only an image (a scan or photo?) with no text; "
        "a TA must read what is written there"
    )


def test_text_set_sideways_is_named(tmp_path):
    path = tmp_path / "landscape.pdf"
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Q3 (c) is in the rotated table.")
    page.insert_text(
        (300, 700), "| Q3 (c) | 25.77 GB | Q3 (d) | 14.5 billion | Q3 (e) |", rotate=90
    )
    doc.save(path)
    doc.close()
    read = read_document(path)
    assert read.text == "Q3 (c) is in the rotated table." and read.needs_ta is None
    assert read.notes == (
        "page 1 sets text sideways (a rotated table?), which was not read; check it by eye",
    )


def test_a_huge_file_is_refused_unread(tmp_path):
    path = tmp_path / "huge.pdf"
    with path.open("wb") as handle:
        handle.write(b"%PDF-1.7\n")
        handle.truncate(21 * 2**20)  # sparse: no 21 MiB written
    with pytest.raises(ReportReadError, match="21 MiB is larger than the 20 MiB"):
        read_document(path)


def test_a_zip_bomb_named_docx(tmp_path):
    path = tmp_path / "report.docx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("word/document.xml", "<w:document/>")
        with archive.open("word/media/padding.bin", "w") as member:
            block = bytes(2**20)
            for _ in range(MAX_UNPACKED_BYTES // 2**20 + 1):
                member.write(block)
    assert path.stat().st_size < 2**20
    with pytest.raises(ReportReadError, match=r"unpacks to 101 MiB in 2 parts, more than the 100"):
        read_document(path)


def test_a_word_file_whose_text_part_is_huge(tmp_path):
    path = tmp_path / "report.docx"
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
        archive.open("word/document.xml", "w") as member,
    ):
        member.write(b"<w:document>")
        for _ in range(26):
            member.write(b" " * 2**20)
    with pytest.raises(ReportReadError, match="its text part unpacks to 26 MiB, more than the 25"):
        read_document(path)


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("bad.pdf", b"%PDF-1.4 garbage", r"bad\.pdf: not a readable PDF"),
        ("photo.pdf", b"\x89PNG\r\n\x1a\n" + bytes(64), "a PNG image .a photo or scan.., not a"),
        ("old.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(64), r"an old Word \.doc file"),
        ("fake.docx", b"just text", r"fake\.docx: named \.docx but is not a Word/Office file"),
        ("notes.pdf", b"just text", r"notes\.pdf: named \.pdf but is not a PDF"),
    ],
)
def test_files_that_are_not_what_they_say(tmp_path, name, data, message):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ReportReadError, match=message):
        read_document(path)


def test_a_missing_file(tmp_path):
    with pytest.raises(ReportReadError, match="no such file"):
        read_document(tmp_path / "nope.pdf")
