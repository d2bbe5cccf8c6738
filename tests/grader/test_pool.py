"""Warm kernels (grader/run/pool.py): fresh per submission, hostile samples score as cold,
and no kernel outlives its submission or the process that owns it.

Real kernels in the real sandbox throughout; one pool for the module, each kernel used
once (the pool keeps one ready while the previous one runs).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import nbformat
import pytest

from grader.run.limits import Limits
from grader.run.sandbox import Sandbox
from tests.conftest import FAST, PACK_DIR, ROOT, SAMPLES, needs_bwrap

LIMITS = Limits(cell_timeout=60, notebook_timeout=120, memory_bytes=4 << 30, processes=64)


def _uid_pids(uid: int | None) -> list[int]:
    if uid is None:
        return []
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            line = next((x for x in status.splitlines() if x.startswith("Uid:")), "")
            if line.split()[1:2] == [str(uid)] and "\nState:\tZ" not in status:
                pids.append(int(entry))
    return pids


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


def _expected_scores() -> dict[str, float]:
    """Sample -> score, from the table of submissions/stat8021-a3/README.md."""
    rows = re.findall(r"^\| `([\w-]+)\.ipynb` \|.*\| ([\d.]+) \|$",
                      (SAMPLES / "README.md").read_text(), re.M)
    return {name: float(score) for name, score in rows}


@pytest.mark.parametrize("sample", ["hostile-background-thread", "hostile-monkeypatch",
                                    "hostile-forged-payload", "hostile-leak-hidden"])
def test_hostile_samples_score_as_cold(pool, hf_cache, sample):
    """A warm kernel changes nothing a hostile notebook can win: the scores the samples'
    README lists (those the cold runs earn, tests/grader/test_grade_samples.py)."""
    from grader.grade import grade_notebook
    from grader.pack import load_pack

    expected = _expected_scores()[sample]
    record = grade_notebook(load_pack(PACK_DIR), SAMPLES / f"{sample}.ipynb", seed=1234,
                            sandbox=Sandbox.create(), limits=FAST, hf_cache=hf_cache,
                            kernels=pool)
    assert record.score == expected, [(q.id, q.score, q.message[:120])
                                      for q in record.questions if q.score]


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
                             text=True)
    try:
        line = owner.stdout.readline() if owner.stdout else ""
        kernels = json.loads(line)
        assert len(kernels) == 2 and not any(k["failed"] for k in kernels)
        assert all(_uid_pids(k["uid"]) for k in kernels if k["uid"] is not None)
        owner.send_signal(sig)
        owner.wait(timeout=60)
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
    expected = _expected_scores()
    assert not result.failed
    assert {k: r["score"] for k, r in result.records.items()} == {n: expected[n] for n in names}
