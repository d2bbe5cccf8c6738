"""Sections in the forms the held-out reports showed (issue 15), each with its neighbours.

Three families: headings that spell the part out ("Question 3 – Part (c)", "Part (c) of
Question 3", with their neighbours: "Answer to Q3 (c)", "Attention memory (Q3 c)", "3. (c)"),
a sub-part on the letter's line ("e) i.", "(e)(i)", "e.i", "(e.2)"), and run-in parts in one
paragraph ("(e) (I) ... (II) ... (III) ...", "Q3c) ... Q3d) ..."), where a "(c)" or "(I)"
in prose must stay prose. The specs are the STAT8021 pack's Part 3, given all together as
the grader gives them; ``headings`` checks that no section opened too early.
"""

from __future__ import annotations

import pytest

from grader.written import extract_answers
from grader.written.report import section_text
from grader.written.sections import (
    Target,
    parse_label,
    parse_part,
    read_lines,
    split_run_in,
)
from tests.calculators.answers._shared import PART3, C, D, E


def answers(text: str) -> dict[str, str | None]:
    return {k: v.answer for k, v in extract_answers(text, PART3).items()}


def cde(text: str) -> tuple[str | None, ...]:
    got = answers(text)
    return got["q3c"], got["q3d"], got["e1"], got["e2"], got["e3"]


def headings(text: str) -> set[str]:
    """The lines that open the sections found."""
    return {x.heading for x in extract_answers(text, PART3).values() if x.heading}


# -- 1. headings that spell the part out ------------------------------------------------------

@pytest.mark.parametrize("written", [
    "Question 3 – Part (c)", "Question 3 - Part (c)", "Question 3, part c", "Question 3 Part C",
    "Q3 — Part c", "Q3: Part (c)", "Q3 part c)", "Question 3 · Sub-part (c)",
    "Part (c) of Question 3", "Part c of Q3", "part (c), question 3", "Part (c) – Question 3",
    "Question 3 – (c)", "3 (c)", "Q3 – Part (c):", "Question 3 – Subquestion c",
    "Question 3 (Part c)", "QUESTION 3 – PART (C)", "Q3: (c)", "Q3C", "Q3 C)",
])
def test_a_part_spelled_out_is_the_same_label(written):
    assert parse_label(written) == Target("q", "3", "c")


@pytest.mark.parametrize("written", [
    "Question 3c", "3c.", "3c:", "Question 3: c)", "Qn 3 (c)", "Qn. 3(c)", "Ques 3 (c)", "Q.3(c)",
])
def test_short_and_run_together_labels(written):
    assert parse_label(written) == Target("q", "3", "c")


@pytest.mark.parametrize("line", [
    "Answer to Q3 (c): {c}", "Ans. 3(c) {c}", "Answer 3(c): {c}", "Solution to Question 3 (c): {c}",
    "**Answer to Question 3 – Part (c):** {c}",
])
def test_answer_words_before_a_label(line):
    text = f"Q3 (b) Decoder-only.\n{line.format(c=C)}\nAnswer to Q3 (d): {D}\n"
    assert cde(text)[:2] == (C, D)


def test_an_answer_that_looks_like_a_section_number_is_a_value():
    # "3.5" after "Answer:" is no "3.5" heading (Q3 (e)), though the pack has Q3's parts
    text = f"## Q3 (c)\nAnswer: 3.5 GB per head, {C} in all.\n## Q3 (d)\n{D}\n"
    assert cde(text)[:2] == (C, D)
    assert headings(text) == {"## Q3 (c)", "## Q3 (d)"}


@pytest.mark.parametrize(("written", "numeral"), [
    ("Q3(e)(1)", "i"), ("Q3 (e)(2)", "ii"), ("Q3 e.1", "i"), ("Q3 e-2", "ii"), ("3(e)(3)", "iii"),
])
def test_sub_parts_numbered_after_the_letter(written, numeral):
    assert parse_label(written) == Target("q", "3", "e", numeral)


@pytest.mark.parametrize("style", ["e.{n}", "(e)({n})", "(e) ({n})", "(e.{n})", "e-{n}"])
def test_arabic_sub_parts_under_a_letter(style):
    marks = [style.format(n=n) for n in (1, 2, 3)]
    text = f"Q3\nd) {D}\n" + "".join(f"{m} {e}\n" for m, e in zip(marks, E, strict=True))
    got = answers(text)
    assert (got["q3d"], got["e1"], got["e2"], got["e3"]) == (D, *E)


def test_a_numbered_list_inside_a_part_opens_no_sub_part():
    # "1)" / "2)" alone are a list of steps, not (e)(I)/(e)(II)
    text = (f"## Q3 (e)\n(I)\n1) r(d + k) per matrix\n2) x 2 matrices x 48 layers = {E[0]}\n"
            f"(II) {E[1]}\n(III) {E[2]}\n")
    got = answers(text)
    assert (got["e1"], got["e2"], got["e3"]) == E


@pytest.mark.parametrize("written", [
    "Question 3 – Part (e)(ii)", "Question 3, part e (ii)", "Part (e)(ii) of Question 3",
    "Q3 — Part e-ii", "Part e.ii of Q3", "Q3 (e.ii)", "Question 3(e-ii)", "Q3 (e)–(ii)",
])
def test_a_part_spelled_out_keeps_its_roman_numeral(written):
    assert parse_label(written) == Target("q", "3", "e", "ii")


@pytest.mark.parametrize("head", [
    "## Question 3 – Part ({l})", "**Question 3, part {l}**", "## Part ({l}) of Question 3",
    "Q3 — Part {l}", "Part {l} of Q3:", "### Q3 – Part {L}",
])
def test_spelled_out_part_headings_open_and_end_sections(head):
    def h(letter: str) -> str:
        return head.format(l=letter, L=letter.upper())
    text = (f"Assignment 3 – Part 3\n{h('c')}\nThe scores need {C}.\n{h('d')}\n"
            f"The FFNs hold {D}.\n{h('e')}\nI. {E[0]}\nII. {E[1]}\nIII. {E[2]}\n")
    assert cde(text) == (C, D, *E)


@pytest.mark.parametrize("head", [
    "## Attention memory (Q3 {l})", "## Attention memory – Question 3 ({l})",
    "**Attention memory [Q3{l}]**", "### Memory: Q3 ({l})", "## Attention memory (Q3{L})",
])
def test_a_label_at_the_end_of_a_heading(head):
    def h(letter: str) -> str:
        return head.format(l=letter, L=letter.upper())
    text = f"Part 3\n{h('c')}\nThe scores need {C}.\n{h('d')}\nThe FFNs hold {D}.\n"
    assert cde(text)[:2] == (C, D)


@pytest.mark.parametrize("head", [
    "## Comparison with Q3 (c)", "## Results (see Question 3 (c))", "## Memory, as in 3.3",
])
def test_a_heading_that_mentions_a_label_is_no_label(head):
    text = f"## Q3 (c)\nThe scores need {C}.\n{head}\nStill Q3 (c).\n## Q3 (d)\n{D}\n"
    assert cde(text)[:2] == (C, D)
    assert headings(text) == {"## Q3 (c)", "## Q3 (d)"}


@pytest.mark.parametrize("head", ["## 3. ({l})", "## 3 – {l})", "**3. ({l}) Memory**", "## 3: ({l})"])
def test_a_heading_numbered_before_its_part(head):
    text = (f"# Part 3\n{head.format(l='c')}\n{C}\n{head.format(l='d')}\n{D}\n"
            f"{head.format(l='e')}\n(I) {E[0]}\n(II) {E[1]}\n(III) {E[2]}\n")
    assert cde(text) == (C, D, *E)


def test_a_numbered_list_line_is_no_numbered_heading():
    # "3. (d) ..." in a list inside Q3 (c) is no heading: Q3 (c) goes on
    text = f"## Q3 (c)\n1. Scores per head.\n3. (d) comes next.\nSo {C}\n## Q3 (d)\n{D}\n"
    assert cde(text)[:2] == (C, D)
    assert headings(text) == {"## Q3 (c)", "## Q3 (d)"}


def test_part_word_markers_under_a_question_heading():
    text = (f"# Question 3\nPart (c): the scores need {C}.\nPart (d): {D}.\n"
            f"Part (e)\n(i) {E[0]}\n(ii) {E[1]}\n(iii) {E[2]}\n")
    assert cde(text) == (C, D, *E)


def test_a_title_naming_the_assignment_part_does_not_swallow_the_question():
    # "Part 3" of the assignment holds Question 3: its title line opens no part of Q3
    text = (f"Part 3 · A Student\n## Question 3 – Part (c)\n{C}\n## Question 3 – Part (d)\n{D}\n"
            f"## Question 3 – Part (e)\n(I) {E[0]}\n(II) {E[1]}\n(III) {E[2]}\n")
    assert cde(text) == (C, D, *E)


def test_part_words_in_prose_open_nothing():
    text = (f"## Q3 (c)\nPart d of the cost is the scores:\n{C}\n"
            f"## Q3 (d)\nPart e of the model is the FFN, part (c) of the cost.\n{D}\n")
    assert cde(text)[:2] == (C, D)
    assert parse_label("Part of Question 3") is None
    assert parse_label("Question 3 – Particles") is None


# -- 2. a roman sub-part on the letter's line ---------------------------------------------------

@pytest.mark.parametrize("first", [
    "e) i.", "e) i)", "(e)(i)", "(e) (i)", "e-i", "e.i", "(e) i)", "(e) i.", "e) I.", "(E)(I)",
    "(e)-i", "e. i.", "(e.i)", "(e-i)", "(e)–(i)", "(e), (i)",
])
def test_the_first_roman_part_on_the_letter_line(first):
    text = (f"Q3\nc) {C}\nd) {D}\n{first} {E[0]}\n   ii. {E[1]}\n   iii. {E[2]}\n")
    assert cde(text) == (C, D, *E)


@pytest.mark.parametrize(("written", "marker"), [
    ("e) i.", ("e", "i")), ("(e) i)", ("e", "i")), ("e.i", ("e", "i")), ("(E)(I)", ("e", "i")),
    ("e) II.", ("e", "ii")), ("(e) (iii)", ("e", "iii")), ("(e.ii)", ("e", "ii")),
    ("(e-II)", ("e", "ii")), ("(e)-(ii)", ("e", "ii")),
])
def test_letter_and_numeral_markers(written, marker):
    assert parse_part(written) == marker


@pytest.mark.parametrize("head", ["## Q3 (e) {r}.", "## Q3 e) ({r})", "## Question 3 (e)({r})",
                                  "## Q3.e.{r}", "## Q3 e-{r}", "**Q3 (e) {R}.**"])
def test_the_first_roman_part_in_a_heading(head):
    text = (f"## Q3 (c)\n{C}\n## Q3 (d)\n{D}\n{head.format(r='i', R='I')}\n{E[0]}\n"
            f"{head.format(r='ii', R='II')}\n{E[1]}\n")
    assert cde(text)[:4] == (C, D, E[0], E[1])


def test_a_letter_list_item_starting_with_i_is_no_numeral():
    # "a) I think" is a sentence, not part (a)(I)
    assert parse_part("a) I think") is None
    text = f"Q3\nc) I think it is {C}\nd) {D}\n"
    assert cde(text)[:2] == (C, D)
# -- 3. run-in parts in one paragraph -----------------------------------------------------------

def test_run_in_roman_parts():
    text = (f"# Q3\n(c) The scores need {C}.\n(d) The FFNs hold {D}.\n"
            f"(e) (I) LoRA trains {E[0]} parameters. (II) Adam state memory: {E[1]}. "
            f"(III) About {E[2]} of the FFN's memory.\n")
    assert cde(text) == (C, D, *E)


@pytest.mark.parametrize("sep", [". ", "; ", ": ", ".\u00a0"])
@pytest.mark.parametrize("style", ["({r}) ", "{r}) ", "({R}) "])
def test_run_in_numerals_after_any_sentence_end(sep, style):
    def m(r: str) -> str:
        return style.format(r=r, R=r.upper())
    text = (f"## Q3 (e)\n{m('i')}{E[0]} parameters{sep}{m('ii')}{E[1]}{sep}"
            f"{m('iii')}{E[2]}\n")
    got = answers(text)
    assert (got["e1"], got["e2"], got["e3"]) == E


@pytest.mark.parametrize("style", ["**({R})**", "{R}.", "\\({R}\\)", "*{r})*"])
def test_run_in_numerals_in_markup_or_with_a_dot(style):
    def m(r: str) -> str:
        return style.format(r=r, R=r.upper())
    text = (f"## Q3 (d)\n{D}\n## Q3 (e)\n{m('i')} {E[0]} parameters. {m('ii')} {E[1]}. "
            f"{m('iii')} {E[2]}\n")
    got = answers(text)
    assert (got["q3d"], got["e1"], got["e2"], got["e3"]) == (D, *E)


def test_run_in_letters_and_numerals_in_one_paragraph():
    text = (f"Q3: (c) The scores need {C}. (d) The FFNs hold {D}. (e) (I) {E[0]} parameters. "
            f"(II) {E[1]}. (III) {E[2]}.\n")
    assert cde(text) == (C, D, *E)


@pytest.mark.parametrize("line", [
    "(e) (I) {0} (II) {1} (III) {2}",
    "(e) (I) LoRA {0} (II) Adam states {1} (III) ratio {2}",
    "(e) (i) {0} parameters (ii) {1} (iii) {2}",
])
def test_terse_run_in_parts_after_values(line):
    text = f"# Q3\n(d) {D}\n{line.format(*E)}\n"
    got = answers(text)
    assert (got["q3d"], got["e1"], got["e2"], got["e3"]) == (D, *E)


@pytest.mark.parametrize("line", [
    "(e) (I) LoRA matrices (II) Adam states {e1} (III) ratio {e2}",
    "(e) (I) r(d + k) per layer (II) Adam states {e1} (III) ratio {e2}",
])
def test_run_in_parts_in_a_line_that_began_with_one(line):
    text = f"# Q3\n(d) {D}\n" + line.format(e1=E[1], e2=E[2]) + "\n"
    got = answers(text)
    assert (got["q3d"], got["e2"], got["e3"]) == (D, E[1], E[2])


@pytest.mark.parametrize("line", [
    "(I) {e0} as in step (ii) of the paper", "(I) {e0}, see (ii) below", "(I) {e0} unlike (ii)",
])
def test_a_referenced_part_in_a_run_stays_prose(line):
    text = f"## Q3 (e)\n{line.format(e0=E[0])}\nand more\n(II) {E[1]}\n(III) {E[2]}\n"
    got = answers(text)
    assert (got["e1"], got["e2"], got["e3"]) == E
    assert headings(text) == {line.format(e0=E[0]), "(II) " + E[1], "(III) " + E[2]}


@pytest.mark.parametrize("prose", [
    "As in step 2 (e) of the paper, the scores need {c}",   # (e) is not next after (c)
    "The scores need {c} (b) was above",                     # nor is (b)
    "The scores need 2 c) {c}",                              # "c)" after a value: no part
])
def test_values_before_a_marker_open_only_the_next_part(prose):
    text = f"## Q3 (c)\n{prose.format(c=C)}\n## Q3 (d)\n{D}\n## Q3 (e)\n(I) {E[0]}\n"
    assert cde(text)[:3] == (C, D, E[0])
    assert headings(text) == {"## Q3 (c)", "## Q3 (d)", "(I) " + E[0]}


@pytest.mark.parametrize("line", [
    "Q3c) {c}. Q3d) {d}. Q3e) i. {e0} ii. {e1} iii. {e2}",
    "Q3(c): {c} Q3(d): {d} Q3(e)(i): {e0} Q3(e)(ii): {e1} Q3(e)(iii): {e2}",
    "Question 3 (c) {c}; Question 3 (d) {d}; Question 3 (e) (I) {e0}; (II) {e1}; (III) {e2}",
])
def test_run_in_labels_of_the_same_question(line):
    text = line.format(c=C, d=D, e0=E[0], e1=E[1], e2=E[2]) + "\n"
    assert cde(text) == (C, D, *E)


def test_another_questions_label_inline_is_prose():
    # "Q2" inside Q3 (c): Parts knows only Q3's parts here, a reference stays prose
    text = f"## Q3 (c)\nMore than Q2. Q2(b) had 1 GB. The scores need {C}\n## Q3 (d)\n{D}\n"
    assert cde(text)[:2] == (C, D)
    assert headings(text) == {"## Q3 (c)", "## Q3 (d)"}


def test_run_in_letters():
    text = f"Question 3. (c) The scores need {C}. (d) The FFNs hold {D}.\n"
    assert cde(text)[:2] == (C, D)


def test_run_in_part_of_a_two_answer_part():
    text = ("## Q3\n(a) (I) Next-token prediction. (II) p = 0.75, loss 0.288\n"
            f"(b) Decoder-only.\n(c) {C}\n")
    got = answers(text)
    assert (got["p"], got["loss"], got["q3c"]) == ("0.75", "0.288", C)


def test_a_run_in_second_numeral_after_an_unmarked_first():
    text = "## Q3\n(a) Next-token prediction. (II) p = 0.75, loss 0.288\n(b) Decoder-only.\n"
    got = answers(text)
    assert (got["p"], got["loss"]) == ("0.75", "0.288")


def test_split_run_in_keeps_text_without_run_in_parts_and_numbers_lines():
    targets = [Target("q", "3", "e", r) for r in ("i", "ii", "iii")]
    plain = "# Q3\r\n(e)\r\n(I) 1\r\n"
    assert split_run_in(plain, targets) is plain
    split = split_run_in("# Q3\n(e) (I) 1. (II) 2. (III) 3\nEnd\n", targets)
    assert split.splitlines() == ["# Q3", "(e) (I) 1.", "(II) 2.", "(III) 3", "End"]
    assert [line.number for line in read_lines(split)] == [1, 2, 2, 2, 3]


@pytest.mark.parametrize("prose", [
    "As in (d) 2024. The scores need {c}",                  # a citation
    "See (d) below; the scores need {c}",                   # a reference
    "Stated. Copyright (d) 2024. The scores need {c}",
    "Scores: f(d) = {c}",                                   # a formula
    "The scores follow. (d) and (e) differ: {c}",           # parts named, not opened
    "Cheap. (d), (e) differ: {c}",
    "E.g. (d) is larger; cf. (d) later; {c}",               # abbreviations end no sentence
    "Scores first. (e) is below. So {c}",                   # (e) is not next after (c)
    "Scores first. (b) was above. So {c}",                  # nor is (b)
])
def test_markers_in_prose_open_no_part(prose):
    text = f"## Q3 (c)\n{prose.format(c=C)}\n## Q3 (d)\n{D}\n## Q3 (e)\n(I) {E[0]}\n"
    assert cde(text)[:3] == (C, D, E[0])
    assert headings(text) == {"## Q3 (c)", "## Q3 (d)", "(I) " + E[0]}


def test_a_copyright_after_a_sentence_opens_no_part():
    text = (f"## Q3 (b)\nDecoder-only. Figure from a blog post. (c) 2024 OpenAI.\n"
            f"## Q3 (c)\n{C}\n## Q3 (d)\n{D}\n")
    assert cde(text)[:2] == (C, D)
    assert "## Q3 (c)" in headings(text)


def test_run_in_numerals_unknown_to_the_pack_stay_prose():
    # Q3 (c) has no numbered parts in the pack: "(ii)" there is prose
    text = f"## Q3 (c)\n(i) 16-bit scores. (ii) need {C}\n## Q3 (d)\n{D}\n"
    got = answers(text)
    assert (got["q3c"], got["q3d"]) == (C, D)


def test_run_in_numerals_go_forward_only():
    text = f"## Q3 (e)\n(I) {E[0]}. (II) {E[1]}, unlike (I). (III) {E[2]}\n"
    got = answers(text)
    assert (got["e1"], got["e2"], got["e3"]) == E


def test_line_numbers_stay_the_students():
    text = f"# Q3\n(e) (I) {E[0]}. (II) {E[1]}. (III) {E[2]}\nEnd.\n"
    got = extract_answers(text, PART3)
    assert (got["e1"].line, got["e2"].line, got["e3"].line) == (2, 2, 2)


def test_section_text_quotes_one_run_in_part():
    text = f"# Q3\n(e) (I) {E[0]} parameters. (II) {E[1]}. (III) {E[2]}\n"
    quoted = section_text(text, ["Q3 (e)"], "(II)")
    assert E[1] in quoted and E[0] not in quoted and E[2] not in quoted
