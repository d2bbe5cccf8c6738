"""Held-out-16's families: a WhatsApp chat pasted as the report (its turns stamped with
the date), a slide's title continued over two frames ("(1/2)", "(2/2)") that is no running
header, an answer box titled with the part it answers ("Answer (e)(I)"), and a chain of
working that ends with its sentence."""

from __future__ import annotations

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.reading.lightweight import as_markdown

pymupdf = pytest.importorskip("pymupdf", reason="the reports extra reads PDFs with pymupdf")

CHAT = """[27/11/26, 23:38] Kevin Okafor: hi sir sorry im sending part 3 here
[27/11/26, 23:39] TA Daniel: ok send it here
[27/11/26, 23:46] Kevin Okafor: Q3 (c)
48 heads x 16384 x 16384 x 2 bytes = 25,769,803,776 bytes
= 25.8 GB
[27/11/26, 23:50] Kevin Okafor: Q3 (e)(I) 2 x 8 x 6144 per matrix, 48 layers -> 9437184
[27/11/26, 23:55] TA Daniel: received
"""


def test_a_whatsapp_chat_reads_as_the_students_turns():
    text = as_markdown(CHAT)
    assert "Kevin Okafor:" not in text  # the student's turns lose their stamp and name
    found = extract_answers(text, [QuestionSpec("c", ("Q3 (c)",)),
                                   QuestionSpec("e1", ("Q3 (e)",), part="(I)")])
    assert (found["c"].answer, found["e1"].answer) == ("25.8 GB", "9437184")


def test_androids_chat_export_is_a_transcript_too():
    chat = ("27/11/2026, 23:38 - Kevin Okafor: Q3 (c) 25.8 GB\n"
            "27/11/2026, 23:39 - TA Daniel: ok\n"
            "27/11/2026, 23:40 - Kevin Okafor: Q3 (d) 14.5 billion\n"
            "27/11/2026, 23:41 - TA Daniel: received\n")
    assert "Kevin Okafor" not in as_markdown(chat)


def test_a_slide_title_continued_on_the_next_frame_is_kept(tmp_path):
    from grader.written.reading import read_document

    doc = pymupdf.open()
    for title, body in (("Q3 (d) FFN (1/1)", "48 x 302,020,608 = 14,496,989,184"),
                        ("Q3 (e) LoRA (1/2)", "LoRA trainable parameters = 9,437,184"),
                        ("Q3 (e) LoRA (2/2)", "Adam state memory = 75.5 MB")):
        page = doc.new_page(width=360, height=270)
        page.insert_text((20, 18), title, fontsize=12)
        page.insert_text((20, 120), body, fontsize=10)
        page.insert_text((20, 262), "STAT8021 A3", fontsize=6)  # a running footer
    doc.save(tmp_path / "deck.pdf")
    text = read_document(tmp_path / "deck.pdf").text
    assert "Q3 (e) LoRA (1/2)" in text and "Q3 (e) LoRA (2/2)" in text
    assert "STAT8021 A3" not in text


BOXES = """**Q3 (d)**
Per layer 8H^2 + 5H with H = 6144, times L = 48:
48 × 302,020,608 = 14,496,989,184
**Answer (d)**
14.497 billion parameters
**Q3 (e)**
(I) Each adapted matrix gets A and B (98,304 parameters); W_Q and W_V in all 48 layers.
**Answer (e)(I)**
9,437,184 trainable parameters
(II) Adam stores two fp32 moments: 9,437,184 × 8 = 75,497,472 bytes.
**Answer (e)(II)**
75.50 MB
(III) 9,437,184 / 14,496,989,184 = 0.00065
**Answer (e)(III)**
0.00065 % of the FFN parameters
"""


def test_an_answer_box_titled_with_its_part_answers_that_part_only():
    specs = [QuestionSpec("d", ("Q3 (d)",)), QuestionSpec("e1", ("Q3 (e)",), part="(I)"),
             QuestionSpec("e2", ("Q3 (e)",), part="(II)"),
             QuestionSpec("e3", ("Q3 (e)",), part="(III)")]
    found = extract_answers(BOXES, specs)
    assert {k: v.answer for k, v in found.items()} == {
        "d": "14.497 billion", "e1": "9,437,184", "e2": "75.50 MB",
        "e3": "0.00065 %"}  # the box's value, written as a percentage, not the working's


def test_a_chain_of_working_ends_with_its_sentence():
    text = ("## Q3 (a)\n(II) The exponentials sum to 26.7791. So p(mat) = 20.0855 / 26.7791 = "
            "0.7500. The loss is then -ln(0.7500) = 0.2877, with the natural log.\n")
    specs = [QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability")),
             QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "-ln"))]
    found = extract_answers(text, specs)
    assert (found["p"].answer, found["loss"].answer) == ("0.7500", "0.2877")


def test_the_next_parts_list_item_ends_an_answer_box():
    from grader.written.blocks import blocks
    from grader.written.report import _under_answer_headings

    answered = _under_answer_headings(blocks(BOXES))
    lines = BOXES.splitlines()
    assert {lines[n - 1] for n in answered} == {
        "14.497 billion parameters", "9,437,184 trainable parameters", "75.50 MB",
        "0.00065 % of the FFN parameters"}
