"""Checks: plain functions, one per kind, that turn run evidence into a score fraction.

Each returns a `CheckResult` with a fraction of the question's credit (0 to 1), a
status, one message a student understands, and evidence (data, never hidden input
values or reference code). Checks run in the grader process only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class CheckResult:
    kind: str
    fraction: float
    status: str  # passed | failed | partial | error | manual | not_graded
    message: str
    evidence: list[dict[str, Any]] | dict[str, Any] = field(default_factory=list)
    gate: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "fraction": round(self.fraction, 6), "status": self.status,
                "message": self.message, "gate": self.gate, "evidence": self.evidence}
