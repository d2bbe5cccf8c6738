"""A phone's shorthand labels and superscript powers, and text typed with a CJK input
method (held-out-5's families, on small reports written here, not the corpus's files)."""

from __future__ import annotations

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.reading.normalise import normalise

Q3 = [QuestionSpec("q3a2.p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability")),
      QuestionSpec("q3a2.loss", ("Q3 (a)",), part="(II)", labels=("loss", "-ln", "-log")),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)"),
      QuestionSpec("q3e3", ("Q3 (e)",), part="(III)")]


def test_a_letter_and_numeral_joined_after_the_number_open_the_part():
    text = normalise("3d)\nper layer ≈ 3.02×10⁸\n× 48 → ≈ 1.45×10¹⁰ params\n\n"
                     "3e-i)\n96 × 98,304 ≈ 9.44×10⁶\n\n"
                     "3e.ii)\n9.44×10⁶ × 8 B ≈ 75.5 MB\n\n"
                     "3e–iii)\nFFN: 1.45×10¹⁰ × 8 B ≈ 1.16×10¹¹ B\n"
                     "ratio = 7.55×10⁷ / 1.16×10¹¹ ≈ 6.51×10⁻⁴\n")
    got = extract_answers(text, Q3)
    assert got["q3d"].answer == "1.45×10^10"
    assert got["q3e1"].answer == "9.44×10^6"
    assert got["q3e2"].answer == "75.5 MB"
    assert got["q3e3"].answer == "6.51×10^(-4)"  # a negative power as superscripts spell it


@pytest.mark.parametrize(("written", "read"), [("10^(-4)", "10^(-4)"), ("10^{-4}", "10^-4"),
                                              ("10^-4", "10^-4")])
def test_a_power_of_ten_is_read_whole_however_it_is_bracketed(written, read):
    text = f"## Q3 (c)\nThe ratio is 6.51 × {written}.\n"
    assert extract_answers(text, Q3)["q3c"].answer == f"6.51 × {read}"


def test_the_japanese_answer_word_marks_the_answer_and_a_number_after_cjk_is_read():
    text = normalise("Ｑ３（ｃ）\n"
                     "  48 * 16384^2 * 2 bytes = 25,769,803,776 bytes\n"
                     "答え：約２５．７７ＧＢ\n\n"
                     "Ｑ３（ｄ）\n"
                     "  1 layer: 6144*24576*2 + 30720 = 302,020,608\n"
                     "答え：約145億、つまり14.50 billion parameters\n")
    got = extract_answers(text, Q3)
    assert got["q3c"].answer == "25.77GB" and got["q3c"].why == "answer line"
    assert got["q3d"].answer == "14.50 billion"


@pytest.mark.parametrize("word", ["答え", "答案", "答"])
def test_a_cjk_answer_line_beats_the_working(word):
    text = f"## Q3 (c)\n48 × 16384^2 = 12,884,901,888 scores\n{word}:25.77 GB\n"
    assert extract_answers(text, Q3)["q3c"].answer == "25.77 GB"


def test_a_list_item_named_in_other_words_is_not_the_label_before_it():
    text = normalise("Ｑ３（ａ）\n（II）\n"
                     "  sum = e^0.5 + e^0.1 + e^3.0 + e^0.2 + e^1.0 = 26.7791\n"
                     "  p(mat) = 20.0855 / 26.7791\n"
                     "  loss = -ln(p(mat))\n"
                     "答え：p(mat)=0.7500、損失=0.2876\n")
    got = extract_answers(text, Q3)
    assert got["q3a2.p"].answer == "0.7500" and not got["q3a2.p"].shotgun
    assert got["q3a2.loss"].answer == "0.2876"


def test_a_slide_answer_set_large_is_no_heading():
    """Slides printed to PDF: the answer is a line in a large font, which the PDF reader
    writes as a heading; a heading that states a value is read as the answer."""
    text = ("## Q3 (a) — Language modelling\n(II) logits [0.5, 0.1, 3.0, 0.2, 1.0]\n"
            "Σ e^z = 26.78, e^3 = 20.09\n### p(mat) = 0.75 · loss = −ln 0.75 = 0.288\n"
            "## Q3 (d) — FFN parameters\n"
            "per layer: 2 × 6144 × 24,576 + 30,720 = 302.0 M × 48 layers\n"
            "### ≈ 14.5 B parameters\n"
            "## Q3 (e) — LoRA\n(III) FFN Adam: 14.5 B × 8 bytes = 116 GB\n"
            "### LoRA optimizer memory ≈ 0.065 % of the FFN’s\n"
            "### Notes on the method\n")
    got = extract_answers(text, Q3)
    assert got["q3a2.p"].answer == "0.75"
    assert got["q3a2.loss"].answer == "0.288"
    assert got["q3d"].answer == "14.5 B"
    assert got["q3e3"].answer == "0.065 %"


@pytest.mark.parametrize("mark", ["==0.750==", "**0.750**"])
def test_a_highlighted_value_beats_the_formula_before_it(mark):
    """HackMD and Obsidian highlight with ``==…==``: emphasis, as bold is."""
    text = ("## Q3 (a)\n**(II)**\n$$\np(\\text{mat})=\\frac{e^{3.0}}{26.779}=\\frac{20.086}{26.779}\n$$\n"
            f"$p(\\text{{mat}})$ = {mark}, loss $=-\\ln 0.750$ = ==0.2876==\n## Q3 (c)\nx\n")
    assert extract_answers(text, Q3)["q3a2.p"].answer == "0.750"


def test_a_highlight_is_no_comparison_of_code():
    text = "## Q3 (c)\nassert a == b == c\nThe memory is 25.77 GB.\n"
    assert extract_answers(text, Q3)["q3c"].answer == "25.77 GB"


def test_an_expression_in_a_code_block_is_no_formula_answer():
    """R Markdown knitted: the chunk's code computes, its sentence states the answer."""
    text = ("## (c)\n\n``` r\nh <- 48; S <- 16384\nbytes <- h * S^2 * 2\nbytes / 1e9\n```\n\n"
            "    ## [1] 25.7698\n\nThe attention scores of one layer take 25.77 GB.\n\n## (d)\n")
    spec = QuestionSpec("q3c", ("Q3 (c)",), symbols={"h": 48, "S": 16384})
    assert extract_answers(text, [spec, QuestionSpec("q3d", ("Q3 (d)",))])["q3c"].answer \
        == "25.77 GB"


def test_parts_named_inside_their_lines_end_each_other():
    """A Chinese student names each part in Chinese, the pack's name in brackets after it:
    the second part's line ends the first part, as it would at the line's start."""
    specs = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
             QuestionSpec("cls", ("Question 3",), part="Classification task")]
    text = ("# 问题 3（Question 3）\n每一层合计 242,000。\n"
            "**语言建模任务（Language modeling task）：**10,000,200 + 968,000 = **21,018,401** 个\n"
            "**分类任务（Classification task）：**10,000,200 + 968,000 + 402 = **10,968,602** 个\n"
            "# 问题 4（Question 4）\n")
    got = extract_answers(normalise(text), specs)
    assert got["lm"].answer == "21,018,401"
    assert got["cls"].answer == "10,968,602"


LAB = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
       QuestionSpec("cls", ("Question 3",), part="Classification task")]


def test_parts_named_in_the_students_words_are_found_by_stem_or_initials():
    """No synonym in the pack: 'LM model' has the initials of 'Language modeling', and
    'Classifier' the stem of 'Classification'; a table's Total column is each row's count."""
    text = ("**Question 3**\n\nPer layer: 201,800, so 4 layers = 807,200\n\n"
            "| Model | Embedding | Encoder | Head | Total |\n| :-- | :-- | :-- | :-- | :-- |\n"
            "| LM model | 10,000,200 | 807,200 | 10,050,201 | 20,857,601 |\n"
            "| Classifier | 10,000,200 | 807,200 | 402 | 10,807,802 |\n\n**Question 4**\n")
    got = extract_answers(text, LAB)
    assert got["lm"].answer == "20,857,601"
    assert got["cls"].answer == "10,807,802"


def test_a_name_like_both_parts_or_neither_finds_no_part():
    text = ("**Question 3**\n\nModel task: 5,000\nOther words: 7,000\n\n**Question 4**\n")
    got = extract_answers(text, LAB)
    assert not got["lm"].found and not got["cls"].found
