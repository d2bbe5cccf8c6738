"""A class as the similarity checks read it: records, stored runs, notebooks, the starter code.

Why only what grading left behind: comparing 500 students must not run one notebook.
A grades folder (`grader grade ... --out DIR`) holds each student's record (typed,
`GradeRecord.from_dict`), the stored run it names (`.runs/<cache key>/`: probe payloads
with the outputs on the hidden cases, error messages, recorded operators), and where the
notebook and the student's companion modules were read. The pack the manifest names
gives the starter code (template notebook and template modules), the solution and the
questions' titles. A class can also be read from notebooks alone (no records): the code
and written-answer checks then run, the behavioural one has nothing to read.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
from nbformat import NotebookNode

from grader.record import GradeRecord
from grader.similarity.settings import SimilarityError

RUNS = ".runs"
SKIP = {"manifest.json"}


@dataclass
class Work:
    """One student's submission as far as similarity reads it."""

    key: str
    name: str
    record: GradeRecord | None = None
    run_dir: Path | None = None
    notebook: NotebookNode | None = None
    modules: dict[str, str] = field(default_factory=dict)
    """The student's companion modules: path relative to the notebook's folder -> source."""


@dataclass
class Starter:
    """What the pack hands out, and so what never makes two students alike."""

    notebook: NotebookNode | None = None
    modules: dict[str, str] = field(default_factory=dict)
    solution: NotebookNode | None = None
    titles: dict[str, str] = field(default_factory=dict)
    """Question id -> title (its words are the question's own, not the student's)."""
    tolerances: dict[str, float] = field(default_factory=dict)
    """Tensor probe id -> the check's atol (what 'the same output' means there)."""


@dataclass
class Classroom:
    works: list[Work]
    starter: Starter
    pack_id: str | None = None
    seed: int | None = None
    source: str = ""


def _read_notebook(path: Path) -> NotebookNode | None:
    try:
        return nbformat.read(path, as_version=4)
    except (OSError, ValueError, json.JSONDecodeError, nbformat.reader.NotJSONError):
        return None


def starter_from_pack(pack_root: Path | None) -> Starter:
    """The pack's template notebook and modules, solution, titles and tolerances; an empty
    Starter when there is no pack there (moved since grading).

    Read from pack.toml directly rather than through `grader.pack.load_pack`: the loader
    validates grading details that similarity does not use (and needs the private
    reference); a pack graded with is valid already. Only the checks that compare
    outputs are parsed, by their kind, for their tolerances.
    """
    if pack_root is None or not (pack_root / "pack.toml").is_file():
        return Starter()
    try:
        raw = tomllib.loads((pack_root / "pack.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return Starter()
    head = raw.get("assignment", {})
    template = pack_root / head["template"] if head.get("template") else None
    solution = pack_root / head["solution"] if head.get("solution") else None
    starter = Starter(
        notebook=_read_notebook(template) if template and template.is_file() else None,
        solution=_read_notebook(solution) if solution and solution.is_file() else None)
    for q in raw.get("questions", []):
        starter.titles[str(q.get("id"))] = str(q.get("title", ""))
        starter.tolerances.update(_tolerances(q))
    if template is not None:
        starter.modules = _modules(template.parent, head.get("files", []), exclude=template)
    return starter


def _tolerances(question: dict[str, Any]) -> dict[str, float]:
    """Probe id -> tolerance of each check of the question that compares outputs
    (`Kind.evidence_of` "outputs", its `tolerances()`); a check that does not parse (a
    pack edited since grading) gives none."""
    from grader.checks.registry import kind, with_evidence
    from grader.pack import PackError, parse_check

    out: dict[str, float] = {}
    outputs = with_evidence("outputs")
    for i, raw in enumerate(question.get("checks", [])):
        if not isinstance(raw, dict) or raw.get("kind") not in outputs:
            continue
        try:
            check = parse_check(raw, f"checks[{i}]", public=True)
        except PackError:
            continue
        out.update(kind(check.kind).tolerances(str(question.get("id")), check))
    return out


def _modules(folder: Path, globs: Iterable[str], exclude: Path | None = None) -> dict[str, str]:
    found: dict[str, str] = {}
    for pattern in globs:
        for path in sorted(folder.glob(pattern)):
            if path.is_file() and path.suffix == ".py" and path != exclude:
                try:
                    found[path.relative_to(folder).as_posix()] = path.read_text(
                        encoding="utf-8", errors="replace")
                except OSError:
                    continue
    return found


def _notebook_path(record: GradeRecord, grades: Path) -> Path | None:
    path = record.submission.path
    if not path:
        return None
    for candidate in (Path(path), grades / path, grades.parent / path):
        if candidate.is_file():
            return candidate
    return None


def load_class(grades: Path) -> Classroom:
    """Every record of a grades folder, its stored run, notebook and modules; the pack
    from the manifest (`pack.root`)."""
    if not grades.is_dir():
        raise SimilarityError(f"{grades} is not a folder of records (grader grade --out)")
    manifest: dict[str, Any] = {}
    if (grades / "manifest.json").is_file():
        manifest = json.loads((grades / "manifest.json").read_text(encoding="utf-8"))
    root = manifest.get("pack", {}).get("root")
    starter = starter_from_pack(Path(root) if root else None)
    works: list[Work] = []
    for path in sorted(grades.glob("*.json")):
        if path.name in SKIP:
            continue
        try:
            record = GradeRecord.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, OSError):
            continue  # not a record (a stray JSON file): nothing to compare
        run_dir = None
        if record.run.cache_key and (grades / RUNS / record.run.cache_key / "run.json").is_file():
            run_dir = grades / RUNS / record.run.cache_key
        nb_path = _notebook_path(record, grades)
        notebook = _read_notebook(nb_path) if nb_path else None
        if notebook is None and run_dir is not None and (run_dir / "executed.ipynb").is_file():
            notebook = _read_notebook(run_dir / "executed.ipynb")
        modules: dict[str, str] = {}
        if nb_path is not None and record.submission.files:
            for f in record.submission.files:
                file = nb_path.parent / str(f.get("path", ""))
                if file.suffix == ".py" and file.is_file():
                    modules[str(f["path"])] = file.read_text(encoding="utf-8", errors="replace")
        works.append(Work(path.stem, record.submission.name, record, run_dir, notebook, modules))
    if not works:
        raise SimilarityError(f"{grades} holds no records")
    return Classroom(works, starter, pack_id=manifest.get("pack", {}).get("id") or
                     works[0].record.assignment.id if works[0].record else None,
                     seed=manifest.get("seed"), source=str(grades))


def class_from_notebooks(paths: Iterable[Path], pack_root: Path | None,
                         module_globs: Iterable[str] = ()) -> Classroom:
    """A class read from notebooks alone (each key its file's stem): code and written
    answers only, nothing behavioural."""
    starter = starter_from_pack(pack_root)
    works = []
    for path in paths:
        nb = _read_notebook(path)
        works.append(Work(path.stem, path.name, notebook=nb,
                          modules=_modules(path.parent, module_globs)))
    return Classroom(works, starter, source="notebooks")
