"""Where the shared fixtures live: ``../shared`` beside the repository (never copied in)."""

from __future__ import annotations

from pathlib import Path

import pytest


def repo_root() -> Path:
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").is_file() and (parent / "calculators").is_dir():
            return parent
    raise RuntimeError("cannot find the repository root above " + str(here))


SAMPLE_REPORTS = (repo_root() / ".." / "shared" / "sample-reports").resolve()


def sample_report(name: str) -> str:
    path = SAMPLE_REPORTS / name
    if not path.is_file():
        pytest.skip(f"sample report {name} not found: the folder {SAMPLE_REPORTS} is missing")
    return path.read_text(encoding="utf-8")
