"""Held-out-7's families, on small reports written here (not the corpus's files): question
words of other languages and numbering habits ("Aufgabe 3 a)", "Problem 3, item e (ii)"),
a review copy's line numbers, AsciiDoc, reStructuredText and org-mode markup, Word text
boxes, units in footnotes."""

from __future__ import annotations

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.labels import parse_label
from grader.written.reading import read_document
from grader.written.reading.lightweight import as_markdown, footnote_units
from tests.grader.written.test_readers_pdf_layout import _docx, _p, _r

Q3 = [QuestionSpec("q3a2.p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability")),
      QuestionSpec("q3a2.loss", ("Q3 (a)",), part="(II)", labels=("loss", "-ln", "-log")),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)"),
      QuestionSpec("q3e3", ("Q3 (e)",), part="(III)")]


def test_question_words_of_other_languages_read_as_the_question_kind():
    for text in ("Aufgabe 3 c)", "Frage 3 (c)", "Exercice 3 (c)", "Ejercicio 3 c)",
                 "Pregunta 3 (c)", "Problem 3, item c", "Problem 3, part c"):
        label = parse_label(text)
        assert label is not None and (label.kind, label.num, label.letter) == ("q", "3", "c"), text
    label = parse_label("Problem 3, item e (ii)")
    assert label is not None and (label.letter, label.roman) == ("e", "ii")


def test_a_german_report_pairs_each_answer_with_its_aufgabe():
    text = ("# Teil 3\n## Aufgabe 3 c)\nSpeicherbedarf ≈ **25,77 GB**\n"
            "## Aufgabe 3 e)\n**(I) Parameter**\n2 · 48 · 98.304 = **9.437.184**\n"
            "**(II) Speicher**\n≈ **75,5 MB**\n")
    got = extract_answers(text, Q3)
    assert got["q3c"].answer == "25,77 GB"
    assert got["q3e1"].answer == "9,437,184"  # the thousands regrouped as read
    assert got["q3e2"].answer == "75,5 MB"


def test_items_out_of_order_pair_with_their_labels():
    text = ("Problem 3, item e (ii)\n----------------------\n\n:Answer: 75.50 MB\n\n"
            "Problem 3, item c\n=================\n\n:Answer: 25.77 GB\n\n"
            "Problem 3, item e (i)\n---------------------\n\n:Answer: 9,437,184 parameters\n")
    got = extract_answers(text, Q3)
    assert got["q3e2"].answer == "75.50 MB"
    assert got["q3c"].answer == "25.77 GB"
    assert got["q3e1"].answer == "9,437,184"  # the thousands regrouped as read


def _pdf(tmp_path, rows: list[tuple[float, str]]) -> str:
    """A one-page PDF with each ``(x, text)`` on a line of its own, top to bottom."""
    pymupdf = pytest.importorskip("pymupdf", reason="the reports extra reads PDFs with pymupdf")
    doc = pymupdf.open()
    page = doc.new_page()
    for i, (x, text) in enumerate(rows):
        page.insert_text((x, 90 + 16 * (i // 2)), text, fontsize=10)
    path = tmp_path / "report.pdf"
    doc.save(path)
    return str(path)


def test_a_review_copys_line_numbers_are_no_column_of_the_text(tmp_path):
    lines = ["Q3 (c) The scores of one head take 16,384 x 16,384 entries.",
             "Memory for the attention scores: 25.77 GB.",
             "Q3 (d) Two weight matrices per layer, biases left out.",
             "FFN parameters: 14.4955 billion.",
             "Q3 (e) (II) Adam keeps two fp32 values per parameter.",
             "Optimizer memory: 75.50 MB."]
    rows = [r for n, text in enumerate(lines, 12) for r in ((30, str(n)), (72, text))]
    text = read_document(_pdf(tmp_path, rows)).text
    assert "|" not in text
    assert [ln.split(" ", 1)[0] for ln in text.splitlines()][::2] == ["Q3", "Q3", "Q3"]
    got = extract_answers(text, Q3)
    assert got["q3c"].answer == "25.77 GB"
    assert got["q3e2"].answer == "75.50 MB"


def test_numbers_that_fall_or_start_with_the_text_are_kept(tmp_path):
    falling = [r for n, text in zip([9, 7, 5, 3, 1], "abcde", strict=True)
               for r in ((30, str(n)), (72, f"row {text} of the table"))]
    assert "9" in read_document(_pdf(tmp_path, falling)).text
    flush = [(72, "Results per seed, best first:"), (300, "(validation)"),
             *(r for n in range(1, 7) for r in ((72, str(n)), (90, f"peaks at 0.8{n}")))]
    assert "6" in read_document(_pdf(tmp_path, flush)).text.split()


def test_asciidoc_titles_tables_and_bold_are_read_as_markdown():
    text = ("= Lab B\n:toc: left\n\n== Question 1\n\n[%header]\n|===\n| Part | Parameters\n"
            "| embeddings | 16,384,000\n|===\n\n*Total: 21,778,432*\n")
    got = as_markdown(text).split("\n")
    assert len(got) == len(text.split("\n"))  # the file's line numbers stay right
    assert got[0] == "# Lab B" and got[3] == "## Question 1"
    assert got[6:9] == ["| Part | Parameters |", "|---|---|", "| embeddings | 16,384,000 |"]
    assert got[11] == "**Total: 21,778,432**"
    assert extract_answers(as_markdown(text), [QuestionSpec("q1", ("Question 1",))]
                           )["q1"].answer == "21,778,432"


def test_org_headings_lose_their_keywords_and_tags_and_code_keeps_its_stars():
    text = ("#+TITLE: Lab A\n* Question 3                :counting:\n** DONE The classifier\n"
            "#+BEGIN_SRC python\nprint(2*nhid*nhid)\n#+END_SRC\n| a | b |\n|---+---|\n"
            "It has *10,968,602* parameters, 2 * 3 of them odd.\n")
    got = as_markdown(text).split("\n")
    assert got[1:3] == ["# Question 3", "## The classifier"]
    assert got[4] == "print(2*nhid*nhid)"
    assert got[7] == "|---|---|"
    assert got[8] == "It has **10,968,602** parameters, 2 * 3 of them odd."


def test_restructuredtext_titles_are_headings_and_a_rule_under_a_paragraph_is_not():
    text = ("=====\nTitle\n=====\n\nProblem 3, item c\n=================\n\n"
            "Some working here\nAnswer: 25.77 GB\n------------------\n")
    got = as_markdown(text).split("\n")
    assert got[:3] == ["", "# Title", ""]
    assert got[4] == "## Problem 3, item c"
    assert got[8] == "Answer: 25.77 GB"
    assert as_markdown("plain text, nothing to do\n* a bullet\n") == (
        "plain text, nothing to do\n* a bullet\n")


def _box(*paragraphs: str) -> str:
    """A Word text box as Word stores it: DrawingML in the Choice, VML in the Fallback."""
    inner = "<w:txbxContent>" + "".join(paragraphs) + "</w:txbxContent>"
    return ('<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx>'
            + inner + "</wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox>"
            + inner + "</v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r>")


def test_word_text_boxes_are_read_once_a_titled_box_as_a_cell_under_its_title(tmp_path):
    body = [
        _p(_r("Q3 (c)", '<w:b/><w:sz w:val="32"/>')),
        _p(_r("Cells: B2 = 16384, B3 = 48, B4 = 2. =B3*B2^2*B4 gives the bytes.")),
        _p(_box(_p(_r("Q3 (c)", "<w:b/>")), _p(_r("2.577E+10 bytes")), _p(_r("(= 25.77 GB)"))),
           _box(_p(_r("a note")), _p(_r("on two lines")))),
    ]
    text = read_document(_docx(tmp_path, body)).text
    lines = text.splitlines()
    assert "| **Q3 (c)** | 2.577E+10 bytes (= 25.77 GB) |" in lines
    assert lines[-2:] == ["a note", "on two lines"]
    assert text.count("2.577E+10") == 1
    assert extract_answers(text, Q3)["q3c"].answer in ("2.577E+10 bytes", "25.77 GB")


def test_a_unit_given_only_in_a_footnote_is_written_after_its_number():
    text = ("## Q3 (c)\n**Mémoire : 0,537**[^go]\n\nvoir [^go] et [^nat]\n\n"
            "[^go]: En Go (gigaoctets, 1 Go = 10^9 octets).\n[^nat]: en nats.\n")
    got = footnote_units(text).split("\n")
    assert got[1] == "**Mémoire : 0,537** Go"
    assert got[3] == "voir [^go] et [^nat]"  # no number before it: left alone
    assert got[5:7] == text.split("\n")[5:7]
    assert extract_answers(footnote_units(text), Q3)["q3c"].answer == "0,537 Go"
    assert footnote_units("1.5[^a]\n[^a]: a remark.\n") == "1.5[^a]\n[^a]: a remark.\n"


def test_a_text_reports_line_numbers_are_taken_off_and_a_numbered_list_is_kept():
    body = ["Q3 (c) The scores of one head", "48 x 16,384^2 x 2 bytes", "Memory: 25.77 GB",
            "", "Q3 (e) (II) Adam keeps two fp32 values", "Optimizer memory: 75.50 MB"]
    numbered = "\n".join(f"{n}  {line}" if line else f"{n}" for n, line in enumerate(body, 12))
    got = as_markdown(numbered).split("\n")
    assert got == body
    got_answers = extract_answers(as_markdown(numbered), Q3)
    assert (got_answers["q3c"].answer, got_answers["q3e2"].answer) == ("25.77 GB", "75.50 MB")
    listed = "Steps:\n1. a\n2. b\n3. c\n4. d\n5. e\n"
    assert as_markdown(listed) == listed
    falling = "\n".join(f"{n}  row {n}" for n in (9, 7, 5, 3, 1))
    assert as_markdown(falling) == falling
