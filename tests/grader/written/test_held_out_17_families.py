"""Held-out-17 to -19's section families: a heading that is a part's numeral or letter
alone (iA Writer's "### II"), a question's parts answered as a list numbered one item a
part (Word's "1. 2. 3." for (I), (II), (III)), and a problem statement restated with its
parts before "Solution." answers them."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers

A_PARTS = [QuestionSpec("p", ("Q3 (a)",), part="(II)"), QuestionSpec("c", ("Q3 (c)",))]
E_PARTS = [QuestionSpec(f"e{n}", ("Q3 (e)",), part=f"({r})")
           for n, r in ((1, "I"), (2, "II"), (3, "III"))]


def answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


def test_a_heading_that_is_a_numeral_alone_opens_that_part():
    text = """# Q3
## (a)
### I
Next-token prediction on unlabelled text, 3 tokens of context.
### II
p = 20.0855 / 26.7791
**p = 0.7500**
## (c)
**Answer: 25.77 GB**
"""
    assert answers(text, A_PARTS) == {"p": "0.7500", "c": "25.77 GB"}


def test_a_lettered_heading_alone_opens_its_part():
    text = "## Q3\n#### a\n(II) p = 0.75\n#### c\n48 × 16384² × 2 B = 25.77 GB\n"
    assert answers(text, A_PARTS)["c"] == "25.77 GB"


def test_a_pronoun_in_prose_is_no_part():
    text = "## Q3 (e)\n(I) 9,437,184\nI\nthink (II) is 75.5 MB\n(III) 0.065 %\n"
    assert answers(text, E_PARTS)["e1"] == "9,437,184"


def test_parts_answered_as_a_list_numbered_one_item_a_part():
    text = """## Q3 (e)
1. LoRA parameters: 2 matrices × 48 layers × (8×6144 + 6144×8) = **9437184**
2. Adam: 2 states × 4 bytes = 8 bytes per parameter, 9437184 × 8 = **75.5 MB**
3. Comparison: 115,975,913,472 / 75,497,472 = 1536.1, so LoRA is about **1536x** smaller.
"""
    assert answers(text, E_PARTS) == {"e1": "9437184", "e2": "75.5 MB", "e3": "1536"}


def test_a_list_of_working_steps_is_no_list_of_parts():
    text = """## Q3 (e)
1. per matrix 2 × 8 × 6144 = 98,304
2. two matrices a layer: 196,608
3. 48 layers: 9,437,184
4. Adam: 8 bytes each, 75.5 MB
"""
    found = extract_answers(text, E_PARTS)
    assert not found["e1"].found and found["e1"].reason == "no part '(I)' in the section"


def test_a_statement_listing_the_parts_belongs_to_the_question():
    text = """**Problem 3(a)** (I) State the objective. (II) For logits [0.5, 0.1, 3.0, 0.2, 1.0], compute the probability of "mat".
**Solution.** (I) Causal language modelling on unlabelled text.
(II) p(mat) = 20.086 / 26.779 = 0.750
**Problem 3(e)** LoRA with r = 8: (I) trainable parameters, (II)
Adam state memory, (III) comparison with (d).
**Solution.** (I) 2rH per matrix, 2 matrices, 48 layers:
48 × 2 × 2 × 8 × 6144 = 9,437,184
(II) 8 bytes per parameter: 9,437,184 × 8 = 75,497,472 B = 75.5 MB
(III) 75.5 MB / 115.98 GB ≈ 0.065 %
"""
    assert answers(text, [A_PARTS[0], *E_PARTS]) == {
        "p": "0.750", "e1": "9,437,184", "e2": "75.5 MB", "e3": "0.065 %"}


def test_an_answer_word_naming_the_part_it_is_in_closes_nothing():
    text = """**Q3 (a)**
(II) Softmax over z, target "mat" = index 2: 20.086 / 26.779
**Answer (a)(II)**
p(mat) = 0.750
**Q3 (c)**
16384 × 16384 × 2 = 536,870,912 bytes
**Answer (c)**
0.537 GB
"""
    assert answers(text, A_PARTS) == {"p": "0.750", "c": "0.537 GB"}


NOTEPAD = ("Q3 (c)\r\n------\r\n"
           "\tscores per layer\t48 x 16384 x 16384 = 12,884,901,888\r\n"
           "\tbytes (2 each)\t\t25,769,803,776\r\n"
           "\tmemory\t\t\t24.0 GB   (divided by 1024^3)\r\n\r\n"
           "Q3 (d)\r\n------\r\n"
           "\tper layer\t6144*24576*2 + 24576 + 6144 = 302,020,608\r\n"
           "\t48 layers\t14,496,989,184\r\n"
           "\tanswer\t\t14.497 billion\r\n")


def test_columns_lined_up_with_tabs_are_one_table():
    from grader.written.reading.lightweight import as_markdown

    lines = as_markdown(NOTEPAD.replace("\r", "")).split("\n")
    assert "| memory | 24.0 GB   (divided by 1024^3) |" in lines
    assert "| answer | 14.497 billion |" in lines  # all three rows, not the first two


def test_a_table_of_named_steps_concludes_in_its_last_row():
    from grader.written.reading.lightweight import as_markdown

    found = extract_answers(as_markdown(NOTEPAD.replace("\r", "")),
                            [QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",))])
    assert (found["c"].answer, found["d"].answer) == ("24.0 GB", "14.497 billion")


def test_a_notebooks_in_and_out_rows_are_no_steps():
    text = """### Q3 (c)
| In [3]: | 48 * 16384**2 * 2 / 1e9 |
| Out[3]: | 25.769803776 |
(c) = 25.77 GB
"""
    assert extract_answers(text, [QuestionSpec("c", ("Q3 (c)",))])["c"].answer == "25.77 GB"


def test_a_template_statement_listing_the_parts_on_one_line_is_the_questions():
    text = """## Q3 (e)
*(I) LoRA parameters, (II) Adam memory for them, (III) comparison with (d).*
(I) per matrix 8*6144 + 6144*8 = 98,304, Q and V so x2, 48 layers
| **Answer:** 9,437,184 |
(II) 9,437,184 x 8 = 75,497,472 bytes
| **Answer:** 75.5 MB |
(III) 75.5 MB / 115.98 GB
| **Answer:** 0.065 % |
"""
    assert answers(text, E_PARTS) == {"e1": "9,437,184", "e2": "75.5 MB", "e3": "0.065 %"}


def test_the_answer_word_in_brackets_marks_the_answer():
    text = """Q3 (e)

(II)  Adam: 2 states (m, v), fp32 = 8 B per parameter
      in MB: 75'497'472 B / 1'048'576 = 72.00
      (Antwort) 72.00 MB

(III) LoRA / FFN = 75'497'472 B / 115'975'913'472 B = 0.000651
      (Antwort) 0.0651 %   -> LoRA optimizer memory is tiny compared with the FFN.
"""
    found = answers(text, E_PARTS[1:])
    assert found == {"e2": "72.00 MB", "e3": "0.0651 %"}  # "->" is an arrow, no minus


def test_a_summary_row_with_its_part_in_a_column_of_its_own():
    text = """## Q3 (e)
1. (I) per matrix 8 × 12,288 = 98,304; two matrices and 48 layers: 9,437,184.
| **Question** | **Part** | **Quantity** | **Answer** |
| Q3 (e) | (I) | LoRA trainable parameters | 9,437,184 |
| Q3 (e) | (II) | Adam state of LoRA | 75.50 MB |
"""
    assert answers(text, E_PARTS[:2]) == {"e1": "9,437,184", "e2": "75.50 MB"}


def test_a_row_of_figures_typed_with_spaces_is_no_question_word():
    text = """Question 1: 22,696,960 total
per layer 1,577,984, x4 = 6,311,936

Question 3
model        seed  best val  step   test
pretrained   1     0.853     1200   0.841
pretrained   2     0.851     1400   0.840
scratch      1     0.712     1800   0.698
"""
    from grader.written.question_words import learned_words

    assert learned_words(text.split("\n"), False)[0] is None
    found = extract_answers(text, [QuestionSpec("q1", ("Question 1",))])
    assert found["q1"].answer == "22,696,960"  # stated on its label's line


LAB_A = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
         QuestionSpec("cls", ("Question 3",), part="Classification task")]


def test_a_slides_total_set_large_under_the_heading_that_names_the_part():
    text = """### Question 3 — Language modeling task
Embedding: 50,001 × 200 = 10,000,200
4 layers: 968,000
Decoder (LM head) weight: 200 × 50,001 = 10,000,200 (no bias for the decoder / classifier)
## Total: 20,968,400
### Question 3 — Classification task
Embedding + 4 layers: 10,968,200 Classifier weight: 200 × 2 = 400
## Total: 10,968,600
### Question 4
"""
    assert answers(text, LAB_A) == {"lm": "20,968,400", "cls": "10,968,600"}


def test_a_long_table_naming_the_part_in_every_row_concludes_in_its_total():
    text = """3. **Question 3** – Trainable parameters, per module:
| **Task** | **Component** | **Parameters** |
| Language modeling task | Embedding | 10,000,200 |
| Language modeling task | LM head | 10,050,201 |
| Language modeling task | Total | 21,018,401 |
| Classification task | Embedding + 4 layers | 10,968,200 |
| Classification task | Total | 10,968,602 |
4. **Question 4** – The pre-trained model is ahead at every epoch.
"""
    assert answers(text, LAB_A) == {"lm": "21,018,401", "cls": "10,968,602"}
