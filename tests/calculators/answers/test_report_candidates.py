"""Which number of a section is the answer: what the student marks as final, units kept."""

from __future__ import annotations

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.candidates import Source, candidates, clean
from grader.written.offered import pick, shotgun

LAB_SYMBOLS = {"ntoken": 50001, "nhid": 200, "nlayers": 4}


def final(text: str, symbols=None) -> tuple[str | None, str | None]:
    got = extract_answers("## Q3 (c)\n" + text, [QuestionSpec("c", ("Q3 (c)",), symbols=symbols)])
    return got["c"].answer, got["c"].why


@pytest.mark.parametrize(("text", "answer", "why"), [
    ("We get = 968, 000 first, then the total **21,018,401**.", "21,018,401", "bold"),
    ("$$\\boxed{25.77\\text{ GB}}$$ from 25,769,803,776 bytes = 25.77 GB", "25.77 GB", "boxed"),
    ("Answer: 25.77 GB\nCheck: 25,769,803,776 bytes = 24 GiB", "25.77 GB", "answer line"),
    ("48 × 2 = 96; and 96 × 2^28 = 25,769,803,776 ≈ 25.77 GB", "25.77 GB", "after ≈"),
    ("a = 5 = 10 = 25,769,803,776 bytes", "25,769,803,776 bytes", "after ="),
    ("It takes 0.54 GB for one head\nand 25.77 GB for all of them", "25.77 GB", "number"),
])
def test_the_answer_marked_final_wins(text, answer, why):
    assert final(text) == (answer, why)


@pytest.mark.parametrize(("written", "read"), [
    ("the total is $25.77$ GB.", "25.77 GB"),
    ("so the memory is $25.77\\text{ MB}$", "25.77 MB"),
    ("so $14\\,495\\,514\\,624$", "14,495,514,624"),
    ("so $25{,}769{,}803{,}776$ bytes", "25,769,803,776 bytes"),
    ("about 25.8 gigabytes", "25.8 gigabytes"),
    ("roughly 0.065 percent of it", "0.065 percent"),
    ("it is about 1536 times smaller", "1536 times"),
    ("this is $\\mathbf{24}$ GB", "24 GB"),
    ("which is 0.54\nGB of memory", "0.54 GB"),
    ("so it is 𝟐𝟓.𝟕𝟕 GB", "25.77 GB"),
])
def test_units_survive_markup_words_and_line_breaks(written, read):
    assert final(written)[0] == read


def test_a_formula_in_the_questions_symbols_is_an_answer_not_its_coefficient():
    answer, why = final("Total = ntoken×nhid + nlayers×5×nhid² + nhid×ntoken", LAB_SYMBOLS)
    assert (answer, why) == ("ntoken×nhid + nlayers×5×nhid² + nhid×ntoken", "formula")
    got = extract_answers("## Q3 (c)\nTotal = ntoken×nhid + nlayers×5×nhid² + nhid×ntoken\n",
                          [QuestionSpec("c", ("Q3 (c)",), symbols=LAB_SYMBOLS)])["c"]
    assert got.parsed is not None and got.parsed.value == 50001 * 200 * 2 + 4 * 5 * 200**2


def test_the_question_data_and_asides_are_not_answers():
    text = "The FFN has **L(8H² + 5H)** parameters, with L = 48 and H = 6144 (about 14.5 billion)."
    answer, why = final(text, {"H": 6144, "L": 48})
    assert (answer, why) == ("L(8H² + 5H)", "formula")


@pytest.mark.parametrize(("text", "offered"), [
    ("Answer: 25.77 GB or 24 GB", ("24 GB", "25.77 GB")),
    ("\\boxed{25.77 GB} ... \\boxed{51.54 GB}", ("51.54 GB", "25.77 GB")),
    ("the ratio is 0.065 % / 0.65 % / 6.5 %", ("6.5 %", "0.65 %", "0.065 %")),
])
def test_several_different_final_values_are_a_shotgun(text, offered):
    got = extract_answers("## Q3 (c)\n" + text, [QuestionSpec("c", ("Q3 (c)",))])["c"]
    assert set(got.shotgun) == set(offered)


@pytest.mark.parametrize("text", [
    "Answer: 25.77 GB (24 GiB)",  # the same size in two units
    "= 25,769,803,776 bytes ≈ 25.77 GB",  # a chain
    "Answer: 25.77 GB\nAnswer: 25.8 GB",  # a rounding of it
])
def test_one_value_written_twice_is_no_shotgun(text):
    got = extract_answers("## Q3 (c)\n" + text, [QuestionSpec("c", ("Q3 (c)",))])["c"]
    assert got.shotgun == ()


def test_clean_keeps_superscripts_and_reads_bold_math_digits():
    assert clean("16384² and 𝟎.𝟕𝟓") == "16384² and **0.75**"


def test_pick_and_shotgun_on_bare_sources():
    found = candidates([Source(1, "p = 0.75"), Source(2, "| Q3(c) | x | 25.77 GB |", table=True)])
    chosen = pick(found)
    assert chosen is not None and (chosen.text, chosen.why) == ("25.77 GB", "answer cell")
    assert shotgun(found, chosen) == ()


@pytest.mark.parametrize(("text", "answer"), [
    ("Q3 (c) " + " " * 150_000 + "5 GB", "5 GB"),  # was 130 s: a whitespace run in _norm
    ("Q3 (c) " + " + ".join(["12"] * 20_000) + " = 240,000", "240,000"),  # was 250 s
    ("Q3 (c)\n" + "H = 6144 so 8H^2 + 5H = 302,020,608\n" * 5_000 + "Answer: 25.77 GB", "25.77 GB"),
])
def test_hostile_sections_are_read_from_their_end_in_linear_time(text, answer):
    got = extract_answers(text, [QuestionSpec("c", ("Q3 (c)",), symbols={"H": 6144})])["c"]
    assert got.answer == answer
