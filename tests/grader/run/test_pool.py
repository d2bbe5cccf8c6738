"""Warm kernels (grader/run/pool.py): fresh per submission, hostile samples score as cold,
and no kernel outlives its submission or the process that owns it.

Real kernels in the real sandbox throughout; one pool for the module, each kernel used
once (the pool keeps one ready while the previous one runs).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import nbformat
import pytest

from grader.run.limits import Limits
from grader.run.pool import STOP_SECONDS
from grader.run.sandbox import Sandbox
from grader.run.sandbox_processes import pids_of_uid as _pids_of_uid
from tests.conftest import (
    ALONE,
    ALONE_LIMITS,
    FAST,
    PACK_DIR,
    ROOT,
    SAMPLES,
    as_at_a_terminal,
    needs_bwrap,
    readme_scores,
)

pytestmark = pytest.mark.sandbox

LIMITS = Limits(cell_timeout=60, notebook_timeout=120, memory_bytes=4 << 30, processes=64)


def _uid_pids(uid: int | None) -> list[int]:
    """The live processes of `uid` (the sandbox's own scan, less zombies: a zombie holds
    nothing, and one whose parent is gone waits for an init that may not reap it)."""
    if uid is None:
        return []

    def zombie(pid: int) -> bool:
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
        except (OSError, IndexError):
            return True  # gone

    return [pid for pid in _pids_of_uid(uid) if not zombie(pid)]


def _notebook(folder: Path, name: str, *sources: str) -> Path:
    path = folder / name
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(s) for s in sources]), path)
    return path


@pytest.fixture(scope="module")
def pool():
    needs_bwrap()
    from grader.run.pool import WarmPool

    with WarmPool(1) as warm:
        yield warm


def test_each_submission_gets_a_fresh_warm_kernel(pool, tmp_path):
    """Two submissions, one after the other: each finds torch imported (in sys.modules
    only, not as a name of its own), its own files and nothing of the other's; the
    baseline was taken after the warm-up; the first kernel is gone, processes and cgroup,
    once its submission is done."""
    box = Sandbox.create()
    runner = pool.runner(box, LIMITS)
    probe = ("import os, sys\n"
             "print(sorted(os.listdir('.')), 'torch' in sys.modules, 'torch' in globals())\n"
             "open('left-behind.txt', 'w').write('x')\n"
             "print(os.getpid(), os.getuid())")
    first_dir, second_dir = tmp_path / "a", tmp_path / "b"
    first_dir.mkdir()
    second_dir.mkdir()
    (first_dir / "data.txt").write_text("one")
    first = runner.run(_notebook(first_dir, "n.ipynb", probe), files=[first_dir / "data.txt"])
    kernel = pool.kernels()[0]  # the replacement, warming while the first ran
    second = runner.run(_notebook(second_dir, "m.ipynb", probe))

    out1 = first.executed.cells[0].outputs[0]["text"].split("\n")
    out2 = second.executed.cells[0].outputs[0]["text"].split("\n")
    assert out1[0] == "['data.txt', 'n.ipynb'] True False"
    assert out2[0] == "['m.ipynb'] True False"  # nothing of the first submission
    assert out1[1].split()[1] != out2[1].split()[1]  # a throwaway uid each
    for result in (first, second):
        assert [c.status for c in result.cells] == ["ok"]
        assert result.telemetry["baseline"]["torch_loaded"] is True
        assert result.restarts == 0 and result.limits_hit == []
    assert kernel.thread.is_alive() is False and kernel.root is not None
    assert not kernel.root.exists()
    assert _uid_pids(kernel.uid) == []
    if kernel.group is not None:
        assert not any(folder.exists() for folder in kernel.group.folders)


def _essence(record) -> dict:
    """What a warm and a cold grading of one notebook with one seed must share."""
    return {"score": record.score,
            "questions": [(q.id, q.score, q.status) for q in record.questions],
            "limits": sorted({h["limit"] for h in record.run["limits_hit"]}),
            "restarts": record.run["restarts"],
            "flags": {name: len(getattr(record.flags, name))
                      for name in ("tamper", "printed_mismatch", "finetune")}}


@pytest.mark.parametrize("sample", ["hostile-background-thread", "hostile-monkeypatch",
                                    "hostile-ipython-hook", "hostile-leak-hidden"])
def test_hostile_samples_score_warm_as_cold(graded, hf_cache, sample):
    """A warm kernel changes nothing a hostile notebook can win or lose. The session's
    records (`graded`) are graded on warm kernels (tests/conftest.py); this grades the
    samples whose attacks aim at what the kernel holds (threads, patched functions,
    IPython hooks, the frames a probe's call walks) cold, as `grader grade` without
    --warm does: the same scores, statuses, limits and flags, and the score the samples'
    README lists. (tests/batch/test_batch.py grades five more samples cold against the
    same records, hostile-os-exit's restart among them; hostile-probe-kills-kernel's
    three cold restarts cost 50 s, too much for the suite.)"""
    from grader.grade import grade_notebook
    from grader.pack import load_pack

    cold = grade_notebook(load_pack(PACK_DIR), SAMPLES / f"{sample}.ipynb", seed=1234,
                          sandbox=Sandbox.create(), limits=FAST, hf_cache=hf_cache)
    warm = graded[sample].record
    assert graded[sample].run.telemetry["warm"]["modules"] == ["torch", "transformers",
                                                               "datasets"]
    assert cold.score == readme_scores()[sample]
    assert _essence(warm) == _essence(cold)


LIMIT_OF = {"hostile-fork-bomb": "processes", "hostile-memory-bomb": "memory_bytes",
            "hostile-shared-limits": "scratch_bytes"}


@pytest.mark.parametrize("sample", sorted(ALONE))
def test_limit_samples_trip_their_limits_warm_as_cold(graded, hf_cache, sample):
    """The samples that trip the process and memory limits: the session graded them cold
    (tests/conftest.py), here each runs on a warm kernel with nothing warming beside it
    (`overlap=False`, as such a sample needs): the same limits trip, the same score."""
    from grader.grade import grade_notebook
    from grader.pack import load_pack
    from grader.run.pool import WarmPool

    with WarmPool(1, overlap=False) as warm:
        record = grade_notebook(load_pack(PACK_DIR), SAMPLES / f"{sample}.ipynb", seed=1234,
                                sandbox=Sandbox.create(), limits=ALONE_LIMITS,
                                hf_cache=hf_cache, kernels=warm, on_run=(runs := []).append)
    assert runs[0].telemetry["warm"]["modules"] == ["torch", "transformers", "datasets"]
    assert record.score == readme_scores()[sample]
    warm, cold = _essence(record), _essence(graded[sample].record)
    # the limit each sample is built to trip trips warm too, and no other than cold: each
    # trips in one step, far inside a cell timeout of minutes (ALONE_LIMITS), so the
    # machine's load cannot make the cell timeout trip first
    assert LIMIT_OF[sample] in warm["limits"], warm["limits"]
    assert "cell_timeout" not in warm["limits"]
    assert warm == cold


OWNER = textwrap.dedent("""
    import json, sys, time
    from grader.run.limits import Limits
    from grader.run.pool import WarmPool, handle_signals
    from grader.run.sandbox import Sandbox

    handle_signals()
    pool = WarmPool(2)
    box, limits = Sandbox.create(), Limits(memory_bytes=2 << 30, processes=32)
    pool.prime(box, limits, ("json",))
    kernels = pool.kernels()
    for k in kernels:
        k.ready.wait()
    print(json.dumps([{"uid": k.uid, "root": str(k.root), "failed": k.failed,
                       "cgroups": [str(f) for f in (k.group.folders if k.group else [])]}
                      for k in kernels]), flush=True)
    time.sleep(600)
""")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_no_warm_kernel_outlives_its_owner(sig):
    """A real process owning warm kernels is stopped by SIGTERM, Ctrl-C or SIGKILL: no
    process of any kernel's uid is left; after SIGTERM and Ctrl-C, the kernels' cgroups
    and folders are gone too (after SIGKILL no code of the owner runs: bwrap's
    die-with-parent takes the kernels down; their empty cgroup folders stay)."""
    needs_bwrap()
    import json

    owner = subprocess.Popen([sys.executable, "-c", OWNER], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True, preexec_fn=as_at_a_terminal)
    try:
        line = owner.stdout.readline() if owner.stdout else ""
        kernels = json.loads(line)
        assert len(kernels) == 2 and not any(k["failed"] for k in kernels)
        assert all(_uid_pids(k["uid"]) for k in kernels if k["uid"] is not None)
        owner.send_signal(sig)
        # a bound, not a race: the pool waits at most STOP_SECONDS for its kernels, which
        # stop side by side; a machine loaded by other work may take most of it
        owner.wait(timeout=4 * STOP_SECONDS)
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_uid_pids(k["uid"]) for k in kernels):
        time.sleep(0.1)
    assert [_uid_pids(k["uid"]) for k in kernels] == [[], []]
    if sig != signal.SIGKILL:
        assert owner.returncode != 0
        for k in kernels:
            assert not Path(k["root"]).exists()
            assert not any(Path(f).exists() for f in k["cgroups"])


DRIVER = textwrap.dedent("""
    import json, os, sys, time
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from grader.batch.work import Task, init_worker

    def kernels():  # in the worker: its first task, so what it sees was primed before
        from grader.batch.work import _WARM
        found = _WARM[0].kernels()
        for k in found:
            k.ready.wait()
        return os.getpid(), [{"uid": k.uid, "root": str(k.root), "failed": k.failed,
                              "cgroups": [str(f) for f in (k.group.folders if k.group else [])]}
                             for k in found]

    if __name__ == "__main__":
        pack, notebook, hf_cache = sys.argv[1:4]
        first = Task(key="first", name="n.ipynb", notebook=notebook, pack_root=pack,
                     seed=1, hf_cache=hf_cache)
        workers = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                      initializer=init_worker, initargs=(1, 1, first))
        pid, found = workers.submit(kernels).result()
        print(json.dumps({"worker": pid, "kernels": found}), flush=True)
        time.sleep(600)
""")


def test_a_batch_worker_primes_its_kernel_and_ends_with_its_driver(tmp_path, hf_cache):
    """`grader grade --warm`'s worker (`init_worker` with the batch's first task): its
    first kernel is started and warmed with the pack's modules before the worker takes
    its first task; when the driver is killed (SIGKILL: no code of it runs), the worker
    ends on its own, kernels first: no process of the kernel's uid, no cgroup, no folder
    (a worker of a dead driver would otherwise wait on its queue for ever)."""
    needs_bwrap()
    import json

    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    driver = subprocess.Popen(
        [sys.executable, str(script), str(PACK_DIR), str(SAMPLES / "solution.ipynb"),
         str(hf_cache)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        seen = json.loads(driver.stdout.readline() if driver.stdout else "")
        driver.kill()
        driver.wait(timeout=30)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
    kernels, worker = seen["kernels"], seen["worker"]
    assert len(kernels) == 1 and not kernels[0]["failed"]  # primed, before any task
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (
            Path(f"/proc/{worker}").exists() or _uid_pids(kernels[0]["uid"])):
        time.sleep(0.1)
    assert not Path(f"/proc/{worker}").exists() or b") Z" in Path(
        f"/proc/{worker}/stat").read_bytes()
    assert _uid_pids(kernels[0]["uid"]) == []
    assert not Path(kernels[0]["root"]).exists()
    assert not any(Path(f).exists() for f in kernels[0]["cgroups"])


def test_a_warm_batch_scores_as_cold(tmp_path, hf_cache):
    """`grader grade --warm` (LocalEngine(1, warm=1)): two samples, one worker, the second
    on the kernel warmed while the first was scored; the scores of the samples' README."""
    needs_bwrap()
    from grader.batch import BatchOptions, Item, LocalEngine, run_batch
    from grader.pack import load_pack

    names = ["wrong-q1c-missing-scale", "hostile-monkeypatch"]
    items = [Item(name, SAMPLES / f"{name}.ipynb") for name in names]
    engine = LocalEngine(1, warm=1)
    try:
        result = run_batch(load_pack(PACK_DIR), items,
                           BatchOptions(out=tmp_path / "out", seed=1234, hf_cache=hf_cache),
                           engine)
    finally:
        engine.close()
    expected = readme_scores()
    assert not result.failed
    assert {k: r["score"] for k, r in result.records.items()} == {n: expected[n] for n in names}
