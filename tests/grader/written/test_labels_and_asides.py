"""Labels read after their decorations, a part after the word that announces it, and
numbers in an aside in another language (held-out-4's families, on strings that are
no report of the corpus)."""

from __future__ import annotations

import unicodedata

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.vocabulary import magnitude_after, undecorated

Q3 = [QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]


@pytest.mark.parametrize("heading", [
    "## 🧠 Q3 (c) Attention memory",
    "A  Q3(c) Attention memory",
    "### 3.3 Q3(c) Attention memory",
    "**✅ Q3 (c)**",
])
def test_a_decorated_heading_opens_its_question(heading):
    text = f"{heading}\nscores: 48 × 16384^2 × 2 B = **25.77 GB**\n## Q3 (d)\n14.5 billion\n"
    got = extract_answers(text, Q3)
    assert got["q3c"].answer == "25.77 GB"
    assert got["q3d"].answer == "14.5 billion"


def test_decorations_are_only_what_stands_before_a_label():
    assert undecorated("🧠 Q3 (c)") == 2
    assert undecorated("3.2 Q3(b)") == 4
    assert undecorated("2 Task 3 & 4") == 2
    assert undecorated("3.1 Language modeling") == 0  # a section number before no label
    assert undecorated("a Q3 reading") == 0  # a lower-case word is prose


def test_a_part_after_the_word_answer_opens_the_part():
    text = ("## Q3(e) LoRA on W_Q and W_V\n"
            "Working: r·D_in + D_out·r = 98,304 per matrix.\n"
            "**Answer (I):** 96 × 98,304 = 9,437,184 trainable parameters.\n"
            "**Answer (II):** 9,437,184 × 8 B = 75.5 MB.\n")
    got = extract_answers(text, Q3)
    assert got["q3e1"].answer == "9,437,184"
    assert got["q3e2"].answer == "75.5 MB"


def test_a_numeral_after_a_colon_names_the_part():
    text = "Q3 e) i: 9,437,184 params\nQ3 e) ii: 75.5 MB\n"
    got = extract_answers(text, Q3)
    assert got["q3e1"].answer == "9,437,184"
    assert got["q3e2"].answer == "75.5 MB"


def test_a_cjk_magnitude_is_read_as_meant_and_its_aside_is_no_answer():
    assert magnitude_after(" 亿）") == 8 and magnitude_after("万") == 4
    assert magnitude_after(" GB") is None
    # NFKC (every reader applies it) turns full-width brackets and digits into ASCII
    text = unicodedata.normalize("NFKC", "## Q3 (d)\n答案：14.497 billion parameters（约 １４５ 亿）\n")
    got = extract_answers(text, Q3)["q3d"]
    assert got.answer == "14.497 billion"
    aside = [c for c in got.candidates if c.text.startswith("145")]
    assert [c.text for c in aside] == ["145 × 10^8"] and aside[0].why == "in parentheses"
    alone = extract_answers("## Q3 (d)\n约 145 亿 个参数\n", Q3)["q3d"]
    assert alone.parsed is not None and float(alone.parsed.value) == 14.5e9


def test_a_dotted_section_number_before_a_part_marker_is_decoration():
    assert undecorated("A.2 (II) Probability") == 4
    assert undecorated("3.1 (a) Objective") == 4
    assert undecorated("3. (c)") == 0  # a heading numbered before its part: Q3 (c)
    text = ("## A Q3 (e) LoRA\n### A.1 (I) Parameters\n9,437,184\n"
            "### A.2 (II) Memory\n75.5 MB\n")
    got = extract_answers(text, Q3)
    assert (got["q3e1"].answer, got["q3e2"].answer) == ("9,437,184", "75.5 MB")


def test_markdown_escapes_of_a_google_docs_export_and_a_count_after_a_comma():
    """'Download as Markdown' escapes = + * .; '302,020,608, times L = 48' multiplies on:
    the comma ends the number, no '608, times' comparison hides the result."""
    text = ("## Q3 (d)\n1\\. First linear layer: H \\* 4H \\+ 4H \\= 150,994,944 \\+ 24,576\n"
            "Per layer \\= 302,020,608, times L \\= 48 → 14,496,989,184 ≈ **14.497 billion**\n")
    assert extract_answers(text, Q3)["q3d"].answer == "14.497 billion"
    aside = "## Q3 (d)\n14.5 billion, i.e. 10 times the 1.5B of GPT-2 XL\n"
    got = extract_answers(aside, Q3)["q3d"]
    assert got.answer == "14.5 billion"
    assert [c.why for c in got.candidates if c.text.startswith("1.5")] == ["in a comparison"]
