"""The sample submissions graded for real: right points, clear messages, hostility contained.

Expected scores come from the pack (a wrong sample loses exactly its question's
points), not from a table of numbers.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

import nbformat
import pytest

from tests.conftest import ALONE, readme_scores
from tests.grader.conftest import SAMPLES, SECRET

pytestmark = pytest.mark.sandbox

WRONG = {
    "wrong-q1a-transposed-heads": "q1a",
    "wrong-q1b-mask-after-softmax": "q1b",
    "wrong-q1c-missing-scale": "q1c",
    "wrong-q1c-calls-standalone": "q1c",
    "wrong-q1d-sin-cos-swapped": "q1d",
    "crash-pe-cell": "q1d",
    # Attacks built on the missing-scale sample must not win Q1(c) back.
    "hostile-fake-prints": "q1c",
    # the standalone-calls class under %%time: the rule reads the magic's body
    "hostile-cell-magic-body": "q1c",
}
HELD = {
    # a primitive no honest notebook needs: Part 1 (judged from the kernel) held for a TA,
    # named by its first finding (grader/checks/evasion.py)
    "hostile-monkeypatch": "library-patch",
    "hostile-forged-payload": "library-patch",  # os.replace forging what is read back
    "hostile-leak-hidden": "frame-access",  # Q1(d) walking the grader's frames
    "hostile-namespace-lookup": "namespace-lookup",
    "hostile-aten-disable-torchfunction": "raw-operator",
    "hostile-forged-safetensors": "dynamic-code",
}
PART1 = ("q1a", "q1b", "q1c", "q1d")
OTHERS = "hostile-part2-*"
"""Part 2's attacks: another generator (make_part2_attacks.py) and its own tests."""
PART2 = ("q2a", "q2b", "q2c", "q2d")
PART3 = ("q3a2", "q3c", "q3d", "q3e1", "q3e2", "q3e3")
MANUAL = ("q3a1", "q3b")
"""The Part 1 samples leave Parts 2 and 3 as the template has them (see
submissions/.../README.md); Part 3's explanations wait for a TA in every record."""
PART2_SAMPLES = {"wrong-q2b-fake-accuracy", "wrong-q2b-trains-on-test", "wrong-q3-conventions"}
TEMPLATE_BASED = sorted(
    p.stem for p in SAMPLES.glob("hostile-*.ipynb")
    if p.stem not in WRONG and p.stem not in HELD and not fnmatch.fnmatch(p.stem, OTHERS))


def scores(record) -> dict[str, float]:
    return {q.id: q.score for q in record.questions}


def test_every_sample_is_covered(graded):
    mine = {name for name in graded if not fnmatch.fnmatch(name, OTHERS)}
    assert mine == {"solution", *WRONG, *HELD, *TEMPLATE_BASED, *PART2_SAMPLES}
    assert len(TEMPLATE_BASED) == 13 and len(HELD) == 6


def test_every_sample_scores_what_the_readme_says(graded):
    """The README's table is the promise a course reads; every sample keeps it (on every
    Python the grader supports: CI grades this class on 3.12 as well)."""
    promised = readme_scores()
    assert set(promised) == set(graded)
    got = {name: g.record.score for name, g in graded.items()}
    assert got == promised


def test_solution_scores_full_marks(graded, pack):
    record = graded["solution"].record
    manual = sum(pack.question(q).points for q in MANUAL)
    assert pack.total == 100 and manual == 6  # the handout's total; Q3(a)(I) and Q3(b) by hand
    assert record.score == pack.total - manual and record.status == "incomplete"
    assert all(q.status == ("manual" if q.id in MANUAL else "passed") for q in record.questions)
    assert all(q.score is None for q in record.questions if q.id in MANUAL)
    flags = record.flags
    assert (flags.tamper, flags.printed_mismatch, flags.finetune) == ([], [], [])
    assert record.run["limits_hit"] == [] and record.run["cell_errors"] == []


@pytest.mark.parametrize("sample", sorted(WRONG))
def test_wrong_sample_loses_exactly_its_question(graded, pack, sample):
    record = graded[sample].record
    wrong = WRONG[sample]
    assert scores(record)[wrong] == 0
    assert all(scores(record)[q] == 0 for q in (*PART2, *PART3))
    undone = sum(pack.question(q).points for q in (*PART2, *PART3, *MANUAL))
    assert record.score == pack.total - undone - pack.question(wrong).points
    others = {q: s for q, s in scores(record).items()
              if q != wrong and q not in (*PART2, *PART3, *MANUAL)}
    assert all(s == pack.question(q).points for q, s in others.items())
    assert next(q for q in record.questions if q.id == wrong).hint


@pytest.mark.parametrize("sample", sorted(HELD))
def test_a_primitive_holds_part1_for_a_ta_and_names_the_line(graded, sample):
    """Issue 25: evasion made visible, not chased. No point is given for what the kernel
    returned, none is silently taken: each Part 1 question waits for a TA, its message
    naming the primitive, what is written and where."""
    from grader.checks.evasion import PRIMITIVES

    record = graded[sample].record
    for question in record.questions:
        if question.id in PART1:
            assert question.status == "manual" and question.score is None, question.id
            assert question.message.startswith("Held for a TA: the submission uses "
                                               + PRIMITIVES[HELD[sample]])
            assert "of cell" in question.message
            held = question.checks[0]
            assert held["status"] == "manual" and held["evidence"][0]["primitive"] == HELD[sample]
    assert record.score == 0 and record.status == "incomplete"


def test_the_runtime_refuses_what_the_attacks_forge(graded):
    """The halves that hold without the static findings: the forged writer is refused by
    identity (not by its file name), and the recording switched off for the composite
    attention says it cannot vouch, on every case."""
    forged = graded["hostile-forged-safetensors"].run.probes
    assert all(p.status == "invalid" and "safetensors.torch.save_file" in p.message
               for p in forged.values())
    bypassed = graded["hostile-aten-disable-torchfunction"].run.probes[
        "q1c-MultiHeadAttention"]
    assert bypassed.ops and all("grader::recording-bypassed" in ops
                                for ops in bypassed.ops.values())
    assert not any(op.startswith("grader::") for ops in
                   graded["solution"].run.probes["q1c-MultiHeadAttention"].ops.values()
                   for op in ops)


def message(record, qid: str) -> str:
    return next(q.message for q in record.questions if q.id == qid)


def test_messages_say_what_is_wrong(graded):
    assert "differs from the reference" in message(
        graded["wrong-q1a-transposed-heads"].record, "q1a")
    standalone = message(graded["wrong-q1c-calls-standalone"].record, "q1c")
    assert "get_multihead_qkv" in standalone and "line" in standalone
    crash = graded["crash-pe-cell"].record
    assert "does not define the class `PositionalEncoding`" in message(crash, "q1d")
    assert any(e["ename"] == "AttributeError" for e in crash.run["cell_errors"])
    template = graded["hostile-network"].record
    assert "not implemented" in message(template, "q1a")


def test_standalone_calls_pass_numerically_but_fail_the_rule(graded):
    record = graded["wrong-q1c-calls-standalone"].record
    q1c = next(q for q in record.questions if q.id == "q1c")
    tensor, static = q1c.checks
    assert tensor["status"] == "passed" and static["status"] == "failed" and static["gate"]


@pytest.mark.parametrize("sample", TEMPLATE_BASED)
def test_hostile_template_samples_earn_nothing(graded, sample):
    assert graded[sample].record.score == 0


def test_fake_prints_are_flagged(graded):
    flagged = graded["hostile-fake-prints"].record.flags["printed_mismatch"]
    assert {row["label"] for row in flagged} == {"attention output error",
                                                 "masked attention output error"}
    assert all(float(row["printed"]) == 0 and row["computed"] > 1e-3 for row in flagged)


def test_monkeypatching_is_recorded_as_tampering(graded):
    tamper = graded["hostile-monkeypatch"].record.flags["tamper"]
    assert "replaced torch.allclose" in tamper
    assert "replaced builtins.abs" in tamper
    assert "replaced torch.Tensor.__sub__" in tamper


def test_ipython_hooks_are_recorded_and_removed(graded):
    graded_run = graded["hostile-ipython-hook"]
    tamper = graded_run.record.flags["tamper"]
    assert any(t.startswith("added events.post_run_cell") for t in tamper)
    assert any(t.startswith("added input_transformers_post") for t in tamper)
    assert graded_run.run.telemetry["removed"]


def outputs_text(run) -> str:
    return "\n".join(str(o.get("text", "")) + str(o.get("evalue", ""))
                     for c in run.executed.cells for o in c.get("outputs", []))


def test_limits_are_named(graded):
    def limits(sample):
        return {h["limit"] for h in graded[sample].record.run["limits_hit"]}

    assert "cell_timeout" in limits("hostile-infinite-loop")
    assert "memory_bytes" in limits("hostile-memory-bomb")
    assert "processes" in limits("hostile-fork-bomb")
    assert "kernel_died" in limits("hostile-os-exit")
    assert "output_bytes" in limits("hostile-output-flood")
    for sample in ALONE:  # each trips its own limit long before its cell timeout
        assert "cell_timeout" not in limits(sample), (sample, limits(sample))


def test_output_flood_is_cut(graded):
    run = graded["hostile-output-flood"].run
    assert len(outputs_text(run)) < 400_000


def test_network_is_unreachable(graded):
    text = outputs_text(graded["hostile-network"].run)
    assert "example.com" in text or "urlopen" in text.lower() or "Errno" in text
    assert "200 OK" not in text and "<html" not in text.lower()


def test_secrets_stay_out_of_sight(graded):
    text = outputs_text(graded["hostile-read-secrets"].run)
    assert SECRET not in text
    assert "def run_MultiHeadAttention" not in text
    assert "private/reference.py" not in text


def test_writes_outside_scratch_fail(graded, tmp_path):
    run = graded["hostile-write-outside"].run
    assert not Path("/etc/pwned").exists()
    assert not Path("/work/pwned").exists()
    assert not Path("/pwned").exists()
    assert "pwned" not in os.listdir(SAMPLES.parents[1])
    # The notebook ran to the end: every cell, the attack cell without an error (each
    # write failed with an OSError it caught and printed), none skipped or stopped.
    cells = nbformat.read(SAMPLES / "hostile-write-outside.ipynb", as_version=4).cells
    assert len(run.cells) == len(cells)
    attack = next(i for i, cell in enumerate(cells) if cell.get("id") == "attack")
    assert run.cells[attack].status == "ok"
    assert {c.status for c in run.cells} <= {"ok", "error"}
    printed = outputs_text(run).splitlines()
    assert "blocked /etc/pwned: PermissionError" in printed
    wrote = {line.split()[1] for line in printed if line.startswith("WROTE ")}
    # its own scratch (also seen as Colab's /content: grader/run/sandbox.py ALIASES) and
    # its private /tmp
    assert wrote <= {"/home/student/pwned", "/content/pwned", "/tmp/pwned"}


def test_pickle_payloads_are_never_loaded(graded):
    assert not Path("/tmp/grader-pwned").exists()
    assert graded["hostile-pickle-payload"].record.score == 0


def test_no_process_survives_a_run(graded):
    import psutil

    def kernel(pid: str) -> bool:
        """A sandboxed kernel started by this test session (not another run on the machine)."""
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            ours = os.getpid() in {p.pid for p in psutil.Process(int(pid)).parents()}
        except (OSError, psutil.Error):
            return False
        return ours and b"ipykernel_launcher" in cmd and b"/rt/kernel.json" in cmd

    assert [pid for pid in os.listdir("/proc") if pid.isdigit() and kernel(pid)] == []


def test_hidden_seed_is_recorded_and_changes_cases(graded, pack):
    from grader.checks.kind import Context
    from grader.checks.tensor import cases

    assert graded["solution"].record.run["seed"] == 1234
    a = cases(Context(pack=pack, mode="grade", seed=1), "get_multihead_qkv")[0]
    b = cases(Context(pack=pack, mode="grade", seed=2), "get_multihead_qkv")[0]
    hidden = [i for i, c in enumerate(a) if c["name"].startswith("hidden-")]
    assert hidden and not any(
        a[i]["tensors"]["x"].equal(b[i]["tensors"]["x"]) for i in hidden)


def test_a_dying_kernel_is_restarted_and_the_notebook_goes_on(graded):
    graded_run = graded["hostile-os-exit"]
    run = graded_run.run
    fatal = next(c for c in run.cells if c.status == "killed")
    later = [c for c in run.cells[fatal.index + 1:] if c.status != "ok" or c.seconds]
    assert run.restarts == 1 and later, "cells after the fatal one must still run"
    assert {h["cell"] for h in graded_run.record.run["limits_hit"]} == {fatal.index}


def _convention_credit(pack, qid: str, name: str) -> float:
    """A convention's credit as the rubric states it (not retyped here)."""
    return next(float(c.credit) for check in pack.question(qid).checks
                for c in getattr(check.settings, "conventions", []) if c.name == name)


def test_part3_conventions_earn_the_rubric_credit(graded, pack):
    record = graded["wrong-q3-conventions"].record
    got = scores(record)
    by_id = {q.id: q for q in record.questions}
    assert got["q3c"] == pack.question("q3c").points / 2  # GiB labelled GB: built-in 1/2
    assert by_id["q3c"].checks[0]["evidence"]["convention"] == "gib_vs_gb"
    assert got["q3d"] == pack.question("q3d").points * _convention_credit(pack, "q3d", "no_biases")
    assert "leaves out the biases" in by_id["q3d"].message
    log10 = _convention_credit(pack, "q3a2", "log10")
    assert got["q3a2"] == pack.question("q3a2").points * (1 + log10) / 2  # p right, loss log10
    assert got["q3e2"] == pack.question("q3e2").points  # 72 MiB is exactly right
    for qid in ("q3e1", "q3e3"):
        assert got[qid] == pack.question(qid).points
    evidence = by_id["q3e2"].checks[0]["evidence"]
    assert evidence["answer"] == "72 MiB" and evidence["source"] == "notebook"
    assert evidence["where"].startswith("cell ")


def test_part3_blank_answers_say_where_to_write(graded):
    record = graded["wrong-q1a-transposed-heads"].record
    q3c = next(q for q in record.questions if q.id == "q3c")
    assert q3c.score == 0 and "Answer: line of the cell tagged 'q3c' is empty" in q3c.message
