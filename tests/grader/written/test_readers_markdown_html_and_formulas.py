"""Reading variants of the second held-out batch's misses, each family with its neighbours.

- Raw HTML in Markdown: pandoc's ``<table>`` (cells with ``<br />``, ``<sup>``,
  ``<sub>``), a minified table on one line, a table with ``<th>`` only, inline tags and
  entities in prose; HTML in a fenced code block stays code; line numbers stay the file's.
- Display formulas over several source lines (``$$``, ``\\[ \\]``, ``align`` rows that
  continue with an operator), and pandoc's doubled backslashes (``\\\\frac``).
- PDF: a baseline glyph right after a subscript or superscript is a new factor
  (``n_token n_hid``, not ``n_tokenn_hid``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.written.reading import read_document
from grader.written.reading.html import SOFT_BREAK, inline, markdown_html
from grader.written.reading.markup import Run, render
from grader.written.reading.mathblocks import display_math

PANDOC_TABLE = """Intro line.

<table>
<thead>
<tr class="header">
<th>Question</th>
<th>Working</th>
<th>Answer</th>
</tr>
</thead>
<tbody>
<tr class="odd">
<td>Q3(c)</td>
<td>h &times; S<sub>max</sub><sup>2</sup> &times; 2 B</td>
<td>25.77 GB</td>
</tr>
<tr class="even">
<td>Q3(d)</td>
<td>8H<sup>2</sup> per layer<br />
&times; 48</td>
<td><strong>14.50 billion</strong></td>
</tr>
</tbody>
</table>

After."""


def _lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip()]


def test_pandoc_table_rows_on_their_tr_lines_and_line_count_kept() -> None:
    out = markdown_html(PANDOC_TABLE)
    assert out.count("\n") == PANDOC_TABLE.count("\n")
    assert _lines(out) == [
        "Intro line.",
        "| Question | Working | Answer |",
        "| Q3(c) | h × S_max^2 × 2 B | 25.77 GB |",
        "| Q3(d) | 8H^2 per layer × 48 | **14.50 billion** |",
        "After.",
    ]
    raw = PANDOC_TABLE.splitlines()
    at = out.split("\n")
    row = next(i for i, ln in enumerate(raw) if 'class="even"' in ln)
    assert at[row].startswith("| Q3(d) |")  # the row sits on its <tr>'s line


@pytest.mark.parametrize(
    ("html", "rows"),
    [
        # minified on one line: rows set apart by a soft break, one file line
        ("<table><tr><td>Q1</td><td>7,077,888</td></tr><tr><td>Q2</td><td>0.6 GB</td></tr>"
         "</table>", ["| Q1 | 7,077,888 |", "| Q2 | 0.6 GB |"]),
        # Google Docs style: attributes, <p> and <span> inside cells, no closing </td>
        ('<table border="1"><tr><td><p><span style="x">(a)</span></p><td><p>p = 0.75</p>'
         "<p>loss = 0.2877</p></tr></table>", ["| (a) | p = 0.75 loss = 0.2877 |"]),
        # upper-case tags, entities in cells
        ("<TABLE><TR><TH>Part</TH><TH>Answer</TH></TR><TR><TD>(e)</TD><TD>&asymp; 0.065&nbsp;%"
         "</TD></TR></TABLE>", ["| Part | Answer |", "| (e) | ≈ 0.065 % |"]),
    ],
)
def test_other_html_tables(html: str, rows: list[str]) -> None:
    out = markdown_html(html)
    assert "\n" not in out
    assert out.split(SOFT_BREAK) == rows


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("The memory is <b>0.54 GB</b>.", "The memory is **0.54 GB**."),
        ("16,384<sup>2</sup> &times; 2", "16,384^2 × 2"),
        ("x<sub>t-1</sub> and d<sub>k</sub>", "x_(t-1) and d_k"),
        ("<em>about</em> 1536&times; less", "*about* 1536× less"),
        ("first<br>second", "first second"),
        ("&#8722;ln(0.75) = 0.2877", "−ln(0.75) = 0.2877"),
        ("<s>24 GB</s> 25.77 GB", " 25.77 GB"),
        # not HTML: comparisons and angle-bracket names stay
        ("a < b and <n_hid> & c > d", "a < b and <n_hid> & c > d"),
        ("AT&T's R&D", "AT&T's R&D"),
    ],
)
def test_inline_html(text: str, want: str) -> None:
    assert inline(text) == want


def test_html_in_a_fenced_code_block_stays() -> None:
    text = "```html\n<b>x</b>\n<table><tr><td>1</td></tr></table>\n```\n<b>y</b>"
    assert markdown_html(text) == "```html\n<b>x</b>\n<table><tr><td>1</td></tr></table>\n```\n**y**"


def test_a_fence_never_closed_fences_nothing() -> None:
    text = "```python\nprint(1)\n<b>25.77 GB</b>\n```\nx\n```\n<b>0.54 GB</b>"
    assert markdown_html(text) == (
        "```python\nprint(1)\n<b>25.77 GB</b>\n```\nx\n```\n**0.54 GB**"
    )


def test_html_table_answers_found_in_markdown_report(tmp_path: Path) -> None:
    path = tmp_path / "report.md"
    path.write_text(PANDOC_TABLE, encoding="utf-8")
    doc = read_document(path)
    assert doc.format == "markdown"
    assert len(doc.text.split("\n")) == len(PANDOC_TABLE.split("\n"))
    assert "| Q3(c) | h × S_max^2 × 2 B | 25.77 GB |" in doc.text.splitlines()


# -- display formulas ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # one $$ block over three lines, no row breaks: one formula
        ("$$n_{token} n_{hid}\n+ n_{layers}(6 n_{hid}^2 + 10 n_{hid})\n+ n_{token}$$",
         ["$$n_{token} n_{hid} + n_{layers}(6 n_{hid}^2 + 10 n_{hid}) + n_{token} $$"]),
        # delimiters on lines of their own stay there
        ("$$\nN = n_{token} n_{hid}\n  + n_{token}\n$$",
         ["$$", "N = n_{token} n_{hid} + n_{token}", "$$"]),
        # \[ \] with the line broken after "="
        ("\\[ N = 12 \\times d^2 =\n 7,077,888 \\]", ["\\[ N = 12 \\times d^2 = 7,077,888 \\]"]),
        # align rows: a row continuing with an operator joins; "&= 7" stays a row
        ("\\begin{align}\nN &= a + b \\\\\n &\\quad + c \\\\\n &= 7\n\\end{align}",
         ["\\begin{align}", "N &= a + b \\quad + c \\\\", " &= 7", "\\end{align}"]),
        # multline: "\times" opening a row continues it
        ("\\begin{multline*}\nM = h \\\\\n\\times S^2 \\times 2\n\\end{multline*}",
         ["\\begin{multline*}", "M = h \\times S^2 \\times 2", "\\end{multline*}"]),
    ],
)
def test_display_formula_over_lines_is_one_line(text: str, want: list[str]) -> None:
    out = display_math(text)
    assert out.count("\n") == text.count("\n")
    assert _lines(out) == want


@pytest.mark.parametrize(
    "text",
    [
        # aligned steps that each start afresh stay lines
        "$$\n\\begin{aligned}\nM &= h \\times S^2 \\times 2 \\\\\n  &= 25.77\\ \\text{GB}\n"
        "\\end{aligned}\n$$",
        # one-line displays, a lone $$ never closed, prose with dollars
        "$$p = 0.75$$\ntext",
        "costs $$ a lot\nand more",
        "it costs $5 and $6",
    ],
)
def test_display_formulas_left_alone(text: str) -> None:
    assert display_math(text) == text


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("$$p\\\\left( \\\\text{mat} \\\\right) = \\\\frac{e^{3.0}}{e^{0.5}}$$",
         "$$p\\left( \\text{mat} \\right) = \\frac{e^{3.0}}{e^{0.5}}$$"),
        ("$\\\\sqrt{d_k}$ and 3 \\\\times 4", "$\\sqrt{d_k}$ and 3 \\times 4"),
        # a row break before a variable is not a command
        ("a \\\\ b", "a \\\\ b"),
    ],
)
def test_pandoc_doubled_backslashes(text: str, want: str) -> None:
    assert display_math(text) == want


def test_formula_over_lines_is_the_answer(tmp_path: Path) -> None:
    text = ("## Question 3\n\nThe count is\n\n$$\nN = 12 \\times 768^2\n"
            "+ 2 \\times 768\n$$\n")
    path = tmp_path / "r.md"
    path.write_text(text, encoding="utf-8")
    line = next(ln for ln in read_document(path).text.splitlines() if ln.startswith("N ="))
    assert line == "N = 12 \\times 768^2 + 2 \\times 768"


# -- PDF: scripts ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("runs", "want"),
    [
        ([Run("n"), Run("token", vert="sub"), Run("n"), Run("hid", vert="sub")],
         "n_token n_hid"),
        ([Run("8H"), Run("2", vert="sup"), Run("L")], "8H^2 L"),
        ([Run("n"), Run("hid", vert="sub"), Run("2", vert="sup"), Run(" + 1")],
         "n_hid^2 + 1"),
        ([Run("x"), Run("t", vert="sub"), Run(";")], "x_t;"),
        ([Run("10"), Run("9", vert="sup"), Run(" B")], "10^9 B"),
    ],
)
def test_factor_after_a_script_is_set_apart(runs: list[Run], want: str) -> None:
    assert render(runs) == want



# -- PDF: reading order ---------------------------------------------------------------


def _pdf(tmp_path: Path, items: list[tuple[float, float, str, str]]) -> Path:
    """A one-page PDF whose text is drawn in the order given: (x, y, font, text)."""
    pymupdf = pytest.importorskip("pymupdf")
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for x, y, font, text in items:
        page.insert_text((x, y), text, fontname=font, fontsize=10)
    path = tmp_path / "order.pdf"
    doc.save(path)
    doc.close()
    return path


def test_code_drawn_last_is_read_where_it_stands(tmp_path: Path) -> None:
    # Chromium draws a Markdown code block after the page's other text
    path = _pdf(tmp_path, [
        (72, 100, "helv", "(c) The score memory."),
        (72, 220, "helv", "Answer: 25.77 GB"),
        (72, 300, "helv", "(d) The FFN parameters."),
        (72, 420, "helv", "Answer: 14.50 billion"),
        (72, 140, "cour", "h, S = 48, 16384"),
        (72, 170, "cour", "# 25769803776"),
        (72, 340, "cour", "ffn = L * 8 * H * H"),
        (72, 370, "cour", "# 14496989184"),
    ])
    lines = read_document(path).text.splitlines()
    order = [next(i for i, ln in enumerate(lines) if key in ln)
             for key in ("(c)", "h, S", "# 25769803776", "25.77 GB", "(d)", "ffn =",
                         "# 14496989184", "14.50 billion")]
    assert order == sorted(order)


def test_columns_keep_the_stream_order(tmp_path: Path) -> None:
    # two columns: the right one starts above the left one's end, beside it
    path = _pdf(tmp_path, [
        (50, 100, "helv", "Left top."),
        (50, 600, "helv", "Left bottom."),
        (320, 100, "helv", "Right top."),
        (320, 600, "helv", "Right bottom."),
    ])
    text = read_document(path).text
    assert [text.index(k) for k in ("Left top", "Left bottom", "Right top", "Right bottom")] \
        == sorted(text.index(k) for k in ("Left top", "Left bottom", "Right top", "Right bottom"))


@pytest.mark.parametrize("op", ["+", "×"])
def test_pdf_formula_broken_before_an_operator_is_one_line(tmp_path: Path, op: str) -> None:
    path = _pdf(tmp_path, [
        (72, 100, "helv", "The count of the language model:"),
        (90, 130, "helv", "N = n_token n_hid + n_layers (6 n_hid^2 + 10 n_hid)"),
        (120, 150, "helv", f"{op} n_hid n_token + n_token"),
        (72, 180, "helv", "This is 21,018,401."),
    ])
    lines = read_document(path).text.splitlines()
    assert f"N = n_token n_hid + n_layers (6 n_hid^2 + 10 n_hid) {op} n_hid n_token + n_token" \
        in lines


def test_pdf_list_after_a_formula_stays_apart(tmp_path: Path) -> None:
    path = _pdf(tmp_path, [
        (90, 100, "helv", "N = 12 x 768^2 = 7,077,888."),
        (72, 130, "helv", "+ the biases are left out"),
    ])
    lines = read_document(path).text.splitlines()
    assert lines[-1] == "+ the biases are left out"


def test_code_block_lines_stay_lines(tmp_path: Path) -> None:
    # a code block's lines (monospaced) are not a paragraph, and a bold keyword is no
    # emphasis; prose around it is read as before
    path = _pdf(tmp_path, [
        (72, 100, "helv", "(c) The score memory, checked in Python:"),
        (72, 120, "cobo", "import"),
        (112, 120, "cour", "numpy as np"),
        (72, 134, "cour", "h, S = 48, 16384"),
        (72, 148, "cour", "print(h * S**2 * 2 / 1e9)"),
        (72, 162, "cour", "# 25.769803776"),
        (72, 190, "helv", "so the scores take 25.77 GB."),
    ])
    lines = read_document(path).text.splitlines()
    assert lines == [
        "(c) The score memory, checked in Python:",
        "import numpy as np",
        "h, S = 48, 16384",
        "print(h * S**2 * 2 / 1e9)",
        "# 25.769803776",
        "so the scores take 25.77 GB.",
    ]
