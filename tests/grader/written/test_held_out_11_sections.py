"""Held-out-11's families of sections, on small reports written here (not the corpus's
files): the question, part and answer words of Dutch, Polish, Vietnamese and Indonesian
(and the lab part names of an Indonesian report), and a Word contents field whose cached
entries lost their tab ("3(c) Memory of the attention scores 2")."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.labels import read_mark
from grader.written.vocabulary import ANSWER_LINE, contents_lines, is_answer_heading, stem

Q3 = [QuestionSpec("q3a2", ("Q3 (a)",), part="(II)"),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]


def _path(text: str, heading: bool = False) -> tuple[str, str, str | None, str | None] | None:
    mark = read_mark(text, heading=heading)
    return None if mark is None else mark.paths[0]


def _answers(text: str, specs: list[QuestionSpec] = Q3) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


# -- the question and part words of four languages --------------------------------------------


def test_dutch_question_and_part_words_are_labels():
    assert _path("## Vraag 3 (a)") == ("q", "3", "a", None)
    assert _path("Opgave 3 (c)") == ("q", "3", "c", None)
    assert _path("Oefening 3 (d)") == ("q", "3", "d", None)
    assert _path("Opdracht 3, onderdeel e") == ("q", "3", "e", None)
    assert _path("Taak 4") == ("task", "4", None, None)


def test_polish_question_and_part_words_are_labels():
    assert _path("# Zadanie 3 (a)") == ("q", "3", "a", None)
    assert _path("Zad. 3 (c)") == ("q", "3", "c", None)
    assert _path("Pytanie 3 (d)") == ("q", "3", "d", None)
    assert _path("Ćwiczenie 3, podpunkt e") == ("q", "3", "e", None)
    assert _path("Polecenie 4") == ("task", "4", None, None)


def test_vietnamese_question_and_part_words_are_labels():
    assert _path("## Câu 3 (a)") == ("q", "3", "a", None)
    assert _path("# Câu hỏi 1") == ("q", "1", None, None)
    assert _path("Bài tập 3 (d)") == ("q", "3", "d", None)
    assert _path("Bài 3, ý e") == ("q", "3", "e", None)
    assert _path("Nhiệm vụ 4") == ("task", "4", None, None)


def test_indonesian_question_and_part_words_are_labels():
    assert _path("**Pertanyaan 3**") == ("q", "3", None, None)
    assert _path("Soal 3 (c)") == ("q", "3", "c", None)
    assert _path("Latihan 3 (d)") == ("q", "3", "d", None)
    assert _path("Soal 3, bagian e") == ("q", "3", "e", None)
    assert _path("Tugas 4") == ("task", "4", None, None)


def test_the_answer_word_of_each_language_marks_the_answer_line():
    for line in ("**Antwoord:** 25,77 GB", "**Odpowiedź:** 25,77 GB", "Odp. 25,77 GB",
                 "**Đáp án:** 51,54 GB", "Đáp số: 9.437.184", "Trả lời: 0,75",
                 "Jawaban: 20.963.600", "Jawab: 0,84"):
        assert ANSWER_LINE.match(line), line
    for heading in ("### Antwoord", "**Odpowiedź**", "## Đáp án", "### Jawaban"):
        assert is_answer_heading(heading), heading
    assert not ANSWER_LINE.match("Antwoorden volgen hieronder")


DUTCH = """# Opdracht 3 – Deel 3: Analyse
## Vraag 3 (a)
**(I)**
Het model voorspelt het volgende token.
**(II)**
e^(3,0) / 26,7791
**Antwoord:** p(mat) = 0,7500
## Vraag 3 (c)
48 × 16.384^2 = 12.884.901.888 scores × 2 bytes.
**Antwoord:** 25,77 GB
## Vraag 3 (d)
Over 48 lagen:
**Antwoord:** 14.496.989.184 parameters (≈ 14,497 miljard)
## Vraag 3 (e)
**(I)**
8 × 6144 × 2 = 98.304 per matrix; twee matrices in 48 lagen.
**Antwoord:** 9.437.184 trainbare parameters
**(II)**
Adam: 8 bytes per parameter.
**Antwoord:** 75,50 MB
"""

POLISH = """# Zadanie domowe 3 – Część 3
# Zadanie 3 (a)
**(II)** Logity [0,5; 0,1; 3,0; 0,2; 1,0]: 20,0855 / 26,7791.
**Odpowiedź:** p = 0,7500
# Zadanie 3 (c)
Jedna warstwa: 12 884 901 888 wyników, po 2 bajty.
**Odpowiedź:** 25,77 GB
# Zadanie 3 (d)
Na warstwę 302 020 608; razy 48 warstw.
**Odpowiedź:** 14 496 989 184 parametrów (ok. 14,497 mld)
# Zadanie 3 (e)
**(I)** Na macierz 98 304; dwie macierze w 48 warstwach.
**Odpowiedź:** 9 437 184 parametrów trenowalnych
**(II)** Adam: 8 bajtów na parametr.
**Odpowiedź:** 75,50 MB
"""

VIETNAMESE = """# Bài tập 3 – Phần 3: Phân tích

## Câu 3 (a)

**(II)** Logits = [0,5; 0,1; 3,0; 0,2; 1,0]; tổng = 26,7791.

**Đáp án:** p("mat") = 0,75

## Câu 3 (c)

12.884.901.888 score × 2 byte = 25.769.803.776 byte

**Đáp án:** 25,77 GB

## Câu 3 (d)

Nhân 48 layer: 14.496.989.184 tham số.

**Đáp án:** 14,497 tỷ tham số

## Câu 3 (e)

**(I)** r × H + H × r = 98.304; hai ma trận × 48 layer:

**Đáp án:** 9.437.184 tham số huấn luyện được

**(II)** 9.437.184 × 8 byte = 75.497.472 byte.

**Đáp án:** 75,5 MB
"""


def test_a_dutch_report_is_read_by_its_vraag_headings():
    assert _answers(DUTCH) == {"q3a2": "0,7500", "q3c": "25,77 GB", "q3d": "14,496,989,184",
                               "q3e1": "9,437,184", "q3e2": "75,50 MB"}


def test_a_polish_report_is_read_by_its_zadanie_headings():
    assert _answers(POLISH) == {"q3a2": "0,7500", "q3c": "25,77 GB", "q3d": "14 496 989 184",
                                "q3e1": "9 437 184", "q3e2": "75,50 MB"}


def test_a_vietnamese_report_is_read_by_its_cau_headings_and_its_scale_word():
    assert _answers(VIETNAMESE) == {"q3a2": "0,75", "q3c": "25,77 GB", "q3d": "14,497 tỷ",
                                    "q3e1": "9,437,184", "q3e2": "75,5 MB"}


def test_a_lab_part_named_in_indonesian_has_the_english_stems():
    assert stem("pemodelan") == stem("modeling") and stem("bahasa") == stem("language")
    assert stem("klasifikasi") == stem("classification")
    # and the other languages' words where they differ from English
    assert stem("taalmodel") == stem("języka") == stem("ngôn") == stem("language")
    assert stem("klasyfikacja") == stem("classification")


# -- a Word contents field read from the DOCX ----------------------------------------------------


TOC = """# STAT8021 Assignment 3 – Part 3
# Contents
Question 3 1
3(a) Pre-training objective and loss 1
3(c) Memory of the attention scores 2
3(d) FFN parameters 2
# Question 3
## 3(c) Memory of the attention scores
48 × 16,384^2 × 2 = 25,769,803,776 bytes.
The memory is 25.77 GB.
"""


def test_a_contents_field_whose_entries_lost_their_tab_is_a_contents():
    lines = TOC.splitlines()
    assert contents_lines(lines) == {2, 3, 4, 5}
    assert _answers(TOC, [QuestionSpec("q3c", ("Q3 (c)",)),
                          QuestionSpec("q3d", ("Q3 (d)",))])["q3c"] == "25.77 GB"
    # under no "Contents" heading, lines ending in a number stay text
    assert contents_lines(["## Results", "Layers 48", "Heads 48", "Hidden size 6144"]) == set()


# -- a numbered caption over a small result table ------------------------------------------------


CAPTIONED = """## 3(c) Memory of the attention scores
h · S_max^2 scores of 2 bytes: 48 × 16,384^2 × 2 = 25,769,803,776 bytes; 1 GB = 10^9 bytes.
**Table 2: Result for 3(c)**
| Attention score memory (one layer, 48 heads) | 25.77 GB |
## 3(e) LoRA
(I) Each adapted matrix adds r·H + H·r = 98,304 parameters; W_Q and W_V in each of 48 layers.
(II) Adam keeps two fp32 states per parameter: 9,437,184 × 8 = 75,497,472 bytes.
**Table 4: Result for 3(e)**
| (I) LoRA trainable parameters | 9,437,184 |
| (II) Adam state memory | 75.50 MB |
"""


def test_a_captions_number_and_the_label_it_names_are_no_answer():
    from grader.written.vocabulary import is_caption

    assert is_caption("**Table 2: Result for 3(c)**") and is_caption("Figure 3. Loss curves")
    assert is_caption("Tabel 2: Hasil") and is_caption("Bảng 1")
    assert not is_caption("Table 2: p = 0.75") and not is_caption("Fig. 4 shows the loss")
    got = _answers(CAPTIONED, [QuestionSpec("q3c", ("Q3 (c)",))])
    assert got["q3c"] == "25.77 GB"


def test_a_result_tables_numeral_rows_under_the_last_part_answer_each_part():
    got = _answers(CAPTIONED, [QuestionSpec("q3c", ("Q3 (c)",)),
                               QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
                               QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")])
    assert got["q3e1"] == "9,437,184"
    assert got["q3e2"] == "75.50 MB"


# -- an infographic's cards: the result set large on the heading's line ------------------------


CARDS = """# Project Aether · by the numbers
## Q3 (C) · ATTENTION MEMORY 24.0 GB
how: 48 heads × 16,384^2 scores × 2 bytes = 25,769,803,776 bytes ÷ 1024^3
## Q3 (D) · FFN PARAMETERS 14.50 billion
how: 48 × (6144·24576 + 24576 + 24576·6144 + 6144) = 14,496,989,184
## Q3 (E) (I) · LORA PARAMETERS 9,437,184
how: 48 layers × 2 matrices (W_Q, W_V) × (8·6144 + 6144·8)
## Q3 (E) (II) · ADAM STATES 75.50 MB
how: 9,437,184 × 8 bytes = 75,497,472 bytes
"""


def test_a_cards_result_on_its_headings_line_is_the_answer_stated_first():
    from grader.written.vocabulary import value_at_end

    assert _path("## Q3 (E) (II) · ADAM STATES", heading=True) == ("q", "3", "e", "ii")
    assert _answers(CARDS, Q3[1:]) == {"q3c": "24.0 GB", "q3d": "14.50 billion",
                                       "q3e1": "9,437,184", "q3e2": "75.50 MB"}
    # a heading's title ending in a datum, a name or a year states no result
    for title in ("FFN parameters for 48 layers", "Memory of GPT-3", "GPT-3 175B",
                  "Results 2024"):
        assert value_at_end(title) is None, title


# -- a scanned page's heading run onto the end of a line ------------------------------------------


SCANNED = """# STAT8021 – Assignment 3, Part 3 (written answers)
I. The language modelling objective: the model predicts the next one**Q3 (a)**
(causal LM). On unlabelled text it minimises the cross-entropy.
II. logits [0.5, 0.1, 3.0, 0.2, 1.0], mat = index 2. Softmax: 20.086 / 26.779.
**p(mat) = 0.750**
## Q3 (c)
Scores per layer: 12,884,901,888 × 2 bytes.
**Memory = 25.77 GB**
Per layer: 302,020,608. For 48 layers:**Q3 (d)** 14,496,989,184 parameters.
**FFN parameters ≈ 14.5 billion**
"""


def test_a_bold_label_glued_onto_a_lines_end_is_a_heading():
    got = _answers(SCANNED, [QuestionSpec("q3a2", ("Q3 (a)",), part="(II)"),
                             QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",))])
    assert got == {"q3a2": "0.750", "q3c": "25.77 GB", "q3d": "14.5 billion"}
    # bold a student types after a space, or a bold part letter, opens nothing
    text = "The memory is **Q3 (c)** style.\nsee part**(c)** here\n"
    assert _answers(text, [QuestionSpec("q3c", ("Q3 (c)",))])["q3c"] is None
    # nor does the close of a bold run, the working after it no label
    text = "## Question 3(e)\n**(I)** 2 × 48 × 8 × (6144 + 6144) = **9,437,184**\n"
    assert _answers(text, [QuestionSpec("q3e1", ("Q3 (e)",), part="(I)")])["q3e1"] == "9,437,184"
