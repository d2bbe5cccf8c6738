"""What a pack kernel environment costs: its build, and each notebook's run.

Run: .venv/bin/python benchmarks/bench_env.py [REPEATS]

- build: `grader env build` of the attention-module-hw pack (einops from its wheelhouse,
  offline) into a fresh folder, with uv and with pip, REPEATS times each, interleaved:
  medians of the resolve step (pip's dry run against the grader's environment), the
  install step (the installer alone) and the whole build (venv, install, links, the
  check that torch/ipykernel/safetensors stay the grader's);
- per notebook: the same small notebook (imports torch, defines and calls a function)
  run by the grader's runner in the sandbox three ways, interleaved so a busy machine
  slows all alike: the grader's own interpreter; the same with the kernel shims loaded;
  the pack's environment (its interpreter, layered `sys.path`, shims). Medians of the
  whole run (kernel start to stop), and the differences.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import nbformat  # noqa: E402

from grader.env import kernel_sandbox, spec_for  # noqa: E402
from grader.env.build import build  # noqa: E402
from grader.pack import load_pack  # noqa: E402
from grader.run.kernel_side.shims import shim_sandbox  # noqa: E402
from grader.run.limits import Limits  # noqa: E402
from grader.run.runner import Runner  # noqa: E402
from grader.run.sandbox import Sandbox  # noqa: E402

PACK = ROOT / "reference" / "attention-module-hw"
CELLS = ("import torch\n", "def f(x):\n    return torch.softmax(x @ x.T, -1)\n",
         "print(f(torch.randn(64, 32)).shape)\n")


def main(repeats: int) -> None:
    pack = load_pack(PACK)
    spec = spec_for(pack)
    tmp = Path(tempfile.mkdtemp(prefix="bench-env-"))
    builds: dict[str, list[tuple[float, float, float]]] = {"uv": [], "pip": []}
    for i in range(repeats):
        for tool in ("uv", "pip"):
            started = time.perf_counter()
            env, _ = build(spec, root=tmp / f"{tool}-{i}", tool=tool, rebuild=True)
            whole = time.perf_counter() - started
            builds[tool].append((env.manifest["resolve_seconds"],
                                 env.manifest["install_seconds"], whole))
    print(f"build of {pack.id} ({', '.join(spec.packages)}), {repeats} each, medians:")
    for tool, runs in builds.items():
        resolve, install, whole = (statistics.median(x) for x in zip(*runs, strict=True))
        print(f"  {tool:4} resolve {resolve:5.2f} s  install {install:5.2f} s  "
              f"whole {whole:5.2f} s")

    root = tmp / "uv-0"
    nb = tmp / "nb" / "nb.ipynb"
    nb.parent.mkdir()
    nbformat.write(nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(c) for c in CELLS]), nb)
    base = Sandbox.create()
    ways = {"grader interpreter": base, "grader + shims": shim_sandbox(pack, base),
            "pack environment": kernel_sandbox(pack, base, root)}
    seconds: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(repeats + 1):  # the first round warms the page cache, not counted
        for name, box in ways.items():
            started = time.perf_counter()
            result = Runner(box, Limits(cell_timeout=120)).run(nb)
            assert all(c.status == "ok" for c in result.cells), (name, result.cells)
            seconds[name].append(time.perf_counter() - started)
    print(f"one notebook in the sandbox, {repeats} runs each after a warm-up, medians:")
    plain = statistics.median(seconds["grader interpreter"][1:])
    for name, runs in seconds.items():
        median = statistics.median(runs[1:])
        print(f"  {name:19} {median:5.2f} s  ({median - plain:+.2f} s)")
    print(f"load average: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
