"""read_report: Markdown and text as they are; PDF through pypdf when it is installed."""

from __future__ import annotations

import pytest

from grader.written import ReportReadError, read_report


def test_markdown_and_text(tmp_path):
    md = tmp_path / "r.md"
    md.write_text("# Question 3\n**21,018,401**\n", encoding="utf-8")
    report = read_report(md)
    assert (report.format, report.text, report.notes) == (
        "markdown",
        "# Question 3\n**21,018,401**\n",
        (),
    )
    txt = tmp_path / "r.txt"
    txt.write_bytes(b"Q3 (d) 14.5 billion \xff\n")
    report = read_report(txt)
    assert report.format == "text"
    assert report.notes == ("some characters are not valid UTF-8 and were replaced",)


def test_missing_file(tmp_path):
    with pytest.raises(ReportReadError, match="no such file"):
        read_report(tmp_path / "nope.md")


def _tiny_pdf(lines: list[str]) -> bytes:
    """A one-page PDF with Helvetica text, written by hand (no PDF library needed)."""
    ops = ["BT", "/F1 12 Tf", "72 720 Td", "14 TL"]
    for line in lines:
        escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops.append(f"({escaped}) Tj T*")
    ops.append("ET")
    stream = "\n".join(ops).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)


def test_pdf_text_is_extracted(tmp_path):
    pytest.importorskip("pypdf", reason="pypdf is an optional dependency for PDF reports")
    from calculators.answers import lint_arithmetic
    from grader.written import QuestionSpec, extract_answers

    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(
        _tiny_pdf(["Question 3", "We add 2 + 2 = 5 parameters.", "The total is 21,018,401."])
    )
    report = read_report(pdf)
    assert report.format == "pdf" and report.notes == ()
    assert "21,018,401" in report.text
    assert (
        extract_answers(report.text, [QuestionSpec("q3", ("Question 3",))])["q3"].answer
        == "21,018,401"
    )
    assert [s.true_value for s in lint_arithmetic(report.text)] == [4]


def test_a_pdf_without_text_says_so(tmp_path):
    pytest.importorskip("pypdf", reason="pypdf is an optional dependency for PDF reports")
    pdf = tmp_path / "scan.pdf"
    pdf.write_bytes(_tiny_pdf([]))
    assert read_report(pdf).notes == ("the PDF has no text layer (a scan?); nothing could be read",)


def test_a_damaged_pdf(tmp_path):
    pytest.importorskip("pypdf", reason="pypdf is an optional dependency for PDF reports")
    pdf = tmp_path / "bad.pdf"
    pdf.write_bytes(b"%PDF-1.4 garbage")
    with pytest.raises(ReportReadError, match="not a readable PDF"):
        read_report(pdf)
