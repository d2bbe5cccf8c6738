"""Held-out-20 to -22's section families (the lead's share): an enumerate's own item
marker before the label it holds, LaTeX's equation numbers closing a line, answers
numbered by an environment's counter in the order of the parts, a part's answers told
apart by their names when no line marks the part, and a Word multilevel list's third
level ("3.5.a") as the sub-part."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers

P = [QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("probability", "p(mat)")),
     QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "-ln")),
     QuestionSpec("c", ("Q3 (c)",))]
E = [QuestionSpec(f"e{n}", ("Q3 (e)",), part=f"({r})")
     for n, r in ((1, "I"), (2, "II"), (3, "III"))]


def answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


def test_an_enumerates_item_marker_before_the_label_is_decoration():
    text = """(i) **Q3 (a)(I), objective.** Next-token prediction.
(ii) **Q3 (a)(II), probability and loss.** Softmax of the logits:
p(mat) = 20.0855 / 26.7791 = 0.7500 (3.2)
l = −ln 0.7500 = 0.2876 (3.3)
(iii) **Q3 (c), attention score memory.** 48 × 16,384^2 × 2 B = 25.77 GB
"""
    assert answers(text, P) == {"p": "0.7500", "loss": "0.2876", "c": "25.77 GB"}


def test_an_equation_number_closing_its_line_is_no_value_and_multiplies_nothing():
    found = extract_answers("## Q3 (c)\nM = 2 B × 12,884,901,888 = 25.77 GB (3.5)\n",
                            [QuestionSpec("c", ("Q3 (c)",))])
    assert found["c"].answer == "25.77 GB"
    assert "3.5" not in [c.text for c in found["c"].candidates]


def test_numbered_answers_in_the_order_of_the_parts():
    text = """**3.5 Part (e)**
*Working.* each adapted matrix adds 2 × 8 × 6144 = 98,304; 48 layers, two matrices.
**Answer 3.5.** LoRA introduces 9,437,184 trainable parameters.
*Working.* 9,437,184 × 8 bytes = 75,497,472 bytes.
**Answer 3.6.** The Adam states of the LoRA parameters take 75.5 MB.
*Working.* 75,497,472 / 115,975,913,472 = 0.00065.
**Answer 3.7.** About 0.065 % of the FFN optimizer memory.
"""
    assert answers(text.replace("3.5 Part (e)", "Q3 (e)"), E) == {
        "e1": "9,437,184", "e2": "75.5 MB", "e3": "0.065 %"}


def test_as_many_answers_as_parts_or_none_is_read_in_order():
    text = "## Q3 (e)\n**Answer:** 9,437,184\n**Answer:** 75.5 MB\n"
    assert not extract_answers(text, E)["e1"].found  # two answers for three parts


def test_answers_named_as_the_pack_names_them_when_no_line_marks_their_part():
    text = """**Q3 (a)**
(I) The model is trained to predict the hidden token from the other tokens.
*Working.* softmax of [0.5, 0.1, 3.0, 0.2, 1.0]: the exponentials sum to 26.779.
**Answer 3.1.** The probability of "mat" is p = 20.086 / 26.779 = 0.750.
**Answer 3.2.** The cross-entropy loss is −ln(0.750) = 0.288.
**Q3 (c)**
**Answer 3.3.** 25.77 GB
"""
    assert answers(text, P) == {"p": "0.750", "loss": "0.288", "c": "25.77 GB"}


def test_a_multilevel_lists_third_level_is_the_sub_part():
    text = """# 3 Question 3
## 3.3 Attention score memory
Answer: 25.77 GB.
## 3.5 LoRA
### 3.5.a Trainable parameters
48 × 2 × 98,304 = 9,437,184.
### 3.5.b Adam optimizer states
9,437,184 × 8 bytes = 75,497,472 bytes.
Answer: 75.50 MB.
### 3.5.c Comparison with the FFN
Answer: 0.0651 % of the FFN optimizer memory.
"""
    assert answers(text, [P[2], *E]) == {"c": "25.77 GB", "e1": "9,437,184",
                                         "e2": "75.50 MB", "e3": "0.0651 %"}


LAB_A = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
         QuestionSpec("cls", ("Question 3",), part="Classification task")]


def test_a_books_chapter_number_before_the_label_is_decoration():
    text = """# Chapter 3 Question 3
## 3.1 Language modeling task
The language modeling model has **21,015,201** trainable parameters.
## 3.2 Classification task
The classifier has **10,965,402** trainable parameters.
# Chapter 4 Question 4
"""
    assert answers(text, LAB_A) == {"lm": "21,015,201", "cls": "10,965,402"}


GRADESCOPE = """## Q3.5
Q3(e)(I) Trainable parameters added by LoRA on W_Q and W_V, r = 8.
Q3.5
2 matrices x 48 layers x 98,304
Answer: 9,437,184
## Q3.6
Q3(e)(II) Adam optimizer-state memory of these LoRA parameters (MB).
Q3.6
9,437,184 x 8 = 75,497,472 bytes
Answer: 75.5 MB
## Q3.7
Q3(e)(III) Compare with the Adam memory of the FFN parameters of (d).
Q3.7
Answer: 0.065 %
"""


def test_a_templates_box_title_printed_again_stays_in_the_part_its_prompt_names():
    assert answers(GRADESCOPE, E) == {"e1": "9,437,184", "e2": "75.5 MB", "e3": "0.065 %"}


def test_a_part_ends_at_the_next_boxs_heading():
    text = """## Q3.1
Question 3 How many trainable parameters? Language modeling task.
Q3.1
decoder: 200 x 50001 = 10,000,200
Language modeling task: 20,963,600
## Q3.2
Question 3 How many trainable parameters? Classification task.
Q3.2
classifier 200 x 2 = 400
Classification task: 10,963,800
"""
    assert answers(text, LAB_A) == {"lm": "20,963,600", "cls": "10,963,800"}


def test_a_label_restated_with_its_value_answers_its_part():
    text = """## 3.5 LoRA
Q3 (e)(I): each adapted matrix gets r·H + H·r = 98,304 parameters; W_Q and W_V in 48 layers:
**Important**
Q3 (e)(I): 9,437,184 trainable parameters.
**Note**
For the optimizer I only count Adam's first moment, so 4 bytes per trainable parameter.
Q3 (e)(II): 9,437,184 × 4 bytes = 37,748,736 bytes.
**Important**
Q3 (e)(II): 37.75 MB of optimizer state.
"""
    assert answers(text, E[:2]) == {"e1": "9,437,184", "e2": "37.75 MB"}


def test_a_short_contents_of_two_entries_under_its_title_opens_nothing():
    from grader.written.vocabulary import contents_lines

    lines = ["Contents", "Question 1 2", "Tasks 3 and 4 3", "", "Question 1",
             "22,829,056 parameters"]
    assert contents_lines(lines) == {1, 2}
    assert contents_lines(["Question 1 2", "Tasks 3 and 4 3"]) == set()  # no title, no dots


def test_the_value_after_the_labels_colon_beats_the_working_in_brackets_after_it():
    text = ("Q3(e)(I): 9,437,184 (per matrix 8x6144 + 6144x8 = 98,304; 2 matrices x 48 layers)\n"
            "Q3(e)(II): 72 MB (9,437,184 x 8 bytes = 75,497,472 bytes / 1024^2)\n"
            "Q3(e)(III): 0.065% (9,437,184 / 14,496,989,184 = 0.000651)\n")
    assert answers(text, E) == {"e1": "9,437,184", "e2": "72 MB", "e3": "0.065%"}


def test_what_the_model_has_is_its_count():
    text = """# Question 3
**Language modeling task:** adding the LM head 200 × 50001 + 50001 = 10,050,201 gives 21,018,401 trainable parameters.
**Classification task:** with the classifier 200 × 2 + 2 = 402 instead of the LM head the model has 10,968,602 trainable parameters.
# Question 4
"""
    assert answers(text, LAB_A) == {"lm": "21,018,401", "cls": "10,968,602"}


def test_a_bare_answers_heading_over_a_list_closes_the_last_part():
    text = """## Q3 (e)
**(III)** 75.50 MB / 115,975.91 MB = 0.000651 = 0.0651 %

**Answers**

- (c) 25.77 GB
- (e)(I) 9,437,184 trainable LoRA parameters
- (e)(III) 0.0651 % of the FFN optimizer state
"""
    found = extract_answers(text, [E[2]])["e3"]
    assert (found.answer, found.shotgun) == ("0.0651 %", ())
