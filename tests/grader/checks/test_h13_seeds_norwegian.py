"""A Norwegian PDF table of per-seed figures, as held-out-13 had it: a header over four
printed lines, a model cell that wraps, decimal commas and Norwegian model names.

Why: Chromium printed "Beste val.-" / "nøyaktighet" and "Test-" / "nøyaktighet" on two
lines each, with "Modell" and "Steg" set between them, so the PDF reader gives the
header as four rows; "Fra bunnen av" (from scratch) wrapped, its first words on a line
of their own above the row with "av" and the figures. No row was read: the header's
first row held no field, the table ended at "Fra bunnen", and "Forhåndstrent" named no
model. Expected claims were written from the text by hand: (family, seed, best
validation, step, test).
"""

from __future__ import annotations

from grader.checks.seedclaims import Families, parse_claims

FAMILIES = Families({"pretrained": ["pretrained", "pre-trained"],
                     "scratch": ["scratch", "random", "not pre-trained"]})


def claims(text: str) -> list[tuple[str | None, int, float | None, int | None, float | None]]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


# as the PDF reader gives h13-labB-word-norwegian.pdf's table
NORWEGIAN = """Beste valideringsnøyaktighet per kjøring, steget der den ble nådd:
| **Modell** | **Frø (seed)** |
|  |  | **Beste val.-** |  | **Test-** |
|  |  | **nøyaktighet** |  | **nøyaktighet** |
|  |  |  | **Steg** |  |
| Forhåndstrent | 1 | 0,853 | 1200 | 0,841 |
| Forhåndstrent | 2 | 0,851 | 1400 | 0,840 |
| Forhåndstrent | 3 | 0,861 | 1600 | 0,850 |
Fra bunnen
| av | 1 | 0,712 | 1800 | 0,698 |
| Fra bunnen av | 2 | 0,705 | 2000 | 0,699 |
Fra bunnen
| av | 3 | 0,720 | 1600 | 0,707 |
Den forhåndstrente modellen er rundt 14 prosentpoeng bedre for alle frø.
"""

EXPECTED = [("pretrained", 1, 0.853, 1200, 0.841), ("pretrained", 2, 0.851, 1400, 0.840),
            ("pretrained", 3, 0.861, 1600, 0.850), ("scratch", 1, 0.712, 1800, 0.698),
            ("scratch", 2, 0.705, 2000, 0.699), ("scratch", 3, 0.720, 1600, 0.707)]


def test_a_header_over_several_rows_and_a_wrapped_model_cell_are_read():
    assert claims(NORWEGIAN) == EXPECTED


def test_the_rows_keep_their_lines():
    lines = [c["line"] for c in parse_claims(NORWEGIAN, FAMILIES)]
    assert lines == [6, 7, 8, 10, 11, 13]


def test_a_group_label_row_is_not_taken_into_the_header():
    text = """| Model | Seed | Best val acc | Step | Test acc |
| Forhåndstrent |  |  |  |  |
|  | 1 | 0,853 | 1200 | 0,841 |
| Fra bunnen av |  |  |  |  |
|  | 2 | 0,705 | 2000 | 0,699 |
"""
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                            ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_negated_norwegian_name_is_not_the_pretrained_model():
    text = """| Modell | Frø (seed) | Beste val | Steg | Test |
| Ikke forhåndstrent | 1 | 0,712 | 1800 | 0,698 |
"""
    assert claims(text) == [("scratch", 1, 0.712, 1800, 0.698)]


def test_a_model_column_of_two_names_one_unknown_gives_the_other_model():
    text = """| Modell | Frø (seed) | Beste val | Steg | Test |
| Forhåndstrent | 1 | 0,853 | 1200 | 0,841 |
| Forhåndstrent | 2 | 0,851 | 1400 | 0,840 |
| Tilfeldig start | 1 | 0,712 | 1800 | 0,698 |
| Tilfeldig start | 2 | 0,705 | 2000 | 0,699 |
"""
    assert claims(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                            ("pretrained", 2, 0.851, 1400, 0.840),
                            ("scratch", 1, 0.712, 1800, 0.698),
                            ("scratch", 2, 0.705, 2000, 0.699)]


def test_one_row_of_an_unknown_name_may_be_a_third_model():
    text = """| Modell | Frø (seed) | Beste val | Steg | Test |
| Forhåndstrent | 1 | 0,853 | 1200 | 0,841 |
| Forhåndstrent | 2 | 0,851 | 1400 | 0,840 |
| Tilfeldig start | 1 | 0,712 | 1800 | 0,698 |
"""
    assert [c[0] for c in claims(text)] == ["pretrained", "pretrained", None]


def test_two_unknown_names_say_nothing_of_which_model_is_which():
    text = """| Modell | Frø (seed) | Beste val | Steg | Test |
| Variant A | 1 | 0,853 | 1200 | 0,841 |
| Variant A | 2 | 0,851 | 1400 | 0,840 |
| Variant B | 1 | 0,712 | 1800 | 0,698 |
| Variant B | 2 | 0,705 | 2000 | 0,699 |
"""
    assert [c[0] for c in claims(text)] == [None, None, None, None]
