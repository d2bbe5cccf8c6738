"""Sections in the forms the third held-out batch showed (issue 15), each with its neighbours.

Two families: raw LaTeX left in a text or Markdown report (``\\section*{Question 3}``,
``\\subsection{Q3 (c)}``, ``\\item[(a)]`` / ``\\item[(ii)]`` inside ``enumerate``), and terse
bullet outlines whose bullet holds a bare part ("* a" alone, "- ii: ...", "- c:").
"""

from __future__ import annotations

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.report import split_run_in_headings
from grader.written.sections import read_lines
from tests.calculators.answers._shared import PART3, C, D, E


def cde(text: str) -> tuple[str | None, ...]:
    got = {k: v.answer for k, v in extract_answers(text, PART3).items()}
    return got["q3c"], got["q3d"], got["e1"], got["e2"], got["e3"]


# -- 1. raw LaTeX -----------------------------------------------------------------------------

@pytest.mark.parametrize("head", [r"\section*{Question 3}", r"\section{Q3}",
                                  r"\subsection*{Question 3}", r"  \section*{Problem 3}"])
@pytest.mark.parametrize("item", [r"\item[({})]", r"\item [({})]", r"\item[{})]"])
def test_latex_sections_and_item_labels_open_the_question_and_its_parts(head, item):
    def it(x: str) -> str:
        return item.format(x)
    text = (f"\\section*{{Part 1 and Part 2}}\nSee the notebook.\n\n{head}\n\\begin{{enumerate}}\n"
            f"{it('c')} Memory = 48 x 16384^2 x 2 bytes = {C}\n\n{it('d')} FFN total = {D}\n\n"
            f"{it('e')}\n\\begin{{enumerate}}\n{it('i')} trainable = {E[0]}\n"
            f"{it('ii')} Adam states = {E[1]}\n{it('iii')} ratio = {E[2]}\n"
            "\\end{enumerate}\n\\end{enumerate}\n")
    assert cde(text) == (C, D, *E)


@pytest.mark.parametrize("head", [r"\subsection*{{Q3 ({})}}", r"\subsection{{3({}) Memory}}",
                                  r"\paragraph{{Question 3 ({})}}"])
def test_a_latex_subsection_per_part_opens_that_part(head):
    text = "\n\n".join(f"{head.format(x)}\nanswer: {v}" for x, v in (("c", C), ("d", D)))
    assert cde(text)[:2] == (C, D)


def test_a_latex_section_is_a_heading_and_a_plain_item_names_no_part():
    lines = read_lines("\\section*{Question 3}\n\\item The model reads text.\n", {"3"})
    assert lines[0].heading and lines[0].opens
    assert not lines[1].opens


# -- 2. terse bullets -------------------------------------------------------------------------

@pytest.mark.parametrize("letter", ["* {}", "- {}", "- {}:", "• {}", "* ({}):", "- {}."])
@pytest.mark.parametrize("roman", ["  - {}: ", "  * {}: ", "  - ({}) "])
def test_a_bullet_holding_a_bare_part_opens_it(letter, roman):
    def lt(x: str) -> str:
        return letter.format(x)

    def rm(x: str) -> str:
        return roman.format(x)
    text = (f"Q3\n{lt('c')}\n  - 48 * 16384^2 * 2B -> {C}\n{lt('d')}\n  - total {D}\n"
            f"{lt('e')}\n{rm('i')}trainable = {E[0]}\n{rm('ii')}Adam = {E[1]}\n"
            f"{rm('iii')}ratio = {E[2]}\n")
    assert cde(text) == (C, D, *E)


@pytest.mark.parametrize("line", ["- a variable we keep", "* i think so", "- I: identity",
                                  "1. a", "a"])
def test_a_bullet_starting_with_a_word_or_no_bullet_opens_nothing(line):
    lines = read_lines(f"Q3 (b)\nsome text\n{line}\n", {"3"})
    assert not lines[2].opens


# -- 3. a PDF's bold subheading run onto the line before ---------------------------------------

LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
       QuestionSpec("cls", ("Question 3",), part="Classification task")]


@pytest.mark.parametrize("head", ["**3.2 Classification task**", "**Classification task**",
                                  "**3.2. Classification Task**", "**3.2 Classification task:**"])
def test_a_sibling_part_heading_run_onto_the_line_before_ends_the_part(head):
    text = ("## Question 3\n**3.1 Language modeling task**\nN_LM = 10000200 + 964800 + 10050201\n"
            f"= **21015201** {head}\nN_cls = 10000200 + 964800 + 402 = **10965402**\n")
    got = extract_answers(text, LAB)
    assert (got["lm"].answer, got["cls"].answer) == ("21015201", "10965402")


def test_a_bold_value_at_a_line_end_stays_on_its_line():
    text = "## Question 3\n**Language modeling task**\nN = 10000200 + 10050201 = **21.02 Million**\n"
    assert split_run_in_headings(text, ["Question 3", "Language modeling task"]) == text
    assert extract_answers(text, LAB[:1])["lm"].answer == "21.02"
