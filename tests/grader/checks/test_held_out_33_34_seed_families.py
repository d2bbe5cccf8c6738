"""Held-out-33 and -34's per-seed families: a table's caption and header row in one PDF
block, "validation" in the class's language, MyST's list table, a step grouped by a dot
("la pasul 1.200"), a decimal comma with two decimals ("±0,84"), a rounded comparison of
the models, and prose under a table written with spaces."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.checks.seedclaims import parse_claims
from grader.checks.seedtables import column_role
from grader.checks.seedwords import read_numbers
from grader.written.reading.plain import read_plain

FAMILIES = {"pretrained": ["pre-trained", "voorgetraind"], "scratch": ["scratch", "vanaf nul"]}


def runs(text: str) -> list[tuple]:
    return [(c["family"], c["seed"], c.get("best_validation"), c.get("step"), c.get("test"))
            for c in parse_claims(text, FAMILIES)]


def test_a_caption_and_header_row_in_one_block_give_a_paragraph_and_the_tables_header(
        tmp_path: Path):
    pymupdf = pytest.importorskip("pymupdf")
    from grader.written.reading.pdf_page import _Block, _page_blocks
    from grader.written.reading.pdf_paragraphs import _paragraphs
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((121, 450), "Bảng 1. Kết quả theo seed.", fontsize=9)
    for x, name in zip((69, 131, 161, 205, 241), ("Model", "Seed", "Best val", "Step", "Test"),
                       strict=True):
        page.insert_text((x, 463), name, fontsize=9)
    doc.save(tmp_path / "caption.pdf")
    blocks, _ = _page_blocks(pymupdf.open(tmp_path / "caption.pdf")[0], 1)
    # MuPDF gave the caption and the header one block in a two-column article
    one = _Block([ln for b in blocks for ln in b.lines], 1)
    paras = _paragraphs(one)
    assert [p.table for p in paras] == [False, True]
    assert paras[1].grid[0][0] == ["Model", "Seed", "Best val", "Step", "Test"]
    # a row of figures under a wrapped first cell is no header
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((318, 194), "Language modeling", fontsize=9)
    for x, figure in zip((400, 450, 500), ("10,000,200", "968,000", "21,018,401"), strict=True):
        page.insert_text((x, 210), figure, fontsize=9)
    doc.save(tmp_path / "row.pdf")
    blocks, _ = _page_blocks(pymupdf.open(tmp_path / "row.pdf")[0], 1)
    paras = _paragraphs(_Block([ln for b in blocks for ln in b.lines], 1))
    assert not any(p.table and p.grid and p.grid[0][0][0] == "10,000,200" for p in paras)


@pytest.mark.parametrize("header", ["Beste validatie", "Bästa validering", "Paras validointi",
                                    "Validare (best)", "Walidacja", "Валідація"])
def test_validation_in_the_classs_language_names_the_column(header: str):
    assert column_role(header) == "best_validation"
    text = f"""| **Model** | **Seed** | **{header}** | **Stap** | **Test** |
| Voorgetraind | 1 | 0,853 | 1200 | 0,833 |
| Vanaf nul | 1 | 0,712 | 1800 | 0,698 |"""
    assert runs(text) == [("pretrained", 1, 0.853, 1200, 0.833),
                          ("scratch", 1, 0.712, 1800, 0.698)]


def test_a_myst_list_table_is_a_table(tmp_path: Path):
    report = tmp_path / "myst.md"
    report.write_text("""## Task 3

```{list-table} Best checkpoint per run
:header-rows: 1

* - Model
  - Seed
  - Best val acc
  - Step
  - Test acc
* - pre-trained
  - 1
  - 0.853
  - 1200
  - 0.841
* - from scratch
  - 2
  - 0.705
  - 2000
  - 0.699
```
The pre-trained model wins.
""", encoding="utf-8")
    text = read_plain(report).text
    assert "| pre-trained | 1 | 0.853 | 1200 | 0.841 |" in text
    assert text.splitlines()[21] == "The pre-trained model wins."  # lines keep their numbers
    assert runs(text) == [("pretrained", 1, 0.853, 1200, 0.841), ("scratch", 2, 0.705, 2000, 0.699)]


def test_a_step_grouped_by_a_dot_is_whole():
    numbers = read_numbers("Seed 1 (pre-trained): validare 0,853 la pasul 1.200, test 0,841.")
    assert [(n.role, n.value) for n in numbers] == [
        ("seed", 1), ("acc", 0.853), ("step", 1200), ("acc", 0.841)]
    assert runs("Seed 2 (scratch): cea mai bună acuratețe de validare 0,705 la pasul 2.000, "
                "test 0,699.") == [("scratch", 2, 0.705, 2000, 0.699)]


def test_a_rounded_comparison_of_the_models_is_no_runs_claim():
    assert [(n.role, n.value) for n in read_numbers("test ±0,84 vs ±0,70")] == [
        ("acc", 0.84), ("acc", 0.7)]
    text = """Hasil terbaik per seed (validation terbaik, step, dan akurasi test pada step itu):
Pre-trained – seed 1: val terbaik 0,853 (step 1200), test 0,841
Scratch – seed 3: val terbaik 0,720 (step 1600), test 0,707
The pre-trained model is much better (test ±0,84 vs ±0,70) and reaches its best validation earlier, then starts to overfit a little (val goes down after the peak)."""
    assert runs(text) == [("pretrained", 1, 0.853, 1200, 0.841),
                          ("scratch", 3, 0.72, 1600, 0.707)]
