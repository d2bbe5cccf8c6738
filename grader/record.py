"""GradeRecord: the one JSON document a graded submission leaves behind.

Versioned (`schema`), typed (pydantic: a field the grader misspells is an error, not a
silent new key), self-describing, and written atomically (temp file + rename) so a
killed batch never leaves half a record. Reports, gradebooks and regrades read this
and nothing else. `docs/records.md` and `docs/record.schema.json` are generated from
these models (`python -m grader.record`); a test fails when they drift.

Readers take a `GradeRecord`: a record file becomes one at the edge (`read_record`, which
refuses a misspelled or unknown field with the file and the field named), and the report
layer, the TA sheet, the gradebooks and the service read its typed parts. Each part can
still be read like the JSON it becomes (`record.run["seed"]`, `.get(...)`) for code
outside the report layer that has not moved yet; new code reads attributes.
"""

from __future__ import annotations

import json
import os
import platform
import re
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from grader import __version__

SCHEMA = "transformer-grader/record/1"


def _absent(value: Any) -> bool:
    return value is None


class Part(BaseModel):
    """A section of a record: typed, and readable like the JSON it is."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    def _has(self, key: str) -> bool:
        return key in type(self).model_fields or key in (self.model_extra or {})

    def __getitem__(self, key: str) -> Any:
        if not self._has(key):
            raise KeyError(key)
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        setattr(self, key, value)

    def __contains__(self, key: str) -> bool:
        return self._has(key) and getattr(self, key) is not None

    def get(self, key: str, default: Any = None) -> Any:
        value = getattr(self, key, None) if self._has(key) else None
        return default if value is None else value


class Assignment(Part):
    """Which pack graded it."""

    id: str
    title: str
    version: str
    fingerprint: str = Field(description="sha256 prefix of probes, public files and reference")
    rubric: str | None = Field(None, exclude_if=_absent,
                               description="digest of the pack.toml it was scored under (batches)")


class Submission(Part):
    name: str = Field(description="the notebook's (or first report's) file name")
    path: str | None = Field(description="where the notebook was read: for TAs only")
    sha256: str | None
    evidence: str = Field(description="what was handed in: notebook, report, notebook+report")
    reports: list[dict[str, Any]] | None = Field(
        None, exclude_if=_absent,
        description="each report read: name, path, format, reader (e.g. 'pymupdf 1.28.2'), "
                    "pages (PDF), needs_ta (why a TA must read it: a scan), notes, sha256; "
                    "or an error")
    logs: list[str] | None = Field(None, exclude_if=_absent,
                                   description="training logs handed in (file names)")
    files: list[dict[str, Any]] | None = Field(
        None, exclude_if=_absent,
        description="the student's files taken beside the notebook (the pack's [assignment] "
        "files): path relative to the notebook's folder, sha256, bytes")
    refused: list[dict[str, str]] | None = Field(
        None, exclude_if=_absent,
        description="files [assignment] files matched and the grader did not take: path and "
        "why (a link, a device or pipe, over the count or size limit)")


class CheckOutcome(Part):
    kind: str = Field(description="the check kind (grader/checks/<kind>.py)")
    fraction: float = Field(ge=0, le=1, description="of the question's credit, 0 to 1")
    status: Literal["passed", "partial", "failed", "error", "manual", "not_graded"]
    message: str = Field(description="one sentence a student understands")
    gate: bool = Field(False, description="a rule the question must keep: failing it zeroes "
                                          "the question")
    evidence: Any = Field(default_factory=list,
                          description="the kind's evidence: shapes, errors, verdicts; never "
                                      "hidden inputs or reference values. Cell numbers in "
                                      "evidence are 0-based indices; messages and reports "
                                      "count cells from 1, as notebook editors do")


class QuestionResult(Part):
    id: str
    title: str
    score: float | None = Field(description="None while a TA has to grade it")
    max: float = Field(description="the question's points in the rubric")
    status: Literal["passed", "partial", "failed", "error", "manual", "not_graded"]
    message: str = Field(description="what went wrong first, or that all passed")
    hint: str = Field("", description="the rubric's hint, only when not passed")
    checks: list[CheckOutcome] = []
    printed: list[dict[str, Any]] = Field(
        default_factory=list, description="printed values held against the student's own code "
                                  "(label, stat, cell: 0-based, printed, computed)")


class Run(Part):
    seconds: float = Field(description="wall time of the run")
    restarts: int = Field(description="kernels restarted after one died")
    sandbox: str = Field(description="bwrap, none, not executed, no notebook")
    executed: bool = Field(description="false under --no-execute or for a report alone")
    quick: bool = Field(description="quick mode (GRADER_QUICK=1): brief fine-tuning")
    device: str | None = Field(description="where the fine-tuned models were")
    models: list[dict[str, Any]] = Field(default_factory=list,
                                         description="the fine-tuned models side by side")
    limits_hit: list[dict[str, Any]] = Field(
        default_factory=list, description="limit (a field of grader.run.limits.Limits, or "
                                          "kernel_died), cell (0-based index in the notebook, "
                                          "markdown cells included; null outside a cell), "
                                          "message")
    cell_errors: list[dict[str, Any]] = Field(
        default_factory=list, description="cell (0-based index in the notebook, markdown cells "
                                  "included), status, ename, evalue, tags")
    seed: int | None = Field(description="hidden-input seed (null in check mode): TA only")
    cells_executed: int = Field(description="cells that ran (not skipped)")
    cache_key: str | None = Field(None, exclude_if=_absent,
                                  description="the stored run under OUT/.runs/ (batches)")
    retries: int | None = Field(None, exclude_if=_absent,
                                description="automatic retries after a grader failure")
    hangs: list[dict[str, Any]] | None = Field(
        None, exclude_if=_absent,
        description="grader cells that waited past their limit, with what the kernel was "
                    "doing (cell, limit_seconds, outcome, os_threads, baseline_python_threads, "
                    "last_message, last_refusal, last_stop): found from the record, not by "
                    "attaching a profiler")
    shims: list[dict[str, Any]] | None = Field(
        None, exclude_if=_absent,
        description="what the grader bridged for a notebook written for Colab, Kaggle or a "
                    "lab machine (cell: 0-based, or null; note), and kernel changes it did not "
                    "count as tampering (grader/run/kernel_side/shims)")


def kind_flags() -> dict[str, str]:
    """Every flag a check kind may raise, with the kind that declares it (`Kind.flags`).

    Asked of the registry at each call, not at import: a kind registered later (a
    course's own, a test's example) counts, and importing a record does not import
    every check kind."""
    from grader.checks.registry import kinds

    return {flag: kind.name for kind in kinds().values() for flag in kind.flags}


# Why a kind's flag is an extra key checked against the registry, not a field per kind:
# a field would make this file name kinds, and a new kind would have to edit it; why not a
# free dict: a misspelled flag would pass unnoticed. On disk a kind's flag is a key of
# `flags` like the grader's own; `grader.record_schema` lists those the known kinds
# declare, so the published schema still refuses any other key.
class Flags(Part):
    """What marks a record for a TA; flags never change a score by themselves.

    Besides the grader's own three, each key is a flag a check kind declares
    (`Kind.flags`): a list of rows naming the question. Any other key is refused.
    """

    model_config = ConfigDict(extra="allow", validate_assignment=True)

    tamper: list[str] = Field(default_factory=list,
                              description="what the notebook changed in torch or the kernel")
    printed_mismatch: list[dict[str, Any]] = Field(
        default_factory=list, description="a printed value its own code does not compute")
    grader: list[str] = Field(
        default_factory=list,
        description="what the grader could not check on this run through no fault of the "
                    "notebook's (its baseline refused before the student's first cell, the "
                    "kernel's own threads unknown): a TA should look")

    @model_validator(mode="after")
    def _declared_by_a_kind(self) -> Flags:
        extra = self.model_extra or {}
        if not extra:
            return self
        declared = kind_flags()
        unknown = sorted(set(extra) - set(declared))
        if unknown:
            raise ValueError(f"no check kind raises the flag(s) {', '.join(unknown)} "
                             f"(kinds declare: {', '.join(sorted(declared)) or 'none'})")
        for name, rows in extra.items():
            if not (isinstance(rows, list) and all(isinstance(r, dict) for r in rows)):
                raise ValueError(f"flag {name!r} must be a list of objects, not "
                                 f"{type(rows).__name__}")
        return self

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every flag a record may carry now: the grader's own, then the kinds'."""
        return (*GRADER_FLAGS, *(f for f in kind_flags() if f not in GRADER_FLAGS))

    def raised(self) -> dict[str, list[dict[str, Any]]]:
        """The kinds' flags this record carries, by name (empty lists left out)."""
        return {name: rows for name, rows in (self.model_extra or {}).items() if rows}


GRADER_FLAGS = tuple(Flags.model_fields)
"""The flags the grader raises itself (the fields of `Flags`); check kinds declare theirs."""


class Environment(Part):
    """Versions that can change a grade."""

    python: str
    platform: str
    grader: str
    torch: str | None = None
    cuda: str | None = None
    pack_env: str | None = Field(None, exclude_if=_absent,
                                 description="the pack's kernel environment (grader env build), "
                                             "when it has one")


class GradeRecord(Part):
    schema_: str = Field(SCHEMA, alias="schema", serialization_alias="schema",
                         description=f"always {SCHEMA!r} for this version")
    assignment: Assignment
    submission: Submission
    mode: Literal["grade", "check"] = Field(
        description="grade (hidden inputs) or check (a self-check on the demo inputs only)")
    score: float = Field(description="points earned, manual questions counting 0 until graded")
    max_score: float
    status: Literal["graded", "incomplete"] = Field(
        description="incomplete while a question awaits a TA or was not graded")
    questions: list[QuestionResult]
    run: Run
    flags: Flags
    environment: Environment
    graded_at: str = Field(
        description="ISO 8601, UTC", default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))

    model_config = ConfigDict(extra="forbid", validate_assignment=True, populate_by_name=True)

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GradeRecord:
        """A record read back (a batch's stored JSON); an unknown key is an error."""
        return cls.model_validate(data)

    @classmethod
    def of(cls, record: GradeRecord | dict[str, Any]) -> GradeRecord:
        """`record` typed: a `GradeRecord` as it is, its JSON validated."""
        return record if isinstance(record, GradeRecord) else cls.from_dict(record)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=False)

    @property
    def needs_human(self) -> bool:
        return bool(needs_a_ta(self))


def needs_a_ta(record: GradeRecord | dict[str, Any], manual: bool = True) -> list[str]:
    """Why a TA should open this record (empty when nothing calls for it): the one rule
    the CLI table, the class summary and the gradebooks share.

    Reasons come from the record alone: flags, each limit hit (named once), questions
    that could not run, and the notebook's own cell errors. An error a cell raised
    names what the sandbox refused when its type or message says so (a network
    attempt; reading a secret: a denied `/proc/*/environ`, `.ssh`, a `reference` or
    `private` path; writing outside: a read-only file system or a denied write), else
    it is a crashed cell (the template's `NotImplementedError` is an unfinished answer,
    not a crash). A notebook that catches its own errors leaves no evidence here:
    the sandbox stopped it all the same.
    `manual=False` leaves out "manual questions", which the table, summary and
    gradebook show in a column of their own (the TA sheet lists them).
    A cell error marked `expected` (`grader.pack.expected.mark_expected`: the pack says
    that cell needs data the grader lacks) is no reason. A kind's flag reads as the
    kind's label and the `kind` of its rows ("fine-tuning: test_split_fit").
    A record given as JSON is validated first (`GradeRecord.of`).
    """
    from grader.checks.registry import label

    record = GradeRecord.of(record)
    why = []
    flags, run = record.flags, record.run
    if flags.tamper:
        why.append("tamper flags")
    if flags.grader:
        why.append("the grader's own checks failed")
    if run.hangs:
        why.append("grader cells hung")
    if flags.printed_mismatch:
        why.append("printed values disagree")
    declared = kind_flags()
    for name, rows in flags.raised().items():
        why.append(f"{label(declared.get(name, name))}: "
                   + ", ".join(sorted({str(r.get("kind", "?")) for r in rows})))
    if run.limits_hit:
        why.append("limits hit: " + ", ".join(sorted({str(h.get("limit", "?"))
                                                      for h in run.limits_hit})))
    attempts: dict[str, None] = {}
    crashed: dict[str, None] = {}
    for error in run.cell_errors:
        if error.get("expected"):
            continue
        what = _sandbox_attempt(str(error.get("ename") or ""), str(error.get("evalue") or ""))
        if what:
            attempts[what] = None
        elif error.get("ename") and error.get("ename") != "NotImplementedError":
            crashed[str(error["ename"])] = None
    why += list(attempts)
    if crashed:
        why.append("cells crashed: " + ", ".join(crashed))
    if any(q.status == "error" for q in record.questions):
        why.append("a question could not run")
    if manual and any(q.status == "manual" for q in record.questions):
        why.append("manual questions")
    return why


_NETWORK = re.compile(r"Network is unreachable|Name or service not known|name resolution|"
                      r"nodename nor servname|Failed to establish a new connection|"
                      r"Connection refused|\[Errno (101|111|-2|-3|-5)\]", re.IGNORECASE)
_NETWORK_ERRORS = {"ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
                   "ConnectionAbortedError", "gaierror", "herror", "URLError",
                   "NewConnectionError", "MaxRetryError", "ConnectTimeout", "ProxyError",
                   "DownloadNotAvailable"}
_SECRET = re.compile(r"/proc/[^/\s']+/environ|\.ssh/|/etc/shadow|/reference/|/private/|"
                     r"reference\.py|/\.env\b|credentials", re.IGNORECASE)
_OUTSIDE_WRITE = re.compile(r"Read-only file system|\[Errno 30\]", re.IGNORECASE)
_DENIED = re.compile(r"Permission denied|Operation not permitted|\[Errno (1|13)\]",
                     re.IGNORECASE)


def _sandbox_attempt(ename: str, evalue: str) -> str:
    """What a cell's error says the sandbox refused it ("" when nothing)."""
    if ename in _NETWORK_ERRORS or (ename in ("OSError", "TimeoutError", "socket.timeout")
                                    and _NETWORK.search(evalue)):
        return "network attempt"
    if ename in ("PermissionError", "FileNotFoundError", "OSError", "IsADirectoryError") \
            and _SECRET.search(evalue):
        return "secret-reading attempt"
    if _OUTSIDE_WRITE.search(evalue):
        return "writing outside its folder"
    if ename in ("PermissionError", "OSError") and _DENIED.search(evalue):
        return "file access denied"
    return ""


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


def read_record(path: Path) -> GradeRecord:
    """The record stored at `path`, typed: the one place a record file is read.

    A file that is not JSON, not of this schema, or holds a field the model does not
    know (a misspelling, a hand edit) is refused with a `ValueError` naming the file and
    the field, instead of rendering a report that silently leaves the field out."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        found = data.get("schema") if isinstance(data, dict) else None
        raise ValueError(f"{path}: not a {SCHEMA} record (schema {found!r})")
    try:
        return GradeRecord.from_dict(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                             for e in exc.errors()[:5])
        raise ValueError(f"{path}: not a valid record: {problems}") from None
