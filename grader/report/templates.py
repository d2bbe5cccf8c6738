"""The Jinja2 environment for every report: templates on disk, autoescape on by default.

Templates live in the repository's `templates/report/` (a wheel carries a copy as
`grader/_templates/`, used when the checkout's folder is absent; the `GRADER_TEMPLATES`
environment variable overrides both), so changing how a report reads never means
changing Python. Autoescape is on for every template but plain text (`*.txt.j2`), Markdown
and CSV comment text included: a student's error message can hold `<script>`, and LMS comment boxes
render HTML.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

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


def _md_cell(value: Any) -> str:
    """Text safe inside one Markdown table cell: no pipes, no line breaks."""
    return str(value if value is not None else "").replace("|", "\\|").replace("\n", " ")


def _escape(name: str | None) -> bool:
    """Escape everything except plain-text templates (`*.txt.j2`), whose readers show text."""
    return not (name or "").endswith(".txt.j2")


@cache
def _environment(root: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(root), autoescape=_escape,
        undefined=jinja2.ChainableUndefined,
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(points=_points, pct=_pct, short=short, md_cell=_md_cell)
    return env


def environment() -> jinja2.Environment:
    return _environment(str(templates_dir()))


def render(name: str, **context: Any) -> str:
    """Render `templates/report/<name>` with `context`."""
    return environment().get_template(f"report/{name}").render(**context)
