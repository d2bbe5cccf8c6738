"""Other students' work and the TA's files: exact pairing, spreadsheets that stay inert."""

from __future__ import annotations

import csv
import io

import nbformat

import grader.batch  # noqa: F401  (intake.sources and batch import each other)
from grader.intake.sources import _item
from grader.intake.student import Student
from grader.report.lms import plain_csv, safe_cell
from grader.report.manual import manual_sheet, read_sheet
from tests.report import small


def test_a_report_is_paired_with_its_own_notebook_only(tmp_path):
    for name in ("u123.ipynb", "u1234.ipynb"):
        nbformat.write(nbformat.v4.new_notebook(), tmp_path / name)
    for name in ("u123.md", "u1234.md", "u123-report.pdf", "u12.md"):
        (tmp_path / name).write_text("x")
    assert [p.name for p in _item(tmp_path / "u123.ipynb").reports] == ["u123-report.pdf",
                                                                         "u123.md"]
    assert [p.name for p in _item(tmp_path / "u1234.ipynb").reports] == ["u1234.md"]


def test_formula_like_cells_are_text_in_every_sheet():
    assert safe_cell("=HYPERLINK(\"http://x\")") == "'=HYPERLINK(\"http://x\")"
    assert safe_cell("+1") == "+1" and safe_cell("-2.5") == "-2.5"  # numbers stay numbers
    assert safe_cell("@SUM(A1)") == "'@SUM(A1)" and safe_cell("plain") == "plain"
    record = small.record([small.question(title="=cmd|' /C calc'!A0")])
    rows = list(csv.reader(io.StringIO(plain_csv([(Student("k", "=1+1"), record)]))))
    assert [cell for row in rows for cell in row if "1+1" in cell] == ["'=1+1"]
    assert not any(cell.startswith("=") for row in rows for cell in row)


def test_the_ta_sheet_escapes_the_quote_and_reads_its_key_back():
    record = small.record([small.question("q9", "manual", title="Essay", checks=[
        small.check("manual", "manual", evidence={"answer_text": "=IMPORTXML(\"evil\")"})])])
    text = manual_sheet([(Student("-x", "@ann"), record)])
    row = next(csv.DictReader(io.StringIO(text)))
    assert row["answer"].startswith("'=") and row["student"] == "'@ann"
    assert read_sheet(text)[0]["key"] == "-x"
