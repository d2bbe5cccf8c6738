"""A Georgian Word report's per-seed figures: one table per model, each under a bold
paragraph naming its model ("წინასწარ გაწვრთნილი (pre-trained)", "ნულიდან (scratch)"),
headers half in Georgian ("საუკ. val acc", "ნაბიჯი (step)"), as held-out-13 had it.

Why: the model is named in a paragraph above each table, not in a row, so each table's
rows must take the model of the paragraph before it, and the Georgian word for "step"
before "(step)" must not hide the column's role. Expected claims were written from the
text by hand: (family, seed, best validation, step, test).
"""

from __future__ import annotations

from grader.checks.seedclaims import Families, parse_claims

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"],
                     "scratch": ["scratch", "random", "not pre-trained"]})

# as the DOCX reader gives h13-labB-docx-georgian.docx's section
GEORGIAN = """საუკეთესო ვალიდაციის სიზუსტე, მისი ნაბიჯი და ტესტის სიზუსტე იმავე ნაბიჯზე:
**წინასწარ გაწვრთნილი (pre-trained)**
| Seed | საუკ. val acc | ნაბიჯი (step) | test acc |
| 1 | 0.853 | 1200 | 0.841 |
| 2 | 0.851 | 1400 | 0.840 |
**ნულიდან (scratch)**
| Seed | საუკ. val acc | ნაბიჯი (step) | test acc |
| 1 | 0.712 | 1800 | 0.698 |
| 3 | 0.720 | 1600 | 0.707 |
"""


def test_each_table_is_of_the_model_named_in_the_paragraph_above_it():
    got = [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
           for c in parse_claims(GEORGIAN, FAMILIES)]
    assert got == [("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.840),
                   ("scratch", 1, 0.712, 1800, 0.698), ("scratch", 3, 0.720, 1600, 0.707)]
