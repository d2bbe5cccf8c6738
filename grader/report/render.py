"""One student's feedback from one GradeRecord: HTML, Markdown, JSON and Gradescope.

All four come from the same filtered view (`visibility.student_view`), so a format
cannot show more than another. A TA copy (`audience="ta"`) keeps everything.

`render_student` takes a `GradeRecord` (a stored record is read with
`grader.record.read_record`); the templates receive the view, a plain dict, because
the view is the record's JSON cut to an allow-list (visibility.py says why).
`render_view` renders a view made earlier (the self-check service keeps only the
student's view of a run).
"""

from __future__ import annotations

import contextlib
import json
import re
from datetime import datetime
from typing import Any

from grader.checks.registry import label as kind_label
from grader.intake.student import Student
from grader.record import GradeRecord
from grader.report.evidence import explain
from grader.report.templates import render
from grader.report.visibility import student_view, ta_view

FORMATS = ("html", "md", "json", "gradescope")
SUFFIX = {"html": ".html", "md": ".md", "json": ".json", "gradescope": ".results.json"}
STATUS_WORD = {"passed": "passed", "partial": "partly right", "failed": "not right yet",
               "error": "could not run", "manual": "awaiting a TA",
               "not_graded": "not graded here"}
FIELD_WORD = {
    "memory_scope": "peak memory measured for",
    "parameters": "parameters",
    "public_test_accuracy": "accuracy on the public test split",
    "reported_final_test_accuracy": "last test accuracy you printed",
    "test_split_fit": "tuned on the test split?",
    "executed": "your notebook was run",
    "source": "answer read from",
    "where": "found in",
    "evidence": "what the grader found",
    "reported": "what you printed",
    "agrees_with_tokenizer": "matches the tokenizer",
    "agree_with_model": "agree with your model",
    "input_ids_shape": "input_ids shape",
    "attention_mask_shape": "attention_mask shape",
    "written": "written as",
    "weight_distance": "how far the encoder's weights moved from the checkpoint "
                       "(relative change; near 0: only the head was trained)",
}
"""Evidence fields a student report words for people; other keys are shown as they are."""
VALUE_WORD = {
    ("memory_scope", "kernel"): "the whole notebook process, not the model alone",
    ("memory_scope", "cuda"): "the GPU (torch.cuda's peak)",
    ("source", "notebook"): "your notebook", ("source", "report"): "your report",
    ("source", "printed"): "what your notebook printed",
    ("test_split_fit", True): "probably: it scores far higher on the public test split "
                              "than on unseen data",
    ("test_split_fit", False): "no",
    ("executed", False): "no: graded from the outputs saved in it",
}
CELL_REF = re.compile(r"\bcell (\d+)")


def record_key(record: GradeRecord) -> str:
    """The key a record is filed under when nothing else names it: its notebook's stem."""
    return record.submission.name.rsplit(".", 1)[0]


def student_for(record: GradeRecord, roster: dict[str, Student] | None = None, *,
                key: str | None = None) -> Student:
    """The record's student from the roster (by `key`, else by its notebook's stem), else
    named after that key."""
    key = key or record_key(record)
    if roster and key in roster:
        return roster[key]
    return Student(key=key, name=key)


def view(record: GradeRecord, *, audience: str = "student",
         pack_raw: dict[str, Any] | None = None, now: datetime | None = None) -> dict[str, Any]:
    """The filtered record for `audience` ("student" or "ta")."""
    if audience == "student":
        return student_view(record, pack_raw, now)
    if audience == "ta":
        return ta_view(record)
    raise ValueError(f"audience must be 'student' or 'ta', not {audience!r}")


def context(shown: dict[str, Any], student: Student) -> dict[str, Any]:
    """What the per-student templates receive."""
    questions = []
    for_student = shown.get("audience") != "ta"
    for q in shown.get("questions", []):
        raw = [c for c in q.get("checks", []) if isinstance(c, dict)]
        checks = [explain(c) for c in raw]
        for view_, check in zip(checks, raw, strict=True):
            view_["label"] = kind_label(view_["kind"])
            if for_student:
                with contextlib.suppress(Exception):  # wording must never sink a report
                    _word_evidence(view_, check.get("evidence"))
        questions.append({**q, "explained": checks,
                          "status_word": STATUS_WORD.get(q.get("status", ""), q.get("status"))})
    # what waits for a TA is a question without a score yet, not the record's status:
    # an unreadable notebook is `incomplete` with nothing waiting (issue 27 item 7)
    waiting = [q for q in questions if q.get("status") == "manual" and q.get("score") is None]
    return {"r": shown, "student": student, "questions": questions, "waiting": waiting,
            "ta": shown.get("audience") == "ta",
            "run": shown.get("run", {}), "flags": shown.get("flags", {})}


def _word_evidence(view_: dict[str, Any], evidence: Any) -> None:
    """Word a check's evidence rows for a student, in place: known internal fields get
    a sentence instead of their name, raw JSON becomes a readable list, and cells count
    from 1 as notebook editors do (the record keeps 0-based indices)."""
    if "rows" in view_:
        view_["rows"] = _word_rows(view_["rows"], evidence)
    if "extra" in view_:
        view_["extra"] = _word_rows(view_["extra"], evidence)
    models = evidence.get("models") if isinstance(evidence, dict) else None
    raw_models = [m for m in models if isinstance(m, dict)] if isinstance(models, list) else []
    for shown_model, raw_model in zip(view_.get("models") or [], raw_models, strict=False):
        if isinstance(shown_model, dict) and "extra" in shown_model:
            shown_model["extra"] = _word_rows(shown_model["extra"], raw_model)
    raw_cases = [c for c in evidence if isinstance(c, dict)] if isinstance(evidence, list) else []
    for shown_case, raw_case in zip(view_.get("cases") or [], raw_cases, strict=False):
        if isinstance(shown_case, dict) and "extra" in shown_case:
            shown_case["extra"] = _word_rows(shown_case["extra"], raw_case)


def _word_rows(rows: Any, source: Any) -> Any:
    if not isinstance(rows, list):
        return rows
    out = []
    for row in rows:
        if not (isinstance(row, tuple | list) and len(row) == 2):
            out.append(row)
            continue
        key, shown = str(row[0]), row[1]
        if key == "evidence" and not isinstance(source, dict):
            out.append((FIELD_WORD[key], _say(key, source)))
        elif key in FIELD_WORD and isinstance(source, dict) and key in source:
            out.append((FIELD_WORD[key], _say(key, source[key])))
        else:
            out.append((key, shown))
    return out


def _say(key: str, value: Any, limit: int = 600) -> str:
    """One value in words: yes/no, thousands, percentages, shapes, cells from 1."""
    text = _words(key, value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _words(key: str, value: Any) -> str:
    if isinstance(value, str | bool) and (key, value) in VALUE_WORD:
        return VALUE_WORD[(key, value)]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and key == "cell":
        return str(value + 1)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.1%}" if "accuracy" in key else f"{value:.4g}"
    if isinstance(value, str):
        return CELL_REF.sub(lambda m: f"cell {int(m.group(1)) + 1}", value) \
            if key in ("where", "cell") else value
    if isinstance(value, list):
        if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value) \
                and key.endswith("shape"):
            return "(" + ", ".join(map(str, value)) + ")"
        sep = "; " if any(isinstance(v, dict | list) for v in value) else ", "
        return sep.join(_words(key, v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{FIELD_WORD.get(str(k), str(k).replace('_', ' '))}: "
                         f"{_words(str(k), v)}" for k, v in value.items())
    return "" if value is None else str(value)


def render_html(shown: dict[str, Any], student: Student) -> str:
    return render("student.html.j2", **context(shown, student))


def render_markdown(shown: dict[str, Any], student: Student) -> str:
    return render("student.md.j2", **context(shown, student))


def render_json(shown: dict[str, Any]) -> str:
    return json.dumps(shown, indent=2, ensure_ascii=False)


def render_gradescope(shown: dict[str, Any], student: Student) -> str:
    """Gradescope's autograder `results.json`: one test per auto-graded question.

    Manual questions are left out (Gradescope grades those in its own rubric); a
    question shown as score-only keeps its score and loses its output.
    """
    tests = []
    for q in shown.get("questions", []):
        if q.get("status") == "manual":
            continue
        out = q.get("message", "")
        if q.get("hint") and q.get("status") != "passed":
            out += f"\nHint: {q['hint']}"
        tests.append({"name": f"{q.get('id')}: {q.get('title', '')}".strip(),
                      "score": q.get("score") or 0.0, "max_score": q.get("max", 0.0),
                      "status": "passed" if q.get("status") == "passed" else "failed",
                      "output": out, "visibility": "visible"})
    summary = render("gradescope_output.txt.j2", **context(shown, student)).strip()
    return json.dumps({"score": shown.get("score", 0.0), "output": summary,
                       "output_format": "text", "visibility": "visible",
                       "stdout_visibility": "hidden",
                       "tests": tests}, indent=2, ensure_ascii=False)


def render_student(record: GradeRecord | dict[str, Any], fmt: str, *,
                   student: Student | None = None, pack_raw: dict[str, Any] | None = None,
                   audience: str = "student", now: datetime | None = None) -> str:
    """One record in one format (`html`, `md`, `json`, `gradescope`).

    A record's JSON is validated here, once (`GradeRecord.of`: a misspelled field is an
    error); a stored record is read with `grader.record.read_record`."""
    record = GradeRecord.of(record)
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    shown = view(record, audience=audience, pack_raw=pack_raw, now=now)
    return render_view(shown, fmt, student or student_for(record))


def render_view(shown: dict[str, Any], fmt: str, who: Student | None = None) -> str:
    """A view made by `view` (or `visibility.student_view`) in one format; without `who`,
    the student is named after the notebook, as `student_for` does."""
    if who is None:
        stem = str((shown.get("submission") or {}).get("name") or "submission").rsplit(".", 1)[0]
        who = Student(key=stem, name=stem)
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if fmt == "html":
        return render_html(shown, who)
    if fmt == "md":
        return render_markdown(shown, who)
    if fmt == "json":
        return render_json(shown)
    return render_gradescope(shown, who)
