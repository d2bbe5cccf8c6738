"""The TA's similarity report: one HTML page and one JSON file.

Why both: the page is for reading the evidence side by side (the hidden case and both
students' outputs, the matching code regions highlighted, the shared sentences and
numbers); the JSON (schema `transformer-grader/similarity/1`) is for a course's own
tooling. Both open with the same statement: evidence for a person, never a verdict.
The page is self-contained (no script, no external resource) and escapes everything a
student wrote, as the grader's other reports do.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jinja2

from grader.record import write_atomic
from grader.report.templates import templates_dir
from grader.similarity.rank import STATEMENT, Pair, Result

HTML = "similarity.html"
JSON = "similarity.json"
MAX_DETAILED = 60
"""Pairs shown with their full evidence on the page (all are in the table and the JSON)."""


def _side(view: dict[str, Any]) -> list[dict[str, Any]]:
    marked = set(view.get("lines", []))
    return [{"n": i, "text": line, "mark": i in marked}
            for i, line in enumerate(str(view.get("source", "")).splitlines(), start=1)]


def _pair_view(index: int, pair: Pair, students: dict[str, str]) -> dict[str, Any]:
    regions = []
    for region in (pair.code or {}).get("regions", []):
        regions.append({"unit": region["unit"], "a": _side(region["a"]), "b": _side(region["b"])})
    return {"id": f"pair-{index + 1}", "rank": index + 1, "pair": pair,
            "a_name": students.get(pair.a, pair.a), "b_name": students.get(pair.b, pair.b),
            "regions": regions}


def render_html(result: Result) -> str:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    views = [_pair_view(i, p, result.students) for i, p in enumerate(result.pairs)]
    return env.get_template("similarity/report.html.j2").render(
        result=result, statement=STATEMENT, views=views, detailed=views[:MAX_DETAILED],
        settings=result.settings.model_dump(), flagged=sum(p.flagged for p in result.pairs))


def write_report(result: Result, out: Path, formats: tuple[str, ...] = ("html", "json")
                 ) -> list[Path]:
    """Write similarity.html and/or similarity.json into `out`; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    if "json" in formats:
        write_atomic(out / JSON, json.dumps(result.to_dict(), indent=1))
        written.append(out / JSON)
    if "html" in formats:
        write_atomic(out / HTML, render_html(result))
        written.append(out / HTML)
    return written
