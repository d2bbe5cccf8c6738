"""What a student may see of a GradeRecord, decided when rendering, never when storing.

Records keep everything a TA needs (the hidden-input seed, the submission's path,
reference statistics on hidden cases). A student's report is built from
`student_view(record, pack_raw)`, a filtered deep copy, so no template can leak what
the view does not hold. The rules (documented in docs/reports.md):

- `run.seed`, `submission.path` and `environment` details that identify the grading
  machine are dropped.
- On a hidden case (a case whose name does not start with `demo`), evidence keys that
  describe the reference's values are dropped: anything named like `expected*`,
  `reference*`, `label*`, `input*`, `target_value*` (shapes stay: `expected_shape`).
- A question's rubric `visibility` (read tolerantly from the pack's raw rubric)
  decides how much of it shows: `visible` (default), `score` (score and status, no
  message, evidence or hint), `hidden` (the question is left out), and
  `after_deadline` (as `score` until `[assignment] deadline` has passed).
"""

from __future__ import annotations

import copy
import re
from datetime import UTC, datetime
from typing import Any

AUDIENCES = ("student", "ta")
VISIBILITIES = ("visible", "score", "hidden", "after_deadline")
SECRET_KEY = re.compile(r"^(expected|reference|ref_|label|input|target_value|answer_key|hidden_)",
                        re.IGNORECASE)
SAFE_KEYS = frozenset({"expected_shape", "expected_dtype"})
"""Shapes are part of a hidden case's name already; values are not."""
WITHHELD = "Details of this question are released after grading closes."


def is_hidden_case(name: Any) -> bool:
    """Every case is hidden unless it is a public demo case (`demo`, `demo-...`)."""
    return not (isinstance(name, str) and name.startswith("demo"))


def _scrub(value: Any, *, hidden: bool) -> Any:
    """Drop reference-valued keys below a hidden case, recursively."""
    if isinstance(value, dict):
        if "case" in value:
            hidden = hidden or is_hidden_case(value["case"])
        return {k: _scrub(v, hidden=hidden) for k, v in value.items()
                if not (hidden and SECRET_KEY.match(k) and k not in SAFE_KEYS)}
    if isinstance(value, list):
        return [_scrub(v, hidden=hidden) for v in value]
    return value


def question_visibility(pack_raw: dict[str, Any] | None, qid: str,
                        now: datetime | None = None) -> str:
    """The rubric's `visibility` for question `qid`, resolved against the deadline."""
    raw = pack_raw or {}
    value = "visible"
    for q in raw.get("questions", []) or []:
        if isinstance(q, dict) and q.get("id") == qid:
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


def student_view(record: dict[str, Any], pack_raw: dict[str, Any] | None = None,
                 now: datetime | None = None) -> dict[str, Any]:
    """A deep copy of `record` holding only what its student may read."""
    view = copy.deepcopy(record)
    view.get("run", {}).pop("seed", None)
    view.get("submission", {}).pop("path", None)
    view.pop("roster", None)
    questions = []
    for q in view.get("questions", []):
        vis = question_visibility(pack_raw, q.get("id", ""), now)
        if vis == "hidden":
            continue
        q["checks"] = _scrub(q.get("checks", []), hidden=False)
        if vis == "score":
            q.update(message=WITHHELD, hint="", checks=[], printed=[])
        q["visibility"] = vis
        questions.append(q)
    view["questions"] = questions
    hidden_ids = {q.get("id") for q in record.get("questions", [])} - {
        q.get("id") for q in questions}
    flags = view.get("flags", {})
    if hidden_ids and flags.get("printed_mismatch"):
        flags["printed_mismatch"] = [m for m in flags["printed_mismatch"]
                                     if m.get("question") not in hidden_ids]
    view["audience"] = "student"
    return view


def ta_view(record: dict[str, Any]) -> dict[str, Any]:
    """The full record, marked for a TA (nothing removed)."""
    view = copy.deepcopy(record)
    for q in view.get("questions", []):
        q.setdefault("visibility", "visible")
    view["audience"] = "ta"
    return view
