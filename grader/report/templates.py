"""The Jinja2 environment for every report: templates on disk, autoescape on by default.

Templates live in the repository's `templates/report/` (a wheel carries a copy as
`grader/_templates/`, used when the checkout's folder is absent; the `GRADER_TEMPLATES`
environment variable overrides both), so changing how a report reads never means
changing Python. Every value a template prints is escaped for the format it lands in: a
student's error message, answer, file name or LMS name can hold `<script>`, a heading
("# Your grade: 100/100"), an external image or a link, and LMS comment boxes render HTML
while Markdown viewers render Markdown. HTML templates (and CSV comment text) use Jinja's
HTML autoescape; Markdown templates (`*.md.j2`) escape every printed value as Markdown
text instead (`md_text`), since HTML entities such as `&#34;` show up verbatim in a
Markdown file read as text; plain-text templates (`*.txt.j2`) print text as it is.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from grader.checks.registry import kinds
from grader.report.evidence import short

CHECKOUT_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
"""`templates/` of a checkout (or an editable install)."""
PACKAGED_TEMPLATES = Path(__file__).resolve().parents[1] / "_templates"
"""The copy a wheel installs (pyproject.toml maps `templates/` there)."""
DEFAULT_TEMPLATES = CHECKOUT_TEMPLATES if CHECKOUT_TEMPLATES.is_dir() else PACKAGED_TEMPLATES


def templates_dir() -> Path:
    """`$GRADER_TEMPLATES`, else the checkout's `templates/`, else the installed copy."""
    return Path(os.environ.get("GRADER_TEMPLATES") or DEFAULT_TEMPLATES)


def _points(value: Any) -> str:
    """Points as a TA writes them: 6, 4.5, or a dash for 'not graded yet'."""
    if value is None:
        return "–"
    return f"{float(value):g}"


def _pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.0f} %"


class MdText(str):
    """Markdown that is already safe to print (escaped here, or written by a template)."""


_MD_INLINE = re.compile(r"([\\`*\[\]<>|~&])|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
"""Characters that start inline Markdown anywhere in a line: emphasis, code, links and
images (`[`, `]`), raw HTML and autolinks (`<`), tables (`|`), strikethrough and
entities (`&#34;` would otherwise be shown as a quote). An underscore inside a word
(`lora_rank`) cannot open emphasis in CommonMark and is left as written."""
_MD_LINE_START = re.compile(r"^(\s*)(\d*)([#>+=.)-])")
"""What makes a line a heading, quote, list item or setext underline."""
_MD_AUTOLINK = re.compile(r"(?i)(?<=[a-z0-9])(://)|\b(www)\.")
"""Bare URLs, which GitHub-flavoured viewers turn into links without any brackets."""


def md_text(value: Any) -> MdText:
    """`value` as Markdown text that renders as exactly those characters.

    Why not HTML-escape: a Markdown report is also read as a plain file (an LMS
    attachment, a terminal), where `&lt;` is noise; backslash escapes are CommonMark's
    own way to print a character literally, so a student cannot open a heading, a link,
    an image, raw HTML or a table cell, and the text still reads as written."""
    if isinstance(value, MdText):
        return value
    text = "" if value is None else str(value)
    lines = []
    for line in text.split("\n"):
        line = _MD_INLINE.sub(lambda m: "\\" + m.group(0), line)
        line = _MD_AUTOLINK.sub(lambda m: "\\://" if m.group(1) else "www\\.", line)
        start = _MD_LINE_START.match(line)
        if start and (not start.group(2) or (
                start.group(3) in ".)" and line[start.end():start.end() + 1] in ("", " ", "\t"))):
            # a heading, quote, list item or underline, or an ordered item ("1." / "1)")
            line = line[:start.start(3)] + "\\" + line[start.start(3):]
        lines.append(line)
    return MdText("\n".join(lines))


def _md_cell(value: Any) -> MdText:
    """Text safe inside one Markdown table cell: escaped, on one line."""
    return MdText(md_text(value).replace("\n", " "))


def _md_code(value: Any, cell: bool = False) -> MdText:
    """`value` as an inline code span: the fence is longer than any run of backticks in it
    (so the text cannot close the span), and in a table cell pipes are escaped, which
    GitHub's tables honour even inside code."""
    text = ("" if value is None else str(value)).replace("\n", " ")
    if cell:
        text = text.replace("|", "\\|")
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return MdText(f"{fence}{pad}{text}{pad}{fence}")


def _escape(name: str | None) -> bool:
    """HTML-escape HTML templates; Markdown and plain text are handled their own way."""
    return not (name or "").endswith((".txt.j2", ".md.j2"))


def _md_finalize(value: Any) -> Any:
    """Every `{{ }}` of a Markdown template goes through `md_text` unless a filter already
    made Markdown of it (`md_cell`, `code`) or it is a number."""
    if isinstance(value, MdText | int | float) or value is None:
        return "" if value is None else value
    return md_text(value)


@cache
def _environment(root: str, markdown: bool = False,
                 kinds_own: tuple[str, ...] = ()) -> jinja2.Environment:
    loader = jinja2.ChoiceLoader([jinja2.FileSystemLoader(root),
                                  *(jinja2.FileSystemLoader(k) for k in kinds_own)])
    env = jinja2.Environment(
        loader=loader, autoescape=_escape,
        undefined=jinja2.ChainableUndefined,
        finalize=_md_finalize if markdown else None,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(points=_points, pct=_pct, short=short, md_cell=_md_cell,
                       code=_md_code)
    return env


def environment(markdown: bool = False) -> jinja2.Environment:
    """The templates folder first, then each kind's own (`Kind.templates`): a course's kind
    that lives outside this repository brings its partial (`report/kinds/<name>.html.j2`)
    without copying it into `templates/`; the folder's own files win a clash."""
    own = tuple(sorted({str(k.templates) for k in kinds().values() if k.templates}))
    return _environment(str(templates_dir()), markdown, own)


def render(name: str, **context: Any) -> str:
    """Render `templates/report/<name>` with `context`."""
    env = environment(markdown=name.endswith(".md.j2"))
    return env.get_template(f"report/{name}").render(**context)
