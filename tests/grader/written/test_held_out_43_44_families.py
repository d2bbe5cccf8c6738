"""Held-out-43 and -44's families (first ones read): a lawyer's points ("1° Sur Q3 (a)(I)",
"Sur la question 3 (c)", "Article 2 — Q3 (c): …" under "PAR CES MOTIFS"), the words a
French student concludes with ("soit 25,77 Go"), and a phone's list labels ("Q3 a(i) -",
"Q3 c - …"). Each test fails on the readers before these families were read."""

from __future__ import annotations

from grader.written import QuestionSpec
from grader.written.labels import read_mark
from tests.grader.written._read import answers

C = QuestionSpec("c", ("Q3 (c)",))
D = QuestionSpec("d", ("Q3 (d)",))


def test_a_lawyers_numbered_points_open_their_questions():
    text = ("4° Sur Q3 (c) - memory of the attention scores of one layer.\n"
            "48 heads x 16 384 x 16 384 = 12 884 901 888 scores, x 2 octets =\n"
            "25 769 803 776 octets, soit 25,77 Go.\n\n"
            "5° Sur Q3 (d) - parameters of the FFN.\n"
            "Per layer 8H^2 + 5H = 302 020 608 ; x 48 = 14 496 989 184, soit\n"
            "14,5 milliards de paramètres.\n")
    assert answers(text, [C, D]) == {"c": "25,77 Go", "d": "14,5 milliards"}


def test_a_decisions_grounds_and_articles():
    text = ("**Sur la question 3 (c)**\nConsidérant que one layer stores 48 × 16 384^2 scores "
            "of 2 bytes, or **25,77 Go** ;\n**Sur la question 3 (d)**\nConsidérant que the 48 "
            "layers count **14,497 milliards** ;\n**PAR CES MOTIFS**\n**DÉCIDE :**\n"
            "**Article 2 —** Q3 (c): 25,77 Go.\n**Article 7 —** The present decision will be "
            "notified by Moodle.\n")
    assert answers(text, [C, D]) == {"c": "25,77 Go", "d": "14,497 milliards"}
    mark = read_mark("**Article 2 —** Q3 (c): 25,77 Go.", False)
    assert mark is not None and mark.paths[0][1:3] == ("3", "c")


def test_a_phones_list_labels_name_their_parts():
    for label, part in (("1. Q3 a(i) - Language model", ("a", "i")),
                        ("3. Q3 a(ii) loss - cross-entropy", ("a", "ii")),
                        ("5. Q3 c - one score per pair", ("c", None))):
        mark = read_mark(label, False)
        assert mark is not None and mark.paths[0][2:] == part, label


def test_the_words_a_student_concludes_with_in_french():
    text = ("6° Sur Q3 (e)(I) - LoRA parameters.\n2 x 8 x 6 144 = 98 304 per matrix ; "
            "x 2 matrices x 48 layers, soit\n9 437 184 paramètres entraînables.\n\n"
            "7° Sur Q3 (e)(II) - Adam states.\n")
    assert answers(text, [QuestionSpec("e1", ("Q3 (e)(I)",))])["e1"] == "9 437 184"
