"""Held-out-10's families of sections, on small reports written here (not the corpus's
files): the question words of Portuguese, Turkish and Korean (and the orders those
languages write them in: "3. Soru", "3번", "제3문"), and a dashboard's panel caption
printed on its heading's line (W&B's "MARKDOWN PANEL Question 1")."""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.labels import read_mark

Q3 = [QuestionSpec("q3a2", ("Q3 (a)",), part="(II)"),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]
LAB = [QuestionSpec(f"q{n}", (f"Question {n}",)) for n in range(1, 6)]


def _path(text: str, heading: bool = False) -> tuple[str, str, str | None, str | None] | None:
    mark = read_mark(text, heading=heading)
    return None if mark is None else mark.paths[0]


# -- Portuguese ------------------------------------------------------------------------------


def test_portuguese_question_words_are_labels():
    assert _path("## Questão 3 (a)") == ("q", "3", "a", None)
    assert _path("Questao 3 (c): memória") == ("q", "3", "c", None)
    assert _path("Exercício 3 (d)") == ("q", "3", "d", None)
    assert _path("Problema 3 (e)") == ("q", "3", "e", None)
    assert _path("Parte 3 – c)") == ("q", "3", "c", None)
    assert _path("Tarefa 4") == ("task", "4", None, None)


PORTUGUESE = """# STAT8021 – Tarefa 3
### Parte 3: análise escrita
## Questão 3 (a)
### (I)
O modelo prevê o próximo token.
### (II)
Soma das exponenciais: 26,7791.
Resposta: p(mat) = **0,7500**
## Questão 3 (c)
Por cabeça: 16.384^2 = 268.435.456 pontuações.
Resposta: **25,77 GB**
## Questão 3 (d)
Em 48 camadas: 14.496.989.184 parâmetros.
Resposta: **14,50 bilhões** de parâmetros
## Questão 3 (e)
### (I)
Resposta: **9.437.184** parâmetros treináveis
### (II)
Resposta: **37,75 MB**
"""


def test_a_portuguese_report_is_read_by_its_questao_headings():
    got = extract_answers(PORTUGUESE, Q3)
    assert {k: v.answer for k, v in got.items()} == {
        "q3a2": "0,7500", "q3c": "25,77 GB", "q3d": "14,50 bilhões", "q3e1": "9,437,184",
        "q3e2": "37,75 MB"}


# -- Turkish ---------------------------------------------------------------------------------


def test_turkish_question_words_are_labels_in_either_order():
    assert _path("## Soru 3") == ("q", "3", None, None)
    assert _path("Alıştırma 2 (b)") == ("q", "2", "b", None)
    assert _path("ALIŞTIRMA 2") == ("q", "2", None, None)
    assert _path("3. Soru") == ("q", "3", None, None)
    assert _path("3. soru (c)") == ("q", "3", "c", None)
    assert _path("Görev 3") == ("task", "3", None, None)
    # a count of questions is no label: "3 soru" has no ordinal's dot
    assert _path("3 soru çözdüm") is None


TURKISH = """# Transfer Lab A Raporu
## Soru 1
Kare maske gelecekteki konumları gizler.
## Soru 2
Dil modeli başlığı 50001 logit üretir.
## 3. Soru
Gömme: 50001 × 200 = 10.000.200
**Eğitilebilir parametre sayısı: 20.857.601**
## Soru 4
Doğruluk 0,84 / 0,78.
"""


def test_a_turkish_report_is_read_by_its_soru_headings():
    got = extract_answers(TURKISH, LAB)
    assert got["q3"].answer == "20,857,601"  # thousands dots read as grouping
    assert got["q2"].answer == "50001"


# -- Korean ----------------------------------------------------------------------------------


def test_korean_question_words_and_counters_are_labels():
    assert _path("# 질문 3") == ("q", "3", None, None)
    assert _path("연습문제 2") == ("q", "2", None, None)
    assert _path("과제 3") == ("task", "3", None, None)
    assert _path("3번 문제") == ("q", "3", None, None)
    assert _path("3번.") == ("q", "3", None, None)
    assert _path("제3문") == ("q", "3", None, None)
    # "3번 실행했다" is "ran it three times", no label
    assert _path("3번 실행했다") is None


KOREAN = """# 전이 학습 실습 A 보고서
# 질문 1
마스크는 뒤의 토큰을 가립니다.
# 질문 2
헤드는 50001개의 로짓을 냅니다.
# 질문 3
임베딩 50001 × 200 = 10,000,200.
총 학습 가능한 파라미터: **20,963,600**
# 질문 4
검증 정확도 0.77 대 0.80.
"""


def test_a_korean_report_is_read_by_its_jilmun_headings():
    got = extract_answers(KOREAN, LAB)
    assert got["q3"].answer == "20,963,600"


# -- a dashboard's panels --------------------------------------------------------------------


def test_a_panel_caption_before_a_label_is_no_part_of_it():
    assert _path("MARKDOWN PANEL **Question 1**") == ("q", "1", None, None)
    assert _path("TEXT BLOCK Task 3") == ("task", "3", None, None)
    # a caption alone, or before no label, is text
    assert _path("LINE PLOT · EVAL/ACCURACY VS. STEP") is None
    assert _path("MARKDOWN PANEL") is None


WANDB = """# Lab B report: RoBERTa, pre-trained vs. from scratch
Tsang Wai Lun · Created on November 21 · 6 runs
MARKDOWN PANEL **Question 1**
Embeddings 32000·512 + 258·512 = 16,517,120; four layers 6,311,936.
Trainable params (encoder): **22,829,056**
MARKDOWN PANEL **Question 2**
r = rank of the adapters.
"""


def test_a_dashboards_markdown_panels_open_their_questions():
    got = extract_answers(WANDB, LAB[:2])
    assert got["q1"].answer == "22,829,056"
    assert got["q1"].heading == "MARKDOWN PANEL **Question 1**"


# -- the part and answer words of those languages ---------------------------------------------


def test_portuguese_and_korean_part_words_and_letters_are_parts():
    assert _path("Questão 3, alínea c)") == ("q", "3", "c", None)
    assert _path("Questão 3 – letra d") == ("q", "3", "d", None)
    assert _path("문제 3 (다)") == ("q", "3", "c", None)
    assert _path("(나) 소프트맥스") == ("?", "", "b", None)


def test_an_answer_word_of_each_language_marks_the_answer_line():
    from grader.written.vocabulary import ANSWER_LINE, is_answer_heading

    for line in ("Resposta: **25,77 GB**", "Resposta final: 25,77 GB", "Cevap: 20.857.601",
                 "Yanıt: 0,84", "답변: 20,963,600"):
        assert ANSWER_LINE.match(line), line
    assert is_answer_heading("### Resposta") and is_answer_heading("**Cevap**")
    assert not ANSWER_LINE.match("Respostas curtas seguem abaixo")


def test_the_answer_line_is_taken_over_a_later_working_number():
    text = ("## Questão 3 (c)\nResposta: 25,77 GB\n"
            "Por cabeça: 16.384^2 = 268.435.456 pontuações.\n## Questão 3 (d)\n")
    got = extract_answers(text, [QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",))])
    assert got["q3c"].answer == "25,77 GB"
