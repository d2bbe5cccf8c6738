"""A list item's model and seed are its parent items': nested bullets of per-seed figures.

Why: students group the runs by model in a nested list ("- pre-trained RoBERTa" with
"  - seed 1: best val 0.853 at step 1200, test 0.841" under it), in Markdown, in plain
text and in a chat transcript's turn. The parent item names the model and holds no
figure, so the children's rows were read without a model: the check could not tell a
pre-trained seed 1 from a scratch seed 1 and sent it to a TA. Expected rows written by
hand from each text: (model, seed, best validation, step, test).
"""

from __future__ import annotations

import pytest

from grader.checks.seedclaims import Families, parse_claims

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"],
                     "scratch": ["scratch", "random", "not pre-trained"]},
                    {"pretrained": ["fine-tuned"]})


def rows(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


NESTED = """Results from runs/*.csv:
  - pre-trained RoBERTa
    - seed 1: best val 0.853 at step 1200, test 0.841
    - seed 2: best val 0.851 at step 1400, test 0.840
  - randomly initialised (from scratch)
    - seed 1: best val 0.712 at step 1800, test 0.698
    - seed 2: best val 0.705 at step 2000, test 0.699
"""
WANT = [("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.840),
        ("scratch", 1, 0.712, 1800, 0.698), ("scratch", 2, 0.705, 2000, 0.699)]


@pytest.mark.parametrize("text", [
    NESTED,
    NESTED.replace("  - ", "* ").replace("    - ", "    * "),  # Markdown stars, flush parents
    NESTED.replace("- pre", "1. pre").replace("- rand", "2. rand"),  # numbered parents
    NESTED.replace("    -", "\t-"),  # tabs
])
def test_nested_seeds_take_the_model_of_their_parent_item(text):
    assert rows(text) == WANT


def test_three_levels_model_then_seed_then_figures():
    text = ("- Pre-trained model\n"
            "  - Seed 1\n"
            "    - best validation accuracy 0.853 at step 1200\n"
            "    - test accuracy 0.841\n"
            "  - Seed 2\n"
            "    - best validation accuracy 0.851 at step 1400\n"
            "    - test accuracy 0.840\n"
            "- Scratch model\n"
            "  - Seed 1\n"
            "    - best validation accuracy 0.712 at step 1800\n"
            "    - test accuracy 0.698\n")
    assert rows(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                          ("pretrained", 2, 0.851, 1400, 0.840),
                          ("scratch", 1, 0.712, 1800, 0.698)]


def test_an_item_naming_its_own_model_keeps_it_and_the_parent_ends_with_the_list():
    text = ("- pre-trained\n"
            "  - seed 1: best val 0.853 at step 1200, test 0.841\n"
            "  - scratch seed 1: best val 0.712 at step 1800, test 0.698\n"
            "\n"
            "Seed 3 of the scratch model peaked at 0.720 at step 1600 (test 0.707).\n")
    assert rows(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                          ("scratch", 1, 0.712, 1800, 0.698),
                          ("scratch", 3, 0.720, 1600, 0.707)]


def test_a_sibling_list_does_not_inherit_an_earlier_parent():
    text = ("- pre-trained\n"
            "  - seed 1: best val 0.853 at step 1200, test 0.841\n"
            "\n"
            "Scratch model:\n"
            "- seed 1: best val 0.712 at step 1800, test 0.698\n")
    assert rows(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                          ("scratch", 1, 0.712, 1800, 0.698)]


def test_a_line_out_of_the_list_is_no_part_of_its_last_item():
    """A chat turn after the list ("[14:18] TA: And the comparison?") and the student's
    answer naming steps ("peaks earlier (step 1200-1600)") are prose, not seed 3's figures;
    a wrapped item going on in lower case stays one item."""
    text = NESTED + ("[14:18] TA: And the comparison?\n"
                     "  The pre-trained model peaks earlier (step 1200-1600), the scratch\n"
                     "  model must learn everything from 2000 steps of data.\n")
    assert rows(text) == WANT
    wrapped = "- pre-trained\n  - seed 1: best val 0.853 at step\n1200, test 0.841\n"
    assert rows(wrapped) == [("pretrained", 1, 0.853, 1200, 0.841)]


def test_a_flat_list_item_naming_a_model_alone_heads_the_items_after_it():
    """A Word list's levels are not in the text read from it: "- pre-trained RoBERTa" then
    its seeds' items at the same level. The item naming a model and no figure heads the
    items after it, as a lead-in paragraph does."""
    flat = "\n".join(line.strip() for line in NESTED.splitlines())
    assert rows(flat) == WANT


CHAT = """[14:15] TA: Now Task 3: your figures per model and seed?
[14:17] Me: - pre-trained RoBERTa
    - seed 1: best val 0.853 at step 1200, test 0.841
    - seed 2: best val 0.851 at step 1400, test 0.840
  - randomly initialised (from scratch)
    - seed 1: best val 0.712 at step 1800, test 0.698
    - seed 2: best val 0.705 at step 2000, test 0.699
[14:18] TA: And the comparison?
[14:19] Me: The pre-trained model is better on every seed and peaks earlier (step 1200).
[14:20] TA: Good.
"""


def test_a_chat_turn_opening_with_the_parent_bullet_as_the_text_reader_writes_it():
    """The transcript reader keeps the student's turn at its column ("[14:17] Me: - pre-
    trained RoBERTa" becomes the item, indented past its children): the item naming the
    model alone still heads the seeds after it."""
    from grader.written.reading.lightweight import as_markdown

    assert rows(as_markdown(CHAT)) == WANT


def test_a_word_list_of_two_levels_as_the_docx_reader_gives_it(tmp_path):
    docx = pytest.importorskip("docx", reason="the reports extra reads .docx with python-docx")
    from grader.written import Reports

    doc = docx.Document()
    doc.add_heading("Task 3", 1)
    for line in NESTED.splitlines()[1:]:
        doc.add_paragraph(line.strip()[2:],
                          style="List Bullet 2" if line.startswith("    ") else "List Bullet")
    path = tmp_path / "nested.docx"
    doc.save(path)
    assert rows(Reports.read([path]).docs[0].text) == WANT
