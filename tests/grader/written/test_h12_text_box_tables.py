"""Tables drawn in a plain-text report: box-drawing characters (a table drawn by hand in
vim, ``tabulate``'s fancy grids, ``rich``'s tables) read as the ASCII grid tables that
MySQL's client, ``tabulate``'s grid and reStructuredText draw (psql's unframed tables
framed), and a summary table whose rows name the parts answers them, whichever of those
styles drew it (held-out-12's box-drawn report, written as its family: small reports
written here, not the corpus's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written import QuestionSpec, extract_answers
from grader.written.reading.normalise import normalise
from grader.written.reading.plain import read_plain

Q3 = [QuestionSpec("q3a2.p", ("Q3 (a)",), part="(II)"),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]

ROWS = [("Item", "Quantity", "Answer"),
        ("3(a)(II)", "p of 'mat', index 2", "0.750"),
        ("3(c)", "scores, 48 heads", "24 GB"),
        ("3(d)", "FFN, 48 layers", "14.50 billion"),
        ("3(e)(I)", "LoRA, r = 8", "9437184"),
        ("3(e)(II)", "Adam, 8 B each", "75.5 MB")]
"""A summary table as students draw one: the part, what it is (with the question's data
in it: "48 heads", "r = 8"), the answer last."""

WORKING = ("\n== 3(a) ==\n(II) p = 20.0855 / 26.7791 = 0.7500\n"
           "\n== 3(c) ==\nbytes = 2 x 12,884,901,888 = 25,769,803,776 B\n=> 24.0\n"
           "\n== 3(d) ==\n48 x 302,020,608 = 14,496,989,184\n"
           "\n== 3(e) ==\n(I) 48 x 196,608 = 9,437,184 params\n"
           "(II) 9,437,184 x 8 = 75,497,472 bytes\n")
"""The working after the table, each section ending on a figure other than the table's
answer (more digits, no unit): read alone, it would answer differently."""

ANSWERS = {"q3a2.p": "0.750", "q3c": "24 GB", "q3d": "14.50 billion", "q3e1": "9437184",
           "q3e2": "75.5 MB"}
WIDTHS = (10, 20, 14)


def _grid(corners: str, strokes: str, bars: str, every_row: bool = False) -> str:
    """A table drawn with ``corners``: the twelve junctions top (left, middle, right),
    under the header, between body rows, bottom; ``strokes``: the stroke of the top rule,
    the header's, the rules between rows and the bottom one; ``bars``: the header row's
    bar and the body rows'."""
    tl, tm, tr, hl, hm, hr, ml, mm, mr, bl, bm, br = corners
    top, head, inner, bottom = strokes

    def rule(left: str, mid: str, right: str, stroke: str) -> str:
        return left + mid.join(stroke * (w + 2) for w in WIDTHS) + right

    def row(cells: tuple[str, ...], bar: str) -> str:
        return bar + bar.join(f" {c:<{w}} " for c, w in zip(cells, WIDTHS, strict=True)) + bar

    lines = [rule(tl, tm, tr, top), row(ROWS[0], bars[0]), rule(hl, hm, hr, head)]
    for i, cells in enumerate(ROWS[1:]):
        if every_row and i:
            lines.append(rule(ml, mm, mr, inner))
        lines.append(row(cells, bars[1]))
    lines.append(rule(bl, bm, br, bottom))
    return "\n".join(lines)


BOX_STYLES = {
    "light, drawn by hand": _grid("┌┬┐├┼┤├┼┤└┴┘", "────", "││"),
    "light, a rule under every row": _grid("┌┬┐├┼┤├┼┤└┴┘", "────", "││", every_row=True),
    "double": _grid("╔╦╗╠╬╣╠╬╣╚╩╝", "════", "║║"),
    "heavy": _grid("┏┳┓┣╋┫┣╋┫┗┻┛", "━━━━", "┃┃"),
    "rounded corners (rich)": _grid("╭┬╮├┼┤├┼┤╰┴╯", "────", "││"),
    "heavy head (rich)": _grid("┏┳┓┡╇┩├┼┤└┴┘", "━━──", "┃│"),
    "fancy_grid (tabulate)": _grid("╒╤╕╞╪╡├┼┤╘╧╛", "══─═", "││", every_row=True),
}
ASCII_STYLES = {
    "grid (tabulate, reStructuredText)": _grid("+" * 12, "-=--", "||", every_row=True),
    "MySQL and psql with borders": _grid("+" * 12, "----", "||"),
    "psql, unframed": "\n".join(
        [" Item     | Quantity            | Answer", "----------+---------------------+--------"]
        + [f" {a:<8} | {q:<19} | {v}" for a, q, v in ROWS[1:]] + ["(5 rows)"]),
    "no frame, box characters (rich's minimal)": "\n".join(
        [" Item     │ Quantity            │ Answer", "╶─────────┼─────────────────────┼───────╴"]
        + [f" {a:<8} │ {q:<19} │ {v}" for a, q, v in ROWS[1:]]),
    "org-mode": "\n".join(["| Item | Quantity | Answer |", "|------+----------+--------|"]
                          + [f"| {a} | {q} | {v} |" for a, q, v in ROWS[1:]]),
}


def _report(table: str, tmp_path: Path) -> str:
    path = tmp_path / "report.txt"
    path.write_text("STAT8021 A3, part 3\n\nSummary of answers\n\n" + table + "\n" + WORKING,
                    encoding="utf-8")
    return read_plain(path).text


@pytest.mark.parametrize("style", [*BOX_STYLES, *ASCII_STYLES])
def test_a_summary_tables_answer_column_answers_whatever_drew_the_table(
        style: str, tmp_path: Path) -> None:
    table = {**BOX_STYLES, **ASCII_STYLES}[style]
    got = extract_answers(_report(table, tmp_path), Q3)
    assert {k: v.answer for k, v in got.items()} == ANSWERS


@pytest.mark.parametrize("style", BOX_STYLES)
def test_a_box_drawn_table_is_read_as_the_ascii_grid_column_for_column(style: str) -> None:
    """Bars become ``|``, corners and junctions ``+``, strokes ``-`` (``=`` where double):
    each line keeps its length, so the columns stay where the student put them, and
    the report keeps its line count (the grader quotes the file's line numbers)."""
    table = BOX_STYLES[style]
    read = normalise(table).split("\n")
    drawn = table.split("\n")
    assert [len(line) for line in read] == [len(line) for line in drawn]
    assert all(set(line) <= set("+-=") for line in (read[0], read[2], read[-1]))
    assert read[1].startswith("| Item ") and read[1].endswith(" |")
    assert read[1].count("|") == 4
    assert read[3] == "| 3(a)(II)   | p of 'mat', index 2  | 0.750          |"


def test_a_rule_of_double_strokes_reads_as_a_header_rule() -> None:
    assert normalise("╞════╪════╡") == "+====+====+"
    assert normalise("├────┼────┤") == "+----+----+"


def test_a_psql_table_is_framed_as_a_markdown_table() -> None:
    """psql prints no frame: its header and rows get the bars, its ``---+---`` rule
    becomes the ``|---|---|`` under a Markdown table's header; "(2 rows)" stays text."""
    printed = (" item | answer\n"
               "------+---------------\n"
               " 3(c) | 24 GB\n"
               " 3(d) | 14.50 billion\n"
               "(2 rows)\n")
    assert normalise(printed).split("\n") == [
        "|item | answer |", "|-----|---------------|", "|3(c) | 24 GB |",
        "|3(d) | 14.50 billion |", "(2 rows)", ""]


def test_dashes_and_pluses_outside_a_table_stay_as_written() -> None:
    text = "-----+-----\nx -+- y\n a | b\n---+---\n(0 rows)\n"
    assert normalise(text) == text


def test_a_line_of_strokes_alone_stays_a_line() -> None:
    """"────────" under a title or between sections is a divider, not a table's rule (as
    dashes it would underline the line above into a heading)."""
    text = "Summary\n────────────\nQ3 (c) 25.77 GB\n════════════\n"
    assert normalise(text) == text


def test_box_characters_outside_a_table_keep_their_characters() -> None:
    """A directory tree, a quote's margin bar and an arrow drawn with strokes are no
    table: nothing in them becomes ``|`` or ``+``."""
    text = ("project/\n├── data/\n│   └── run.csv  (48 layers)\n└── README\n"
            "│ as the handout says, the heads share nothing\n"
            "logits ──> softmax ──> p = 0.750\n")
    assert normalise(text) == text


def test_a_box_drawn_around_the_answer_reads_the_answer(tmp_path: Path) -> None:
    path = tmp_path / "boxed.txt"
    path.write_text(
        "Q3 (c)\n"
        "48 x 16384^2 = 12,884,901,888 scores; at 2 bytes = 25,769,803,776 bytes.\n"
        "╔═══════════════════════╗\n"
        "║ Answer: 25.77 GB      ║\n"
        "╚═══════════════════════╝\n"
        "Q3 (d)\n"
        "48 x 302,020,608 = 14,496,989,184\n"
        "┌──────────────────────────────────────┐\n"
        "│ Final answer: 14.50 billion          │\n"
        "│ (weights and biases, all 48 layers)  │\n"
        "└──────────────────────────────────────┘\n", encoding="utf-8")
    got = extract_answers(read_plain(path).text, Q3)
    assert (got["q3c"].answer, got["q3d"].answer) == ("25.77 GB", "14.50 billion")
