"""Assignment packs: a folder `reference/<id>/` with a `pack.toml` rubric.

A pack, not grader code, says what an assignment is: its questions and points, the
check kind of each (a module of `grader.checks`) with its settings, the probes that
run in the student's kernel, the reference that runs only here, and the files the
notebook may read. `docs/assignments.md` is the guide to writing one.

A pack has a public part (rubric text, template, probes, public demo data) and a
private part (reference code, solution, hidden data). `export_public` writes the
public part alone; `load_pack` reads either, and `Pack.is_public` tells which.
"""

from __future__ import annotations

import hashlib
import importlib.util
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from grader.pack.rubric import CheckHead, PrintedTable, Rubric, explain_error
from grader.run.limits import Limits

if TYPE_CHECKING:
    from grader.checks.kind import Settings
    from grader.intake.files import StudentFiles

PACK_FILE = "pack.toml"
PRIVATE_KEYS = ("reference", "solution", "hidden", "expected", "rubric")
"""Keys naming private files ([assignment] reference and solution, [data] hidden), an
answer key (`expected` of a check and of its conventions: what the kind of written
answers keeps `private`) or a TA's marking guide (a question's `rubric`); dropped from
an exported public part."""
DATA_ROLES = ("train", "test", "external", "hidden")


class PackError(ValueError):
    """A pack that cannot be used as written; `field` names the rubric key at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


Printed = PrintedTable
"""A value the notebook prints that should agree with what its own code computes."""


@dataclass(frozen=True)
class Check:
    kind: str
    settings: Settings
    """The kind's `Settings` model of the keys the rubric wrote: read as attributes, each
    default declared once in the model (`settings.written()`: the keys as written). A dict
    given here is validated by the kind's model (a misspelled key is refused)."""
    gate: bool = False
    """A gate check scores nothing itself; failing it zeroes the whole question."""
    weight: float = 1.0

    def __post_init__(self) -> None:
        if isinstance(self.settings, dict):
            from grader.checks.registry import kind

            object.__setattr__(self, "settings",
                               kind(self.kind).Settings.model_validate(self.settings))


@dataclass(frozen=True)
class Question:
    id: str
    title: str
    points: float
    checks: tuple[Check, ...]
    hint: str = ""
    printed: tuple[Printed, ...] = ()


@dataclass
class Pack:
    root: Path
    id: str
    title: str
    version: str
    notebook: str
    total: float
    questions: tuple[Question, ...]
    probes: tuple[Path, ...]
    public_files: tuple[Path, ...]
    template: Path
    limits: Limits
    reference_path: Path | None
    solution: Path | None
    raw: dict[str, Any] = field(repr=False, default_factory=dict)
    data: dict[str, Path] = field(default_factory=dict)
    """Data files by role (train, test, external, hidden), after any TA override."""
    labels: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    """Hub names the notebook loads; a run checks the model cache has them first."""
    demo_file: Path | None = None
    """The public demo cases and their expected outputs (safetensors)."""
    files: tuple[str, ...] = ()
    """Globs of the student's files taken besides the notebook (docs/submissions.md)."""
    files_max_count: int = 200
    files_max_bytes: int = 20 << 20
    synonyms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Other names students give a report heading or part the pack names by a phrase
    (``[synonyms]``: "Language modeling task" = ["Pre-training (LM) model"]); the report
    reader reads them as that phrase (``grader.written.QuestionSpec.synonyms``)."""
    _reference: ModuleType | None = field(default=None, repr=False)

    @property
    def probe_source(self) -> str:
        """All probe files as one source: the kernel harness looks probes up by name."""
        return "\n\n".join(p.read_text(encoding="utf-8") for p in self.probes)

    def with_data(self, overrides: dict[str, Path]) -> Pack:
        """The same pack reading some data files from elsewhere (the real AG News, say).

        A public file overridden keeps the name the notebook opens, so the unchanged
        template reads the TA's file.
        """
        for role, path in overrides.items():
            if role not in DATA_ROLES:
                raise PackError(f"data.{role}", f"unknown data role; known: {', '.join(DATA_ROLES)}")
            if not Path(path).is_file():
                raise PackError(f"data.{role}", f"{path} does not exist")
        return replace(self, data={**self.data, **{k: Path(v) for k, v in overrides.items()}},
                       _reference=self._reference)

    def notebook_files(self) -> list[tuple[Path, str]]:
        """(source, name beside the notebook) of every public file, overrides applied."""
        original = _data_paths(self.root, self.raw)
        by_original = {original[role].resolve(): self.data[role]
                       for role in original if role in self.data}
        return [(by_original.get(f.resolve(), f), f.name) for f in self.public_files]

    def student_files(self, folder: Path | None, notebook: Path | None = None) -> StudentFiles:
        """The student's files under `folder` that `[assignment] files` takes, within the
        pack's limits (none when the pack takes none or there is no folder)."""
        from grader.intake.files import take_files

        return take_files(folder, self.files, notebook=notebook,
                          max_count=self.files_max_count, max_bytes=self.files_max_bytes)

    @property
    def is_public(self) -> bool:
        """True for an exported public part: no reference, so only demo cases can be checked."""
        return self.reference_path is None or not self.reference_path.is_file()

    def reference(self) -> ModuleType:
        """The reference module, imported by path (never placed on sys.path)."""
        if self.is_public or self.reference_path is None:
            raise PackError("assignment.reference", "this is a public pack: no reference here")
        if self._reference is None:
            name = f"grader_pack_{self.id.replace('-', '_')}_reference"
            spec = importlib.util.spec_from_file_location(name, self.reference_path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except Exception as exc:  # noqa: BLE001 - the author's code, reported as theirs
                line = _author_line(exc, self.reference_path)
                raise PackError("assignment.reference", f"{self.reference_path.name}{line} "
                                f"raised {type(exc).__name__}: {exc}") from None
            self._reference = module
        return self._reference

    def question(self, qid: str) -> Question:
        for q in self.questions:
            if q.id == qid:
                return q
        raise PackError("question", f"no question {qid!r} in {self.id}; "
                        f"known: {', '.join(q.id for q in self.questions)}")

    def checks(self, kind: str | None = None) -> list[tuple[Question, Check]]:
        """(question, check) pairs, of one kind or all, in rubric order."""
        return [(q, c) for q in self.questions for c in q.checks if kind in (None, c.kind)]

    def fingerprint(self) -> str:
        """Hash of what changes execution (probes, public files, reference): a cache key part."""
        digest = hashlib.sha256()
        paths = [*self.probes, *(src for src, _ in self.notebook_files())]
        if not self.is_public and self.reference_path is not None:
            paths.append(self.reference_path)
        for path in paths:
            digest.update(path.name.encode())
            if path.is_dir():  # a folder of public files: its tree, names and contents
                for f in sorted(p for p in path.rglob("*") if p.is_file()):
                    digest.update(f.relative_to(path).as_posix().encode() + b"\0")
                    digest.update(f.read_bytes())
            else:
                digest.update(path.read_bytes())
        return digest.hexdigest()[:16]


def _taken_by(path: str, globs: list[str]) -> bool:
    from grader.intake.files import matches

    return any(matches(path, g) for g in globs)


def _author_line(exc: BaseException, path: Path) -> str:
    """`:LINE` of the last traceback frame in the author's file (a SyntaxError's own line)."""
    if isinstance(exc, SyntaxError) and exc.lineno:
        return f":{exc.lineno}"
    import traceback

    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__)
             if Path(f.filename).resolve() == path.resolve()]
    return f":{lines[-1]}" if lines else ""


def _data_paths(root: Path, raw: dict[str, Any]) -> dict[str, Path]:
    table = raw.get("data", {})
    return {role: root / str(table[role]) for role in DATA_ROLES if role in table}


def _validated(model: type[BaseModel], data: Any, where: str, **context: Any) -> Any:
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise PackError(*explain_error(exc, where, model)) from None


def parse_check(raw: dict[str, Any], where: str, *, public: bool = False) -> Check:
    """One `[[questions.checks]]` table: its kind's settings model decides what it may hold."""
    from grader.checks.registry import kinds

    if not isinstance(raw, dict):
        raise PackError(where, "must be a table")
    head = {k: raw[k] for k in ("kind", "gate", "weight") if k in raw}
    if "kind" in head and head["kind"] not in kinds():
        raise PackError(f"{where}.kind", f"unknown check kind {head['kind']!r}; this version "
                        f"runs {', '.join(sorted(kinds()))}")
    head_model = _validated(CheckHead, head, where)
    model = kinds()[head_model.kind].Settings
    rest = {k: v for k, v in raw.items() if k not in head}
    settings = _validated(model, rest, where, public=public)
    return Check(kind=head_model.kind, settings=settings, gate=head_model.gate,
                 weight=head_model.weight)


def load_pack(path: str | Path) -> Pack:
    """Read and validate a pack's rubric; raises PackError naming the bad key."""
    root = Path(path)
    if root.is_file():
        root = root.parent
    rubric_file = root / PACK_FILE
    if not rubric_file.is_file():
        raise PackError("pack", f"{root} has no {PACK_FILE}")
    try:
        raw = tomllib.loads(rubric_file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise PackError(PACK_FILE, str(exc)) from None
    from grader.checks.registry import by_ta, kind

    rubric: Rubric = _validated(Rubric, raw, "")
    head = rubric.assignment
    public = head.reference is None
    questions = []
    for i, q in enumerate(rubric.questions):
        where = f"questions[{i}]"
        checks = tuple(parse_check(c, f"{where}.checks[{j}]", public=public)
                       for j, c in enumerate(q.checks))
        if all(c.gate for c in checks) and not all(by_ta(c.kind) for c in checks):
            raise PackError(f"{where}.checks", "a question needs a check that is not a gate")
        for j, c in enumerate(checks):
            for module in kind(c.kind).student_modules(c):
                if not _taken_by(module, head.files):
                    raise PackError(f"{where}.checks[{j}].module", f"{module} is not among "
                                    "the student's files: add a glob for it to [assignment] "
                                    "files")
        questions.append(Question(id=q.id, title=q.title, points=q.points, checks=checks,
                                  hint=q.hint, printed=tuple(q.printed)))
    ids = [q.id for q in questions]
    if len(set(ids)) != len(ids):
        raise PackError("questions", f"question ids repeat: {ids}")
    summed = sum(q.points for q in questions)
    if abs(summed - head.total) > 1e-9:
        raise PackError("assignment.total", f"questions add up to {summed:g}, not {head.total:g}")

    def file(key: str, value: str | None, *, required: bool = True) -> Path | None:
        if value is None:
            if required:
                raise PackError(f"assignment.{key}", "missing")
            return None
        if required and not (root / value).is_file():
            raise PackError(f"assignment.{key}", f"{root / value} does not exist")
        return root / value

    try:
        limits = Limits().merged(rubric.limits)
    except (ValueError, TypeError) as exc:
        raise PackError("limits", str(exc)) from None
    budgets = {q.id: q.time_budget for q in rubric.questions if q.time_budget is not None}
    if budgets:
        limits = replace(limits, tag_timeouts={**limits.tag_timeouts, **budgets})
    data = _data_paths(root, raw)
    for role, path in data.items():
        if not path.is_file() and not (role == "hidden" and public):
            raise PackError(f"data.{role}", f"{path} does not exist")
    data = {role: path for role, path in data.items() if path.is_file()}
    probe_names = [head.probes] if isinstance(head.probes, str) else head.probes
    if not probe_names:
        raise PackError("assignment.probes", "missing: a file name or a list of file names")
    for name in probe_names:
        if not (root / name).is_file():
            raise PackError("assignment.probes", f"{root / name} does not exist")
    public_files = []
    for name in head.public_files:
        if not (root / name).exists():
            raise PackError("assignment.public_files", f"{root / name} does not exist")
        public_files.append(root / name)
    return Pack(
        root=root, id=head.id, title=head.title, version=head.version, notebook=head.notebook,
        total=head.total, questions=tuple(questions), probes=tuple(root / n for n in probe_names),
        public_files=tuple(public_files), template=file("template", head.template),  # type: ignore[arg-type]
        limits=limits, reference_path=file("reference", head.reference, required=False),
        solution=file("solution", head.solution, required=False), raw=raw, data=data,
        labels=tuple(rubric.data.labels), models=tuple(rubric.models.required),
        demo_file=root / head.demo if head.demo else None, files=tuple(head.files),
        files_max_count=head.files_max_count, files_max_bytes=head.files_max_bytes,
        synonyms={k: tuple(v) for k, v in rubric.synonyms.items()})


PACKS_ENV = "GRADER_PACKS"
"""Folders of packs searched after --packs-dir, separated like PATH (`:` on Linux)."""


def bundled_packs_dir() -> Path | None:
    """The example packs that come with the grader: the copy a wheel installs
    (`grader/_packs`, mapped from `reference/` in pyproject.toml), else the checkout's
    `reference/` (an editable install); None when neither exists."""
    grader_dir = Path(__file__).resolve().parents[1]
    for folder in (grader_dir / "_packs", grader_dir.parent / "reference"):
        if folder.is_dir():
            return folder
    return None


def pack_search_path(packs_dir: Path | None = None) -> list[tuple[str, Path]]:
    """Where a pack id is looked up, first match wins: (what put it there, folder).

    `--packs-dir DIR` (when given), each folder of `$GRADER_PACKS`, `./reference` in the
    working folder, then the installed examples. A folder already listed is not repeated.
    """
    import os

    path: list[tuple[str, Path]] = []
    if packs_dir is not None:
        path.append(("--packs-dir", Path(packs_dir)))
    for entry in os.environ.get(PACKS_ENV, "").split(os.pathsep):
        if entry.strip():
            path.append((f"${PACKS_ENV}", Path(entry.strip()).expanduser()))
    path.append(("./reference", Path("reference")))
    bundled = bundled_packs_dir()
    if bundled is not None:
        path.append(("installed examples", bundled))
    seen: set[Path] = set()
    unique = []
    for label, folder in path:
        key = folder.resolve()
        if key not in seen:
            seen.add(key)
            unique.append((label, folder))
    return unique


def available_packs(packs_dir: Path | None = None) -> dict[str, Path]:
    """Every pack id along the search path and the folder it resolves to (first wins)."""
    found: dict[str, Path] = {}
    for _, base in pack_search_path(packs_dir):
        for pack_file in sorted(base.glob(f"*/{PACK_FILE}")):
            found.setdefault(pack_file.parent.name, pack_file.parent)
    return found


def resolve_pack(assignment: str, packs_dir: Path | None = None) -> Pack:
    """`assignment` is a pack folder, or an id looked up along `pack_search_path(packs_dir)`.

    An id not found is a PackError naming the folders searched, with a "did you mean"
    for a near id.
    """
    import difflib

    candidate = Path(assignment)
    if (candidate / PACK_FILE).is_file():
        return load_pack(candidate)
    searched = pack_search_path(packs_dir)
    if candidate.name == assignment and assignment not in ("", ".", ".."):
        for _, base in searched:
            if (base / assignment / PACK_FILE).is_file():
                return load_pack(base / assignment)
    known = available_packs(packs_dir)
    near = difflib.get_close_matches(assignment, list(known), n=1, cutoff=0.6)
    if near:
        hint = f"; did you mean {near[0]!r}?"
    elif known:
        hint = f"; known: {', '.join(sorted(known))}"
    else:
        hint = ""
    where = ", ".join(label if label == "./reference" else f"{label} {folder}"
                      for label, folder in searched)
    if candidate.is_dir() and candidate.name != assignment:
        raise PackError("assignment", f"no pack {assignment!r}: the folder has no {PACK_FILE}")
    raise PackError("assignment", f"no pack {assignment!r}{hint} (looked in: {where})")


from grader.pack.export import export_public as export_public  # noqa: E402  (re-exported)
