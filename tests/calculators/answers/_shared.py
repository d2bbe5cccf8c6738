"""Where the sample-report fixtures live: ``tests/fixtures/sample-reports`` in the repository.

They are copies of ``../shared/sample-reports`` (the course's originals), so a clean
clone runs the tests that read them; ``SHARED_SAMPLE_REPORTS`` is the originals' folder,
present only where ``../shared`` is beside the repository.
"""

from __future__ import annotations

from pathlib import Path


def repo_root() -> Path:
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").is_file() and (parent / "calculators").is_dir():
            return parent
    raise RuntimeError("cannot find the repository root above " + str(here))


SAMPLE_REPORTS = repo_root() / "tests" / "fixtures" / "sample-reports"
SHARED_SAMPLE_REPORTS = (repo_root() / ".." / "shared" / "sample-reports").resolve()


def sample_report(name: str) -> str:
    return (SAMPLE_REPORTS / name).read_text(encoding="utf-8")
