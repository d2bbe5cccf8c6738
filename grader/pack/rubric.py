"""The rubric file (`pack.toml`) as typed models: what a pack author may write.

Why typed: a misspelled key (`gap_tolerence = 0.06`) used to load without a word, and
the check then ran on its defaults. Every table here forbids unknown keys, and
`PackError` names the key's path with the nearest known key. A check's own keys are
its kind's `Settings` model (`grader.checks.<kind>`), validated in `parse_check`.
"""

from __future__ import annotations

import difflib
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

PositiveSeconds = Annotated[float, Field(gt=0)]


class Table(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AssignmentTable(Table):
    id: str
    title: str
    notebook: str
    """The notebook's file name as students hand it in."""
    total: float = Field(ge=0)
    template: str
    probes: str | list[str]
    version: str = "0"
    demo: str | None = None
    public_files: list[str] = []
    files: list[str] = []
    """The student's files taken besides the notebook: globs relative to the notebook's
    folder (`mycourse/**/*.py`, `*.py`, `data/*.csv`), copied into the sandbox with their
    relative paths (docs/submissions.md)."""
    files_max_count: int = Field(200, ge=1)
    """At most this many student files are taken; the rest are refused, named."""
    files_max_bytes: int = Field(20 << 20, ge=1)
    """At most this many bytes of student files in all (and per file)."""
    reference: str | None = None
    """Private: the reference implementation (absent from a public part)."""
    solution: str | None = None
    """Private: the solution notebook."""
    deadline: datetime | str | None = None
    """When `visibility = "after_deadline"` questions show their details."""
    downloads: dict[str, str] = {}
    """URL -> a file of the pack: what a notebook's `!wget`/`!curl`/`urllib` of that URL
    gets in the sandbox, which has no network (grader/run/kernel_side/shims)."""

    @field_validator("downloads")
    @classmethod
    def _download_urls(cls, value: dict[str, str]) -> dict[str, str]:
        for url, target in value.items():
            if not url.startswith(("http://", "https://", "ftp://")):
                raise ValueError(f"{url!r}: a URL (http://, https:// or ftp://)")
            parts = target.replace("\\", "/").split("/")
            if not target.strip() or target.startswith(("/", "~")) or ".." in parts:
                raise ValueError(f"{target!r}: a file of the pack, relative to its folder")
        return value

    @field_validator("files")
    @classmethod
    def _relative_globs(cls, value: list[str]) -> list[str]:
        for pattern in value:
            parts = pattern.replace("\\", "/").split("/")
            if not pattern.strip() or pattern.startswith(("/", "~")) or ".." in parts or (
                    ":" in parts[0]):
                raise ValueError(f"{pattern!r}: a glob relative to the notebook's folder, "
                                 "without '..' or a leading '/'")
        return value


class PrintedTable(Table):
    """A value the notebook prints, checked against the student's own computation on a
    demo case (`case`, `output`, `stat`) or against a fixed number in the pack (`value`:
    a parameter count, a loss at initialisation, a shape), for packs without a demo file."""

    label: str
    case: str = ""
    output: str = ""
    stat: Literal["shape", "norm", "error"] | None = None
    value: float | list[int] | None = None
    """The number (or shape, a list of integers) the printed line must show."""
    cell_tag: str | None = None
    rtol: float = Field(1e-3, ge=0)

    @model_validator(mode="after")
    def _one_source(self) -> PrintedTable:
        computed = bool(self.case or self.output or self.stat)
        if self.value is None and not (self.case and self.output and self.stat):
            raise ValueError("a printed check needs `case`, `output` and `stat` (compared "
                             "with the probe's output) or `value` (a fixed number)")
        if self.value is not None and computed:
            raise ValueError("`value` is a fixed number: drop `case`, `output` and `stat`")
        return self


class QuestionTable(Table):
    id: str
    title: str
    points: float = Field(ge=0)
    checks: list[dict[str, Any]] = Field(min_length=1)
    """Each a `kind` plus that kind's settings, `gate` and `weight`."""
    hint: str = ""
    rubric: str = ""
    """What a TA marks a question graded by hand by (the TA sheet's `rubric` column); private:
    `grader pack export-public` drops it, and no record or report carries it."""
    printed: list[PrintedTable] = []
    time_budget: PositiveSeconds | None = None
    visibility: Literal["visible", "score", "hidden", "after_deadline"] = "visible"


class DataTable(Table):
    train: str | None = None
    test: str | None = None
    external: str | None = None
    hidden: str | None = None
    """Private: the held-out split only the grader reads."""
    labels: list[str] = []


class ModelsTable(Table):
    required: list[str] = []


class LmsTable(Table):
    canvas_assignment_id: str = ""


class EnvironmentTable(Table):
    """`[environment]`: what a pack's kernels need beyond the grader's own packages, built
    once per machine by `grader env build` (grader/env, docs/environments.md)."""

    packages: list[str] = []
    """pip requirement strings (`"matplotlib>=3.8"`, `"h5py"`)."""
    python: str | None = None
    """Python versions the pack supports (`"3.11"`, `">=3.10"`): the kernel runs the
    grader's own interpreter, so this is checked, never installed."""
    index_url: str | None = None
    """A package index to resolve from (default: pip's own configuration)."""
    wheelhouse: str | None = None
    """A folder of wheels in the pack: with no `index_url`, the only source (offline)."""
    benign: list[str] = []
    """Names (fnmatch patterns) of callbacks and kernel attributes that the pack's own
    libraries install and that are not tampering (grader/checks/tamper.py)."""
    warm: list[str] | None = None
    """Modules a warm kernel imports before it is handed a submission (grader/run/pool.py,
    docs/warm-kernels.md); None: torch."""

    @field_validator("packages")
    @classmethod
    def _requirements(cls, value: list[str]) -> list[str]:
        from packaging.requirements import InvalidRequirement, Requirement

        for text in value:
            try:
                Requirement(text)
            except InvalidRequirement as exc:
                raise ValueError(f"{text!r} is not a pip requirement: {exc}") from None
        return value

    @field_validator("python")
    @classmethod
    def _python(cls, value: str | None) -> str | None:
        from packaging.specifiers import InvalidSpecifier, SpecifierSet

        if value is not None:
            spec = value if value[:1] in "<>=!~" else f"=={value}.*"
            try:
                SpecifierSet(spec)
            except InvalidSpecifier:
                raise ValueError(f"{value!r}: a version (3.11) or specifier (>=3.10)") from None
        return value


class ExpectedErrorTable(Table):
    """`[[expected_errors]]`: cells that need what the grader lacks (a dataset, a Drive
    folder, a download) and are expected to fail when graded. Such a cell still runs;
    its error is kept in the record and shown as expected (with `why`), and it is no
    reason for a TA to open the record. A rule matches a cell error when the cell has
    one of `tags` (if given) and `error` (if given) is found in "ename: evalue"."""

    tags: list[str] = []
    error: str | None = None
    """A regular expression searched in the error's "ename: evalue" (`FileNotFoundError:
    .*coco`, `No such file or directory: '/content/drive`)."""
    why: str = Field(min_length=1)
    """What the cell needs, in words ("loads COCO captions, which the grader lacks")."""

    @field_validator("error")
    @classmethod
    def _pattern(cls, value: str | None) -> str | None:
        import re

        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"{value!r} is not a regular expression: {exc}") from None
        return value

    @model_validator(mode="after")
    def _something(self) -> ExpectedErrorTable:
        if not self.tags and self.error is None:
            raise ValueError("give tags, error, or both: a rule matching every error would "
                             "hide real crashes")
        return self


class Rubric(Table):
    """The whole `pack.toml`."""

    assignment: AssignmentTable
    questions: list[QuestionTable] = Field(min_length=1)
    data: DataTable = DataTable()
    models: ModelsTable = ModelsTable()
    limits: dict[str, Any] = {}
    """Checked against `grader.run.limits.Limits` (unknown limits refused there)."""
    lms: LmsTable = LmsTable()
    environment: EnvironmentTable = EnvironmentTable()
    expected_errors: list[ExpectedErrorTable] = []
    synonyms: dict[Annotated[str, Field(min_length=1)],
                   list[Annotated[str, Field(min_length=1)]]] = {}
    """Other names students give a report heading or part the pack names by a phrase
    (``"Language modeling task" = ["Pre-training (LM) model"]``): read as that phrase."""


class CheckHead(Table):
    """What every check has, whatever its kind."""

    kind: str
    gate: bool = False
    """A gate scores nothing itself; failing it zeroes the whole question."""
    weight: float = Field(1.0, ge=0)


def explain_error(exc: ValidationError, where: str, model: type[BaseModel]) -> tuple[str, str]:
    """(path of the key at fault, message) of the first error, with a "did you mean"."""
    errors = exc.errors()
    # a misspelled key shows up twice, as unknown and as the missing key it meant:
    # name the unknown one, it is what the author wrote
    error = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = [str(p) if isinstance(p, str) else f"[{p}]" for p in error["loc"]]
    path = where
    for part in loc:
        path = f"{path}{part}" if part.startswith("[") or not path else f"{path}.{part}"
    if error["type"] == "extra_forbidden":
        known = _fields_at(model, [p for p in error["loc"][:-1]])
        near = difflib.get_close_matches(str(error["loc"][-1]), known, n=1, cutoff=0.6)
        hint = f"; did you mean {near[0]!r}?" if near else f"; known: {', '.join(known)}"
        return path, "unknown key" + hint
    message = str(error["msg"])
    message = message.removeprefix("Value error, ")
    if error["type"] == "missing":
        message = "missing"
    return path, message


def _fields_at(model: type[BaseModel], loc: list[Any]) -> list[str]:
    """The keys known at `loc` below `model` (for the "did you mean" of a nested table)."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        info = getattr(current, "model_fields", {}).get(part)
        if info is None:
            return []
        current = _model_in(info.annotation)
        if current is None:
            return []
    return sorted(getattr(current, "model_fields", {}))


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _model_in(arg)
        if found is not None:
            return found
    return None
