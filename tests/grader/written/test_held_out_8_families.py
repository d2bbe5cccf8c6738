"""Held-out-8's families, on small reports written here (not the corpus's files): question
words and part names in Russian."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.labels import parse_label

LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
       QuestionSpec("cls", ("Question 3",), part="Classification task")]


def test_russian_question_words_read_as_the_question_kind():
    for text in ("Вопрос 3", "Задание 3", "Задача 3", "Упражнение 3", "Часть 3"):
        label = parse_label(text)
        assert label is not None and (label.kind, label.num) == ("q", "3"), text


def test_a_russian_report_names_the_labs_parts_in_its_own_words():
    text = ("## Вопрос 2\nГолова выдаёт 50 001 логит.\n\n## Вопрос 3\n"
            "- голова LM: 200 · 50 001 + 50 001 = 10 050 201\n"
            "- голова классификатора: 200 · 2 + 2 = 402\n\n"
            "**Модель для языкового моделирования:** 10 000 200 + 968 000 + 10 050 201 = "
            "**21 018 401** параметров.\n\n"
            "**Модель для классификации:** 10 000 200 + 968 000 + 402 = **10 968 602**.\n\n"
            "## Вопрос 4\nЭпоха 3: 0,81.\n")
    got = extract_answers(text, LAB)
    assert (got["lm"].answer, got["cls"].answer) == ("21 018 401", "10 968 602")


def test_a_russian_model_is_no_modeling():
    # "модель" (a model) names neither part; only "моделирования" (modeling) names the
    # language-modeling one, so the classifier's line stays the classifier's
    text = ("## Вопрос 3\n**Модель для классификации:** **10 968 602**.\n"
            "**Модель для языкового моделирования:** **21 018 401**.\n")
    got = extract_answers(text, LAB)
    assert got["cls"].answer == "10 968 602"

