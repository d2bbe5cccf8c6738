"""The TA sheet's answer text read from reports: the section, or why a report was not read."""

from __future__ import annotations

from grader.report.manual import answer_text


def test_section_of_the_report_naming_the_question(tmp_path):
    report = tmp_path / "report.md"
    report.write_text("# My report\n\n## Q2 Essay\nMemory is quadratic in S.\n\n## Q3 Other\nno\n")
    assert answer_text("q2", "Q2 Essay", None, [report]) == "## Q2 Essay\nMemory is quadratic in S."


def test_an_unreadable_report_is_named_on_the_sheet(tmp_path):
    broken = tmp_path / "report.pdf"
    broken.write_bytes(b"%PDF-1.4 this is not a PDF")
    text = answer_text("q2", "Q2 Essay", None, [broken, tmp_path / "gone.md"])
    assert f"[report not read: {broken}: " in text
    assert f"[report not read: {tmp_path / 'gone.md'}: no such file]" in text
