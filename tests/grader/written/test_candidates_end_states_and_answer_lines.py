"""Held-out-3 families of the candidate and prose readers, each written several ways.

Why a third file: the variants of each family a fix claims to handle are pinned here, next
to (not mixed into) the earlier rounds', so a later change that breaks one says which round's
family it undid.
"""

from __future__ import annotations

import pytest

from grader.checks.claims import find_claim
from grader.written import QuestionSpec, extract_answers

LAB_A = {"pretrained": ["pretrained", "pre-trained"],
         "scratch": ["scratch", "randomly initiali", "random init", "not pre-trained",
                     "without pre-training"]}
LAB_A_FALLBACK = {"pretrained": ["fine-tuned", "fine tuned", "finetuned"]}

# ----------------------------------------------------------------------------------------
# the end state decides over a rate: "... improves faster and at the end both are around X"


@pytest.mark.parametrize("text", [
    "The pre-trained model starts higher (0,71 after the first epoch against 0,62 for the "
    "model trained from scratch), but the scratch model improves faster and at the end both "
    "are around 0,77.",
    "The pretrained model starts higher, but the scratch model learns faster, and by the end "
    "they both reach about 0.77.",
    "Pre-trained is ahead early but scratch improves faster; at the end both sit at ~0.77.",
    "The scratch model improves faster, and in the end the two models converge.",
    "The pre-trained model leads at first but the scratch one catches up faster, and at the "
    "end both finish near 0.77.",
])
def test_an_equal_end_state_outweighs_a_faster_rate(text):
    claim = find_claim(text, LAB_A, LAB_A_FALLBACK)
    assert claim is not None and claim[:2] == ("", ""), claim


@pytest.mark.parametrize(("text", "better"), [
    ("The scratch model improves faster, but at the end the pre-trained model is higher.",
     "pretrained"),
    ("The pre-trained model starts higher, but at the end the scratch model is better.",
     "scratch"),
    ("Both start around 0.6, and at the end the pre-trained model is ahead.", "pretrained"),
    ("The pretrained model is higher at the end of training.", "pretrained"),
    ("At the end both improve, but the pre-trained model stays ahead of the scratch one.",
     "pretrained"),
])
def test_a_directional_end_state_still_ranks(text, better):
    claim = find_claim(text, LAB_A, LAB_A_FALLBACK)
    assert claim is not None and claim[0] == better, claim


def test_both_at_the_end_with_their_own_numbers_is_not_called_equal():
    text = ("The scratch model improves faster, and at the end they reach 0.70 and 0.80 "
            "respectively, so the pre-trained model is better.")
    claim = find_claim(text, LAB_A, LAB_A_FALLBACK)
    assert claim is not None and claim[0] == "pretrained", claim


# ----------------------------------------------------------------------------------------
# an "Answer:" line listing two labelled values beats a printed raw float above it

P_AND_LOSS = [QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability")),
              QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "cross-entropy"))]
OUTPUT = ("## Q3 (a)\n**(II)** Probability and loss:\n\n    p(mat) = 0.7500450527051624\n"
          "    CE loss = 0.2876218309393373\n\n")


@pytest.mark.parametrize("line", [
    "**Answer:** p(mat) ≈ 0.7500, cross-entropy loss ≈ 0.2876.",
    "Answer: p(mat) = 0.7500; loss = 0.2876",
    "Final answer: probability ≈ 0.75 and cross-entropy ≈ 0.2876",
    "Answer: p(mat) ≈ 0.7500, and the loss ≈ 0.2876.",
])
def test_an_answer_line_of_two_labelled_values_beats_the_raw_output(line):
    got = extract_answers(OUTPUT + line + "\n", P_AND_LOSS)
    assert got["p"].why == "answer line", (got["p"].answer, got["p"].why)
    assert got["p"].answer in ("0.7500", "0.75")
    assert got["loss"].answer == "0.2876" and got["loss"].why == "answer line"


def test_a_chain_on_an_answer_line_still_ends_at_its_last_value():
    got = extract_answers("## Q3 (c)\nAnswer: 48 × 16384² × 2 = 25,769,803,776 bytes ≈ 25.77 GB\n",
                          [QuestionSpec("c", ("Q3 (c)",))])["c"]
    assert got.answer == "25.77 GB" and got.why == "answer line"


# ----------------------------------------------------------------------------------------
# on an answer line, the size a share is taken of, in parentheses, is no second answer

E3 = [QuestionSpec("e3", ("Q3 (e)",), part="(III)")]


@pytest.mark.parametrize(("line", "want"), [
    ("**Answer:** the LoRA states are only about **0.065 %** of the FFN states (≈ 116 GB), so "
     "LoRA is negligible.", "0.065 %"),
    ("Answer: 0.065 % of the FFN optimizer memory (75.5 MB against 115.98 GB)", "0.065 %"),
    ("Answer: about 0.00065 of the FFN's memory (which is ~116 GB)", "0.00065"),
    ("Final answer: 25.77 GB (25,769,803,776 bytes)", "25.77 GB"),
])
def test_a_value_in_parentheses_on_an_answer_line_gives_way(line, want):
    got = extract_answers("## Q3 (e)\n**(III)**\n\nadam = 115975913472 bytes\n\n" + line + "\n",
                          E3)["e3"]
    assert got.answer == want, (got.answer, got.why)
    assert not got.shotgun


def test_a_value_only_in_parentheses_on_an_answer_line_is_still_the_answer():
    got = extract_answers("## Q3 (e)\n**(III)**\n\nworking: 115975913472 bytes\n\n"
                          "Answer: LoRA needs far less (0.065 %)\n", E3)["e3"]
    assert got.answer == "0.065 %", (got.answer, got.why)
