"""Held-out-39 and -40's families in text: an engineer's units in brackets and "=>" result
lines, a Databricks notebook exported as source, answers typed in a chat ("3c = …",
"3e(I): …"), a sentence a part ending on its total, a term named in brackets and summed,
a wiki's table and a contents set as headings, a page's "On this page" list under a
section's heading, its footer's dates, a board's answer chips side by side, a magazine's
"In short" box, GitBook's inline "$$", and a bold question over the claim that answers it.
Each test fails on the readers before these families were read."""

from __future__ import annotations

from pathlib import Path

from grader.checks.claims import find_claim
from grader.written import QuestionSpec
from grader.written.reading.plain import read_plain
from grader.written.report import section_text
from tests.grader.written._read import answers, runs

C = QuestionSpec("c", ("Q3 (c)",))
D = QuestionSpec("d", ("Q3 (d)",))
E = [QuestionSpec(f"e{k}", (f"Q3 (e)({r})",)) for k, r in ((1, "I"), (2, "II"), (3, "III"))]
LAB_A = [QuestionSpec("lm", ("Question 3",), part="Language modeling task"),
         QuestionSpec("cls", ("Question 3",), part="Classification task")]
RUNS = [("pretrained", 1, 0.853, 1200, 0.841), ("scratch", 3, 0.72, 1600, 0.707)]


def test_a_unit_in_square_brackets_is_the_values_unit():
    text = ("## Q3 (c)\nmem_GB = 25.7698\n=> 25.77 [GB] for one layer\n"
            "## Q3 (d)\n=> 14.50 billion\n")
    assert answers(text, [C, D])["c"] == "25.77 GB"


def test_a_line_the_working_leads_to_with_a_double_arrow_gives_the_answer():
    text = ("(III) ratio = 75.497.472 / 115.975.913.472 = 0,00065\n"
            "  => LoRA needs only 0,065 % of the FFN optimizer memory\n")
    assert answers("## Q3 (e)\n" + text, E[2:])["e3"] == "0,065 %"


def test_a_databricks_notebook_exported_as_source_is_read_as_its_markdown(tmp_path: Path):
    report = tmp_path / "databricks.txt"
    report.write_text("""# Databricks notebook source
# MAGIC %md
# MAGIC ### Q3 (c)
# MAGIC One score per pair and head.

# COMMAND ----------

import math

S, h = 16384, 48
print(2 * h * S * S / 1e9)

# COMMAND ----------

# MAGIC %md
# MAGIC **Result:** 25.77 GB

# COMMAND ----------

# MAGIC %md
# MAGIC ### Q3 (d)
# MAGIC **Result:** 14.50 billion
""", encoding="utf-8")
    text = read_plain(report).text
    assert "### Q3 (c)" in text and "COMMAND" not in text and "%md" not in text
    assert answers(text, [C, D]) == {"c": "25.77 GB", "d": "14.50 billion"}


def test_labels_typed_in_a_chat_open_their_parts():
    text = """You sent
3c = 25.77 GB

Joao Pedro
isnt it 24?

You sent
3e(I): r×H + H×r = 98,304 per matrix, × 96 = 9437184 trainable params

You sent
3e(II): Adam 8 bytes/param → 75.5 MB
"""
    got = answers(text, [C, *E[:2]])
    assert got == {"c": "25.77 GB", "e1": "9437184", "e2": "75.5 MB"}


def test_one_sentence_a_part_each_ending_on_its_total_answers_its_part():
    text = ("## Question 3\n- Embedding: 10,000,200\n"
            "For the language modeling task the total is 10,000,200 + 968,000 + 10,000,200 = "
            "20,968,400. For the classification task it is 10,000,200 + 968,000 + 400 = "
            "10,968,600.\n## Question 4\n")
    assert answers(text, LAB_A) == {"lm": "20,968,400", "cls": "10,968,600"}


def test_a_line_naming_both_parts_after_a_table_of_them_answers_each_in_its_piece():
    text = ("## Question 3\n| Component | Language modeling task | Classification task |\n"
            "| Head | 10 050 201 | 402 |\n| **Total** | **21 015 201** | **10 965 402** |\n"
            "**Language modeling task:** 21 015 201 trainable parameters (without LayerNorm). "
            "**Classification task:** 10 965 402 trainable parameters (without LayerNorm).\n"
            "## Question 4\n")
    assert answers(text, LAB_A) == {"lm": "21 015 201", "cls": "10 965 402"}


def test_a_term_named_in_brackets_then_summed_is_no_answer():
    text = ("## Question 3\n**Language modeling task:** 10 000 200 (embedding) + 4 × 242 000 "
            "(layers) + 10 050 201 (head) = **21 018 401** trainable parameters\n\n"
            "**Classification task:** 10 000 200 + 968 000 + 402 = **10 968 602**\n")
    assert answers(text, LAB_A) == {"lm": "21 018 401", "cls": "10 968 602"}


def test_a_mediawiki_table_is_a_table(tmp_path: Path):
    report = tmp_path / "wiki.txt"
    report.write_text("""== Task 3 and Task 4 ==
{| class="wikitable"
|+ Best run per seed
! Model !! Seed !! Best val acc !! Step !! Test acc
|-
| pre-trained || 1 || 0.853 || 1200 || 0.841
|-
| from scratch
| 3 || 0.720 || 1600 || 0.707
|}
After the table.
""", encoding="utf-8")
    text = read_plain(report).text
    assert runs(text) == RUNS
    assert text.split("\n")[10] == "After the table."  # the lines after it keep their numbers


def test_a_contents_set_as_headings_opens_no_section():
    """wkhtmltopdf's contents page: its titles larger than the text (read as headings),
    their page numbers apart; the seeds' section is the real heading's, with the table."""
    text = ("### 2\n### 2\n# Table of Contents\n### Question 1\n### Task 3 and 4\n"
            "### Question 2\nTransfer Lab B · generated with wkhtmltopdf\n"
            "## Question 1\nThe total is 22,829,056.\n## Task 3 and 4\n"
            "| Model | Seed | Best val acc | Step | Test acc |\n"
            "| pre-trained | 1 | 0.853 | 1200 | 0.841 |\n## Question 2\nr = 16.\n")
    assert "| pre-trained | 1 | 0.853 | 1200 | 0.841 |" in section_text(text, ["Task 3"])


def test_a_sections_heading_over_a_pages_on_this_page_list_opens_its_section():
    text = ("## Q3 (b)\nDecoder-only.\n## Q3 (c)\nQ3 (a)\nQ3 (b)\nQ3 (c)\nQ3 (d)\nQ3 (e)\n"
            "268,435,456 × 2 B = 536,870,912 B\n**Memory ≈ 0.537 GB**\n## Q3 (d)\n"
            "**FFN parameters = 14.497 billion**\n")
    assert answers(text, [C, D]) == {"c": "0.537 GB", "d": "14.497 billion"}


def test_a_pages_footer_dates_it_and_answers_nothing():
    text = ("## Q3 (e)\n### (III) Compared with the FFN\nRatio = 0.000651.\n"
            "The LoRA optimizer state is **≈ 0.0651%** of the FFN's.\n✏️ Edit this page\n"
            "Last updated on **27 Nov 2025** by **Neha**\nCopyright © 2025 Neha's notes.\n")
    assert answers(text, E[2:])["e3"] == "0.0651%"


def test_answer_chips_side_by_side_each_answer_their_own_part():
    text = ("## Q3 (e)\n**(I) LoRA on W_Q, W_V**\nper matrix r·H + H·r = 98,304; × 2 × 48 layers\n"
            "**(II) Adam**\n9,437,184 × 8 B = 75,497,472 B\n**(III) compare**\n"
            "115.98 GB / 75.5 MB ≈ 1536\n"
            "| Answer · (I) trainable **9,437,184** | Answer · (II) Adam states **75.5 MB** |\n"
            "Answer · (III) LoRA is\n## ≈ 1536× smaller\n")
    got = answers(text, E)
    assert got["e1"] == "9,437,184" and got["e3"] == "1536×"


def test_an_in_short_box_closes_the_last_part_like_a_summary():
    text = ("**Q3 (e) — LoRA**\n**(III)** The LoRA states are 75.50 MB / 115,964 MB ≈ 0.065% of that.\n"
            "**IN SHORT**\n(c) **25.77 GB**\n(d) **14.4955 billion**\n| (e)(I) | **9,437,184** |\n")
    assert answers(text, E[2:])["e3"] == "0.065%"


def test_gitbooks_inline_double_dollars_close_on_their_line(tmp_path: Path):
    report = tmp_path / "gitbook.md"
    report.write_text("""## Q3 (e)

### (II) Adam states

$$9{,}437{,}184 \\times 8 \\text{ B} = 75{,}497{,}472 \\text{ B}$$ → **75.50 MB**

### (III) Compared with the FFN

$$
\\frac{75.50}{2416.16} = 0.0312
$$

**LoRA optimizer state ≈ 3.12 % of the FFN's**
""", encoding="utf-8")
    text = read_plain(report).text
    assert "### (III) Compared with the FFN" in text.split("\n")
    assert answers(text, E[1:])["e2"] == "75.50 MB"


def test_a_bold_question_over_the_claim_is_no_claim():
    text = ("**Val. accuracy per epoch**\nepoch 1: pre-trained 0.75 | scratch 0.66 epoch 2: "
            "0.78 | 0.69\nepoch 5: 0.81 | 0.73\n**Which is ahead?**\nThe pre-trained model is "
            "better: higher from the first epoch and still ~8 points above the model trained "
            "from scratch at epoch 5.")
    found = find_claim(text, {"pretrained": ["pre-trained"], "scratch": ["scratch"]})
    assert found is not None and found[:2] == ("pretrained", "scratch")


def test_a_wiki_tables_row_headers_are_body_rows():
    from grader.written.reading.wikitext import wiki_tables
    lines = ["{|", "! Model !! Seed !! Best val acc !! Step !! Test acc", "|-",
             "! pre-trained", "| 1 || 0.853 || 1200 || 0.841", "|-",
             "| scratch || 3 || 0.720 || 1600 || 0.707", "|}"]
    assert runs("\n".join(wiki_tables(lines))) == RUNS
