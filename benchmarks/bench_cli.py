"""How long the `grader` command takes to start and answer, per verb (issue 28).

Run: .venv/bin/python benchmarks/bench_cli.py [ROUNDS] [--before TREE]

Each command runs ROUNDS times (default 7) as a fresh process, as a student's shell or a
script runs it; the median wall time is printed beside the interpreter's own start
(`python -c pass`) and `python -c "import sympy"` measured in the same run, so the
figures compare as ratios on a loaded machine too. The goal: under 1 s on an idle
machine for `grader --help`, `grader calc ...` and `grader answers check ...`.

`--before TREE` also times the same verbs from another checkout of the project (say
`git worktree add /tmp/before 648285c`), run as `python -m grader` with that tree first on
`sys.path`, interleaved with these: a before/after ratio from one run.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRADER = str(Path(sys.executable).with_name("grader"))
VERBS = {
    "--help": ["--help"],
    "calc params bert-base-uncased": ["calc", "params", "bert-base-uncased"],
    "answers check '25.77 GB' --question stat8021-a3:q3c": [
        "answers", "check", "25.77 GB", "--question", "stat8021-a3:q3c"],
}

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import sympy'": [sys.executable, "-c", "import sympy"],
    "grader --help": [GRADER, "--help"],
    "grader --version": [GRADER, "--version"],
    "grader calc params bert-base-uncased": [GRADER, "calc", "params", "bert-base-uncased"],
    "grader calc ce --logits ... --json": [GRADER, "calc", "ce", "--logits",
                                           "0.5,0.1,3.0,0.2,1.0", "--target", "2", "--json"],
    "grader answers check '25.77 GB' --question stat8021-a3:q3c": [
        GRADER, "answers", "check", "25.77 GB", "--question", "stat8021-a3:q3c"],
}


def timed(argv: list[str], env: dict[str, str] | None = None,
          cwd: Path = ROOT) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process): the CPU time hardly moves with the
    machine's load, the wall time does."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    args = sys.argv[1:]
    before = None
    if "--before" in args:
        at = args.index("--before")
        before = str(Path(args[at + 1]).resolve())
        del args[at:at + 2]
    rounds = int(args[0]) if args else 7
    commands = {name: (argv, None, ROOT) for name, argv in COMMANDS.items()}
    if before is not None:
        # run from that tree, which `python -m` puts first on sys.path (ahead of the
        # editable install's finder, as PYTHONPATH alone is not)
        env = {**os.environ, "PYTHONPATH": before}
        for name, verb in VERBS.items():
            commands[f"before: grader {name}"] = (
                [sys.executable, "-m", "grader", *verb], env, Path(before))
    for argv, env, cwd in commands.values():  # one warm-up each: page cache, .pyc files
        timed(argv, env, cwd)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(rounds):  # interleaved, so a burst of load hits every command alike
        for name, (argv, env, cwd) in commands.items():
            times[name].append(timed(argv, env, cwd))
    base = statistics.median(w for w, _ in times["python -c pass"])
    print(f"load average at the end: {os.getloadavg()[0]:.2f}; {rounds} rounds; medians")
    print("    wall    CPU   wall/python  command")
    for name, seen in times.items():
        wall = statistics.median(w for w, _ in seen)
        cpu = statistics.median(c for _, c in seen)
        print(f"  {wall:5.2f}s {cpu:5.2f}s  {wall / base:6.1f}x     {name}")


if __name__ == "__main__":
    main()
