"""Training logs handed in with a submission: TensorBoard event files or CSV, as runs.

Why read logs: a report says "seed 2: best validation accuracy 0.853 at step 1200, test
0.841"; the run's own log says what happened. Each log file becomes one `RunLog`: its
family (pre-trained or from scratch, from the words in its path or a column), its seed
(`seed-2`, `seed_2` in the path, or a `seed` column) and its scalar series by tag.
TensorBoard files are read with TensorBoard's own EventAccumulator; CSV with the
standard library (`step` column plus one column per metric, or long format
`tag,step,value`).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

SEED = re.compile(r"seed[_\-= ]?(\d+)", re.IGNORECASE)
LOG_SUFFIXES = (".csv",)


def is_log(path: Path) -> bool:
    return path.suffix.lower() in LOG_SUFFIXES or "tfevents" in path.name


@dataclass
class RunLog:
    path: str
    family: str | None
    seed: int | None
    scalars: dict[str, dict[int, float]] = field(default_factory=dict)
    """tag -> {step: value}."""


def _family(text: str, families: dict[str, list[str]],
            fallback: dict[str, list[str]] | None = None) -> str | None:
    """The family named last in a path or column ("runs/scratch/seed-1"); `fallback`
    words ("finetuned") only where no family word is there."""
    low = text.lower()
    hits = [(low.rfind(w), name) for name, words in families.items() for w in words if w in low]
    if not hits and fallback:
        hits = [(low.rfind(w), name) for name, words in fallback.items() for w in words
                if w in low]
    return max(hits)[1] if hits else None


def read_tensorboard(path: Path) -> dict[str, dict[int, float]]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(path), size_guidance={"scalars": 0})
    acc.Reload()
    return {tag: {int(e.step): float(e.value) for e in acc.Scalars(tag)}
            for tag in acc.Tags().get("scalars", [])}


def read_csv(path: Path) -> list[tuple[int | None, str | None, dict[str, dict[int, float]]]]:
    """(seed, family, scalars) per seed/family found in one CSV (wide or long format)."""
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    groups: dict[tuple[int | None, str | None], dict[str, dict[int, float]]] = {}
    for row in rows:
        row = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
        seed = int(row["seed"]) if row.get("seed", "").isdigit() else None
        family = row.get("model") or row.get("family") or row.get("run") or None
        step_text = row.get("step") or row.get("global_step") or row.get("epoch")
        if step_text is None or not re.fullmatch(r"\d+(\.0+)?", step_text):
            continue
        step = int(float(step_text))
        scalars = groups.setdefault((seed, family), {})
        if "tag" in row and "value" in row:  # long format
            try:
                scalars.setdefault(row["tag"], {})[step] = float(row["value"])
            except ValueError:
                continue
            continue
        for key, value in row.items():
            if key in ("seed", "model", "family", "run", "step", "global_step", "epoch"):
                continue
            try:
                scalars.setdefault(key, {})[step] = float(value)
            except ValueError:
                continue
    return [(seed, family, scalars) for (seed, family), scalars in groups.items()]


def read_logs(paths: list[Path], families: dict[str, list[str]],
              fallback: dict[str, list[str]] | None = None) -> tuple[list[RunLog], list[str]]:
    """Every run in the given log files, and the files that could not be read (why)."""
    runs: list[RunLog] = []
    errors: list[str] = []
    for path in paths:
        seed_match = SEED.search(str(path))
        path_seed = int(seed_match.group(1)) if seed_match else None
        try:
            if "tfevents" in path.name:
                runs.append(RunLog(str(path), _family(str(path), families, fallback), path_seed,
                                   read_tensorboard(path)))
            else:
                for seed, family, scalars in read_csv(path):
                    runs.append(RunLog(str(path), _family(family or str(path), families,
                                                          fallback),
                                       seed if seed is not None else path_seed, scalars))
        except (OSError, ValueError, ImportError) as exc:
            errors.append(f"{path.name}: {type(exc).__name__}: {exc}")
    return runs, errors
