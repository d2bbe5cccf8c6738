"""Check kinds through the registry, a new kind added as one module's worth of code, the
cache key (what changes it and what does not), tamper evidence and printed cross-checks.

No kernel runs here: runs are built as data (`RunResult`), as a batch's store gives them
back, so each kind is exercised on exactly the evidence it scores.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
import torch
from pydantic import Field

from grader.batch.keys import code_digest, execution_digest, rubric_digest, submission_key
from grader.checks import CheckResult
from grader.checks.kind import Context, Kind, Settings
from grader.checks.printed import cross_check
from grader.checks.registry import kind, kinds, register, unregister
from grader.checks.tamper import diff_telemetry
from grader.grade import empty_run, plan_probes, score_run
from grader.pack import Check, PackError, Question, load_pack
from grader.pack.rubric import PrintedTable
from grader.run.result import CellReport, ProbePayload, RunResult
from grader.written import Reports
from tests.grader.conftest import PACK_DIR

ROOT = Path(__file__).resolve().parents[3]


def test_the_registry_holds_every_kind_each_refusing_unknown_keys():
    assert set(kinds()) == {"tensor", "static", "finetune", "answer", "series", "logs",
                            "manual"}
    for name, each in kinds().items():
        assert each.name == name
        assert each.Settings.model_config.get("extra") == "forbid", name
    assert kind("answer").private == ("expected",)


# ----------------------------------------------------------------------------------------
# a new kind is one class: registered, loaded from a rubric, scored, explained


class WordsSettings(Settings):
    min_words: int = Field(50, ge=1)


class Words(Kind):
    name = "words"
    Settings = WordsSettings

    def score(self, check, question, ctx):
        cells = ctx.notebook.cells if ctx.notebook is not None else []
        text = " ".join(c.source for c in cells if c.cell_type == "markdown"
                        and question.id in c.metadata.get("tags", []))
        words, need = len(text.split()), check.settings.min_words
        if words >= need:
            return CheckResult("words", 1.0, "passed", f"{words} words.", {"words": words})
        return CheckResult("words", words / need, "partial" if words else "failed",
                           f"{words} of the {need} words asked.", {"words": words})


@pytest.fixture
def words_pack(tmp_path):
    register(Words())
    root = tmp_path / "words"
    (root / "template").mkdir(parents=True)
    nb = nbformat.v4.new_notebook()
    nbformat.write(nb, root / "template" / "essay.ipynb")
    (root / "probes.py").write_text("")
    (root / "pack.toml").write_text('''
[assignment]
id = "essay"
title = "An essay"
notebook = "essay.ipynb"
total = 10
template = "template/essay.ipynb"
probes = "probes.py"

[[questions]]
id = "why"
title = "Why attention"
points = 10
  [[questions.checks]]
  kind = "words"
  min_words = 8
''')
    yield root
    unregister("words")


def _notebook_with(tmp_path: Path, text: str, tag: str) -> Path:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_markdown_cell(text)
    cell.metadata["tags"] = [tag]
    nb.cells.append(cell)
    path = tmp_path / "essay.ipynb"
    nbformat.write(nb, path)
    return path


def test_a_new_kind_is_loaded_scored_and_explained_without_touching_the_grader(
        words_pack, tmp_path):
    from grader.report.evidence import explain
    from grader.run.result import saved_run

    pack = load_pack(words_pack)
    assert pack.questions[0].checks[0].settings.written() == {"min_words": 8}
    short = _notebook_with(tmp_path, "Because it looks everywhere.", "why")
    record = score_run(pack, short, saved_run(short), mode="check", seed=0, quick=True,
                       executed=False)
    assert record.score == pytest.approx(10 * 4 / 8)
    assert record.questions[0].message == "4 of the 8 words asked."
    view = explain(record.questions[0].checks[0].model_dump())
    assert view["template"] == "words" and ("words", "4") in view["rows"]
    (words_pack / "pack.toml").write_text(
        (words_pack / "pack.toml").read_text().replace("min_words", "min_wrds"))
    with pytest.raises(PackError, match="did you mean 'min_words'"):
        load_pack(words_pack)


def test_an_unknown_kind_names_the_known_ones(words_pack):
    unregister("words")
    with pytest.raises(PackError) as err:
        load_pack(words_pack)
    assert err.value.field == "questions[0].checks[0].kind" and "tensor" in str(err.value)


# ----------------------------------------------------------------------------------------
# each built-in kind through the registry, on runs built as data


def _run(nb=None, probes=None, cells=None) -> RunResult:
    run = empty_run()
    if nb is not None:
        run.executed = nb
    run.probes = probes or {}
    run.cells = cells or []
    return run


def _ctx(pack, run, *, mode="grade", notebook=True, executed=True, reports=()):
    return Context(pack=pack, mode=mode, seed=7, run=run,
                   notebook=run.executed if notebook else None, executed=executed,
                   reports=Reports.read(list(reports)))


def _code_nb(*sources: str, tags: tuple[str, ...] = ()) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    for source in sources:
        cell = nbformat.v4.new_code_cell(source)
        cell.metadata["tags"] = list(tags)
        nb.cells.append(cell)
    return nb


def test_tensor_kind_scores_the_probe_payload_against_the_reference(pack):
    question = pack.question("q1d")
    check = question.checks[0]
    ctx = _ctx(pack, _run())
    probe, = kind("tensor").probes(check, question, ctx)
    hidden = [c for c in probe.cases if c["name"].startswith("hidden-")]
    assert probe.function == "PositionalEncoding" and hidden
    from grader.checks.tensor import cases

    _sent, expected, scored = cases(ctx, check.settings.target)
    right = ProbePayload(probe.id, "ok",
                         cases={n: {"status": "ok", "outputs": {
                             k: {"shape": list(v.shape), "dtype": str(v.dtype).split(".")[-1],
                                 "device": "cpu"} for k, v in expected[n].items()}}
                                for n in scored},
                         tensors={f"{n}/{k}": v for n in scored for k, v in expected[n].items()})
    result = kind("tensor").score(check, question, _ctx(pack, _run(probes={probe.id: right})))
    assert (result.status, result.fraction) == ("passed", 1.0), result.message
    wrong = ProbePayload(probe.id, "ok", cases=right.cases,
                         tensors={k: v + 1 for k, v in right.tensors.items()})
    result = kind("tensor").score(check, question, _ctx(pack, _run(probes={probe.id: wrong})))
    assert result.status == "failed" and "differs from the reference" in result.message
    not_run = kind("tensor").score(check, question, _ctx(pack, _run(), executed=False))
    assert not_run.status == "not_graded"


def test_probes_of_one_model_are_merged_into_one_request(pack, hf_cache):
    """Every check on one model asks the kernel once, and what it asks is the model's
    weights (issue 25): no text, hidden or public, enters the student's kernel. (The run's
    cache holds the tiny models: planned without it, the real checkpoints' sizes from the
    registry take several parts, as they would on a machine whose cache lacks them.)"""
    for mode in ("grade", "check"):
        probes = {p.id: p for p in plan_probes(Context(pack=pack, mode=mode, seed=1,
                                                       hf_cache=hf_cache))}
        export = probes["ft-predict-model"]
        assert export.function == "export_model"
        assert [c["name"] for c in export.cases] == ["part-0"]
        assert all("texts" not in c["params"] for c in export.cases)
        shards = [i for i in probes if i.startswith("ft-predict-model")]
        assert all(probes[i].function == "export_model" for i in shards)  # shards export too


def test_static_kind_reads_the_executed_notebook(pack):
    question = pack.question("q1c")
    rule = question.checks[1]
    nb = _code_nb("class MultiHeadAttention:\n"
                  "    def forward(self, q):\n        return F.scaled_dot_product_attention(q)")
    result = kind("static").score(rule, question, _ctx(pack, _run(nb)))
    assert result.status == "failed" and "F.scaled_dot_product_attention" in result.message


def test_manual_kind_quotes_the_report_section_for_the_ta(pack, tmp_path):
    report = tmp_path / "report.md"
    report.write_text("# Q3 (b)\nBecause the scores are quadratic in length.\n\n# Q3 (c)\n42\n")
    question = pack.question("q3b")
    result = kind("manual").score(question.checks[0], question,
                                  _ctx(pack, _run(), notebook=False, reports=[report]))
    assert result.status == "manual"
    assert "quadratic in length" in result.evidence["answer_text"]
    assert "42" not in result.evidence["answer_text"]


def test_answer_kind_grades_a_written_answer_against_the_computed_key(pack, tmp_path):
    from grader.checks.answer import answer_key

    question = pack.question("q3c")
    check = question.checks[0]
    key = answer_key(check, question.id, pack.reference)
    right = key.expected[0] if isinstance(key.expected, tuple) else key.expected
    unit = key.expected[1] if isinstance(key.expected, tuple) else ""
    report = tmp_path / "report.md"
    report.write_text(f"# Q3 (c)\nAnswer: {float(right):.4f} {unit}\n")
    result = kind("answer").score(check, question,
                                  _ctx(pack, _run(), notebook=False, reports=[report]))
    assert result.status == "passed", result.message
    report.write_text("# Q3 (c)\nAnswer: 1 GB\n")
    result = kind("answer").score(check, question,
                                  _ctx(pack, _run(), notebook=False, reports=[report]))
    assert result.status == "failed"


def test_logs_and_series_wait_for_a_ta_without_their_evidence():
    lab_b = load_pack(ROOT / "reference" / "transfer-lab-b")
    question, check = lab_b.checks("logs")[0]
    result = kind("logs").score(check, question, _ctx(lab_b, _run(), notebook=False))
    assert result.status == "manual" and "No training logs" in result.message
    lab_a = load_pack(ROOT / "reference" / "transfer-lab-a")
    question, check = lab_a.checks("series")[0]
    result = kind("series").score(check, question, _ctx(lab_a, _run(), notebook=False))
    assert result.status == "manual"  # a TA scores it (grade.py: the question is manual)


def test_finetune_kind_without_a_run_does_not_guess(pack):
    question = pack.question("q2a")
    check = question.checks[0]
    nb = _code_nb("print(train_dataset[0])", tags=("q2a",))
    ctx = _ctx(pack, _run(nb), executed=False)
    result = kind("finetune").score(check, question, ctx)
    assert result.status == "not_graded"
    assert ctx.flags["finetune"] == []  # the record's finetune flags are the kind's list


# ----------------------------------------------------------------------------------------
# the cache key


def _copy_pack(tmp_path: Path) -> Path:
    dest = tmp_path / "pack"
    shutil.copytree(PACK_DIR, dest)
    return dest


def _edited(root: Path, old: str, new: str):
    rubric = root / "pack.toml"
    text = rubric.read_text()
    assert old in text
    rubric.write_text(text.replace(old, new, 1))
    return load_pack(root)


def test_the_execution_key_follows_what_changes_a_run_and_nothing_else(tmp_path):
    root = _copy_pack(tmp_path)
    base = load_pack(root)
    digest, rubric = execution_digest(base, None), rubric_digest(base)
    # scoring only: hints, tolerances, credit tables -> same run, re-scored
    for old, new in (('hint = "Project', 'hint = "Please project'),
                     ("[0.6, 0.4]", "[0.6, 0.5]"),
                     ("atol = 1e-3", "atol = 1e-2"),
                     ("gap_tolerance = 0.06", "gap_tolerance = 0.1")):
        pack = _edited(root, old, new)
        assert execution_digest(pack, None) == digest, old
        assert rubric_digest(pack) != rubric, old
        _edited(root, new, old)
    # what the kernel is asked or runs under -> a new run
    for old, new in (('model = "model2"', 'model = "model3"'),
                     ("cell_timeout = 60", "cell_timeout = 61"),
                     ('family_not = "distilbert"', 'family_not = "bert"')):
        assert execution_digest(_edited(root, old, new), None) != digest, old
        _edited(root, new, old)
    (root / "probes" / "part1.py").write_text((root / "probes" / "part1.py").read_text() + "\n#")
    assert execution_digest(load_pack(root), None) != digest


def test_the_execution_key_follows_the_files_a_download_gets(tmp_path):
    """A file behind `[assignment] downloads` is what a Colab notebook's `!wget` reads in
    the sandbox: a new version of it runs the notebooks again, even when it is not one of
    the pack's public files."""
    root = tmp_path / "pack"
    shutil.copytree(ROOT / "reference" / "attention-module-hw", root)
    (root / "public" / "words.txt").write_text("one\n")
    pack = _edited(root, "downloads = { ", 'downloads = { "https://x.example/w.txt" = '
                   '"public/words.txt", ')
    digest = execution_digest(pack, None)
    (root / "public" / "words.txt").write_text("two\n")
    assert execution_digest(load_pack(root), None) != digest


def test_the_submission_key_covers_files_seed_mode_and_the_grader_code(tmp_path):
    nb = tmp_path / "a.ipynb"
    nb.write_text("{}")
    key = submission_key("exec", nb, [], mode="grade", seed=1, quick=False)
    assert key == submission_key("exec", nb, [], mode="grade", seed=1, quick=False)
    assert key != submission_key("exec", nb, [], mode="grade", seed=2, quick=False)
    assert key != submission_key("exec", nb, [], mode="check", seed=1, quick=False)
    assert key != submission_key("other", nb, [], mode="grade", seed=1, quick=False)
    report = tmp_path / "r.md"
    report.write_text("x")
    assert key != submission_key("exec", nb, [report], mode="grade", seed=1, quick=False)
    nb.write_text("{ }")
    assert key != submission_key("exec", nb, [], mode="grade", seed=1, quick=False)


def test_the_code_digest_covers_the_runner_the_harness_and_probing_kinds(monkeypatch):
    import grader.batch.keys as keys

    before = code_digest()
    keys.code_digest.cache_clear()
    monkeypatch.setattr(keys, "CODE_PARTS", ("run",))
    assert code_digest() != before  # cases.py left out: the digest moved
    keys.code_digest.cache_clear()
    monkeypatch.undo()
    keys.code_digest.cache_clear()
    assert code_digest() == before


# ----------------------------------------------------------------------------------------
# tamper evidence and printed cross-checks


def test_tamper_lists_hooks_tracers_and_replaced_functions_but_not_torch_own_wrappers():
    baseline = {"hooks": {"events.post_run_cell": ["a"]}, "trace": None,
                "ids": {"torch.allclose": 1, "torch.manual_seed": 2, "builtins.input": 3}}
    after = {"hooks": {"events.post_run_cell": ["a", "spy"]}, "trace": "tracer",
             "ids": {"torch.allclose": 9, "torch.manual_seed": 8, "builtins.input": 4,
                     "builtins.cheat": 5},
             "wraps": {"torch.manual_seed": {
                 "wrapped": 2, "file": "/x/site-packages/torch/random.py"}}}
    flags = diff_telemetry({"baseline": baseline, "after": after})
    assert flags == ["added events.post_run_cell: spy", "sys.settrace installed: tracer",
                     "replaced torch.allclose", "added builtins.cheat"]
    assert diff_telemetry({"baseline": baseline}) == [
        "the grader's telemetry did not come back (cell execution was interfered with)"]


def test_a_printed_value_is_held_against_what_the_code_computes():
    nb = _code_nb("print('x')", tags=("demo-q",))
    nb.cells[0].outputs = [nbformat.v4.new_output("stream", name="stdout",
                                                  text="out norm: 5.0\nout shape: (2, 3)\n")]
    run = _run(nb, cells=[CellReport(0, ["demo-q"], "ok")])
    payload = ProbePayload("q", "ok", tensors={"demo/out": torch.full((2, 3), 5 / 6 ** 0.5)})
    norm = PrintedTable(label="out norm", case="demo", output="out", stat="norm",
                        cell_tag="demo-q")
    shape = PrintedTable(label="out shape", case="demo", output="out", stat="shape")
    assert cross_check(norm, run, payload, {})["status"] == "agrees"
    assert cross_check(shape, run, payload, {})["status"] == "agrees"
    payload.tensors["demo/out"] = torch.ones(2, 3)
    row = cross_check(norm, run, payload, {})
    assert row["status"] == "disagrees" and row["computed"] == pytest.approx(6 ** 0.5)
    missing = PrintedTable(label="loss", case="demo", output="out", stat="norm")
    assert cross_check(missing, run, payload, {})["status"] == "not printed"
    # a NaN the code really computes, printed as nan, is honest; a number beside it is not
    payload.tensors["demo/out"] = torch.full((2, 3), float("nan"))
    row = cross_check(norm, run, payload, {})
    assert row["status"] == "disagrees" and row["computed"] == "nan"  # it printed 5.0
    nb.cells[0].outputs[0]["text"] = "out norm: nan\n"
    row = cross_check(norm, _run(nb, cells=[CellReport(0, ["demo-q"], "ok")]), payload, {})
    assert row["status"] == "agrees"


def test_the_types_crossing_stages_import_neither_nbclient_nor_torch():
    import subprocess
    import sys

    probe = ("import sys, grader.run.result; print(sorted({'nbclient', 'torch'} & set(sys.modules)));"
             "from grader.checks.registry import kinds; kinds();"
             "print(sorted({'nbclient', 'grader.run.runner'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.split("\n")
    assert out[:2] == ["[]", "[]"], out


def test_question_and_check_types_stay_plain():
    rule = Check("static", {"scope": "class:M", "forbid": ["x"]})
    assert rule.settings.module is None and rule.settings.written() == {
        "scope": "class:M", "forbid": ["x"]}  # a dict is validated by the kind's model
    assert Question("q", "t", 1.0, ()).printed == ()
