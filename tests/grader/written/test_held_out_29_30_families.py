"""Held-out-29's families: a section number before a spelled-out part ("1.1 Part (a)"), a
Notepad table whose answer column holds every step and marks the answer ("Ans = …"), the
answer word at a line's start cut short, and a remark in brackets under a table's answer."""

from __future__ import annotations

from pathlib import Path

from grader.written import QuestionSpec, extract_answers
from grader.written.reading.plain import read_plain

P = [QuestionSpec("p", ("Q3 (a)",), part="(II)",
                  labels=("p(mat)", 'p("mat")', "p_mat", "probability", "softmax")),
     QuestionSpec("loss", ("Q3 (a)",), part="(II)",
                  labels=("loss", "cross-entropy", "-log", "-log10")),
     QuestionSpec("c", ("Q3 (c)",)), QuestionSpec("d", ("Q3 (d)",))]
E3 = [QuestionSpec("e3", ("Q3 (e)",), part="(III)")]


def answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


def test_a_section_number_before_a_spelled_out_part_is_decoration():
    text = """## 1 Question 3
Model: L = 48, H = 6144.
## 1.1 Part (a)
(II) Softmax of the logits; the exponentials sum to 26.7791.
**P(mat) = 0.7500, L = -log10(0.7500) = 0.1249**
## 1.3 Part (c)
48 x 16,384^2 x 2 = 25,769,803,776 bytes.
**Memory = 25.77 GB**
"""
    assert answers(text, P[:3]) == {"p": "0.7500", "loss": "0.1249", "c": "25.77 GB"}


NOTEPAD = """Q3(c)
part\tworking\t\t\t\t\tanswer
scores\t16384 x 16384\t\t\t\t268435456 scores
bytes\t268435456 x 2\t\t\t\t536870912 bytes
GB\t536870912 / 10^9\t\t\tAns = 0.54 GB

Q3(d)
part\tworking\t\t\t\t\tanswer
layer\tW1 + W2\t\t\t\t\t302020608
total\t48 x 302020608\t\t\t\t14496989184
\t\t\t\t\t\tAns = 14.5 billion  (approx 1450 crore)

Q3(e)(III)
FFN\t14496989184 x 8\t\t\t\t115975913472 bytes = 115.98 GB
ratio\t75.5 MB / 115.98 GB\t\t\tAns = 0.065%
(i.e. LoRA states are about 1536 times smaller)
"""


def test_a_notepad_tables_marked_answer_beats_its_steps(tmp_path: Path):
    path = tmp_path / "notes.txt"
    path.write_text(NOTEPAD, encoding="utf-8")
    text = read_plain(path).text
    got = answers(text, [P[2], P[3], *E3])
    assert got == {"c": "0.54 GB", "d": "14.5 billion", "e3": "0.065%"}


def test_an_answer_word_opening_working_marks_no_step():
    """ "Ans: per layer … = 302,020,608; × 48 = … ≈ 14.497 billion": the word opens the
    working, not a value, so the steps stay steps and the last value answers."""
    text = ("(d) Calculate the FFN parameters.\n"
            "Ans: per layer (6144·24576 + 24576) + (24576·6144 + 6144) = 302,020,608; "
            "× 48 = 14,496,989,184 ≈ 14.497 billion\n")
    assert answers(text, [P[3]])["d"] == "14.497 billion"


LAB_A = [QuestionSpec("q1", ("Question 1",)), QuestionSpec("q2", ("Question 2",)),
         QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
         QuestionSpec("cls", ("Question 3",), part="Classification task"),
         QuestionSpec("q4", ("Question 4",))]
LAB_B = [QuestionSpec("q1", ("Question 1",)), QuestionSpec("t3", ("Task 3",))]


def test_the_parts_named_in_german_are_the_packs_parts():
    text = """## Question 3
Embedding: 50.001 × 200 = 10.000.200
Sprachmodell (LM): 21.018.401
Klassifikation: 10.968.602
## Question 4
"""
    got = answers(text, LAB_A)
    assert (got["lm"], got["cls"]) == ("21,018,401", "10,968,602")  # dot thousands, read


def test_accuracies_with_a_decimal_comma_in_prose_are_accuracies():
    from grader.checks.seedclaims import parse_claims

    text = ("- pretrained seed 1 -> best val 0,853 @ step 1000, test 0,841\n"
            "- scratch seed 2 -> best val 0,705 @ step 2000, test 0,699\n")
    rows = sorted((c["family"], c["seed"], c["best_validation"], c["step"], c["test"])
                  for c in parse_claims(text, {"pretrained": ["pretrained"],
                                               "scratch": ["scratch"]}))
    assert rows == [("pretrained", 1, 0.853, 1000, 0.841), ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_forms_field_beside_its_content_lets_the_contents_label_open_its_section():
    text = """| **Last modified** | Thursday, 27 November 2026, 9:48 PM |
| **Online text** | **Question 1** |
Embeddings 16,384,000 and the layers 6,311,936.
Total = 16,384,000 + 1,024 + 6,311,936 = 22,696,960
**Task 3**
"""
    assert answers(text, LAB_B)["q1"] == "22,696,960"
    # a field whose content is a value, not a label, opens nothing
    steps = "## Q3 (c)\n| **Working** | × 16 = 206,158,430,208 |\n| **Answer** | 206.16 GB |\n"
    assert answers(steps, [P[2]])["c"] == "206.16 GB"
