"""Per-student reports from real records: every sample, every format, nothing hidden leaks."""

from __future__ import annotations

import copy
import json
import re

import pytest
from pydantic import ValidationError

from grader.report import render_student, student_view
from grader.report.visibility import WITHHELD
from tests.conftest import PACK_DIR, SECRET

FORMATS = ("html", "md", "json", "gradescope")


def _hidden_values(record) -> set[str]:
    """Reference statistics on hidden cases, as any format could print them."""
    out = set()
    for q in record["questions"]:
        for c in q["checks"]:
            for case in c.get("evidence") or []:
                if isinstance(case, dict) and case.get("case", "").startswith("hidden"):
                    for o in case.get("outputs") or []:
                        v, own = o.get("expected_norm"), o.get("norm")
                        # a matching output's own norm equals the reference's: that is
                        # the student's number, so only differing values count
                        if isinstance(v, float) and not (
                                isinstance(own, float) and abs(own - v) <= 1e-6 * abs(v)):
                            out |= {repr(v), f"{v:.4g}", f"{v:.3f}"}
    return out


def test_every_sample_renders_without_hidden_data(records, pack):
    reference_lines = [line.strip() for line in
                       (PACK_DIR / "private" / "reference.py").read_text().splitlines()
                       if len(line.strip()) > 30 and line.strip()[0] not in "#\"'"]
    assert len(records) >= 19
    for stem, record in records.items():
        hidden = _hidden_values(record)
        path = record["submission"]["path"]
        seed = str(record["run"]["seed"])
        ta = render_student(record, "json", audience="ta")
        assert path in ta and f'"seed": {seed}' in ta  # the TA copy really holds them
        for fmt in FORMATS:
            text = render_student(record, fmt, pack_raw=pack.raw)
            assert path not in text, (stem, fmt)
            assert '"seed"' not in text and "expected_norm" not in text, (stem, fmt)
            assert SECRET not in text
            leaked = [(v, text[max(0, text.index(v) - 120):text.index(v) + 40])
                      for v in hidden if v in text]
            assert not leaked, (stem, fmt, leaked)
            assert not any(line in text for line in reference_lines), (stem, fmt)


def test_ta_view_holds_what_the_student_view_drops(records):
    record = records["wrong-q1c-missing-scale"]
    assert _hidden_values(record)
    shown = student_view(record)
    assert _hidden_values(shown) == set()
    case = shown["questions"][2]["checks"][0]["evidence"][0]
    assert case["outputs"][0]["expected_shape"] and "max_abs_error" in case["outputs"][0]


def test_html_explains_a_wrong_answer(records, pack):
    html = render_student(records["wrong-q1c-missing-scale"], "html", pack_raw=pack.raw)
    assert "18 / 100" in html
    assert "hidden-b2-s5-d16-h4" in html and "0.656" in html
    assert pack.question("q1c").hint.split(";")[0][:40] in html
    assert "attention output error" in html  # the printed zero it claims
    assert "<script" not in html and "http://" not in html.replace(
        "http://www.w3.org/2000/svg", "")


def test_html_reports_crashes_limits_and_tampering(records):
    crash = render_student(records["crash-pe-cell"], "html")
    assert "AttributeError" in crash and "does not define the class" in crash
    loop = render_student(records["hostile-infinite-loop"], "html")
    assert "Limit reached (cell_timeout)" in loop
    patched = render_student(records["hostile-monkeypatch"], "html")
    assert 'class="flag tamper"' in patched and "torch.allclose" in patched


def test_markdown_and_gradescope_agree_with_the_record(records):
    record = records["wrong-q1d-sin-cos-swapped"]
    md = render_student(record, "md")
    assert md.startswith("## ") and "| Q1(d) Sinusoidal" in md and "24 / 100" in md
    gs = json.loads(render_student(record, "gradescope"))
    assert gs["score"] == record["score"] == sum(t["score"] for t in gs["tests"])
    statuses = [t["status"] for t in gs["tests"]]
    assert statuses[:4] == ["passed", "passed", "passed", "failed"]
    assert statuses[4:8] == ["failed"] * 4  # Part 2 left as the template has it
    assert set(statuses[8:]) == {"failed"}  # and Part 3's answer cells blank
    assert "Hint:" in gs["tests"][3]["output"]


def test_student_text_is_escaped(records):
    record = copy.deepcopy(records["solution"])
    record["questions"][0]["message"] = "<script>alert(1)</script> | x"
    html = render_student(record, "html")
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    md = render_student(record, "md")
    assert "<script>" not in md


def test_finetune_answer_and_unknown_kinds_render(rich_record):
    html = render_student(rich_record, "html")
    # one line chart per model, one path per curve, epochs as points
    assert html.count('<svg xmlns="http://www.w3.org/2000/svg"') == 2
    paths = re.findall(r'<path class="series" d="([^"]+)"', html)
    assert [p.count("L") + 1 for p in paths] == [3, 3, 4, 4]
    assert "threshold 0.85" in html and "re-evaluated 0.870" in html and "below it" in html
    assert "117.7 MiB" not in html and "118 MiB" in html
    assert "lora_rank" in html  # unknown model key, shown generically
    assert "GiB written as GB" in html and "4 x 512 = 2024" in html and "line 12" in html
    assert "parsed_bytes" in html and "widget_count" in html and "mystery" in html
    md = render_student(rich_record, "md")
    assert "0.58 → 0.8 → 0.86" in md and "`4 x 512 = 2024`" in md


def test_malformed_evidence_never_breaks_a_report(rich_record):
    record = copy.deepcopy(rich_record)
    common = {"fraction": 0.0, "status": "failed", "message": "m"}
    record["questions"][-1]["checks"] = [
        {"kind": "finetune", "evidence": {"models": "oops"}, **common},
        {"kind": "tensor", "evidence": 42, **common}]
    assert "Q9 Future question" in render_student(record, "html")
    # a check that is not a check is not a record: refused before any report, naming it
    record["questions"][-1]["checks"].append("junk")
    with pytest.raises(ValidationError, match=r"questions\.\d+\.checks\.2"):
        render_student(record, "html")


@pytest.mark.parametrize(("rule", "now", "shown"), [
    ("hidden", None, "absent"), ("score", None, "withheld"),
    ("after_deadline", "2020-01-01T00:00:00+00:00", "withheld"),
    ("after_deadline", "2031-01-01T00:00:00+00:00", "full"),
])
def test_rubric_visibility(records, pack, rule, now, shown):
    from datetime import datetime

    raw = copy.deepcopy(pack.raw)
    raw["assignment"]["deadline"] = "2030-06-01T12:00:00+00:00"
    next(q for q in raw["questions"] if q["id"] == "q1c")["visibility"] = rule
    when = datetime.fromisoformat(now) if now else None
    html = render_student(records["wrong-q1c-missing-scale"], "html", pack_raw=raw, now=when)
    has_q = 'id="q1c"' in html
    assert has_q == (shown != "absent")
    assert (WITHHELD in html) == (shown == "withheld")
    assert ("`MultiHeadAttention` passed 1 of 6" in html) == (shown == "full")
