"""Held-out-9's families as the whole reader meets them (extract_answers): a table whose
columns a caption's key names, Word's multilevel outline numbers, a report in which no
label of the pack is found going to a TA."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.labels import read_mark

LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
       QuestionSpec("cls", ("Question 3",), part="Classification task")]


def test_a_table_keyed_by_its_caption_answers_each_part_from_its_column():
    text = ("## Question 3\n"
            "**Figure 1.** (a) Language modelling task: embedding, 4 encoder layers, LM head. "
            "(b) Classification task: the same body, a 2-way head.\n"
            "| **Component** | **(a)** | **(b)** |\n|---|---|---|\n"
            "| Embedding | 10,000,200 | 10,000,200 |\n"
            "| Head (no bias) | 10,000,200 | 400 |\n"
            "| **Trainable total** | **20,968,400** | **10,968,600** |\n## Question 4\n")
    got = extract_answers(text, LAB)
    assert (got["lm"].answer, got["cls"].answer) == ("20,968,400", "10,968,600")


def test_words_outline_numbers_are_labels():
    for text, path in (("3.a.ii. **Probability**", ("3", "a", "ii")),
                       ("3.c. Memory of the scores", ("3", "c", None)),
                       ("3.e.iii. Ratio", ("3", "e", "iii"))):
        mark = read_mark(text, True)
        assert mark is not None and mark.paths[0][1:] == path, text


def test_an_outline_numbered_report_opens_each_part():
    text = ("3. Question 3\n3.a. Pre-training\n3.a.i. Objective: next token.\n"
            "3.a.ii. Probability: p(mat) = 0.750\n3.b. Decoder-only\n"
            "3.c. Memory: 48 × 16384² × 2 B = **25.77 GB**\n3.d. FFN: **14.50 billion**\n")
    specs = [QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",)),
             QuestionSpec("a2", ("Q3 (a)",), part="(II)")]
    got = extract_answers(text, specs)
    assert (got["a2"].answer, got["c"].answer, got["d"].answer) == (
        "0.750", "25.77 GB", "14.50 billion")


def test_a_result_printed_large_is_no_heading_and_beats_the_working():
    # a poster's PDF gives its results in a large font: the reader makes them headings
    text = ("### Q3 (e)\n##### · (I)\nA: 8 × 6144, B: 6144 × 8 = 98,304 per matrix; 48 layers.\n"
            "## 9,437,184 params\n##### · (II)\nAdam: 9,437,184 × 8 = 75,497,472 B.\n"
            "## = 75.5 MB\n##### · (III)\n9,437,184 / 14,496,989,184 **= 0.065 %**\n"
            "#### Key numbers: S_max = 16384 · h = 48 · fp16 = 2 bytes\n")
    specs = [QuestionSpec(f"e{i}", ("Q3 (e)",), part=p) for i, p in
             ((1, "(I)"), (2, "(II)"), (3, "(III)"))]
    got = extract_answers(text, specs)
    assert (got["e1"].answer, got["e2"].answer, got["e3"].answer) == (
        "9,437,184", "75.5 MB", "0.065 %")


def test_a_numbered_section_heading_is_no_value():
    from grader.written.vocabulary import states_value
    for heading in ("## 1 Introduction", "## 3.2 Memory", "## 2026 Assignment 3", "## 3 Results"):
        assert not states_value(heading), heading
    for heading in ("## 9,437,184 params", "## 25.77 GB", "## 14.5 billion parameters"):
        assert states_value(heading), heading


def test_the_answer_word_of_the_corpus_languages_marks_an_answer_line():
    for word in ("Antwort:", "Réponse :", "Respuesta:", "Risposta finale:", "Ответ:"):
        text = f"## Q3 (c)\n48 · 16384² · 2 B = 25 769 803 776 B\n{word} 24 GB, see above.\n"
        got = extract_answers(text, [QuestionSpec("c", ("Q3 (c)",))])["c"]
        assert (got.answer, got.why) == ("24 GB", "answer line"), word


def test_a_boxed_final_answer_printed_large_answers_its_part():
    # an exam booklet's box: "Final answer" over the value set large; not a closing
    # "Final answers" summary, and "## 24 GB" is no question 24
    text = ("# Q3 (c)\nbytes = 12,884,901,888 x 2 = 25,769,803,776 B\n"
            "in GB: 25,769,803,776 ÷ 1024^3 = 24.0\nFinal answer\n## 24 GB\n"
            "# Q3 (d)\nper layer 302,020,608\nFinal answer\n## 14.49 billion\n")
    got = extract_answers(text, [QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",))])
    assert (got["c"].answer, got["d"].answer) == ("24 GB", "14.49 billion")
