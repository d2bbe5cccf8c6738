"""Where the sample-report fixtures live: ``tests/fixtures/sample-reports`` in the repository.

They are copies of ``../shared/sample-reports`` (the course's originals), so a clean
clone runs the tests that read them; ``SHARED_SAMPLE_REPORTS`` is the originals' folder,
present only where ``../shared`` is beside the repository.
"""

from __future__ import annotations

from pathlib import Path

from grader.written import QuestionSpec


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


# Part 3's questions as a pack names their sections, and right answers to write into
# variants of a report (the section-reading tests share them).
PART3 = [
    QuestionSpec("q3a1", ("Q3 (a)",), part="(I)"),
    QuestionSpec("p", ("Q3 (a)",), part="(II)", labels=("p(mat)", "probability")),
    QuestionSpec("loss", ("Q3 (a)",), part="(II)", labels=("loss", "-ln", "cross-entropy")),
    QuestionSpec("q3b", ("Q3 (b)",)),
    QuestionSpec("q3c", ("Q3 (c)",)),
    QuestionSpec("q3d", ("Q3 (d)",)),
    QuestionSpec("e1", ("Q3 (e)",), part="(I)"),
    QuestionSpec("e2", ("Q3 (e)",), part="(II)"),
    QuestionSpec("e3", ("Q3 (e)",), part="(III)"),
]
C, D = "25.77 GB", "14.5 billion"
E = ("9,437,184", "75.5 MB", "0.065 %")
