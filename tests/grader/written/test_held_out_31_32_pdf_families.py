"""Held-out-31 and -32's PDF families left after their first fixes: a soft hyphen LaTeX
drew as a hyphen, a roman list item under a line broken by hand, an aside in brackets
naming the loss, Coda's numbered working steps with an "Answer" column, a label cell's
"vs", and one line naming both of a question's parts in turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.asides import comparison_spans
from grader.written.reading.normalise import normalise
from grader.written.reading.pdf_page import _Para
from grader.written.reading.pdf_paragraphs import _join_broken

P_AND_LOSS = [
    QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability")),
    QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "cross-entropy", "-ln")),
]
C = [QuestionSpec("c", ("Q3 (c)",))]
E = [QuestionSpec(f"e{k}", ("Q3 (e)",), part=f"({n})") for k, n in enumerate(("I", "II", "III"), 1)]
LAB_A = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
         QuestionSpec("cls", ("Question 3",), part="Classification task")]


def answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


def test_a_soft_hyphen_a_pdf_drew_is_a_hyphen_and_one_nobody_saw_is_nothing(tmp_path: Path):
    pymupdf = pytest.importorskip("pymupdf")
    from grader.written.reading import read_document
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Q3 (a)", fontsize=14)
    page.insert_text((72, 130), "(II) p(mat) = 0,7500 e a perda (cross\xadentropy) L = 0,2876.",
                     fontsize=11)
    doc.save(tmp_path / "babel.pdf")
    text = read_document(tmp_path / "babel.pdf").text
    assert "(cross-entropy) L = 0,2876" in text
    # Word's optional hyphen and HTML's &shy; show nothing mid-line
    assert normalise("cross\xadentropy") == "crossentropy"


def test_a_label_in_an_aside_after_a_word_names_the_value_after_it():
    text = """## Q3 (a)
**(II)** L = − ln p(mat) = − ln 0,7500 (3)
**Resposta:** p(mat) = 0,7500 e a perda (cross-entropy) L = 0,2876."""
    assert answers(text, P_AND_LOSS) == {"p": "0,7500", "loss": "0,2876"}
    # a label as a logarithm's argument still names nothing
    text = """## Q3 (a)
**(II)** Answer: loss = -ln(p(mat)) = 0.2876, probability 0.7500"""
    assert answers(text, P_AND_LOSS) == {"p": "0.7500", "loss": "0.2876"}


def test_a_roman_list_item_under_a_hand_broken_answer_line_is_a_line_of_its_own():
    def para(text: str, top: float) -> _Para:
        return _Para(text, 1, None, 11.0, rows=[text], top=top, bottom=top + 12)

    paras = _join_broken([para("Resposta: 9 437 184 parâmetros treináveis", 126),
                          para("ii. Adam: 2 states (m, v) per parameter in", 145),
                          para("fp32, as in (c)", 157)])
    # the item's own wrapped line still joins it
    assert [p.text for p in paras] == ["Resposta: 9 437 184 parâmetros treináveis",
                                       "ii. Adam: 2 states (m, v) per parameter in "
                                       "fp32, as in (c)"]


def test_numbered_working_steps_with_an_answer_column_answer_in_their_last_row():
    text = """### Q3 (c)
|  | **Quantity** | **Working** | **Answer** |
| 1 | scores per head | S_max^2 = 16384^2 = 268,435,456 | **268,435,456** |
| 2 | all 48 heads | 48 × 268,435,456 = 12,884,901,888 scores | **12,884,901,888** |
| 3 | memory (fp16, 2 B) | 25,769,803,776 bytes ÷ 10^9 | **25.77 GB** |
### Q3 (d)"""
    got = extract_answers(text, C)["c"]
    assert (got.answer, got.shotgun) == ("25.77 GB", ())  # the steps offer no second answer


def test_a_label_cells_vs_compares_nothing_in_the_answer_cell():
    row = "| 3 | (III) vs FFN | 9,437,184 / 14,496,989,184 | **0.065%** |"
    at = row.index("0.065%")
    spans = comparison_spans(row, [(at, at + 6)], cells=True)
    assert not any(a <= at < b for a, b in spans)
    text = f"""### Q3 (e)
|  | **Part** | **Working** | **Answer** |
| 1 | (I) LoRA params | (6144·8 + 8·6144) × 2 × 48 | **9,437,184** |
| 2 | (II) Adam memory | 9,437,184 × 8 bytes = 75,497,472 B | **75.50 MB** |
{row}
So the optimizer state is only about 0.065% of what full Adam on the FFN needs (≈ 116 GB)."""
    assert answers(text, E) == {"e1": "9,437,184", "e2": "75.50 MB", "e3": "0.065%"}


def test_one_line_naming_both_parts_in_turn_gives_each_its_piece():
    text = """### Question 3
|  | **Module** | **LM model** | **Classifier** |
| 1 | Embedding 50001 × 200 | 10,000,200 | 10,000,200 |
| 5 | Head | 10,050,201 | 402 |
|  | **Sum** | **20,857,601** | **10,807,802** |
Language modeling task: **20,857,601** trainable parameters. Classification task: **10,807,802** trainable parameters.
### Question 4"""
    assert answers(text, LAB_A) == {"lm": "20,857,601", "cls": "10,807,802"}
