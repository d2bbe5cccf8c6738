"""Confluence wiki markup handed in as text (held-out-13's family; these reports are
written here): ``h2. Question 1`` opens a section, ``{info:title=Answer}…{info}`` is an
answer, a ``||Model||Seed||`` header row with ``|a|b|`` rows is a table, ``*bold*`` is
bold; every line stays where it was."""

from __future__ import annotations

from pathlib import Path

from grader.written import QuestionSpec, extract_answers
from grader.written.reading import read_here
from grader.written.reading.confluence import confluence, is_confluence

PAGE = """h1. Lab B write-up

{panel:title=Authors}A. Student{panel}

h2. Question 1

* embeddings: 16,517,120
* 4 layers: 6,311,936

{info:title=Answer}Trainable parameters of the encoder: *22,829,056*{info}

h2. Task 3

||Model||Seed||Best val acc||
|pretrained|1|0.853|
|scratch|1|0.712|

{code}
print(2 * 3)
{code}
"""


def _read(tmp_path: Path, text: str) -> str:
    path = tmp_path / "page.txt"
    path.write_text(text, encoding="utf-8")
    return read_here(path).text


def test_a_confluence_page_reads_as_markdown(tmp_path: Path) -> None:
    lines = _read(tmp_path, PAGE).split("\n")
    assert len(lines) == len(PAGE.split("\n"))
    assert lines[0] == "# Lab B write-up"
    assert lines[2] == "**Authors:** A. Student"
    assert lines[4] == "## Question 1"
    assert lines[9] == "**Answer:** Trainable parameters of the encoder: **22,829,056**"
    # the header row moves up onto the blank line; its line is the rule under it
    assert lines[12:16] == ["| Model | Seed | Best val acc |", "|---|---|---|",
                            "|pretrained|1|0.853|", "|scratch|1|0.712|"]
    assert lines[17:20] == ["```", "print(2 * 3)", "```"]


def test_the_answer_box_answers_its_question(tmp_path: Path) -> None:
    qs = [QuestionSpec("q1", ("Question 1",)), QuestionSpec("t3", ("Task 3",))]
    got = extract_answers(_read(tmp_path, PAGE), qs)
    assert got["q1"].answer == "22,829,056"


def test_other_text_is_not_confluence() -> None:
    assert not is_confluence(["h1. only one heading", "text"])
    assert not is_confluence(["the h2. is a tag", "{x}"])
    assert is_confluence(["h1. A", "h2. B"])
    assert confluence(["a {x + 1} b {color:red}c{color}"], str) == ["a {x + 1} b c"]
