"""Held-out-25 and -26's families: East Asian brackets round a label and round the answer
word, working in brackets under a value (on one line or over several), a KakaoTalk chat,
a claim turned by the next sentence, a list marker left before its part, a print stamp's
date, an aside opening in Hangul, the answer word mid-line, Roam's highlight, a symbol for
p(mat), a to-do list naming the tasks at the top, and a range of steps in prose."""

from __future__ import annotations

from pathlib import Path

from grader.checks.claims import find_claim
from grader.checks.seedclaims import parse_claims
from grader.written import QuestionSpec, extract_answers, section_text
from grader.written.reading.plain import read_plain

P = [QuestionSpec("p", ("Q3 (a)",), part="(II)",
                  labels=("p(mat)", 'p("mat")', "p_mat", "probability", "softmax")),
     QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "cross-entropy")),
     QuestionSpec("c", ("Q3 (c)",))]
E = [QuestionSpec(f"e{n}", ("Q3 (e)",), part=f"({r})")
     for n, r in ((1, "I"), (2, "II"), (3, "III"))]
LAB_A = [QuestionSpec("q1", ("Question 1",)), QuestionSpec("q2", ("Question 2",)),
         QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
         QuestionSpec("cls", ("Question 3",), part="Classification task"),
         QuestionSpec("q4", ("Question 4",))]
LAB_B = [QuestionSpec("q1", ("Question 1",))]
SERIES = {"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch", "random init"]}
FAMILIES = {"pretrained": ["pretrained", "pre-trained"], "scratch": ["scratch", "random"]}


def answers(text: str, specs: list[QuestionSpec]) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, specs).items()}


def test_lenticular_brackets_round_the_label_and_round_the_answer_word():
    text = """## 【Q3 (c)】
48 × 268,435,456 × 2 = 25,769,803,776 bytes
【解答】 **25.77 GB**
## 【Q3 (e)】
1 Trainable parameters of LoRA
Per matrix: 2 × 8 × 6144 = 98,304. W_Q and W_V in 48 layers: 98,304 × 2 × 48
【解答】 **9,437,184**
2 Adam optimizer states
9,437,184 × 8 = 75,497,472 bytes
【解答】 **75.5 MB**
3 Comparison with the FFN
Ratio = 75,497,472 / 115,964,116,992 = 0.000651
【解答】 **0.0651 %**
"""
    assert answers(text, [P[2], *E]) == {"c": "25.77 GB", "e1": "9,437,184",
                                         "e2": "75.5 MB", "e3": "0.0651 %"}


def test_working_in_brackets_under_a_value_is_its_working():
    text = """【Question 3】
Embedding: 50001 × 200 = 10,000,200. Four layers: 968,000.
1 Language modeling task = 21,018,401
(10,000,200 + 968,000 + LM head 200 × 50001 + 50001 = 10,050,201)
2 Classification task = 10,968,602
(10,000,200 + 968,000 + classifier 200 × 2 + 2 = 402)
【Question 4】
"""
    got = answers(text, LAB_A)
    assert (got["lm"], got["cls"]) == ("21,018,401", "10,968,602")


def test_a_bracketed_passage_over_lines_under_a_value_is_its_working():
    text = """Question 3
Language modeling task: 20,968,400
Classification task: 10,968,600
(I counted the head as only the weight matrix: 200 x 2 = 400 for classification.
embedding 50001 x 200 = 10,000,200
4 layers = 968,000)
Question 4
"""
    got = answers(text, LAB_A)
    assert (got["lm"], got["cls"]) == ("20,968,400", "10,968,600")


KAKAO = """Talk_2026.11.20 23:10-1.txt
--------------- 2026년 11월 20일 금요일 ---------------
[박서연] [오후 11:10] Transfer Lab A report - Park Seoyeon
[김도윤] [오후 11:11] 나도 아까 안 됐어 ㅋㅋ
[박서연] [오후 11:14] Question 3
Language modeling task: 20,968,400
Classification task: 10,968,600
[김도윤] [오후 11:16] 헐 나는 21,018,401 나왔는데
[박서연] [오후 11:16] 아 진짜? 나중에 다시 볼게
[박서연] [오후 11:18] Question 4
epoch 1: pretrained 0.801 / scratch 0.702
"""


def test_a_kakaotalk_chat_reads_the_students_turns_and_drops_a_classmates(tmp_path: Path):
    path = tmp_path / "kakao.txt"
    path.write_text(KAKAO, encoding="utf-8")
    text = read_plain(path).text
    assert "21,018,401" not in text  # a classmate's count is not the student's
    assert "epoch 1: pretrained 0.801 / scratch 0.702" in text  # a wrapped line, no turn
    got = answers(text, LAB_A)
    assert (got["lm"], got["cls"]) == ("20,968,400", "10,968,600")


def test_the_next_sentence_turning_on_a_claim_says_how_the_student_concludes():
    text = ("Pre-trained model is higher in the first epochs because it starts from "
            "representations learned in LM pre-training, so it converges faster. But at the "
            "end both are almost the same (0.852 vs 0.849). The task is easy.")
    found = find_claim(text, SERIES)
    assert found is not None and found[:2] == ("", "")
    # a sentence that does not turn leaves the first claim standing
    found = find_claim(text.replace("But at the end both are almost the same",
                                    "Both use the same data"), SERIES)
    assert found is not None and found[:2] == ("pretrained", "scratch")


def test_a_list_marker_left_before_its_part_is_no_value():
    text = """# Question 3
마. Q3 (e) LoRA with r = 8 on W_Q and W_V
1) (I) Two matrices per layer and 48 layers: 98,304 × 2 × 48 = 9,437,184 parameters.
2) (II) Adam keeps momentum and variance, 4 bytes each → 8 bytes per parameter.
9,437,184 × 8 = 75,497,472 bytes
1 MB = 1024 × 1024 bytes, so 75,497,472 / 1,048,576 = 72 MB
3) (III) The ratio of parameters: 9,437,184 / 14,496,989,184 = 0.000651
"""
    assert answers(text, E)["e2"] == "72 MB"


def test_a_print_stamps_date_is_no_ratio():
    text = """## Q3 (e)
(III)
75.5 MB / 116 GB ≈ 0.00065
→ LoRA optimizer memory is only about 0.065 % of the FFN optimizer memory.
腾讯文档 docs.qq.com · 打印于 2026/11/20
"""
    assert answers(text, E)["e3"] == "0.065 %"


def test_an_aside_opening_in_another_script_is_a_remark_on_the_value():
    text = "■ Question 1\ntotal = 22,829,056 (총 약 2283만 개, notebook 출력이랑 같음)\n"
    assert answers(text, LAB_B)["q1"] == "22,829,056"


def test_the_answer_word_mid_line_marks_the_value_after_its_colon():
    text = """## Q3 (c)
48 heads × 16384 × 16384 scores × 2 bytes. **Ans:** 25.77 GB
[4]: ffn_per_layer = H*4*H + 4*H
"""
    assert answers(text, P)["c"] == "25.77 GB"
    text = ("## Q3 (e)\n(I) each adapted matrix adds 2×8×6144=98,304 ; two matrices in 48 "
            "layers: 2×48×98,304 . Answer: 9,437,184 trainable parameters.\n")
    assert answers(text, E)["e1"] == "9,437,184"


def test_roams_highlight_marks_the_answer_and_p_names_the_probability(tmp_path: Path):
    path = tmp_path / "roam.md"
    path.write_text("""- **Q3 (a)**
    - (II) p("mat") + loss
        - index 2 → logit 0.1 → p = 1.1052 / 26.7791
        - ^^p = 0.0413^^
        - ^^loss = −ln(0.0413) = 3.1876^^
- **Q3 (c)**
    - × 2 bytes = 25,769,803,776 bytes
    - ^^≈ 25.77 GB^^ (1 GB = 10^9 B)
""", encoding="utf-8")
    text = read_plain(path).text
    assert "**p = 0.0413**" in text and "^^" not in text
    assert answers(text, P) == {"p": "0.0413", "loss": "3.1876", "c": "25.77 GB"}


def test_a_to_do_list_naming_the_tasks_is_no_section_of_theirs():
    text = """# Lab B – RoBERTa fine-tuning & LoRA
- ☑ Q1
- ☑ Task 3 / Task 4 runs (3 seeds each)
- ☑ Q2
# Question 1
Total = 22,819,840
# Task 3
- Pre-trained, seed 1: best val 85.3% at step 1400, test 84.1%
# Question 2
"""
    assert section_text(text, ["Task 3"]).startswith("# Task 3\n- Pre-trained, seed 1")
    # a summary's row naming the question with its value stays the question's answer
    summary = text.replace("- ☑ Task 3 / Task 4 runs (3 seeds each)", "- Task 3: 0.853 at 1400")
    assert section_text(summary, ["Task 3"]) == "- Task 3: 0.853 at 1400"


def test_a_range_of_steps_in_prose_is_no_runs_step():
    text = """### From scratch (random init)
- Seed 1 — best val 0.712 at step 1800, test 0.698
- Seed 2 — best val 0.705 at step 2000, test 0.699

The pre-trained model is clearly better: about 85–86% validation vs 70–72% for random \
init, on every seed, and it reaches its best earlier (steps 1200–1600) and then slowly \
overfits, while the scratch model is still improving at the end of training (seed 2 peaks \
at the last step).
"""
    rows = sorted((c["family"], c["seed"], c["step"]) for c in parse_claims(text, FAMILIES))
    assert rows == [("scratch", 1, 1800), ("scratch", 2, 2000)]
