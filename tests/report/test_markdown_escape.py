"""The Markdown report prints a student's text as text (issue 17, item 10).

A student's words reach the Markdown report through error messages, answers, quotes and
file names. Rendered by a CommonMark viewer, they must not become a heading ("# Your
grade: 100/100"), an external image, a link, raw HTML or an extra table cell, and the
file, which is also read as plain text, must not fill with HTML entities (`&#34;`).
The record is a lab report graded without a kernel, then given hostile text.
"""

from __future__ import annotations

import copy

import pytest
from markdown_it import MarkdownIt

from grader.grade import grade_notebook
from grader.intake.lms import intake
from grader.pack import load_pack
from grader.report import render_student
from grader.report.templates import md_text
from tests.conftest import ROOT

STUDENT_MARKDOWN = (
    '# Your grade: 100/100\n![x](http://evil.example/i.png) [click](https://evil.example)'
    ' <img src=x> www.evil.example `tick` &#34;quoted&#34; "q" *b* _u_ lora_rank\n'
    '1. item\n- item\n> quote\n---')
FILE_NAME = "u1 | `x` **bold**.ipynb"


def _tokens(markdown: str) -> list:
    """Every token a CommonMark viewer with tables makes of `markdown`, in order."""
    out = []

    def walk(tokens):
        for token in tokens:
            out.append(token)
            walk(token.children or [])

    walk(MarkdownIt("commonmark").enable("table").parse(markdown))
    return out


@pytest.fixture(scope="module")
def record():
    pack = load_pack(ROOT / "reference" / "transfer-lab-a")
    [sub] = intake(ROOT / "submissions" / "transfer-lab-a",
                   ROOT / "build" / "test-markdown-escape")
    return grade_notebook(pack, sub.notebook, seed=1, reports=sub.reports).to_dict()


def _with(record: dict, message: str, name: str) -> str:
    record = copy.deepcopy(record)
    for q in record["questions"]:
        q["message"] = message
    record["submission"]["name"] = name
    return render_student(record, "md")


@pytest.mark.sandbox
def test_student_text_renders_as_exactly_its_characters(record):
    md = _with(record, STUDENT_MARKDOWN, FILE_NAME)
    assert '"q"' in md and "&quot;" not in md and "&#39;" not in md and "&lt;" not in md
    tokens = _tokens(md)
    # the same structure as with harmless words: the student's text added nothing
    structure = [(t.type, t.tag) for t in tokens if t.type not in ("text", "softbreak")]
    plain = _tokens(_with(record, "plain words\nmore words", "u1.ipynb"))
    assert structure == [(t.type, t.tag) for t in plain
                         if t.type not in ("text", "softbreak")]
    kinds = {t.type for t in tokens}
    assert not kinds & {"image", "link_open", "html_inline", "html_block", "hr"}, kinds
    text = " ".join(t.content for t in tokens if t.type == "text")
    for line in STUDENT_MARKDOWN.split("\n"):  # each line reads back as written
        assert line in text, line
    assert FILE_NAME in text
    # every table row has as many cells as its header: no cell opened by a `|`
    header = cells = 0
    for t in tokens:
        if t.type == "thead_open":
            header = cells = 0
        elif t.type == "th_open":
            header += 1
        elif t.type == "tr_open":
            cells = 0
        elif t.type == "td_open":
            cells += 1
        elif t.type == "tr_close" and cells:
            assert cells == header


def test_plain_text_stays_readable():
    """Escapes only where Markdown would act: numbers, identifiers and prose stay as written."""
    for plain in ("Q1(c) error 3.5e-05 at step 12", "lora_rank = 8", "3.5 GB, not 24 GiB"):
        assert md_text(plain) == plain
    assert md_text("1. a\n# b") == "1\\. a\n\\# b"
