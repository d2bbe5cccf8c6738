"""The class summary a TA reads first: how the class did, what went wrong, who needs a look.

Computed from the records only; the page is `templates/report/summary.html.j2`.
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
from grader.pack.expected import needs_a_ta as needs_human
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


def awaiting_ta(record: dict[str, Any]) -> list[str]:
    """The manual questions of a record still waiting for a TA's points."""
    return [q["id"] for q in record.get("questions", []) if q.get("status") == "manual"]


def context(graded: list[tuple[Student, dict[str, Any]]], links: dict[str, str],
            title: str = "") -> dict[str, Any]:
    records = [r for _, r in graded]
    fractions = [r["score"] / r["max_score"] for r in records if r.get("max_score")]
    scores = [r["score"] for r in records]
    questions: dict[str, dict[str, Any]] = {}
    failures: Counter[tuple[str, str]] = Counter()
    examples: dict[tuple[str, str], list[str]] = {}
    conventions: Counter[tuple[str, str]] = Counter()
    for s, r in graded:
        for q in r.get("questions", []):
            row = questions.setdefault(q["id"], {"id": q["id"], "title": q.get("title", ""),
                                                 "max": q.get("max"), "scores": [],
                                                 "status": Counter()})
            row["status"][q.get("status", "?")] += 1
            if q.get("score") is not None:
                row["scores"].append(q["score"])
            if q.get("status") in ("failed", "partial", "error"):
                key = (q["id"], pattern(q.get("message", "")))
                failures[key] += 1
                examples.setdefault(key, []).append(s.key)
            for c in q.get("checks", []):
                ev = c.get("evidence")
                if c.get("kind") == "answer" and isinstance(ev, dict) and ev.get("convention"):
                    conventions[(q["id"], str(ev["convention"]))] += 1
    n = len(records) or 1
    for row in questions.values():
        row["pass_rate"] = row["status"]["passed"] / n
        row["mean"] = mean(row["scores"]) if row["scores"] else None
    runs = [{"student": s, "seconds": r.get("run", {}).get("seconds"),
             "limits": limits_once(r.get("run", {}).get("limits_hit", [])),
             "errors": len(r.get("run", {}).get("cell_errors", [])),
             "sandbox": r.get("run", {}).get("sandbox", ""), "link": links.get(s.key)}
            for s, r in graded]
    # manual questions are not a reason to look: they have their own column and the TA sheet
    attention = [{"student": s, "why": needs_human(r, manual=False), "score": r.get("score"),
                  "max": r.get("max_score"), "link": links.get(s.key),
                  "awaiting": awaiting_ta(r)}
                 for s, r in graded if needs_human(r, manual=False)]
    waiting = {q["id"]: sum(1 for _, r in graded for x in r.get("questions", [])
                            if x["id"] == q["id"] and x.get("status") == "manual")
               for q in questions.values()}
    return {
        "title": title or (records[0]["assignment"].get("title") if records else ""),
        "assignment": records[0]["assignment"] if records else {},
        "n": len(records), "mean": mean(scores) if scores else None,
        "median": median(scores) if scores else None,
        "max_score": records[0].get("max_score") if records else None,
        "histogram": histogram(fractions), "questions": list(questions.values()),
        "failures": [{"question": q, "pattern": p, "count": c, "who": examples[(q, p)][:5]}
                     for (q, p), c in failures.most_common(12)],
        "conventions": [{"question": q, "convention": v, "count": c}
                        for (q, v), c in conventions.most_common(12)],
        "runs": runs, "attention": attention,
        "manual": [{"id": qid, "title": questions[qid]["title"], "count": c}
                   for qid, c in waiting.items() if c],
        "students": [{"student": s, "score": r.get("score"), "max": r.get("max_score"),
                      "status": r.get("status"), "link": links.get(s.key),
                      "questions": {q["id"]: q for q in r.get("questions", [])}}
                     for s, r in graded],
    }


def render_summary(graded: list[tuple[Student, dict[str, Any]]], links: dict[str, str],
                   title: str = "") -> str:
    """The class summary page (HTML, self-contained)."""
    return render("summary.html.j2", **context(graded, links, title))
