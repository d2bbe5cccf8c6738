"""Neighbours of the second held-out batch's misses, in the ways students write them.

Each family is tested with several spellings, not only the one a corpus report used:
thousands separators of other locales, a conclusion after "but"/"so" that calls two models
the same, a value written after its fraction, several values offered with "or".
"""

from __future__ import annotations

import pytest
from sympy import Rational

from grader.checks.claims import find_claim
from grader.written import QuestionSpec, extract_answers


def final(text: str, symbols=None) -> tuple[str | None, str | None]:
    got = extract_answers("## Q3 (c)\n" + text, [QuestionSpec("c", ("Q3 (c)",), symbols=symbols)])
    return got["c"].answer, got["c"].why


def read(text: str):
    got = extract_answers("## Q3 (c)\n" + text, [QuestionSpec("c", ("Q3 (c)",))])["c"]
    return got


LAB_A = {"pretrained": ["pretrained", "pre-trained"],
         "scratch": ["scratch", "randomly initiali", "random init", "not pre-trained",
                     "without pre-training"]}
LAB_A_FALLBACK = {"pretrained": ["fine-tuned", "fine tuned", "finetuned"]}


# ----------------------------------------------------------------------------------------
# digit groups of other locales


@pytest.mark.parametrize(("written", "number"), [
    ("total = 10.000.200 + 968.000 + 10.050.201 = 21.018.401", 21018401),
    ("total = 21 018 401", 21018401),
    ("total = 21'018'401", 21018401),
    ("total = 21’018’401 parameters", 21018401),
    ("Together: 1.234.567.890 weights", 1234567890),
    ("total = 21,018,401.", 21018401),
])
def test_thousands_separators_of_other_locales(written, number):
    got = read(written)
    assert got.parsed is not None and got.parsed.ok, got
    assert got.parsed.value == number, got


@pytest.mark.parametrize(("written", "number"), [
    ("the ratio is 21.018", "21.018"),
    ("version 1.2.3 gives p = 0.750", "0.750"),
    ("1.000.000.5 is no number; the answer is 2.5", "2.5"),
])
def test_one_dot_group_stays_a_decimal(written, number):
    assert final(written)[0] == number


# ----------------------------------------------------------------------------------------
# a conclusion after "but" / "so" that calls the two models the same


@pytest.mark.parametrize("text", [
    "The pre-trained model starts higher but the gap closes by epoch 6,\nso on this small "
    "dataset I see no real difference between the two models.",
    "The pre-trained model starts higher, but the gap closes after a few epochs.",
    "The pretrained model is better at first, but the scratch model closes the gap by epoch 8.",
    "The scratch model is lower early on, so overall they are comparable.",
    "The pre-trained one leads in epoch 1, but in the end both are about the same.",
    "The pretrained model is ahead at first; therefore the two end up roughly the same.",
    "Pre-trained starts higher, but the scratch model ends up similar.",
])
def test_a_conclusion_of_no_difference_outweighs_an_early_lead(text):
    claim = find_claim(text, LAB_A, LAB_A_FALLBACK)
    assert claim is not None and claim[:2] == ("", ""), claim


@pytest.mark.parametrize(("text", "better"), [
    ("The gap closes by epoch 6, but the pre-trained model stays ahead.", "pretrained"),
    ("Both start at a comparable accuracy, but the scratch model ends higher.", "scratch"),
    ("The curves are similar at first, so the pre-trained model is better only at the end.",
     "pretrained"),
    ("The scratch model learns faster at first, so the pre-trained model is worse early on, "
     "but it ends higher.", "pretrained"),
])
def test_a_directional_conclusion_still_ranks(text, better):
    claim = find_claim(text, LAB_A, LAB_A_FALLBACK)
    assert claim is not None and claim[0] == better, claim


# ----------------------------------------------------------------------------------------
# a fraction (or working) followed by its value: the value is the answer


@pytest.mark.parametrize(("text", "answer"), [
    ("The softmax gives $e^{3}/\\sum_j e^{z_j} = 20.09/26.78$, so the\n"
     "probability of \"mat\" is 0.750. The loss is the negative log of that", "0.750"),
    ("p = e^3 / (e^1 + e^3 + e^0.5) = 20.09/26.78, which is 0.750", "0.750"),
    ("the probability is 20.09/26.78, which\nis 0.750", "0.750"),
    ("i.e. $8H^2 + 5H = 302{,}020{,}608$. For $L = 48$ layers they contribute\n"
     "$14{,}496{,}989{,}184$ parameters, which is $14.497$ billion.", "14.497 billion"),
    ("p = 20.09/26.78 = 0.750", "0.750"),
    ("The ratio 20.09/26.78 equals 0.750.", "0.750"),
    ("Adding it all up, the count comes to 9,437,184.", "9,437,184"),
])
def test_the_value_after_a_fraction_is_the_answer(text, answer):
    assert final(text)[0] == answer


@pytest.mark.parametrize("before", [
    "Everything is summed in the total.",   # a sentence ended on the line before
    "| total | so | gives |",                # a table row carries no sentence on
    "## Total",                              # nor does a heading
])
def test_only_a_sentence_still_open_runs_on_to_the_next_line(before):
    assert final(before + "\n48 and 96 are the layer counts")[1] == "number"


# ----------------------------------------------------------------------------------------
# several values offered with "or", "/", "either": a shotgun, even wrapped or with asides


def offered(text: str) -> tuple[str, ...]:
    got = extract_answers("## Q3 (c)\n" + text, [QuestionSpec("c", ("Q3 (c)",))])["c"]
    return got.shotgun


@pytest.mark.parametrize("text", [
    "Depending on the definition this is **25.77 GB** ($10^9$ bytes) or\n**24 GB** "
    "($2^{30}$ bytes).",
    "M = 25.77 GB or\n24 GB",
    "M = 25.77 GB\nor 24 GB",
    "M = 25.77 GB (decimal) or 24 GB (binary)",
    "Answer: either 25.77 GB / 24 GB",
])
def test_different_values_offered_together_are_a_shotgun(text):
    assert set(offered(text)) == {"25.77 GB", "24 GB"}


@pytest.mark.parametrize("text", [
    "M = **25.77 GB** (or 24 GiB)",
    "M = 25.77 GB or 24 GiB",
    "M = 25.77 GB or\n24 GiB, the same size",
    "M = 25.77 GB.\n\nWith 2^30 bytes to a GB it would be 24, which is not asked.",
])
def test_one_quantity_in_two_units_or_a_remark_is_one_answer(text):
    assert offered(text) == ()


# ----------------------------------------------------------------------------------------
# an intermediate count in working does not beat the result a sentence states


@pytest.mark.parametrize(("text", "answer"), [
    ("$2rH = 98{,}304$ parameters. Over 2 matrices and 48\n"
     "layers the trainable parameters introduced by LoRA are $9{,}437{,}184$.", "9,437,184"),
    ("Per matrix 2rH = 98,304. The LoRA parameters over all layers are 9,437,184 in total.",
     "9,437,184"),
    ("Per matrix 2rH = 98,304. With 96 matrices the count is 9,437,184.", "9,437,184"),
    ("Per matrix 2rH = 98,304; so the number of trainable parameters is **9,437,184**",
     "9,437,184"),
])
def test_the_result_a_sentence_states_beats_its_working(text, answer):
    assert final(text)[0] == answer


@pytest.mark.parametrize(("text", "answer"), [
    ("The rank is 64 and the memory is M = 25.77 GB", "25.77 GB"),
    ("M = 25.77 GB. The hidden size is 6144 * 4 in the FFN", "25.77 GB"),
])
def test_a_number_inside_working_or_data_does_not_end_a_sentence(text, answer):
    assert final(text)[0] == answer


# ----------------------------------------------------------------------------------------
# units glued to the number, and a remark in parentheses after it


@pytest.mark.parametrize(("text", "answer", "number"), [
    ("memory = 25.77GB (just for one layer's QK^T!)", "25.77GB", None),
    ("M = 75.5MB (with Adam's two states)", "75.5MB", None),
    ("loss = 0.2876 (natural log)", "0.2876", "0.2876"),
    ("p = 0.750 (i.e. three quarters)", "0.750", "0.750"),
    ("the total is 14.5B (billion) parameters", "14.5B", "14500000000"),
    ("ratio = 0.065% (of the full memory)", "0.065%", "0.00065"),
])
def test_a_value_followed_by_a_remark_in_parentheses_is_conclusive(text, answer, number):
    got = read(text)
    assert got.answer == answer and got.why.startswith("after "), got
    if number is not None:
        assert Rational(got.parsed.value) == Rational(number), got.parsed


def test_a_parenthesis_of_working_after_a_bare_number_still_multiplies():
    assert final("N = 48 (16384^2) = 12,884,901,888")[0] == "12,884,901,888"
    assert final("N = 48 (16384^2)")[1] != "after ="
