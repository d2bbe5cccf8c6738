"""Held-out-14's per-seed families: a seeds-as-columns table whose "step" / "test acc" rows
name no model, and per-seed lines in French ("graine 1 : meilleure val. 0.853 au pas 1200").

Why: a Word table with a column per seed and a group of rows per model names the model
in the first row of each group only ("pre-trained best val", then "step", "test acc"):
the rows below are that model's, as a merged "Model" cell is for the rows it spans. Read
on their own, six claims had no model and six no step nor test. A report in French
(Spanish, German, ...) says "seed" and "step" in its own words; with only the English
ones, not one figure of a list of "graine N : ... au pas N" was read. Such a word counts
only next to a number, so French "pas" ("not") is no step. Expected claims were written
from the text by hand: (family, seed, best validation, step, test).
"""

from __future__ import annotations

from grader.checks.seedclaims import parse_claims
from grader.checks.seedwords import read_numbers
from tests.grader.checks._seeds import EXPECTED, FAMILIES, claims

# as the DOCX reader gives h14-labB-docx-textbox.docx's Task 3 table
TRANSPOSED = """Best validation accuracy for each seed, the step where it happened, and the test accuracy at that step (from the training logs):
|  | **seed 1** | **seed 2** | **seed 3** |
| pre-trained best val | 0.853 | 0.851 | 0.861 |
| step | 1200 | 1400 | 1600 |
| test acc | 0.841 | 0.840 | 0.850 |
| scratch best val | 0.712 | 0.705 | 0.720 |
| step | 1800 | 2000 | 1600 |
| test acc | 0.698 | 0.699 | 0.707 |
The pre-trained model is about 14 points better on validation and test for every seed.
"""


def test_the_step_and_test_rows_of_a_seeds_as_columns_table_are_of_the_model_above():
    assert sorted(claims(TRANSPOSED), key=str) == sorted(EXPECTED, key=str)


def test_a_merged_model_cell_over_a_metric_column_gives_its_model_to_the_rows_below():
    text = """| Model | Metric | Seed 1 | Seed 2 |
| Pre-trained | best val | 0.853 | 0.851 |
|  | step | 1200 | 1400 |
|  | test acc | 0.841 | 0.840 |
| Scratch | best val | 0.712 | 0.705 |
|  | step | 1800 | 2000 |
|  | test acc | 0.698 | 0.699 |
"""
    assert sorted(claims(text), key=str) == sorted(
        [r for r in EXPECTED if r[1] in (1, 2)], key=str)


def test_rows_naming_no_model_keep_the_model_of_the_heading():
    text = """### Scratch model
|  | seed 1 | seed 2 |
| best val | 0.712 | 0.705 |
| step | 1800 | 2000 |
| test acc | 0.698 | 0.699 |
"""
    assert claims(text) == [("scratch", 1, 0.712, 1800, 0.698),
                            ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_blank_model_cell_of_a_row_per_run_table_is_still_the_model_above():
    text = """| Model | Seed | Best val acc | Step | Test acc |
| Pre-trained | 1 | 0.853 | 1200 | 0.841 |
|  | 2 | 0.851 | 1400 | 0.840 |
| From scratch | 1 | 0.712 | 1800 | 0.698 |
|  | 2 | 0.705 | 2000 | 0.699 |
"""
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                            ("pretrained", 2, 0.851, 1400, 0.840),
                            ("scratch", 1, 0.712, 1800, 0.698),
                            ("scratch", 2, 0.705, 2000, 0.699)]


# as the DOCX reader gives h14-labB-docx-french.docx's Task 3 section
FRENCH = """Pour chaque graine (seed), la meilleure précision de validation, le pas (step) où elle est atteinte et la précision de test à ce pas :
### Modèle pré-entraîné (pre-trained)
- graine 1 : meilleure val. 0.853 au pas 1200, test 0.841
- graine 2 : meilleure val. 0.851 au pas 1400, test 0.840
- graine 3 : meilleure val. 0.861 au pas 1600, test 0.850
### Modèle from scratch (scratch)
- graine 1 : meilleure val. 0.712 au pas 1800, test 0.678
- graine 2 : meilleure val. 0.705 au pas 2000, test 0.699
- graine 3 : meilleure val. 0.720 au pas 1600, test 0.707
Le modèle pré-entraîné est nettement meilleur (environ 0.85 contre 0.71 en validation) et atteint son maximum plus tôt.
"""


def test_french_seed_and_step_words_are_read():
    want = [r if r[:2] != ("scratch", 1) else ("scratch", 1, 0.712, 1800, 0.678)
            for r in EXPECTED]
    assert claims(FRENCH) == want


def test_each_french_item_keeps_its_line():
    assert [c["line"] for c in parse_claims(FRENCH, FAMILIES)] == [3, 4, 5, 7, 8, 9]


def test_seed_and_step_words_of_other_languages_are_read():
    text = """### Modelo pre-entrenado (pre-trained)
- semilla 1: mejor val. 0.853 en el paso 1200, test 0.841
- Semente 2: melhor validação 0.851 no passo 1400, teste 0.840
- Seed 3: beste Validierung 0.861 bei Schritt 1600, Test 0.850
### Modello da zero (scratch)
- seme 1: migliore val. 0.712 al passo 1800, test 0.698
- graine 2 : meilleure validation 0.705 à l'étape 2000, test 0.699
- frø 3: beste val 0.720 ved steg 1600, test 0.707
"""
    assert claims(text) == EXPECTED


def test_a_step_word_after_the_number_is_read_in_other_languages():
    roles = [(n.role, n.value) for n in read_numbers("graine 2 : meilleure val. 0.851 après "
                                                      "1400 pas, test 0.840")]
    assert roles == [("seed", 2), ("acc", 0.851), ("step", 1400), ("acc", 0.840)]


def test_a_common_word_counts_only_next_to_a_number():
    # "pas" is French "not", and "dépasse" holds it: a step only before a whole number;
    # "graine" with no number after it is no seed
    roles = [(n.role, n.value) for n in read_numbers(
        "la graine ne dépasse pas 0.86 en val. : pas de progrès après le pas 1400")]
    assert roles == [("acc", 0.86), ("step", 1400)]
    assert claims("Le modèle pré-entraîné ne dépasse pas 0.86 en validation.") == []


def test_a_french_list_of_seeds_is_a_list_of_seeds():
    text = ("Modèle pré-entraîné : meilleures val. 0.853, 0.851 et 0.861 pour les graines "
            "1, 2 et 3, aux pas 1200, 1400 et 1600.")
    assert [r[:4] for r in claims(text)] == [
        ("pretrained", 1, 0.853, 1200), ("pretrained", 2, 0.851, 1400),
        ("pretrained", 3, 0.861, 1600)]
