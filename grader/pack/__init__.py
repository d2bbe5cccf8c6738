"""Assignment packs: a folder `reference/<id>/` with a `pack.toml` rubric.

A pack, not grader code, says what an assignment is: its questions and points, the
check kind of each (tensor, static, manual, ...) with its settings, the probes that
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
from typing import Any

from grader.run.limits import Limits

PACK_FILE = "pack.toml"
CHECK_KINDS = ("tensor", "static", "manual", "finetune", "answer", "series", "logs")
ANSWER_SOURCES = ("notebook", "printed", "report")
ANSWER_TOLERANCE_KEYS = ("exact", "relative", "absolute", "sig_figs", "min_sig_figs",
                         "significant", "close_relative", "close_credit", "convention_credit")
FINETUNE_EVALUATIONS = ("samples", "accuracy", "external", "reported")
PRIVATE_KEYS = ("reference", "solution", "hidden", "expected")
"""Keys naming private files ([assignment] reference and solution, [data] hidden) or an
answer key (`expected` of an `answer` check and of its conventions); dropped from an
exported public part."""
DATA_ROLES = ("train", "test", "external", "hidden")


class PackError(ValueError):
    """A pack that cannot be used as written; `field` names the rubric key at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


@dataclass(frozen=True)
class Printed:
    """A value the notebook prints that should agree with what its own code computes."""

    label: str
    case: str
    output: str
    stat: str  # shape | norm | error
    cell_tag: str | None = None
    rtol: float = 1e-3


@dataclass(frozen=True)
class Check:
    kind: str
    settings: dict[str, Any]
    gate: bool = False
    """A gate check scores nothing itself; failing it zeroes the whole question."""
    weight: float = 1.0

    @property
    def target(self) -> str:
        return str(self.settings.get("target", ""))


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
            spec.loader.exec_module(module)
            self._reference = module
        return self._reference

    def question(self, qid: str) -> Question:
        for q in self.questions:
            if q.id == qid:
                return q
        raise PackError("question", f"no question {qid!r} in {self.id}; "
                        f"known: {', '.join(q.id for q in self.questions)}")

    def fingerprint(self) -> str:
        """Hash of what changes execution (probes, public files, reference): a cache key part."""
        digest = hashlib.sha256()
        paths = [*self.probes, *(src for src, _ in self.notebook_files())]
        if not self.is_public and self.reference_path is not None:
            paths.append(self.reference_path)
        for path in paths:
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
        return digest.hexdigest()[:16]


def _require(table: dict[str, Any], key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    if key not in table:
        raise PackError(f"{where}.{key}", "missing")
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise PackError(f"{where}.{key}", f"expected {getattr(kind, '__name__', kind)}, "
                        f"got {type(value).__name__}")
    return value


def _check(raw: dict[str, Any], where: str, *, public: bool = False) -> Check:
    kind = _require(raw, "kind", where, str)
    if kind not in CHECK_KINDS:
        raise PackError(f"{where}.kind", f"unknown check kind {kind!r}; this version runs "
                        f"{', '.join(CHECK_KINDS)}")
    settings = {k: v for k, v in raw.items() if k not in ("kind", "gate", "weight")}
    if kind == "tensor":
        _require(raw, "target", where, str)
        credit = raw.get("credit", "all")
        if credit not in ("all", "per-case"):
            raise PackError(f"{where}.credit", f"must be 'all' or 'per-case', not {credit!r}")
        for key in ("atol", "rtol"):
            if key in raw and not isinstance(raw[key], int | float):
                raise PackError(f"{where}.{key}", "must be a number")
    if kind == "finetune":
        _finetune(raw, where)
    if kind == "answer":
        _answer(raw, where, public=public)
    if kind == "series":
        _series(raw, where)
    if kind == "logs":
        for key in ("validation", "test"):
            names = _require(raw, key, where, list)
            if not names or not all(isinstance(n, str) for n in names):
                raise PackError(f"{where}.{key}", "must list scalar tags or CSV column names")
    if kind == "static":
        _require(raw, "scope", where, str)
        forbid = _require(raw, "forbid", where, list)
        if not forbid or not all(isinstance(f, str) for f in forbid):
            raise PackError(f"{where}.forbid", "must be a non-empty list of names")
    return Check(kind=kind, settings=settings, gate=bool(raw.get("gate", False)),
                 weight=float(raw.get("weight", 1.0)))


def _finetune(raw: dict[str, Any], where: str) -> None:
    evaluate = _require(raw, "evaluate", where, str)
    if evaluate not in FINETUNE_EVALUATIONS:
        raise PackError(f"{where}.evaluate", f"must be one of {', '.join(FINETUNE_EVALUATIONS)}, "
                        f"not {evaluate!r}")
    if evaluate in ("accuracy", "external", "reported"):
        _require(raw, "model", where, str)
    if evaluate == "samples":
        _require(raw, "dataset", where, str)
    for key in ("threshold", "reported_tolerance", "gap_tolerance", "test_fit_credit"):
        if key in raw and not (isinstance(raw[key], int | float) and 0 <= raw[key] <= 1):
            raise PackError(f"{where}.{key}", "must be a number from 0 to 1")
    table = raw.get("credit", [])
    if not isinstance(table, list) or not all(
            isinstance(row, list) and len(row) == 2
            and all(isinstance(x, int | float) and 0 <= x <= 1 for x in row) for row in table):
        raise PackError(f"{where}.credit",
                        "must be a list of [accuracy, fraction] pairs, each from 0 to 1")


def _fraction(raw: dict[str, Any], key: str, where: str) -> None:
    if key in raw and not (isinstance(raw[key], int | float) and not isinstance(raw[key], bool)
                           and 0 <= raw[key] <= 1):
        raise PackError(f"{where}.{key}", "must be a number from 0 to 1")


def _expected(raw: dict[str, Any], where: str, *, public: bool) -> None:
    """`expected` names a calculators call or a reference function (a literal number is
    allowed but discouraged); a public pack has none (export drops it)."""
    if "expected" not in raw:
        if not public:
            raise PackError(f"{where}.expected", "missing: a {calc = ...} or {reference = ...} "
                            "table (the answer key, computed)")
        return
    value = raw["expected"]
    if isinstance(value, dict):
        if ("calc" in value) == ("reference" in value):
            raise PackError(f"{where}.expected", "needs exactly one of calc or reference")
        if not isinstance(value.get("args", {}), dict):
            raise PackError(f"{where}.expected.args", "must be a table of keyword arguments")
    elif not isinstance(value, int | float | str) or isinstance(value, bool):
        raise PackError(f"{where}.expected", "must be a table {calc = ...} / {reference = ...}")


def _series(raw: dict[str, Any], where: str) -> None:
    series = _require(raw, "series", where, dict)
    if not series or not all(isinstance(v, list) and v and all(isinstance(w, str) for w in v)
                             for v in series.values()):
        raise PackError(f"{where}.series", "must map each series name to the words naming it")
    claim_from = raw.get("claim_from", [])
    if not isinstance(claim_from, list) or not all(isinstance(h, str) for h in claim_from):
        raise PackError(f"{where}.claim_from", "must be a list of report headings")


def _answer(raw: dict[str, Any], where: str, *, public: bool) -> None:
    _expected(raw, where, public=public)
    for key in ("label", "tag", "printed", "unit", "report_part"):
        if key in raw and not isinstance(raw[key], str):
            raise PackError(f"{where}.{key}", "must be a string")
    report = raw.get("report", [])
    if not isinstance(report, list) or not all(isinstance(h, str) and h for h in report):
        raise PackError(f"{where}.report", "must be a list of section headings")
    prefer = raw.get("prefer", list(ANSWER_SOURCES))
    if not isinstance(prefer, list) or not prefer or any(p not in ANSWER_SOURCES for p in prefer):
        raise PackError(f"{where}.prefer", f"must list sources from {', '.join(ANSWER_SOURCES)}")
    for source, key in (("printed", "printed"), ("report", "report")):
        if source in raw.get("prefer", []) and not raw.get(key):
            raise PackError(f"{where}.{key}", f"missing: prefer lists {source}")
    if "self_check" in raw and not isinstance(raw["self_check"], bool):
        raise PackError(f"{where}.self_check", "must be true or false")
    if "symbols" in raw and not isinstance(raw["symbols"], dict):
        raise PackError(f"{where}.symbols", "must be a table of name = value")
    tol = raw.get("tolerance", {})
    if not isinstance(tol, dict):
        raise PackError(f"{where}.tolerance", "must be a table")
    for key in tol:
        if key not in ANSWER_TOLERANCE_KEYS:
            raise PackError(f"{where}.tolerance.{key}", f"unknown; known: "
                            f"{', '.join(ANSWER_TOLERANCE_KEYS)}")
    _fraction(raw, "slip_cost", where)
    convs = raw.get("conventions", [])
    if not isinstance(convs, list):
        raise PackError(f"{where}.conventions", "must be a list of tables")
    for i, conv in enumerate(convs):
        at = f"{where}.conventions[{i}]"
        if not isinstance(conv, dict):
            raise PackError(at, "must be a table")
        _require(conv, "name", at, str)
        _require(conv, "credit", at, int | float)
        _fraction(conv, "credit", at)
        _expected(conv, at, public=public)


def _data_paths(root: Path, raw: dict[str, Any]) -> dict[str, Path]:
    table = raw.get("data", {})
    return {role: root / str(table[role]) for role in DATA_ROLES if role in table}


def _printed(raw: dict[str, Any], where: str) -> Printed:
    stat = _require(raw, "stat", where, str)
    if stat not in ("shape", "norm", "error"):
        raise PackError(f"{where}.stat", f"must be shape, norm or error, not {stat!r}")
    return Printed(label=_require(raw, "label", where, str), case=_require(raw, "case", where, str),
                   output=_require(raw, "output", where, str), stat=stat,
                   cell_tag=raw.get("cell_tag"), rtol=float(raw.get("rtol", 1e-3)))


def load_pack(path: str | Path) -> Pack:
    """Read and validate a pack's rubric; raises PackError naming the bad key."""
    root = Path(path)
    if root.is_file():
        root = root.parent
    rubric = root / PACK_FILE
    if not rubric.is_file():
        raise PackError("pack", f"{root} has no {PACK_FILE}")
    try:
        raw = tomllib.loads(rubric.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise PackError(PACK_FILE, str(exc)) from None
    head = _require(raw, "assignment", "", dict)
    questions = []
    for i, q in enumerate(raw.get("questions", [])):
        where = f"questions[{i}]"
        checks = tuple(_check(c, f"{where}.checks[{j}]", public="reference" not in head)
                       for j, c in enumerate(q.get("checks", [])))
        if not checks:
            raise PackError(f"{where}.checks", "a question needs at least one check")
        if all(c.gate for c in checks) and any(c.kind != "manual" for c in checks):
            raise PackError(f"{where}.checks", "a question needs a check that is not a gate")
        points = _require(q, "points", where, int | float)
        if points < 0:
            raise PackError(f"{where}.points", "must not be negative")
        questions.append(Question(
            id=_require(q, "id", where, str), title=_require(q, "title", where, str),
            points=float(points), checks=checks, hint=q.get("hint", ""),
            printed=tuple(_printed(p, f"{where}.printed[{k}]")
                          for k, p in enumerate(q.get("printed", [])))))
    if not questions:
        raise PackError("questions", "the pack lists no questions")
    ids = [q.id for q in questions]
    if len(set(ids)) != len(ids):
        raise PackError("questions", f"question ids repeat: {ids}")
    total = float(_require(head, "total", "assignment", int | float))
    summed = sum(q.points for q in questions)
    if abs(summed - total) > 1e-9:
        raise PackError("assignment.total", f"questions add up to {summed:g}, not {total:g}")

    def file(key: str, *, required: bool = True) -> Path | None:
        if key not in head:
            if required:
                raise PackError(f"assignment.{key}", "missing")
            return None
        value = root / _require(head, key, "assignment", str)
        if required and not value.is_file():
            raise PackError(f"assignment.{key}", f"{value} does not exist")
        return value

    try:
        limits = Limits().merged(raw.get("limits"))
    except (ValueError, TypeError) as exc:
        raise PackError("limits", str(exc)) from None
    budgets = {}
    for i, q in enumerate(raw.get("questions", [])):
        if "time_budget" in q:
            budget = q["time_budget"]
            if not isinstance(budget, int | float) or isinstance(budget, bool) or budget <= 0:
                raise PackError(f"questions[{i}].time_budget", "must be a positive number of seconds")
            budgets[q["id"]] = float(budget)
    if budgets:
        limits = replace(limits, tag_timeouts={**limits.tag_timeouts, **budgets})
    data = _data_paths(root, raw)
    for role, path in data.items():
        if not path.is_file() and not (role == "hidden" and "reference" not in head):
            raise PackError(f"data.{role}", f"{path} does not exist")
    data = {role: path for role, path in data.items() if path.is_file()}
    probes = head.get("probes")
    probe_names = [probes] if isinstance(probes, str) else probes
    if not isinstance(probe_names, list) or not probe_names:
        raise PackError("assignment.probes", "missing: a file name or a list of file names")
    for name in probe_names:
        if not isinstance(name, str) or not (root / name).is_file():
            raise PackError("assignment.probes", f"{root / str(name)} does not exist")
    public_files = []
    for name in head.get("public_files", []):
        f = root / name
        if not f.exists():
            raise PackError("assignment.public_files", f"{f} does not exist")
        public_files.append(f)
    return Pack(
        root=root, id=_require(head, "id", "assignment", str),
        title=_require(head, "title", "assignment", str),
        version=str(head.get("version", "0")), notebook=_require(head, "notebook", "assignment", str),
        total=total, questions=tuple(questions), probes=tuple(root / n for n in probe_names),
        public_files=tuple(public_files), template=file("template"),  # type: ignore[arg-type]
        limits=limits, reference_path=file("reference", required=False),
        solution=file("solution", required=False), raw=raw, data=data,
        labels=tuple(str(x) for x in raw.get("data", {}).get("labels", [])),
        models=tuple(str(x) for x in raw.get("models", {}).get("required", [])))


def resolve_pack(assignment: str, packs_dir: Path | None = None) -> Pack:
    """`assignment` is a pack folder, or an id looked up under `packs_dir` (default ./reference)."""
    candidate = Path(assignment)
    if (candidate / PACK_FILE).is_file():
        return load_pack(candidate)
    base = packs_dir or Path("reference")
    if (base / assignment / PACK_FILE).is_file():
        return load_pack(base / assignment)
    raise PackError("assignment", f"no pack {assignment!r}: neither a folder with {PACK_FILE} "
                    f"nor {base / assignment}")


from grader.pack.export import export_public as export_public  # noqa: E402  (re-exported)
