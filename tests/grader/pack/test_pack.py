"""Pack loading, schema errors that name the key, and the public/private split."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from grader.pack import PackError, export_public, load_pack
from tests.grader.conftest import PACK_DIR


def test_stat8021_pack_loads(pack):
    assert pack.id == "stat8021-a3" and not pack.is_public
    assert [q.id for q in pack.questions] == ["q1a", "q1b", "q1c", "q1d",
                                              "q2a", "q2b", "q2c", "q2d",
                                              "q3a1", "q3a2", "q3b", "q3c", "q3d",
                                              "q3e1", "q3e2", "q3e3"]
    # the handout's points: Part 1 30, Part 2 40, Part 3 30 (Q3(a) 6, (b) 4, (c)-(d) 4, (e) 12)
    assert [q.points for q in pack.questions] == [6, 6, 12, 6, 12, 12, 8, 8,
                                                  2, 4, 4, 4, 4, 4, 4, 4]
    assert pack.total == 100
    assert [c.kind for c in pack.question("q3b").checks] == ["manual"]
    assert [c.kind for c in pack.question("q3a2").checks] == ["answer", "answer"]
    assert [c.kind for c in pack.question("q2b").checks] == ["finetune", "finetune"]
    assert pack.models == ("distilbert-base-uncased", "roberta-base")
    q1c = pack.question("q1c")
    assert [c.kind for c in q1c.checks] == ["tensor", "static"] and q1c.checks[1].gate
    assert pack.limits.cell_timeout == 60


def broken(tmp_path: Path, old: str, new: str) -> Path:
    dest = tmp_path / "pack"
    shutil.copytree(PACK_DIR, dest)
    rubric = dest / "pack.toml"
    text = rubric.read_text()
    assert old in text
    rubric.write_text(text.replace(old, new, 1))
    return dest


@pytest.mark.parametrize(("old", "new", "field"), [
    ("total = 100", "total = 71", "assignment.total"),
    ('kind = "tensor"', 'kind = "telepathy"', "questions[0].checks[0].kind"),
    ("points = 6\n", "points = \"six\"\n", "questions[0].points"),
    ('stat = "shape"', 'stat = "mean"', "questions[0].printed[0].stat"),
    ("cell_timeout = 60", "cell_timeot = 60", "limits"),
    ('"probes/part2.py"]', '"probes/nope.py"]', "assignment.probes"),
    ('evaluate = "samples"', 'evaluate = "vibes"', "questions[4].checks[0].evaluate"),
    ('hidden = "private/news_hidden.jsonl"', 'hidden = "private/gone.jsonl"', "data.hidden"),
    ('credit = "all"', 'credit = "most"', "questions[0].checks[0].credit"),
    ('unit = "GB"', "unit = 5", "questions[11].checks[0].unit"),
    ("expected = {calc = \"attention_scores_memory\", args = {seq_len = 16384, n_heads = 48,",
     "expectd = {calc = \"attention_scores_memory\", args = {seq_len = 16384, n_heads = 48,",
     "questions[11].checks[0].expectd"),
    ("credit = 0.25", "credit = 2", "questions[11].checks[0].conventions[0].credit"),
    ("tolerance = {relative = 0.01}", "tolerance = {relativ = 0.01}",
     "questions[15].checks[0].tolerance.relativ"),
])
def test_schema_errors_name_the_key(tmp_path, old, new, field):
    with pytest.raises(PackError) as err:
        load_pack(broken(tmp_path, old, new))
    assert err.value.field == field


@pytest.mark.parametrize(("old", "new", "field", "meant"), [
    ("gap_tolerance = 0.06", "gap_tolerence = 0.06", "questions[5].checks[0].gap_tolerence",
     "gap_tolerance"),
    ("test_fit_credit = 0.5", "test_fit_credt = 0.5", "questions[5].checks[0].test_fit_credt",
     "test_fit_credit"),
    ("atol = 1e-3", "atoll = 1e-3", "questions[0].checks[0].atoll", "atol"),
    ('hint = "Project', 'hnit = "Project', "questions[0].hnit", "hint"),
    ('notebook = "Transformer', 'notbook = "Transformer', "assignment.notbook", "notebook"),
    ("tolerance = {relative = 0.01}", "tolerance = {relativ = 0.01}",
     "questions[15].checks[0].tolerance.relativ", "relative"),
])
def test_a_misspelled_key_is_refused_with_the_key_meant(tmp_path, old, new, field, meant):
    """A typo must not load: the check would run on its defaults (a model trained on the
    test split would keep full credit)."""
    with pytest.raises(PackError) as err:
        load_pack(broken(tmp_path, old, new))
    assert err.value.field == field
    assert f"did you mean {meant!r}" in str(err.value)


def test_export_public_leaves_the_private_part_behind(pack, tmp_path):
    dest = tmp_path / "public"
    export_public(pack, dest)
    files = sorted(str(p.relative_to(dest)) for p in dest.rglob("*") if p.is_file())
    assert "pack.toml" in files and "template/Transformer_practice.ipynb" in files
    assert not any("private" in f or "solution" in f or "reference" in f for f in files)
    for path in dest.rglob("*"):
        if path.is_file():
            text = path.read_bytes()
            assert b"def run_MultiHeadAttention" not in text
            assert b"hidden_cases" not in text
    assert "public/ag_news_train.jsonl" in files and "probes/part2.py" in files
    assert not any("news_hidden" in f or "generated_news_labels" in f for f in files)
    rubric = (dest / "pack.toml").read_text()
    # no answer key, not even how it is computed ("{expected}" in a message is a placeholder)
    assert not re.search(r"^\s*expected\s*=", rubric, re.MULTILINE) and "calc =" not in rubric
    assert 'kind = "answer"' in rubric and 'unit = "GB"' in rubric  # what a self-check needs
    public = load_pack(dest)
    assert public.is_public and public.total == pack.total
    assert set(public.data) == {"train", "test", "external"}  # no hidden split
    with pytest.raises(PackError):
        public.reference()


def test_export_refuses_a_non_empty_destination(pack, tmp_path):
    (tmp_path / "x").write_text("keep me")
    with pytest.raises(PackError):
        export_public(pack, tmp_path)
    assert (tmp_path / "x").read_text() == "keep me"


@pytest.mark.sandbox
def test_public_pack_cannot_grade(pack, tmp_path):
    from grader.grade import grade_notebook

    export_public(pack, tmp_path / "public")
    with pytest.raises(ValueError, match="public pack"):
        grade_notebook(load_pack(tmp_path / "public"), pack.template, mode="grade")
