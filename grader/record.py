"""GradeRecord: the one JSON document a graded submission leaves behind.

Versioned (`schema`), self-describing, and written atomically (temp file + rename)
so a killed batch never leaves half a record. Reports, gradebooks and regrades read
this and nothing else. Fields are documented in `docs/records.md`.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from grader import __version__

SCHEMA = "transformer-grader/record/1"


@dataclass
class QuestionResult:
    id: str
    title: str
    score: float | None
    """None for a manual question awaiting a TA."""
    max: float
    status: str  # passed | partial | failed | error | manual
    message: str
    hint: str = ""
    checks: list[dict[str, Any]] = field(default_factory=list)
    printed: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class GradeRecord:
    assignment: dict[str, Any]
    submission: dict[str, Any]
    mode: str  # grade | check
    score: float
    max_score: float
    status: str  # graded | incomplete
    questions: list[QuestionResult]
    run: dict[str, Any]
    flags: dict[str, list[Any]]
    environment: dict[str, Any]
    graded_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    schema: str = SCHEMA

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GradeRecord:
        """A record read back (a batch's stored JSON); unknown keys are ignored."""
        names = {f.name for f in fields(cls)}
        qnames = {f.name for f in fields(QuestionResult)}
        questions = [QuestionResult(**{k: v for k, v in q.items() if k in qnames})
                     for q in data.get("questions", [])]
        return cls(**{k: v for k, v in data.items() if k in names and k != "questions"},
                   questions=questions)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=False)

    @property
    def needs_human(self) -> bool:
        """A TA should look: tampering, a disagreeing print, a model that fits the test
        split suspiciously well, a limit hit, a manual question."""
        return bool(self.flags.get("tamper") or self.flags.get("printed_mismatch")
                    or self.flags.get("finetune")
                    or self.run.get("limits_hit")
                    or any(q.status == "manual" for q in self.questions))


def environment() -> dict[str, Any]:
    """Versions that can change a grade: python, torch (and CUDA), the grader."""
    info: dict[str, Any] = {"python": platform.python_version(), "platform": sys.platform,
                            "grader": __version__}
    try:
        import torch

        info["torch"] = torch.__version__
        info["cuda"] = torch.version.cuda if torch.cuda.is_available() else None
    except ImportError:  # pragma: no cover - grading always has torch
        info["torch"] = None
    return info


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` so that readers see the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_record(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("schema") != SCHEMA:
        raise ValueError(f"{path}: not a {SCHEMA} record (schema {data.get('schema')!r})")
    return data
