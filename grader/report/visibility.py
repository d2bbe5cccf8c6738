"""What a student may see of a GradeRecord, decided when rendering, never when storing.

Records keep everything a TA needs (the hidden-input seed, where the files were, the
batch's cache key, reference statistics on hidden cases). A student's report is built
from `student_view(record, pack_raw)`, a copy made from an allow-list, so no template
can leak what the view does not hold. The rules (documented in docs/reports.md):

- Allow-list. `STUDENT_FIELDS` names, level by level (top level, `assignment`,
  `submission`, `submission.reports[]`, `run`, `run.models[]`, `run.limits_hit[]`,
  `run.cell_errors[]`, each question, each check, each printed value, `flags`,
  `environment`), the fields a student may read. Only those are copied; any other
  field, including one added to records later, stays out until it is listed here. So
  `run.seed`, `run.cache_key`, `run.retries`, `submission.path`,
  `submission.reports[].path`, `assignment.fingerprint`, `assignment.rubric`,
  `environment.platform` and a batch's `_key` never reach a student. A field whose
  value is not of the listed shape (a table where a number was listed) is dropped too.
- Evidence (`questions[].checks[].evidence`) is free-form per check kind, so it is
  copied whole, then scrubbed:
  - on a hidden case (a case whose name does not start with `demo`), keys that
    describe the reference's values are dropped: anything named like `expected*`,
    `reference*`, `label*`, `input*`, `target_value*` (shapes stay: `expected_shape`);
  - keys naming grading machinery are dropped at any depth: `_*`, `key`, `cache_key`,
    `fingerprint`, `*digest`, `seed`, `*_seed` (a check whose kind says its `seed` is
    the student's own, `Kind.students_seed`, keeps `seed`: a training seed read from
    the student's log files);
  - a key whose value is a filesystem path is dropped, as is a path in a list: a
    string that starts with `/`, `~/`, `file:` or a drive (`C:\\`), or that names a
    batch's stored runs (`.runs/`). A key that is itself such a path is dropped too.
- Paths inside text. Every string the view keeps (messages, error values, quotes,
  evidence text) has its absolute paths cut to their last part: `'/tmp/g-1/x/data.csv'`
  becomes `'…/data.csv'`, so a traceback or a report error names the file without
  showing the grading machine's folders.
- A question's rubric `visibility` (read tolerantly from the pack's raw rubric)
  decides how much of it shows: `visible` (default), `score` (score and status, no
  message, evidence, hint or prints), `hidden` (the question is left out), and
  `after_deadline` (as `score` until `[assignment] deadline` has passed). Rows about
  a question shown as `score` or `hidden` (`run.models`, `flags.printed_mismatch`,
  and every flag a check kind raises) are left out with it.
- A question the pack keeps off (`points = 0`, e.g. lab B's numeric follow-up to Q2,
  "give it points to enable it") is `hidden` unless the pack sets its `visibility`
  itself: a student is never shown a question that cannot count as "failed, 0 / 0".
  Every student format (HTML, Markdown, JSON, Gradescope, Moodle feedback) and the
  self-check service's record come from `student_view`, so this is the one place.

Why this module walks JSON, not the typed `GradeRecord`: an allow-list is a statement
about the record as it is written and read by others (an LMS, the JSON report), level by
level, and must drop what it does not name, including keys a later grader adds or a
batch stores beside the model's (`run.execution`, `_key`). So `student_view` takes a
`GradeRecord` (or a stored record's JSON, which it does not validate) and walks its
JSON; the view it returns is a plain dict, and is what every student format renders.
Evidence stays a dict throughout: each kind writes its own shape (`CheckOutcome.evidence`
is `Any`).
"""

from __future__ import annotations

import copy
import re
from datetime import UTC, datetime
from typing import Any

from grader.checks.registry import students_seed
from grader.record import GRADER_FLAGS, GradeRecord, kind_flags

AUDIENCES = ("student", "ta")
VISIBILITIES = ("visible", "score", "hidden", "after_deadline")
SECRET_KEY = re.compile(r"^(expected|reference|ref_|label|input|target_value|answer_key|hidden_)",
                        re.IGNORECASE)
SAFE_KEYS = frozenset({"expected_shape", "expected_dtype"})
"""Shapes are part of a hidden case's name already; values are not."""
MACHINERY_KEY = re.compile(r"^(_.*|key|cache_key|fingerprint|.*digest|seed|.*_seed)$",
                           re.IGNORECASE)
"""Evidence keys that would name the grading machinery (seeds, cache keys, digests)."""

WITHHELD = "Details of this question are released after grading closes."

PATH_VALUE = re.compile(r"^\s*(/|~/|file:|[A-Za-z]:[\\/])|(^|/)\.runs/")
"""A string that is a path (dropped from evidence with its key)."""
PATH_IN_TEXT = re.compile(r"(?<![\w.\\/:~…-])~?/(?:[^\s/'\"`<>()\[\]{},;|]+/)+")
"""The folders of an absolute path inside text (`/tmp/g-1/x/` of `/tmp/g-1/x/data.csv`)."""
CUT = "…/"

# The allow-list. A spec is VALUE (a string, number, bool or null, or a list of those:
# a shape, tags), EVIDENCE (free-form, scrubbed as above), a dict (only its keys are
# kept, each by its own spec) or a one-item list (a list whose items follow that spec).
VALUE = "value"
EVIDENCE = "evidence"
CHECK = {"kind": VALUE, "fraction": VALUE, "status": VALUE, "message": VALUE, "gate": VALUE,
         "evidence": EVIDENCE}
PRINTED = {"label": VALUE, "stat": VALUE, "cell": VALUE, "printed": VALUE, "computed": VALUE,
           "status": VALUE}
QUESTION = {"id": VALUE, "title": VALUE, "score": VALUE, "max": VALUE, "status": VALUE,
            "message": VALUE, "hint": VALUE, "checks": [CHECK], "printed": [PRINTED]}
STUDENT_FIELDS: dict[str, Any] = {
    "schema": VALUE, "mode": VALUE, "score": VALUE, "max_score": VALUE, "status": VALUE,
    "graded_at": VALUE,
    "assignment": {"id": VALUE, "title": VALUE, "version": VALUE},
    "submission": {"name": VALUE, "sha256": VALUE, "evidence": VALUE, "logs": VALUE,
                   "reports": [{"name": VALUE, "format": VALUE, "reader": VALUE,
                                "pages": VALUE, "needs_ta": VALUE, "notes": VALUE,
                                "sha256": VALUE, "error": VALUE}]},
    "questions": [QUESTION],
    "run": {"seconds": VALUE, "restarts": VALUE, "executed": VALUE, "quick": VALUE,
            "sandbox": VALUE,  # bwrap or none: a self-check says whether it was isolated
            "device": VALUE, "cells_executed": VALUE,
            "models": [{"question": VALUE, "architecture": VALUE, "reevaluated_accuracy": VALUE,
                        "train_seconds": VALUE, "peak_memory_bytes": VALUE,
                        "parameters": VALUE}],
            "limits_hit": [{"limit": VALUE, "cell": VALUE, "message": VALUE, "detail": VALUE}],
            "cell_errors": [{"cell": VALUE, "status": VALUE, "ename": VALUE, "evalue": VALUE,
                             "tags": VALUE, "expected": VALUE}]},
    "flags": {"tamper": VALUE, "printed_mismatch": [{"question": VALUE, **PRINTED}]},
    "environment": {"python": VALUE, "grader": VALUE, "torch": VALUE, "cuda": VALUE},
}
"""Every record field a student may read, level by level; anything else is dropped.
`student_fields()` adds the flags check kinds raise."""
KIND_FLAG_ROW = {"question": VALUE, "kind": VALUE, "message": VALUE}
"""What a student reads of a row of a flag a check kind raises (`Kind.flags`)."""
QUESTION_ROWS = (("run", "models"), ("flags", "printed_mismatch"))
"""Lists whose rows name a question (`question`): they go where the question's details go
(and so does every flag a check kind raises)."""


def student_fields() -> dict[str, Any]:
    """`STUDENT_FIELDS` with each flag the known check kinds declare (its rows as
    `KIND_FLAG_ROW`): a new kind's flags reach its students without a line here."""
    raised = {name: [KIND_FLAG_ROW] for name in kind_flags() if name not in GRADER_FLAGS}
    return {**STUDENT_FIELDS, "flags": {**STUDENT_FIELDS["flags"], **raised}}


def is_hidden_case(name: Any) -> bool:
    """Every case is hidden unless it is a public demo case (`demo`, `demo-...`)."""
    return not (isinstance(name, str) and name.startswith("demo"))


def cut_paths(text: str) -> str:
    """`text` with the folders of every absolute path replaced by `…/`."""
    return PATH_IN_TEXT.sub(CUT, text) if "/" in text else text


def is_path(value: Any) -> bool:
    """True for a string that is a filesystem path (see the module doc)."""
    return isinstance(value, str) and PATH_VALUE.search(value) is not None


def _value(value: Any) -> tuple[bool, Any]:
    """(kept, value) for a VALUE field: scalars and lists of scalars, paths in text cut."""
    if isinstance(value, str):
        return True, cut_paths(value)
    if value is None or isinstance(value, bool | int | float):
        return True, value
    if isinstance(value, list | tuple):
        items = [_value(v) for v in value]
        return (True, [v for _, v in items]) if all(ok for ok, _ in items) else (False, None)
    return False, None


def allowed(value: Any, spec: Any, *, kind: str = "") -> tuple[bool, Any]:
    """(kept, filtered copy) of `value` under `spec` (see STUDENT_FIELDS)."""
    if spec == VALUE:
        return _value(value)
    if spec == EVIDENCE:
        return True, _scrub(value, hidden=False, own_seeds=students_seed(kind))
    if isinstance(spec, list):
        if not isinstance(value, list):
            return False, None
        items = [allowed(v, spec[0]) for v in value]
        return True, [v for ok, v in items if ok]
    if not isinstance(value, dict):
        return False, None
    out = {}
    inner_kind = str(value.get("kind", "")) if "evidence" in spec else ""
    for key, sub in spec.items():
        if key in value:
            ok, kept = allowed(value[key], sub, kind=inner_kind)
            if ok:
                out[key] = kept
    return True, out


def _scrub(value: Any, *, hidden: bool, own_seeds: bool = False) -> Any:
    """Evidence without reference values below a hidden case, machinery keys and paths."""
    if isinstance(value, dict):
        if "case" in value:
            hidden = hidden or is_hidden_case(value["case"])
        out = {}
        for k, v in value.items():
            key = str(k)
            if hidden and SECRET_KEY.match(key) and key not in SAFE_KEYS:
                continue
            if MACHINERY_KEY.match(key) and not (own_seeds and key.lower() == "seed"):
                continue
            if is_path(key) or is_path(v):
                continue
            out[cut_paths(key)] = _scrub(v, hidden=hidden, own_seeds=own_seeds)
        return out
    if isinstance(value, list | tuple):
        return [_scrub(v, hidden=hidden, own_seeds=own_seeds) for v in value if not is_path(v)]
    if isinstance(value, str):
        return cut_paths(value)
    return value


def kept_off(question: dict[str, Any]) -> bool:
    """Whether a question of the raw rubric is one the pack keeps off: no points, and no
    `visibility` of its own (a pack that wants a 0-point practice question shown says
    `visibility = "visible"`)."""
    points = question.get("points")
    return (isinstance(points, int | float) and not isinstance(points, bool) and points == 0
            and "visibility" not in question)


def question_visibility(pack_raw: dict[str, Any] | None, qid: str,
                        now: datetime | None = None) -> str:
    """The rubric's `visibility` for question `qid`, resolved against the deadline; a
    question the pack keeps off (`kept_off`) is `hidden`."""
    raw = pack_raw or {}
    value = "visible"
    for q in raw.get("questions", []) or []:
        if isinstance(q, dict) and q.get("id") == qid:
            if kept_off(q):
                return "hidden"
            value = str(q.get("visibility", "visible"))
    if value not in VISIBILITIES:
        return "score"  # an unknown word errs on the side of showing less
    if value == "after_deadline":
        deadline = (raw.get("assignment") or {}).get("deadline")
        when = _as_datetime(deadline)
        now = now or datetime.now(UTC)
        return "visible" if when is not None and now >= when else "score"
    return value


def _as_datetime(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    return None


def _json(record: GradeRecord | dict[str, Any]) -> dict[str, Any]:
    return record.to_dict() if isinstance(record, GradeRecord) else record


def student_view(record: GradeRecord | dict[str, Any], pack_raw: dict[str, Any] | None = None,
                 now: datetime | None = None) -> dict[str, Any]:
    """A copy of `record` holding only what its student may read (see the module doc)."""
    _, view = allowed(_json(record), student_fields())
    questions = []
    quiet = set()
    for q in view.get("questions", []):
        vis = question_visibility(pack_raw, str(q.get("id", "")), now)
        if vis != "visible":
            quiet.add(q.get("id"))
        if vis == "hidden":
            continue
        if vis == "score":
            q.update(message=WITHHELD, hint="", checks=[], printed=[])
        q["visibility"] = vis
        questions.append(q)
    if "questions" in view:
        view["questions"] = questions
    rows_by_question = [*QUESTION_ROWS, *(("flags", name) for name in view.get("flags", {})
                                          if name not in GRADER_FLAGS)]
    for outer, inner in rows_by_question:
        rows = view.get(outer, {}).get(inner)
        if quiet and isinstance(rows, list):
            view[outer][inner] = [r for r in rows if r.get("question") not in quiet]
    view["audience"] = "student"
    return view


def ta_view(record: GradeRecord | dict[str, Any]) -> dict[str, Any]:
    """The full record, marked for a TA (nothing removed)."""
    view = copy.deepcopy(_json(record))
    for q in view.get("questions", []):
        q.setdefault("visibility", "visible")
    view["audience"] = "ta"
    return view
