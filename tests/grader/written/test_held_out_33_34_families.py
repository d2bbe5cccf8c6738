"""Held-out-33 and -34's families: the answer word and the contents title in the class's
own language (listed whole, not a word per report), part numerals that look like chat
speakers, a notebook's code naming a column "Svar", an outliner's headings in bullets,
letters a bold font lacked, and a bracketed remark naming a part."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.reading.markup import Run, render
from grader.written.reading.plain import read_plain
from grader.written.vocabulary import ANSWER_LINE, contents_lines, is_answer_heading

C_D = [QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",))]
E = [QuestionSpec(f"e{k}", ("Q3 (e)",), part=f"({n})") for k, n in enumerate(("I", "II", "III"), 1)]
SYNONYMS = {"Language modeling task": ["Pre-training (LM) model"],  # transfer-lab-a's
            "Classification task": ["Fine-tuned classifier"]}
LAB_A = [QuestionSpec("lm", ("Question 3",), part="Language modeling task", synonyms=SYNONYMS),
         QuestionSpec("cls", ("Question 3",), part="Classification task", synonyms=SYNONYMS)]


def answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


@pytest.mark.parametrize("word", ["Sagot", "Svar", "Vastaus", "Відповідь", "คำตอบ", "Răspuns",
                                  "Odpověď", "Válasz", "Jibu", "उत्तर", "תשובה", "Vastaus / Answer"])
def test_the_answer_word_of_the_classs_language_marks_the_answer(word: str):
    assert ANSWER_LINE.match(f"{word}: 25.77 GB")
    text = f"""## Q3 (c)
{word}: 25.77 GB
48 × 16384^2 × 2 = 25,769,803,776 bytes; 12,884,901,888 scores
## Q3 (d)
per layer 302,020,608
{word}: 14.50 billion"""
    assert answers(text, C_D) == {"c": "25.77 GB", "d": "14.50 billion"}


def test_two_answer_words_side_by_side_are_one_heading():
    assert is_answer_heading("Vastaus / Answer")
    assert not is_answer_heading("p / loss")


def test_part_numerals_before_colons_are_no_chat_speakers(tmp_path: Path):
    report = tmp_path / "lms.txt"
    report.write_text("""Q3 e)
I: each adapted matrix gets A and B = 2 x 8 x 6144 = 98,304
Sagot: 9,437,184 trainable parameters

II: Adam keeps m and v in fp32 -> 9,437,184 x 8 = 75,497,472 bytes
Sagot: 75.5 MB

III: ratio 9,437,184 / 14,496,989,184 = 0.00065
Sagot: about 0.065% of the FFN optimizer memory
""", encoding="utf-8")
    text = read_plain(report).text
    assert "II: Adam keeps" in text  # nothing blanked as another speaker's turn
    assert answers(text, E) == {"e1": "9,437,184", "e2": "75.5 MB", "e3": "0.065%"}


def test_a_notebooks_code_naming_a_column_for_the_answer_states_nothing():
    text = """## Q3 (e)
**(III)** The FFN optimizer states are about **1536x** larger than the LoRA ones.
## Oppsummering
```
svar = pd.DataFrame({"Del": ["(a)(II) p", "(c)", "(e)(III)"],
"Svar": ["0.7500", "25.77 GB", "1536x"]})
```"""
    got = extract_answers(text, E)["e3"]
    assert (got.answer, got.shotgun) == ("1536", ())


def test_an_outliners_headings_in_bullets_are_headings(tmp_path: Path):
    report = tmp_path / "logseq.md"
    report.write_text("""title:: Transfer Lab A report

- ## Question 3
  collapsed:: true
	- embedding: 50001 × 200 = 10000200
	- ### Language modeling task
		- 10000200 + 963200 + 200 × 50001 = **20,963,600**
	- ### Classification task
		- 10000200 + 963200 + 200 × 2 = **10,963,800**
- ## Question 4
	- The pre-trained model does better.
""", encoding="utf-8")
    text = read_plain(report).text
    assert "\n## Question 3\n" in text
    assert answers(text, LAB_A) == {"lm": "20,963,600", "cls": "10,963,800"}
    # one bullet that opens with "#" is no outline
    lone = tmp_path / "lone.md"
    lone.write_text("- # of layers: 4\n- d = 200\n", encoding="utf-8")
    assert read_plain(lone).text.startswith("- # of layers")


@pytest.mark.parametrize("title", ["Innehåll", "Cuprins", "Obsah", "ЗМІСТ", "Mục lục",
                                   "Inhaltsverzeichnis", "Table des matières", "İçindekiler"])
def test_a_contents_titled_in_the_classs_language_opens_no_section(title: str):
    lines = [f"## {title}", "| 1.3 Q3 (c) Minne för attention-poängen | 1 |",
             "| 1.4 Q3 (d) FFN-parametrar | 2 |", "## Q3 (c)", "**25,77 GB**", "## Q3 (d)",
             "**14,50 billion**"]
    assert contents_lines(lines) == {1, 2}
    assert answers("\n".join(lines), C_D) == {"c": "25,77 GB", "d": "14,50 billion"}


def test_letters_a_bold_font_lacked_stay_in_the_bold_word():
    runs = [Run("→ Tr", True), Run("ả ", False), Run("l", True), Run("ờ", False),
            Run("i: 25,77 GB", True)]
    assert render(runs) == "**→ Trả lời: 25,77 GB**"
    # a plain word between bold ones, set apart by spaces, stays plain
    assert render([Run("Answer:", True), Run(" is ", False), Run("4", True)]) == \
        "**Answer:** is **4**"


def test_a_bracketed_remark_naming_a_part_is_no_part_of_it():
    text = """Question 3:
Counted with sum(p.numel() ...), the notebook prints:
- LM model = 21018401
- Classification model = 10968602
(jadi the LM model is about 2x bigger, because of the output layer over the vocabulary)

Question 4:"""
    assert answers(text, LAB_A) == {"lm": "21018401", "cls": "10968602"}
