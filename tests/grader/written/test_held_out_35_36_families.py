"""Held-out-35 and -36's families: a two-column review copy numbering its lines in both
margins (ACL), a DataFrame header printed over two rows (Deepnote), WhatsApp drafts pasted
into Word one soft line break a line, and one asterisk closing emphasis after a value."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.checks.seedclaims import parse_claims
from grader.written import QuestionSpec, extract_answers

Q1 = [QuestionSpec("q1", ("Question 1",))]
FAMILIES = {"pretrained": ["pre-trained", "pretrained"], "scratch": ["scratch"]}


def test_line_numbers_in_both_margins_of_a_review_copy_are_no_text(tmp_path: Path):
    pymupdf = pytest.importorskip("pymupdf")
    from grader.written.reading import read_document
    doc = pymupdf.open()
    page = doc.new_page()  # 595 wide: columns at 60-280 and 320-540, numbers outside them
    left = ["1 Question 1", "With d = 512 and N = 4 layers the", "encoder has 22,829,056 trainable",
            "parameters, as the notebook prints.", "2 Task 3", "Table 1 gives each run."]
    right = ["The pre-trained model is better", "on every seed, by about 14 points.",
             "It peaks earlier than the model", "trained from scratch.", "3 Question 2",
             "r = 16 is the rank."]
    for k, (a, b) in enumerate(zip(left, right, strict=True)):
        y = 100 + 14 * k
        page.insert_text((30, y), f"{k:03d}", fontsize=7)
        page.insert_text((60, y), a, fontsize=10)
        page.insert_text((320, y), b, fontsize=10)
        page.insert_text((555, y), f"{k + 50:03d}", fontsize=7)
    doc.save(tmp_path / "acl.pdf")
    text = read_document(tmp_path / "acl.pdf").text
    for k in range(len(left)):
        assert f"{k:03d}" not in text and f"{k + 50:03d}" not in text
    assert "encoder has 22,829,056 trainable" in text and "r = 16 is the rank." in text


def test_a_dataframe_header_printed_over_two_rows_is_one_header():
    text = """## Task 3 & 4
| [11] | best = logs.sort_values("val_acc").groupby(["model", "seed"]).tail(1) |
| **model**object | **seed**int64 | **val_acc**float64 |  |  |
|  |  |  | **step**_int64 | **test_acc**_float64 |
| pretrained | 1 | 0.853 | 1200 | 0.841 |
| scratch | 3 | 0.720 | 1600 | 0.707 |
6 rows × 5 columns"""
    claims = parse_claims(text, FAMILIES)
    assert [(c["family"], c["seed"], c["best_validation"], c["step"], c["test"])
            for c in claims] == [("pretrained", 1, 0.853, 1200, 0.841),
                                 ("scratch", 3, 0.72, 1600, 0.707)]


def _docx_with_soft_breaks(path: Path, lines: list[str]) -> None:
    docx = pytest.importorskip("docx")
    from docx.enum.text import WD_BREAK
    document = docx.Document()
    paragraph = document.add_paragraph()
    for k, line in enumerate(lines):
        run = paragraph.add_run(line)
        if k + 1 < len(lines):
            run.add_break(WD_BREAK.LINE)
    document.save(path)


def test_lines_pasted_into_word_one_soft_break_a_line_stay_lines(tmp_path: Path):
    from grader.written.reading import read_document
    _docx_with_soft_breaks(tmp_path / "whatsapp.docx", [
        "*Task 3*", "Best val acc per seed, step, test acc at that step:",
        "• Pretrained s1 – 85.3% val @1200, test 84.1%",
        "• Scratch s1 – 71.2% val @1800, test 69.8%"])
    text = read_document(tmp_path / "whatsapp.docx").text
    assert "\n• Scratch s1 – 71.2% val @1800, test 69.8%" in text
    claims = parse_claims(text, FAMILIES)
    assert [(c["family"], c["seed"], c["step"]) for c in claims] == [
        ("pretrained", 1, 1200), ("scratch", 1, 1800)]
    # a break inside a sentence still joins its lines
    _docx_with_soft_breaks(tmp_path / "wrapped.docx", [
        "The best validation", "accuracy was reached at step 1200."])
    assert "The best validation accuracy was reached" in \
        read_document(tmp_path / "wrapped.docx").text


def test_one_asterisk_after_a_value_closes_emphasis_and_multiplies_nothing():
    for last in ("*Total = 22,829,056*", "Total = 22,829,056*", "The total is *22,829,056*"):
        text = ("# Question 1\nFFN = 512x512 + 512 = 525,312\n"
                f"_so one layer = 1,577,984, four layers = 6,311,936_\n{last}\n# Task 3")
        assert extract_answers(text, Q1)["q1"].answer == "22,829,056", last
