"""Session fixtures shared by tests/grader and tests/report: the real pack, sandbox, kernels.

Grading every sample takes a few seconds each, so it happens once per test session
and the tests (grader checks and reports alike) read the records. Limits are tightened
(5 s cells) so the hostile samples trip them fast; the behaviour is the same as with
the pack's limits.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from grader.run.limits import Limits

ROOT = Path(__file__).resolve().parents[1]
PACK_DIR = ROOT / "reference" / "stat8021-a3"
SAMPLES = ROOT / "submissions" / "stat8021-a3"
SECRET = "grader-test-secret-7f3a9c"
"""Put in the grader's environment; no notebook output may ever contain it."""

FAST = Limits(cell_timeout=5, probe_timeout=30, notebook_timeout=600, output_bytes=200_000,
              memory_bytes=4 << 30, processes=64,
              tag_timeouts={"part2-setup": 60, "q2a": 60, "q2b": 120, "q2d": 120})
"""Part 2's cells load models and fine-tune (tiny models: about 15 s each here). The
notebook's budget is the pack's default (600 s): the solution ran for over 180 s beside a
CPU hog with Python 3.12's CUDA torch, and an honest notebook must never race its budget
(the budget's own test, tests/grader/run/test_runner.py, sets one of a few seconds)."""

ALONE_LIMITS = replace(FAST, cell_timeout=120)
"""The limit samples' (ALONE): each trips its own limit in one step (one allocation past
the address space, forks until the pids limit, children past the cgroup's memory, a disk
filled at its size), which takes well under a second on a quiet machine and a few under a
CPU hog; a cell timeout many times longer keeps the cell timeout from ever tripping first,
so the limits a record names do not depend on the machine's load."""


HEAVY = ("kernel", "sandbox", "ray", "browser", "server", "venv")
"""What a test may need that the fast tier leaves out (pyproject's markers say each)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--tier", choices=("fast", "full", "heavy"), default="fast",
        help="fast (default): tests that need none of kernel, sandbox, ray, browser, server, "
             "venv, plus those marked smoke; full: every test; heavy: what fast leaves out")


def _heavy(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(m) for m in HEAVY) and not item.get_closest_marker("smoke")


NEEDS_OF_FIXTURES = {"graded": ("sandbox",), "built": ("venv", "kernel"),
                     "installed": ("venv",)}
"""Fixtures that grade in the sandbox (`graded`) or install a venv (tests/grader/env/test_env.py's
`built`, which also starts a kernel of it; tests/test_wheel.py's `installed`): a test that
uses one (directly or through another fixture) needs what they need, without saying so."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep the tests of the chosen tier; the others are deselected (not skipped), so the
    summary counts only what ran."""
    for item in items:
        for fixture, needs in NEEDS_OF_FIXTURES.items():
            if fixture in getattr(item, "fixturenames", ()):
                for need in needs:
                    item.add_marker(need)
    tier = config.getoption("--tier")
    if tier == "full":
        return
    keep, drop = [], []
    for item in items:
        (drop if _heavy(item) == (tier == "fast") else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# -- what a test starts, checked against what it says it needs --------------------------
#
# A test's tier is chosen by its markers, so a missing marker would put a kernel or a
# browser in the fast tier unnoticed. Every process a test starts (in its fixtures too) is
# looked at here; one that shows a need the test's markers do not name fails the test with
# the marker to add. Processes started by a process pool's workers are not seen: the
# fixtures that grade that way are in NEEDS_OF_FIXTURES. A `grader grade` or `grader check`
# process is not looked into (a usage error exits before any kernel): a test that has one
# grade says so with its mark.

_SPAWN_NEEDS = (
    # (what the command line holds, what it is, the markers that cover it)
    ("bwrap", "the bubblewrap sandbox", ("sandbox",)),
    ("ipykernel", "a Jupyter kernel", ("kernel", "sandbox")),
    ("chromium", "Chromium", ("browser",)),
    ("chrome", "Chromium", ("browser",)),
    ("playwright", "Playwright's driver", ("browser",)),
    ("/ray/", "Ray", ("ray",)),
    ("ray start", "Ray", ("ray",)),
    ("uvicorn", "a uvicorn server process", ("server",)),
    ("grader serve", "a `grader serve` process", ("server",)),
    ("pip install", "pip installing into a venv", ("venv",)),
    ("uv pip", "uv installing into a venv", ("venv",)),
)
_running: list[pytest.Item] = []
_started: dict[str, set[tuple[str, tuple[str, ...]]]] = {}


def _command_line(args: object) -> str:
    if isinstance(args, (str, bytes, os.PathLike)):
        return os.fsdecode(args)
    try:
        parts = [os.fsdecode(a) for a in args]  # type: ignore[union-attr]
    except TypeError:
        return str(args)
    # `.venv/bin/grader grade` and `python -m grader grade` alike
    return " ".join([*parts, *(["grader", *parts[1:]] if parts and
                               parts[0].endswith("/grader") else [])])


def _watch_spawns() -> None:
    import subprocess

    original = subprocess.Popen.__init__
    if getattr(original, "_tier_watch", False):
        return

    def init(self, args, *a, **kw):  # type: ignore[no-untyped-def]
        line = _command_line(args)
        # `bwrap ... true` is `bwrap_works()` asking whether a sandbox can start at all
        if _running and not line.endswith(" true"):
            for needle, what, markers in _SPAWN_NEEDS:
                if needle in line:
                    _started.setdefault(_running[-1].nodeid, set()).add((what, markers))
        return original(self, args, *a, **kw)

    init._tier_watch = True  # type: ignore[attr-defined]
    subprocess.Popen.__init__ = init  # type: ignore[method-assign]


def pytest_configure(config: pytest.Config) -> None:
    _watch_spawns()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    _running.append(item)
    try:
        return (yield)
    finally:
        _running.remove(item)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):  # type: ignore[no-untyped-def]
    result = yield
    unmarked = sorted({(what, markers) for what, markers in _started.pop(item.nodeid, set())
                       if not any(item.get_closest_marker(m) for m in markers)})
    if unmarked:
        pytest.fail("this test starts " + "; ".join(
            f"{what} (mark it {' or '.join('@pytest.mark.' + m for m in markers)})"
            for what, markers in unmarked), pytrace=False)
    return result


def as_at_a_terminal() -> None:
    """A child's SIGINT as a terminal leaves it (the default: Ctrl-C interrupts). A
    command started in the background without job control ("... &" in a script, as a CI
    runner may start the tests) inherits SIGINT ignored, and a grader started so rightly
    keeps ignoring it: a test of what Ctrl-C does must not inherit that. Pass as a
    subprocess's ``preexec_fn``."""
    import signal as _signal

    _signal.signal(_signal.SIGINT, _signal.SIG_DFL)


def needs_bwrap() -> None:
    """Skip where the sandbox cannot run; a test that calls this needs the `sandbox` mark
    (its kernels may start in a pool's worker, where no spawn is seen)."""
    if _running and not _running[-1].get_closest_marker("sandbox"):
        pytest.fail("this test runs the sandbox: mark it @pytest.mark.sandbox", pytrace=False)
    from grader.run.sandbox import bwrap_works

    reason = bwrap_works()
    if reason:
        pytest.skip(f"the sandbox is unavailable here: {reason}")


def readme_scores() -> dict[str, float]:
    """Sample -> the score it should get, from the table of submissions/stat8021-a3/README.md
    (the scores the README promises are the ones the tests hold the grader to)."""
    import re

    rows = re.findall(r"^\| `([\w-]+)\.ipynb` \|.*\| ([\d.]+) \|$",
                      (SAMPLES / "README.md").read_text(), re.M)
    return {name: float(score) for name, score in rows}


@dataclass
class Graded:
    record: object
    run: object


CHROMIUM = os.environ.get("GRADER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
"""Debian's Chromium (scripts/install.sh installs it); Playwright's own download is never used."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
"""Without the background-networking flags Chromium tries the closed network at every start."""


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium driven by Playwright, one per test module (tests marked `browser`)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def pack():
    from grader.pack import load_pack

    return load_pack(PACK_DIR)


@pytest.fixture(scope="session")
def hf_cache(tmp_path_factory) -> Path:
    """A model cache seeded with the tiny models, as `grader models seed --tiny` makes it."""
    from grader.models.tiny import read_texts, seed_tiny

    cache = tmp_path_factory.mktemp("hf-cache")
    seed_tiny(cache, read_texts(sorted((PACK_DIR / "public").glob("*.jsonl"))))
    return cache


ALONE = {"hostile-shared-limits", "hostile-memory-bomb", "hostile-fork-bomb"}
"""Samples whose tests name the limit they trip (memory, processes): graded with nothing
beside them, so a second notebook's load (or a kernel warming) cannot make them trip the
cell timeout first; and cold, as `grader grade` grades by default, so the limits are
proven on the path every batch takes unless `--warm` is asked for (the warm kernels get
theirs from the same `kernel_box`)."""


def _start_worker(hf_cache: Path, overlap: bool) -> None:
    """A fixture worker's start, as `grader grade --warm -j 2` starts one
    (`grader.batch.work.init_worker`: one warm kernel kept ready, torch's threads pinned,
    the pool's kernels destroyed on SIGTERM, Ctrl-C or the parent's death), and its first
    kernel primed for the samples' sandbox before the first sample comes."""
    from grader.batch.work import _WARM, init_worker
    from grader.grade import prime_kernels
    from grader.pack import load_pack
    from grader.run.sandbox import Sandbox

    os.environ["GRADER_TEST_SECRET"] = SECRET
    init_worker(1, warm=1, overlap=overlap)
    prime_kernels(_WARM[0], load_pack(PACK_DIR), Sandbox.create(), quick=False,
                  hf_cache=hf_cache, limits=FAST)


def _cold_worker() -> None:
    os.environ["GRADER_TEST_SECRET"] = SECRET


def _grade_sample(notebook: Path, hf_cache: Path, warm: bool = True,
                  limits: Limits = FAST) -> Graded:
    """One sample graded as the session fixture grades it: in a worker process started by
    `_start_worker`, on one of its warm kernels (`warm`), else on a kernel started for it."""
    from grader.batch.work import _WARM
    from grader.grade import grade_notebook
    from grader.pack import load_pack
    from grader.run.sandbox import Sandbox

    runs: list = []
    record = grade_notebook(load_pack(PACK_DIR), notebook, seed=1234, sandbox=Sandbox.create(),
                            limits=limits, hf_cache=hf_cache, on_run=runs.append,
                            kernels=_WARM[0] if warm else None)
    return Graded(record, runs[0])


def _workers(jobs: int, hf_cache: Path, *, overlap: bool = True, warm: bool = True):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    spawn = multiprocessing.get_context("spawn")
    if not warm:
        return ProcessPoolExecutor(max_workers=jobs, mp_context=spawn, initializer=_cold_worker)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=spawn,
                               initializer=_start_worker, initargs=(hf_cache, overlap))


@pytest.fixture(scope="session")
def graded(pack, hf_cache) -> dict[str, Graded]:
    """Every sample submission graded once, with a fixed seed, in the real sandbox, on warm
    kernels.

    Two at a time, in two fresh (spawned) processes, as `grader grade --warm -j 2` grades:
    each worker keeps one warm kernel (torch, transformers and datasets imported: the
    pack's `[environment] warm`), primed when it starts, one kernel per sample. A kernel
    run is mostly a child process's work, so the two cores of a CI machine grade the ~30
    samples in little more than half the time. Each sample's own limits (its cgroup,
    rlimits and budgets) bound it alone, so a hostile sample beside an honest one changes
    neither's record. The limit samples (`ALONE`) come after, one at a time and cold
    (the default path of `grader grade`), so nothing else runs beside them.

    Warm, so that the tests reading these records (the README's scores, the hostile
    samples' limits and flags) hold on warm kernels, and the tests that grade some of the
    same notebooks cold compare with them (tests/batch/test_batch.py,
    tests/grader/run/test_pool.py): warm == cold, without one kernel run more."""
    needs_bwrap()
    os.environ["GRADER_TEST_SECRET"] = SECRET
    notebooks = sorted(SAMPLES.glob("*.ipynb"))
    together = [nb for nb in notebooks if nb.stem not in ALONE]
    with _workers(2, hf_cache, overlap=True) as pool:
        done = pool.map(_grade_sample, together, [hf_cache] * len(together))
        results = dict(zip([nb.stem for nb in together], done, strict=True))
    with _workers(1, hf_cache, warm=False) as pool:
        for nb in notebooks:  # then the limit samples, one at a time, cold
            if nb.stem in ALONE:
                results[nb.stem] = pool.submit(_grade_sample, nb, hf_cache, False,
                                               ALONE_LIMITS).result()
    return results
