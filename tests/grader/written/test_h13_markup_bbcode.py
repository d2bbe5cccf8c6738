"""BBCode, a forum post handed in as a text file (held-out-13's family; these reports
are written here): ``[b]Q3 (a)[/b]`` lines open the parts' sections, ``[b](II)[/b]``
labels the part, a ``[quote]`` of the handout is a Markdown quote ("> "), a
``[code]`` block is working, ``[*]`` a list item; the file keeps its line numbers."""

from __future__ import annotations

from pathlib import Path

from grader.written import QuestionSpec, extract_answers
from grader.written.reading import read_here
from grader.written.reading.bbcode import bbcode, is_bbcode

Q3 = [QuestionSpec("q3a2.p", ("Q3 (a)",), part="(II)"),
      QuestionSpec("q3c", ("Q3 (c)",)), QuestionSpec("q3d", ("Q3 (d)",)),
      QuestionSpec("q3e1", ("Q3 (e)",), part="(I)"),
      QuestionSpec("q3e2", ("Q3 (e)",), part="(II)")]

POST = """[size=4][b]A3 part 3, my answers[/b][/size]
Posted by [i]someone[/i]

[hr]
[b]Q3 (a)[/b]
[b](II)[/b]
[quote="handout"]logits: [0.5, 0.1, 3.0] and the word was "mat" (index 2).[/quote]
[code]
p = 20.0855 / 26.7791
[/code]
[b]Answer:[/b] p(mat) = 0.750

[hr]
[b]Q3 (c)[/b]
[quote="handout"]
... h = 48 heads, 16-bit scores ...
S = 16384
[/quote]
[b]Answer:[/b] 25.77 GB

[b]Q3 (d)[/b]
[b]Answer:[/b] 14,496,989,184

[b]Q3 (e)[/b]
[list]
[*][b](I)[/b] 8 x 12288 x 2 x 48
[b]Answer:[/b] 9,437,184
[*][b](II)[/b] 9,437,184 x 8 bytes
[b]Answer:[/b] 75.5 MB
[/list]
"""


def _read(tmp_path: Path, text: str) -> str:
    path = tmp_path / "post.txt"
    path.write_text(text, encoding="utf-8")
    return read_here(path).text


def test_a_forum_post_in_bbcode_answers_each_part(tmp_path: Path) -> None:
    got = extract_answers(_read(tmp_path, POST), Q3)
    assert {k: v.answer for k, v in got.items()} == {
        "q3a2.p": "0.750", "q3c": "25.77 GB", "q3d": "14,496,989,184",
        "q3e1": "9,437,184", "q3e2": "75.5 MB"}


def test_the_rewrite_keeps_every_line_where_it_was(tmp_path: Path) -> None:
    lines = _read(tmp_path, POST).split("\n")
    assert len(lines) == len(POST.split("\n"))
    assert lines[4] == "**Q3 (a)**"
    assert lines[6].startswith("> logits: [0.5, 0.1, 3.0]")  # a list is no tag
    assert (lines[7], lines[9]) == ("```", "```")
    assert lines[15:17] == ["> ... h = 48 heads, 16-bit scores ...", "> S = 16384"]
    assert lines[25].startswith("- **(I)** 8 x 12288")


def test_text_with_a_stray_tag_is_not_bbcode() -> None:
    assert not is_bbcode(["# Q3 (c)", "the list [/b] once", "25.77 GB"])
    assert not is_bbcode(["x[i] for i in range(3)", "a[b] = c"])
    assert is_bbcode(["[b]Q3 (c)[/b]", "[quote]x[/quote]"])
    assert bbcode(["[b]x[/b] [1] [url=http://a]a[/url]"]) == ["**x** [1] a"]
