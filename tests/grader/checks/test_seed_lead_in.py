"""A seed or model named in a lead-in paragraph scopes the figures that follow it.

Why: students tell their runs as a story: "I start with the pre-trained model and seed
1." then, a paragraph later, "Its validation accuracy peaked at 0.853 at step 1200; the
test accuracy of that checkpoint is 0.841." The paragraph naming the run holds no figure
and the one with the figures names no run, so the figures were read without a seed (or
with the last seed named, where "The second seed behaved the same way" named the next
one in words). A chart's tick labels printed between the paragraphs were read as one
more run, and "it has not converged after 2,000 steps for one seed" as a step of the last
seed named. Expected rows written by hand: (model, seed, best validation, step, test).
"""

from __future__ import annotations

from grader.checks.seedclaims import Families, parse_claims

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"],
                     "scratch": ["scratch", "random", "not pre-trained"]},
                    {"pretrained": ["fine-tuned"]})


def rows(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


STORY = """I start with the pre-trained model and seed 1, the run I tuned the learning rate on.

Its validation accuracy peaked at 0.853 at step 1200; the test accuracy of that checkpoint
is 0.841. After that the model slowly overfits.

The second seed behaved almost the same way but peaked a little later.

The best validation accuracy, 0.851, came at step 1400, and the matching test accuracy is
0.840.

The randomly initialised model is much weaker.

Seed 2 was the slowest of all the runs.

It only reached its best validation accuracy, 0.705, at the very last evaluation (step
2000); test accuracy 0.699.
"""
WANT = [("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.840),
        ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_lead_in_paragraph_names_the_run_of_the_figures_after_it():
    assert rows(STORY) == WANT


def test_the_same_story_as_one_paragraph_per_line_with_no_blank_lines():
    """A PDF's paragraphs come one per line, with no blank line between them."""
    one_per_line = "\n".join(" ".join(p.split()) for p in STORY.split("\n\n") if p.strip())
    assert rows(one_per_line) == WANT


def test_an_ordinal_names_a_seed():
    assert rows("For the pre-trained model, the third seed peaked at 0.861 at step 1600 "
                "(test 0.850).") == [("pretrained", 3, 0.861, 1600, 0.850)]


def test_a_chart_s_tick_labels_between_the_paragraphs_are_no_run():
    text = ("Pre-trained model, seed 2: the best validation accuracy, 0.851, came at step "
            "1400, and the matching test accuracy is 0.840.\n"
            "0.86\n0.84\n0.82\n"
            "training step\n"
            "Figure 1. Validation accuracy of the pre-trained model for seed 3.\n")
    assert rows(text) == [("pretrained", 2, 0.851, 1400, 0.840)]


def test_figures_said_of_one_seed_or_every_seed_are_not_the_last_seed_s():
    text = ("For seed 3 the model from scratch did best, 0.720 on validation at step 1600, "
            "and the test accuracy of that checkpoint is 0.707. The random model still has "
            "not converged after 2,000 steps for one seed.")
    assert rows(text) == [("scratch", 3, 0.720, 1600, 0.707)]
    text = ("Seed 1 of the pre-trained model peaks at 0.853 at step 1200 (test 0.841). "
            "The pre-trained model is better on every seed and peaks earlier (step 1200).")
    assert rows(text) == [("pretrained", 1, 0.853, 1200, 0.841)]
