"""The channel between the student's kernel and the grader, under attack (issue 17).

Unit tests of the payload checks (no kernel), then one small notebook per family in the
real sandbox: forged payloads, probe deaths, leaks through messages and frames, threads
and processes outliving their cells, limits on the whole sandbox.
"""

from __future__ import annotations

import json
import os
import time

import nbformat
import pytest
import torch
from safetensors.torch import save_file

from grader.run import payload as checked
from grader.run.limits import Limits
from grader.run.payload import BadPayload
from grader.run.runner import ProbeRequest, Runner
from tests.grader.conftest import needs_bwrap

# ----------------------------------------------------------------------------------------
# payload checks, without a kernel


def ok_case(**outputs: torch.Tensor) -> dict:
    return {"status": "ok", "seconds": 0.01, "ops": ["aten::mm"], "outputs": {
        k: {"shape": list(v.shape), "dtype": str(v.dtype).replace("torch.", ""),
            "device": "cpu", "requires_grad": False} for k, v in outputs.items()}}


def test_deep_json_is_refused_before_it_is_parsed():
    data = b"[" * 200_000 + b"]" * 200_000
    start = time.perf_counter()
    with pytest.raises(BadPayload, match="nested deeper"):
        checked.parse_json(data, "p.json")
    assert time.perf_counter() - start < 1.0
    with pytest.raises(BadPayload, match="not valid JSON"):
        checked.parse_json(b'{"seconds": NaN}', "p.json")


def test_big_files_links_and_fifos_are_refused_unread(tmp_path):
    big = tmp_path / "after.json"
    with open(big, "wb") as fh:
        fh.truncate(120 << 20)  # 120 MB, sparse: nothing is written or read
    with pytest.raises(BadPayload, match="over the limit"):
        checked.load_json(big, checked.MAX_SNAPSHOT_JSON_BYTES)
    link = tmp_path / "p.json"
    link.symlink_to(big)
    with pytest.raises(BadPayload, match="plain file"):
        checked.load_json(link, checked.MAX_PROBE_JSON_BYTES)
    os.mkfifo(tmp_path / "fifo.json")
    with pytest.raises(BadPayload, match="plain file"):
        checked.load_json(tmp_path / "fifo.json", checked.MAX_PROBE_JSON_BYTES)
    assert checked.load_json(tmp_path / "none.json", 10) is None


@pytest.mark.parametrize(("cases", "why"), [
    ({"c": {"status": "ok", "outputs": {"y": "tensor([1.0, 2.0])"}}}, "where an object"),
    ({"c": {"status": "ok", "outputs": {"y": {"shape": "2", "dtype": "float32"}}}}, "shape"),
    ({"c": {"status": "ok", "outputs": {}, "seconds": "fast"}}, "finite number"),
    ({"c": {"status": "ok", "outputs": {}, "ops": ["x" * 500]}}, "operator name"),
    ({"c": {"status": "passed"}}, "unknown status"),
    ({"c": {"status": "error", "kind": "pwned"}}, "unknown error kind"),
    ({"c": {"status": "ok", "outputs": {}, "verdict": "correct"}}, "unknown key"),
    ({"other": {"status": "ok", "outputs": {}}}, "never sent"),
    ({"c": {"status": "ok", "outputs": {"__info__": {"a": [1, 2]}}}}, "not a number"),
])
def test_a_payload_that_is_not_what_the_harness_writes_is_refused(cases, why):
    with pytest.raises(BadPayload, match=why):
        checked.check_probe({"check": "q", "cases": cases}, "q", ["c"])


def test_tensors_must_match_their_declaration_and_ids_must_be_integers():
    y = torch.zeros(2, 3)
    cases = checked.check_probe({"check": "q", "cases": {"c": ok_case(y=y)}}, "q", ["c"])
    assert checked.check_tensors({"c/y": y}, cases) == {"c/y": y}
    with pytest.raises(BadPayload, match="missing"):
        checked.check_tensors({}, cases)
    with pytest.raises(BadPayload, match="not declared"):
        checked.check_tensors({"c/y": y, "c/z": y}, cases)
    with pytest.raises(BadPayload, match="not what its case declares"):
        checked.check_tensors({"c/y": torch.zeros(3, 2)}, cases)
    nan = torch.full((4,), float("nan"))  # an "argmax" that is NaN
    cases = checked.check_probe({"check": "q", "cases": {"c": ok_case(predictions=nan)}},
                                "q", ["c"])
    with pytest.raises(BadPayload, match="not integer ids"):
        checked.check_tensors({"c/predictions": nan}, cases)


def test_messages_are_cut_and_carry_no_tensor_values_or_hidden_text():
    hidden = checked.hidden_texts({"hidden": {"texts": [
        "Stocks rally as the central bank holds rates steady for a third month"]}})
    message = ("ValueError: got tensor([[0.1234, -0.5678], [1.5e-3, 2.0]]) and "
               "0.318309886 for 'Stocks rally as the central bank holds rates' "
               + "1, 2, 3, 4, 5, 6, 7, 8 " + "x" * 1_000)
    case = {"status": "error", "kind": "exception", "message": message,
            "where": {"line": 3, "code": "raise ValueError(texts[0])", "function": "forward"}}
    out = checked.check_probe({"check": "q", "cases": {"c": case}}, "q", ["c"], hidden)["c"]
    text = out["message"]
    assert len(text) <= checked.MAX_MESSAGE and text.startswith("ValueError: got tensor(…)")
    assert "0.12" not in text and "0.3183" not in text and "5, 6, 7" not in text
    assert "central bank" not in text
    assert out["where"] == {"line": 3, "code": "raise ValueError(texts[0])",
                            "function": "forward"}


def test_snapshots_are_checked_and_a_copied_one_is_refused():
    snap = {"nonce": "n2", "hooks": {"events.post_run_cell": ["a"]}, "trace": None,
            "profile": None, "ids": {"torch.allclose": 1}, "wraps": {}, "torch_loaded": True}
    assert checked.check_snapshot(snap, "n2")["ids"] == {"torch.allclose": 1}
    with pytest.raises(BadPayload, match="not the one asked for"):
        checked.check_snapshot({**snap, "nonce": "n1"}, "n2")
    with pytest.raises(BadPayload, match="ids"):
        checked.check_snapshot({**snap, "ids": {"torch.allclose": "same"}}, "n2")


# ----------------------------------------------------------------------------------------
# notebooks in the sandbox


def write(tmp_path, *sources: str):
    path = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(s) for s in sources]), path)
    return path


def probe(tmp_path, name: str = "q", function: str = "f", cases: int = 1,
          shape: tuple[int, ...] = (2,)) -> ProbeRequest:
    inputs = tmp_path / f"{name}.safetensors"
    params = {f"c{i}": {} for i in range(cases)}
    save_file({f"c{i}/in/x": torch.ones(shape) for i in range(cases)}, str(inputs),
              metadata={"params": json.dumps(params)})
    source = ("def p(student, case):\n"
              f"    return {{'y': student.call(student.function({function!r}), case['x'])}}\n")
    return ProbeRequest(name, "p", source, inputs)


NAN_IDS = """
import torch

def f(x):
    return torch.full((2,), float("nan"))  # "class ids" that are NaN (an argmax of NaN)
"""


@pytest.mark.sandbox
def test_a_payload_the_checks_cannot_read_is_the_checks_failure_not_the_graders(tmp_path):
    needs_bwrap()
    from grader.run.sandbox import Sandbox

    request = probe(tmp_path)
    request.source = request.source.replace("{'y':", "{'predictions':")
    result = Runner(Sandbox.create(), Limits(cell_timeout=30)).run(
        write(tmp_path, NAN_IDS), probes=[request])
    payload = result.probes["q"]
    assert payload.status == "invalid" and "not integer ids" in payload.message
    assert payload.tensors == {} and payload.cases == {}

KILLER = "def f(x):\n    import os\n    os._exit(1)  # every probe kills the kernel"
TRAINING = "import time\ntime.sleep(1.5)  # longer than the cell timeout, within the tag's\ntrained = True"


@pytest.mark.sandbox
def test_probe_deaths_are_replayed_within_the_restart_limit_and_the_tags_budgets(
        tmp_path, monkeypatch):
    needs_bwrap()
    from grader.run import runner as runner_module
    from grader.run.sandbox import Sandbox

    monkeypatch.setattr(runner_module, "MAX_RESTARTS", 1)
    nb = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(KILLER),
        nbformat.v4.new_code_cell(TRAINING, metadata={"tags": ["train"]})]), nb)
    limits = Limits(cell_timeout=1, tag_timeouts={"train": 10}, notebook_timeout=60)
    probes = [probe(tmp_path, f"q{i}") for i in range(4)]
    start = time.perf_counter()
    result = Runner(Sandbox.create(), limits).run(nb, probes=probes)
    # One restart (the limit): the first death is replayed, the second is final, and the
    # last two probes are not run at all, instead of one replay per probe.
    assert result.restarts == 1
    assert [result.probes[f"q{i}"].status for i in range(4)] == ["died"] * 4
    assert "Not run" in result.probes["q3"].message
    assert "not restarted again" in result.probes["q3"].message
    # The replay ran the training cell with its tag's budget, not the 1 s cell timeout.
    assert result.cells[1].status == "ok" and result.cells[1].seconds >= 1.5
    assert not any(h["limit"] == "cell_timeout" for h in result.limits_hit)
    assert time.perf_counter() - start < 40


ATTENTION = """
import torch
import torch.nn.functional as F

def fused(x):
    return F.scaled_dot_product_attention(x, x, x)

def composite(x):  # decomposes before a dispatch mode: only the call itself names it
    return torch.ops.aten._scaled_dot_product_attention_math(x, x, x)[0]

def hides(x):  # pops the grader's recording, then calls the fused kernel
    torch._C._pop_torch_dispatch_stack(None)
    torch._C._pop_torch_function_stack()
    return F.scaled_dot_product_attention(x, x, x)

def plain(x):
    return torch.softmax(x @ x.transpose(-2, -1), dim=-1) @ x

def disabled(x):  # the function mode switched off for the call, not popped (issue 25)
    with torch._C.DisableTorchFunction():
        return torch.ops.aten._scaled_dot_product_attention_math(x, x, x)[0]
"""


def test_a_recording_switched_off_for_a_call_is_marked_bypassed():
    """The harness's recorder, in this process (the sandboxed run is below): an operator
    dispatched while the function mode is switched off, outside any call it saw, marks
    the case; honest code, a backward pass and torch's own subclass switch do not."""
    from grader.run.kernel_side import HARNESS_SOURCE

    space: dict = {"__name__": "harness_under_test"}
    exec(compile(HARNESS_SOURCE, "<harness>", "exec"), space)  # no guard: not a kernel
    space["_VAULT"] = space["_make_vault"]()
    recording = space["_op_recorder"](torch)

    def ops(fn) -> list[str]:
        rec = recording()
        with rec:
            fn()
        return rec.ops()

    x = torch.randn(1, 2, 3, 4, requires_grad=True)
    layer = torch.nn.Linear(4, 4)

    def honest():
        (torch.softmax(layer(x) @ x.transpose(-2, -1), -1) @ x).sum().backward()
        with torch._C.DisableTorchFunctionSubclass():
            torch.mm(torch.ones(2, 2), torch.ones(2, 2))

    def hidden():
        with torch._C.DisableTorchFunction():
            torch.ops.aten._scaled_dot_product_attention_math(x, x, x)

    assert not any(op.startswith("grader::") for op in ops(honest))
    marked = ops(hidden)
    assert marked[0] == "grader::recording-bypassed" and "aten::bmm" in marked
    assert not any("scaled_dot_product" in op for op in marked)


@pytest.mark.sandbox
def test_the_operators_a_probe_ran_come_back_per_case(tmp_path):
    needs_bwrap()
    from grader.run.sandbox import Sandbox

    names = ("fused", "composite", "hides", "plain", "disabled")
    probes = [probe(tmp_path, n, n, shape=(1, 2, 3, 4)) for n in names]
    result = Runner(Sandbox.create(), Limits(cell_timeout=30)).run(
        write(tmp_path, ATTENTION), probes=probes)
    ops = {n: result.probes[n].ops["c0"] for n in names}
    assert "aten::_scaled_dot_product_flash_attention_for_cpu" in ops["fused"]
    assert "aten::scaled_dot_product_attention" in ops["fused"]
    assert "aten::_scaled_dot_product_attention_math" in ops["composite"]
    assert "grader::recording-stopped" in ops["hides"]
    # fail closed: what ran while the function mode was off is not vouched for
    assert "grader::recording-bypassed" in ops["disabled"]
    assert not any("scaled_dot_product" in op for op in ops["disabled"])
    assert not any(op.startswith("grader::") for n in ("fused", "composite", "plain")
                   for op in ops[n])
    assert not any("scaled_dot_product" in op for op in ops["plain"])
    assert "aten::bmm" in ops["plain"] and ops["plain"] == sorted(set(ops["plain"]))
    assert all(result.probes[n].status == "ok" for n in names)


# ----------------------------------------------------------------------------------------
# the hostile samples (graded once per session by the `graded` fixture of tests/conftest.py)


@pytest.mark.sandbox
def test_forged_payloads_cost_the_check_never_the_grader(graded):
    record, run = graded["hostile-forged-payload"].record, graded["hostile-forged-payload"].run
    assert record.score == 0  # nothing won back; the replaced os.replace holds Part 1
    q1c = next(q for q in record.questions if q.id == "q1c")
    assert q1c.score is None and q1c.status == "manual" and "os.replace" in q1c.message
    assert all(p.status in ("ok", "invalid") for p in run.probes.values())


@pytest.mark.sandbox
def test_a_kernel_killed_by_every_probe_is_restarted_at_most_three_times(graded):
    run = graded["hostile-probe-kills-kernel"].run
    assert run.restarts == 3 and graded["hostile-probe-kills-kernel"].record.score == 0
    statuses = [p.status for p in run.probes.values()]
    assert statuses.count("died") == len(statuses)
    assert sum("Not run" in p.message for p in run.probes.values()) == len(statuses) - 4


@pytest.mark.sandbox
def test_messages_from_a_frame_walking_error_carry_no_hidden_values(graded):
    import re

    record, run = graded["hostile-leak-hidden"].record, graded["hostile-leak-hidden"].run
    assert record.score == 0  # the frame access holds Part 1 for a TA
    q1d = next(q for q in record.questions if q.id == "q1d")
    assert q1d.status == "manual" and "sys._getframe" in q1d.message
    # what the probe brought back is still cut and scrubbed, in the run and the record
    probe = run.probes["q1d-PositionalEncoding"]
    texts = [q1d.message] + [str(c.get("message", "")) for c in probe.cases.values()
                             if c.get("status") == "error"]
    assert texts and all("ValueError" in t for t in texts[1:])
    for text in texts:
        assert not re.search(r"\d\.\d", text), text  # no tensor values, no float at all
        assert "/run/" not in text and "g-" not in text.replace("-len", "")
    assert all(len(t) <= 320 for t in texts[1:])


POLITE = """
import os, queue, threading, time

def f(x):
    return x + 1

def busy():
    while True:
        time.sleep(0.001)  # ends at the SystemExit the grader raises in it

blocked = queue.Queue()
threading.Thread(target=busy, name="busy", daemon=True).start()
threading.Thread(target=blocked.get, name="blocked", daemon=True).start()  # never wakes
if os.fork() == 0:  # a daemon: its own session, reparented to the sandbox's init
    os.setsid()
    if os.fork() == 0:
        time.sleep(3600)
    os._exit(0)
"""
STUBBORN = """
import threading, time

def f(x):
    return x + 1

def stubborn():
    try:
        while True:
            time.sleep(0.001)
    except BaseException:  # the grader's SystemExit, swallowed: go round again
        stubborn()

threading.Thread(target=stubborn, name="stubborn", daemon=True).start()
"""


@pytest.mark.sandbox
def test_threads_and_processes_do_not_outlive_the_cells(tmp_path):
    needs_bwrap()
    from grader.run.sandbox import Sandbox

    box = Sandbox.create()
    result = Runner(box, Limits(cell_timeout=30)).run(write(tmp_path, POLITE),
                                                      probes=[probe(tmp_path)])
    stopped = result.telemetry["stopped"]
    assert stopped["stopped"] == ["busy"] and stopped["dormant"] == ["blocked"]
    assert stopped["running"] == [] and stopped["killed"] >= 1
    assert result.probes["q"].status == "ok"  # nothing left running: the probe is used
    assert [h["limit"] for h in result.limits_hit] == ["processes"]
    # A thread that swallows the SystemExit keeps running: no probe result is used.
    result = Runner(box, Limits(cell_timeout=30)).run(write(tmp_path, STUBBORN),
                                                      probes=[probe(tmp_path)])
    assert result.telemetry["stopped"]["running"] == ["stubborn"]
    payload = result.probes["q"]
    assert payload.status == "invalid" and "stubborn" in payload.message
    assert "stubborn" in result.limits_hit[0]["detail"]


@pytest.mark.sandbox
def test_a_thread_that_would_forge_payloads_stops_the_probes_not_the_grader(graded):
    graded_run = graded["hostile-background-thread"]
    run, record = graded_run.run, graded_run.record
    assert record.score == 0  # a forged Q1(c) would have won its 12 points
    assert run.telemetry["stopped"]["running"] == ["meddler"]
    assert all(p.status == "invalid" and "meddler" in p.message for p in run.probes.values())
    assert any("meddler" in h.get("detail", "") for h in record.run["limits_hit"])
    # the patched json.dump changed nothing the grader reads: the snapshots are the harness's
    assert run.telemetry["after"] is not None and "refused" not in run.telemetry


CHILDREN = """
import subprocess, sys
code = "b = bytearray(2 << 30); import time; time.sleep(3)"  # 2 GiB each, touched
children = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(4)]
codes = [c.wait() for c in children]
print("exit codes", codes)
"""
FILL = """
import os
chunk = b"x" * (64 << 20)
written = 0
for i in range(32):  # 2 GiB in files of 128 MiB (each under the file-size limit)
    with open(f"blob{i}", "wb") as f:
        f.write(chunk)
        f.write(chunk)
    written += 2 * len(chunk)
"""


@pytest.mark.sandbox
def test_the_whole_sandbox_is_bounded_not_each_process(tmp_path):
    needs_bwrap()
    from grader.run import cgroup
    from grader.run.sandbox import Sandbox

    if os.geteuid() != 0 or cgroup.create(0, 0)[0] is None:
        pytest.skip(f"no cgroup can be made here: {cgroup.create(0, 0)[1]}")
    # (that probe made and left an empty cgroup; remove it)
    group, _ = cgroup.create(0, 0)
    group.remove()
    limits = Limits(cell_timeout=60, memory_bytes=3 << 30, scratch_bytes=256 << 20)
    result = Runner(Sandbox.create(), limits).run(write(tmp_path, CHILDREN, FILL))
    assert result.limits_mechanism.startswith("cgroup v")
    assert "working folder: tmpfs of 256 MiB" in result.limits_mechanism
    printed = "".join(o.get("text", "") for o in result.executed.cells[0].outputs)
    codes = [int(c) for c in printed.split("[")[1].split("]")[0].split(",")]
    assert codes.count(0) <= 1 and -9 in codes  # 4 x 2 GiB never fit in 3 GiB together
    hits = {h["limit"]: h for h in result.limits_hit}
    assert hits["memory_bytes"]["cell"] == 0
    assert result.cells[1].status == "error" and "[Errno 28]" in result.cells[1].evalue
    assert hits["scratch_bytes"]["cell"] == 1
    assert "disk space" in hits["scratch_bytes"]["message"]


def test_without_cgroups_the_run_says_so(monkeypatch, tmp_path):
    from grader.run import cgroup

    monkeypatch.setattr(cgroup, "ROOT", tmp_path / "nowhere")
    assert cgroup.create(1 << 30, 64) == (None, "no /sys/fs/cgroup")
    from grader.run.sandbox import Sandbox

    words = Sandbox(kind="bwrap").limits_mechanism(Limits(), "rlimits only: no /sys/fs/cgroup")
    assert words.startswith("rlimits only") and "tmpfs of 1024 MiB" in words


@pytest.mark.sandbox
def test_children_and_disk_share_the_sandbox_limits(graded):
    graded_run = graded["hostile-shared-limits"]
    record = graded_run.record
    assert record.score == 0
    limits = {h["limit"] for h in record.run["limits_hit"]}
    if graded_run.run.limits_mechanism.startswith("cgroup"):
        assert "memory_bytes" in limits  # the cgroup ended children past its memory
    assert "scratch_bytes" in limits  # the working folder's tmpfs filled at its size
    # each tripped in one step, far inside the cell timeout these samples get
    # (tests/conftest.py ALONE_LIMITS): no race with the clock, however loaded the machine
    assert "cell_timeout" not in limits


# ----------------------------------------------------------------------------------------
# identities, not self-descriptions (issue 25): each notebook forges what the harness uses
# in a way a check of names would accept

FORGERIES = {
    # a function compiled under the library's own file name (attack 7 of issue 25)
    "forged_file_name": """
import torch
import safetensors.torch

space = {"real": safetensors.torch.save_file}
exec(compile("def save_file(t, f, metadata=None):\\n"
             "    return real({k: v * 0 + 1 for k, v in t.items()}, f, metadata)\\n",
             safetensors.torch.__file__, "exec"), space)
safetensors.torch.save_file = space["save_file"]

def f(x):
    return x * 2
""",
    # the library's own function object, its code swapped: same identity, other behaviour
    "code_swapped": """
import torch
import safetensors.torch

def g(tensors, filename, metadata=None):
    return None

safetensors.torch.save_file.__code__ = g.__code__

def f(x):
    return x * 2
""",
    # a global the writer calls, replaced in its module
    "writer_global": """
import torch
import safetensors.torch

safetensors.torch.serialize_file = lambda *a, **k: None

def f(x):
    return x * 2
""",
    # a method of torch.Tensor replaced while the probe calls the student's code
    "tensor_method_during_the_call": """
import torch

def f(x):
    torch.Tensor.clone = lambda self, *a, **k: torch.ones_like(self.detach())
    return x * 2
""",
}
FORGED_NAMES = {
    "forged_file_name": "safetensors.torch.save_file",
    "code_swapped": "safetensors.torch.save_file.__code__",
    "writer_global": "safetensors.torch.serialize_file",
    "tensor_method_during_the_call": "Tensor.clone",
}
STAND_IN_MODULE = """
import sys
import types
import torch

# a stand-in where the harness used to import at probe time: never imported by it now
fake = types.ModuleType("safetensors.torch")
fake.save_file = lambda tensors, filename, metadata=None: open(filename, "w").write("forged")
sys.modules["safetensors.torch"] = fake

def f(x):
    return x * 2
"""


@pytest.mark.sandbox
@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_what_the_harness_writes_with_is_compared_by_identity(tmp_path, forgery):
    needs_bwrap()
    from grader.run.sandbox import Sandbox

    result = Runner(Sandbox.create(), Limits(cell_timeout=30)).run(
        write(tmp_path, FORGERIES[forgery]), probes=[probe(tmp_path)])
    payload = result.probes["q"]
    assert payload.status != "ok" and payload.tensors == {}
    assert FORGED_NAMES[forgery] in payload.message, payload.message


@pytest.mark.sandbox
def test_the_harness_never_imports_what_sys_modules_holds_at_probe_time(tmp_path):
    needs_bwrap()
    from grader.run.sandbox import Sandbox

    result = Runner(Sandbox.create(), Limits(cell_timeout=30)).run(
        write(tmp_path, STAND_IN_MODULE), probes=[probe(tmp_path)])
    payload = result.probes["q"]
    assert payload.status == "ok", payload.message
    assert torch.equal(payload.tensors["c0/y"], torch.full((2,), 2.0))  # the real writer's
