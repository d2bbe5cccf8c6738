"""What a run hands to the checks: cells, probe payloads, telemetry, limits hit.

These types cross stages (runner -> checks -> batch store -> re-scoring), so they live
apart from the runner: a check imports them without importing nbclient or torch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a run's notebook; the record's types are read without nbformat
    from nbformat import NotebookNode


@dataclass
class ProbeRequest:
    """One check's probe: which function of the probe source to run on which inputs."""

    check_id: str
    target: str
    source: str
    inputs: Path
    """A safetensors file of cases (`<case>/in/<tensor>`, params in metadata) the grader wrote."""


@dataclass
class CellReport:
    index: int
    tags: list[str]
    status: str  # ok | error | timeout | killed | skipped
    seconds: float = 0.0
    ename: str | None = None
    evalue: str | None = None


@dataclass
class ProbePayload:
    """What one probe sent back: per-case status and output metadata, and the tensors."""

    check_id: str
    status: str  # ok | missing | timeout | died | invalid (refused by grader.run.payload)
    message: str = ""
    cases: dict[str, dict[str, Any]] = field(default_factory=dict)
    tensors: dict[str, Any] = field(default_factory=dict)
    ops: dict[str, list[str]] = field(default_factory=dict)
    """Case name -> the torch operators that ran while the probe called the student's code
    (aten names such as "aten::_scaled_dot_product_flash_attention_for_cpu", sorted, at
    most `payload.MAX_OPS`; "grader::..." entries note what the recording saw go wrong).
    Empty for runs stored before operators were recorded."""


@dataclass
class RunResult:
    executed: NotebookNode
    cells: list[CellReport]
    probes: dict[str, ProbePayload]
    telemetry: dict[str, Any]
    limits_hit: list[dict[str, Any]]
    seconds: float
    restarts: int
    sandbox: str
    limits_mechanism: str = ""
    """What bounded the sandbox, in words: "cgroup v1 (memory, pids); working folder: tmpfs
    of 1024 MiB; ...", or why no cgroup held ("rlimits only ...: not root"). Empty for runs
    stored before it was recorded."""

    def printed(self, tag: str | None = None) -> list[tuple[int, str]]:
        """(cell index, stdout text) of the executed student cells, optionally by tag."""
        found = []
        for index, cell in enumerate(self.executed.cells):
            if cell.cell_type != "code":
                continue
            if tag is not None and tag not in cell.metadata.get("tags", []):
                continue
            text = "".join(o.get("text", "") for o in cell.get("outputs", [])
                           if o.get("output_type") == "stream" and o.get("name") == "stdout")
            found.append((index, text))
        return found


def saved_run(notebook: Path) -> RunResult:
    """The outputs a notebook was handed in with, as a run that executed nothing.

    For `--no-execute`: grading what an already-run notebook shows (its printed
    accuracies, say) without a kernel. No probe ran, so checks that need one say so.
    """
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    cells = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            cells.append(CellReport(index, list(cell.metadata.get("tags", [])), "ok"))
            continue
        error = next((o for o in cell.get("outputs", []) if o.get("output_type") == "error"),
                     None)
        ran = cell.get("execution_count") is not None or bool(cell.get("outputs"))
        cells.append(CellReport(index, list(cell.metadata.get("tags", [])),
                                "error" if error else ("ok" if ran else "skipped"),
                                ename=error.get("ename") if error else None,
                                evalue=str(error.get("evalue", ""))[:500] if error else None))
    return RunResult(executed=nb, cells=cells, probes={}, telemetry={}, limits_hit=[],
                     seconds=0.0, restarts=0, sandbox="not executed")
