"""Numbered theorem-like environments (LaTeX amsthm, held-out-13's amsart article):
"**Answer 3.4.** (Q3 (d)) The FFN holds 14.497 billion parameters." then "*Proof.* …".
The environment's number is no value, and a numbered Answer or Solution states the
answer, the Proof after it the working."""

from __future__ import annotations

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.candidates import environment_answer, environment_number

Q3 = [QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)")]

AMSART = """Q3 (b). Decoder-only models generate well.
**Answer 3.3.** (Q3 (c)) The attention scores of one layer for all 48 heads take 25.77 GB.
*Proof.* 48 x 16,384 x 16,384 = 12,884,901,888 scores, each 2 bytes: 25,769,803,776 bytes.
**Answer 3.4.** (Q3 (d)) The FFN sub-layers of all 48 layers hold 14.497 billion parameters.
*Proof.* Per layer 302,020,608, and 48 x 302,020,608 = 14,496,989,184.
**Answer 3.5.** (Q3 (e) (I)) LoRA adds 9,437,184 trainable parameters.
*Proof.* Each adapted matrix adds 8 x 12,288 = 98,304; there are 2 x 48 = 96 of them.
Remark 3.8. Answer 3.2 was left out on purpose.
"""


def test_a_numbered_answer_states_the_answer_and_its_number_is_none():
    got = {k: v.answer for k, v in extract_answers(AMSART, Q3).items()}
    assert got == {"q3c": "25.77 GB", "q3d": "14.497 billion", "q3e1": "9,437,184"}


@pytest.mark.parametrize("line,span", [
    ("**Answer 3.4.** The FFN holds", (9, 12)),
    ("Solution 2. It takes 24 GB", (9, 10)),
    ("Remark 3.8. Answer 3.2 was left out", (7, 10)),
    ("*Theorem 1.2.1.* Attention is quadratic", (9, 14)),
])
def test_the_environment_number_is_found(line, span):
    assert environment_number(line) == span


@pytest.mark.parametrize("line", [
    "Answer: 3.4 GB", "Answer 3.4 GB", "Answer 3.45", "Answers 3.4. more", "In answer 3.4. x",
    "Answer 3..4. x",
])
def test_a_value_after_an_answer_word_is_no_environment_number(line):
    assert environment_number(line) is None


def test_only_answer_and_solution_environments_state_answers():
    assert environment_answer("**Answer 3.3.** (Q3 (c)) 25.77 GB")
    assert environment_answer("Solution 4. 14.5 billion")
    assert not environment_answer("*Proof.* 48 x 2 = 96")
    assert not environment_answer("Remark 3.8. Answer 3.2 was left out")
