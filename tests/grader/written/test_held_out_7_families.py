"""Held-out-7's families, on small reports written here (not the corpus's files): question
words of other languages and numbering habits ("Aufgabe 3 a)", "Problem 3, item e (ii)")."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.labels import parse_label

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
