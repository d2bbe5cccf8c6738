"""The class summary a TA reads first: how the class did, what went wrong, who needs a look.

Computed from the records only (typed `GradeRecord`s); the page is
`templates/report/summary.html.j2`.
Failure messages are grouped after replacing case names and numbers, so "passed 0
of 6 hidden cases; on case hidden-b2-..." from forty students is one line with a
count, not forty.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from statistics import mean, median
from typing import Any

from grader.intake.student import Student
from grader.record import GradeRecord
from grader.record import needs_a_ta as needs_human
from grader.report.templates import render

CASE = re.compile(r"\b(hidden|demo)-[\w.-]+")
NUMBER = re.compile(r"(?<![\w`])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def pattern(message: str) -> str:
    """A failure message with its case names and numbers blanked, for grouping."""
    return NUMBER.sub("#", CASE.sub("<case>", message)).strip()


@dataclass
class Bar:
    x: float
    y: float
    width: float
    height: float
    count: int
    label: str


def histogram(fractions: list[float], bins: int = 10, width: int = 420,
              height: int = 160) -> dict[str, Any]:
    """Bars of the score distribution (fractions of the maximum), ready for SVG."""
    counts = [0] * bins
    for f in fractions:
        counts[min(bins - 1, max(0, int(f * bins)))] += 1
    top = max(counts + [1])
    left, bottom, plot_h = 30, height - 24, height - 40
    bw = (width - left - 10) / bins
    bars = [Bar(left + i * bw + 1, bottom - plot_h * c / top, bw - 2, plot_h * c / top, c,
                f"{100 * i // bins}–{100 * (i + 1) // bins} %") for i, c in enumerate(counts)]
    return {"width": width, "height": height, "bottom": bottom, "left": left, "bars": bars,
            "top": top}


def limits_once(hits: list[dict[str, Any]]) -> list[str]:
    """Each limit a run hit, named once, with how often when more than once."""
    counts = Counter(str(h.get("limit", "?")) for h in hits)
    return [f"{name} ×{n}" if n > 1 else name for name, n in counts.items()]


def awaiting_ta(record: GradeRecord) -> list[str]:
    """The questions of a record still waiting for a TA's points."""
    return [q.id for q in record.questions if q.status == "manual"]


def conventions_of(record: GradeRecord) -> list[tuple[str, str]]:
    """(question, convention) of each answer judged under a convention ("GiB written as
    GB"): any check whose evidence names the `convention` it read the answer under, so
    the table needs no kind's name."""
    return [(q.id, str(c.evidence["convention"])) for q in record.questions for c in q.checks
            if isinstance(c.evidence, dict) and c.evidence.get("convention")]


def context(graded: list[tuple[Student, GradeRecord]], links: dict[str, str],
            title: str = "") -> dict[str, Any]:
    records = [r for _, r in graded]
    fractions = [r.score / r.max_score for r in records if r.max_score]
    scores = [r.score for r in records]
    questions: dict[str, dict[str, Any]] = {}
    failures: Counter[tuple[str, str]] = Counter()
    examples: dict[tuple[str, str], list[str]] = {}
    conventions: Counter[tuple[str, str]] = Counter()
    for s, r in graded:
        for q in r.questions:
            row = questions.setdefault(q.id, {"id": q.id, "title": q.title, "max": q.max,
                                              "scores": [], "status": Counter()})
            row["status"][q.status] += 1
            if q.score is not None:
                row["scores"].append(q.score)
            if q.status in ("failed", "partial", "error"):
                key = (q.id, pattern(q.message))
                failures[key] += 1
                examples.setdefault(key, []).append(s.key)
        conventions.update(conventions_of(r))
    n = len(records) or 1
    for row in questions.values():
        row["pass_rate"] = row["status"]["passed"] / n
        row["mean"] = mean(row["scores"]) if row["scores"] else None
    runs = [{"student": s, "seconds": r.run.seconds, "limits": limits_once(r.run.limits_hit),
             "errors": len(r.run.cell_errors), "sandbox": r.run.sandbox,
             "link": links.get(s.key)}
            for s, r in graded]
    # questions awaiting a TA are not a reason to look: they have their own column and the
    # TA sheet
    attention = [{"student": s, "why": why, "score": r.score, "max": r.max_score,
                  "link": links.get(s.key), "awaiting": awaiting_ta(r)}
                 for s, r in graded if (why := needs_human(r, manual=False))]
    waiting = {qid: sum(1 for _, r in graded for x in r.questions
                        if x.id == qid and x.status == "manual")
               for qid in questions}
    return {
        "title": title or (records[0].assignment.title if records else ""),
        "assignment": records[0].assignment if records else {},
        "n": len(records), "mean": mean(scores) if scores else None,
        "median": median(scores) if scores else None,
        "max_score": records[0].max_score if records else None,
        "histogram": histogram(fractions), "questions": list(questions.values()),
        "failures": [{"question": q, "pattern": p, "count": c, "who": examples[(q, p)][:5]}
                     for (q, p), c in failures.most_common(12)],
        "conventions": [{"question": q, "convention": v, "count": c}
                        for (q, v), c in conventions.most_common(12)],
        "runs": runs, "attention": attention,
        "manual": [{"id": qid, "title": questions[qid]["title"], "count": c}
                   for qid, c in waiting.items() if c],
        "students": [{"student": s, "score": r.score, "max": r.max_score,
                      "status": r.status, "link": links.get(s.key),
                      "questions": {q.id: q for q in r.questions}}
                     for s, r in graded],
    }


def render_summary(graded: list[tuple[Student, GradeRecord]], links: dict[str, str],
                   title: str = "") -> str:
    """The class summary page (HTML, self-contained)."""
    return render("summary.html.j2", **context(graded, links, title))
