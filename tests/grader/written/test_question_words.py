"""A report's own question and answer words, learned from the report (question_words.py).

Held-out-12 brought five question words no list held (Greek, Swedish, Ukrainian, Swahili,
Thai) after every earlier batch brought its own. The reports here are written in
languages no batch used (Finnish, Georgian, Amharic, Icelandic, Hungarian, Greek), so
that they test the design, not a list: the word that numbers the headings is the
question word, the word that opens the short answer lines is the answer word, and
reports the grammar already reads are read as before.
"""

from __future__ import annotations

from grader.written import QuestionSpec, extract_answers
from grader.written.question_words import answer_word, question_word, read_as_question, task_word
from grader.written.sections import read_lines
from grader.written.vocabulary import ANSWER_LINE

Q3 = [QuestionSpec("q3a2", ("Q3 (a)",), part="(II)"),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]
LAB = [QuestionSpec("q3", ("Question 3",)), QuestionSpec("q4", ("Question 4",))]


def _answers(text: str, specs: list[QuestionSpec] = Q3) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


def _known(raw: str) -> bool:
    return ANSWER_LINE.match(raw) is not None


FINNISH = """# Kotitehtävä 3: muuntajan analyysi
## Tehtävä 3 (a)
**(I)** Seuraavan tokenin ennustaminen.
**(II)** p = 20.0855 / 26.7791 = 0.750
## Tehtävä 3 (b)
Vain dekooderi skaalautuu helpoimmin.
## Tehtävä 3 (c)
Pisteet 16-bittisinä, kaikki päät:
25.77 GB
## Tehtävä 3 (d)
48 kerrosta: 14,496,989,184 parametria.
## Tehtävä 3 (e)
**(I)** 9,437,184
**(II)** 9,437,184 · 8 = 75,497,472 tavua = 75.5 MB
"""


def test_an_unlisted_question_word_numbering_the_headings_is_the_question_word():
    assert question_word(FINNISH.splitlines()) == "tehtävä"
    answers = _answers(FINNISH)
    assert answers["q3c"] == "25.77 GB"
    assert answers["q3d"] == "14,496,989,184"
    assert answers["q3e2"] == "75.5 MB"
    assert answers["q3a2"] == "0.750"


def test_a_title_naming_the_assignment_once_is_not_the_question_word():
    # "Kotitehtävä 3" (homework 3) numbers one heading; "Tehtävä" numbers five
    lines = FINNISH.splitlines()
    assert question_word(lines) == "tehtävä"
    assert question_word([lines[0], lines[1]]) is None  # one heading each: nothing learned


def test_scripts_with_combining_marks_and_no_spaces_between_words():
    amharic = "\n".join(f"## ጥያቄ 3 ({p})\nመልስ {v}" for p, v in
                        (("a", "0.75"), ("c", "25.77 GB"), ("d", "14.5 billion")))
    assert question_word(amharic.splitlines()) == "ጥያቄ"
    thai = "# ข้อ 3 (c)\n48 × 16384^2 × 2 = 25.77 GB\n# ข้อ 3 (d)\n14.5 billion\n"
    assert question_word(thai.splitlines()) == "ข้อ"  # ้ is a mark joined to its letter
    assert _answers(thai)["q3c"] == "25.77 GB"


def test_a_lab_numbered_by_an_unlisted_word_finds_its_questions():
    georgian = ("# ლაბორატორია A\n# კითხვა 1\nნიღაბი.\n# კითხვა 2\nთავი.\n"
                "# კითხვა 3\nსულ: 21,018,401 პარამეტრი\n# კითხვა 4\nორივე ერთნაირია.\n")
    assert question_word(georgian.splitlines()) == "კითხვა"
    assert _answers(georgian, LAB)["q3"] == "21,018,401"


def test_a_section_numbered_before_the_word_still_names_the_question():
    swedish_latex = "## 1 Modellen\nL = 48\n## 2 Uppgift 3 (c)\n25,77 GB\n## 3 Uppgift 3 (d)\n14,5 miljarder\n"
    assert question_word(swedish_latex.splitlines()) == "uppgift"
    assert _answers(swedish_latex)["q3c"] == "25,77 GB"


def test_columns_hold_where_the_word_is_read_as_q():
    raw = "## Tehtävä 3 (c): 25.77 GB"
    read = read_as_question(raw, "tehtävä")
    assert len(read) == len(raw) and read.startswith("## Q") and read.endswith("(c): 25.77 GB")
    assert read_as_question("Tehtävässä 3 kohtaa", "tehtävä") == "Tehtävässä 3 kohtaa"
    assert read_as_question("Muista tehtävä 3", "tehtävä") == "Muista tehtävä 3"  # mid-line


def test_words_that_number_other_things_are_never_question_words():
    steps = "## Step 1\n48 × 2 = 96\n## Step 2\n96 × 2 = 192\n## Step 3\n25.77 GB\n"
    assert question_word(steps.splitlines()) is None
    assert _answers(steps)["q3c"] is None  # no question named: a TA reads it


def test_a_report_the_grammar_reads_learns_nothing():
    # "Question 3 (c)" is a label: "Kohta 1", "Kohta 2" (its working's steps) stay text
    text = ("## Question 3 (c)\n### Kohta 1\n16384^2 = 268,435,456\n### Kohta 2\n"
            "48 × 268,435,456 × 2 = 25,769,803,776\n**Answer:** 25.77 GB\n"
            "## Question 3 (d)\n14,496,989,184\n")
    assert question_word(text.splitlines()) is None
    assert _answers(text)["q3c"] == "25.77 GB"


# -- the answer word ------------------------------------------------------------------------

ESPERANTO = """## Demando 3 (c)
Respondo: 25.77 GB
Kalkulo 48 · 16384^2 · 2 = 25,769,803,776 bajtoj; 12,884,901,888 poentoj
## Demando 3 (d)
Respondo: 14.50 miliardoj
Po tavolo: 302,020,608
## Demando 3 (e)
**(II)**
Respondo: 75.5 MB
9,437,184 · 8 = 75,497,472 bajtoj
"""
"""A class whose answer word ``ANSWER_IN_OTHER_LANGUAGES`` does not list (Icelandic
"Svar" was the example until the Nordic words were listed)."""


def test_an_unlisted_answer_word_opening_short_lines_marks_the_answers():
    lines = read_lines(ESPERANTO, {"3"})
    assert answer_word(lines, _known) == "respondo"
    answers = _answers(ESPERANTO)
    assert answers["q3c"] == "25.77 GB"  # stated first, before the working
    assert answers["q3e2"] == "75.5 MB"


def test_a_word_opening_working_is_no_answer_word():
    hungarian = ("## Feladat 3 (c)\nhogyan: 48 × 16384^2 × 2 = 25,769,803,776\n25.77 GB\n"
                 "## Feladat 3 (d)\nhogyan: 48 × 302,020,608\n14.5 billion\n"
                 "## Feladat 3 (e)\n**(II)** hogyan: 9,437,184 × 8\n75.5 MB\n")
    lines = read_lines(hungarian, {"3"})
    assert answer_word(lines, _known) is None  # arithmetic after it: working
    assert _answers(hungarian)["q3d"] == "14.5 billion"


def test_a_report_with_a_known_answer_word_learns_none():
    text = ESPERANTO.replace("Respondo: 75.5 MB", "Answer: 75.5 MB")
    assert answer_word(read_lines(text, {"3"}), _known) is None


# -- plain-text label lines, and the number before the word -------------------------------


def test_a_plain_text_report_s_label_lines_need_no_markup():
    icelandic = ("STAT8021 heimaverkefni 3\n----------------\nSpurning 3 (c)\n"
                 "48 × 16384^2 × 2 bæti\nSvar: 25.77 GB\nSpurning 3 (d)\nSvar: 14.5 milljarðar\n"
                 "Spurning 3 (e)\n(II)\nSvar: 75.5 MB\n")
    assert question_word(icelandic.splitlines()) == "spurning"
    answers = _answers(icelandic)
    assert answers["q3c"] == "25.77 GB"
    assert answers["q3e2"] == "75.5 MB"


def test_the_number_may_come_before_the_word():
    hungarian = ("STAT8021 – 3. házi feladat, 3. rész\n3. feladat (c)\n48 × 16384^2 × 2 bájt\n"
                 "Válasz: 24,0 GB\n3. feladat (d)\nVálasz: 14,5 milliárd\n")
    assert question_word(hungarian.splitlines()) == "feladat"
    assert read_as_question("3. feladat (c)", "feladat") == "Q3         (c)"
    assert _answers(hungarian)["q3c"] == "24,0 GB"
    # a section number, then the word before its own number: the word-first shape
    assert read_as_question("2. Uppgift 3 (a)", "uppgift").startswith("2. Q       3 (a)")


def test_short_lines_numbering_other_things_are_not_questions():
    text = ("Q3 (c)\nSeed 1\n0.853\nSeed 2\n0.851\nRun 3 (b)\n0.861\n25.77 GB\n"
            "Q3 (d)\n14.5 billion\n")
    assert question_word(text.splitlines()) is None
    assert _answers(text)["q3d"] == "14.5 billion"


def test_a_pack_of_questions_and_tasks_learns_the_report_s_word_for_each():
    # lab B asks Questions 1-2 and Tasks 3-4; a Norwegian report numbers them
    # "Spørsmål 1", "Spørsmål 2", "Oppgave 3 og 4"
    lines = ["# Spørsmål 1", "22 829 056 parametre", "# Spørsmål 2", "Frosne lag.",
             "# Oppgave 3 og 4", "| modell | frø | val |"]
    word = question_word(lines)
    assert word == "spørsmål"
    assert task_word(lines, word) == "oppgave"
    assert read_as_question("# Oppgave 3 og 4", word, "oppgave") == "# Task    3 og 4"
    read = read_lines("\n".join(lines), tasks=True)
    assert read[4].paths[0][:2] == ("task", "3")
    assert read_lines("\n".join(lines), tasks=False)[4].paths[0][:2] == ("q", "2")  # no task
    # a word numbering the question word's own numbers is no task word
    assert task_word(["# Spørsmål 1", "# Spørsmål 2", "# Steg 2"], word) is None
