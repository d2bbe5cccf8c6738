"""`check("q1c")` from inside a notebook: the self-check of one question, as otter offers.

In a notebook cell::

    import grader.notebook as grader
    grader.check("q1c")

checks the notebook file this kernel belongs to (Jupyter tells the kernel its path in
``JPY_SESSION_NAME``, which ipykernel also puts in ``__session__``; VS Code sets
``__vsc_ipynb_file__``), or the path given as ``notebook``. It runs the notebook **as
last saved** in a fresh sandboxed kernel on the public demo inputs, exactly as
`grader check` does, and shows the result of that one question (the value displays
itself when it is the cell's last expression). Save the notebook first. A notebook
unchanged since the last call is not run again: checking q1a, q1b and q1c in a row
costs one run.

The pack is ``assignment`` (an id or a pack folder), else ``$GRADER_ASSIGNMENT``, else
the one pack folder beside the notebook (where a course hands out the public part
that `grader pack export-public` writes).

Inside a grader's own run of the notebook (a self-check or a TA's grading), `check`
does nothing and says so, so a notebook that calls it never checks itself in a loop.
"""

from __future__ import annotations

import hashlib
import html
import os
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

IN_RUN_ENV = "GRADER_IN_SELF_CHECK"
"""Set in the kernels this module starts: a nested `check` is a no-op there."""
ASSIGNMENT_ENV = "GRADER_ASSIGNMENT"
STYLE = {"passed": "#2b8a3e", "partial": "#e67700", "failed": "#c92a2a", "error": "#c92a2a",
         "manual": "#1971c2", "not_graded": "#1971c2", "not run": "#868e96"}
WORD = {"passed": "passed", "partial": "partly right", "failed": "not right yet",
        "error": "could not run", "manual": "awaiting a TA", "not_graded": "not graded here",
        "not run": "not run"}

_runs: dict[tuple[str, str, bool], Any] = {}
"""(pack folder, notebook sha256, full) -> the record of that run."""


@dataclass
class QuestionCheck:
    """One question's self-check result; Jupyter shows it as a small HTML box."""

    question: str
    status: str
    message: str
    title: str = ""
    score: float | None = None
    max: float | None = None
    hint: str = ""
    notes: list[str] = field(default_factory=list)
    notebook: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def __str__(self) -> str:
        points = "" if self.max is None else (
            f" ({'–' if self.score is None else f'{self.score:g}'} / {self.max:g} pts)")
        lines = [f"{self.question}: {WORD.get(self.status, self.status)}{points}", self.message]
        if self.hint:
            lines.append(f"Hint: {self.hint}")
        lines += self.notes
        return "\n".join(line for line in lines if line)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        e = html.escape
        colour = STYLE.get(self.status, "#495057")
        points = "" if self.max is None else (
            f" <span>{'–' if self.score is None else f'{self.score:g}'} / {self.max:g} pts</span>")
        body = [f'<p style="margin:.2em 0">{e(self.message)}</p>'] if self.message else []
        if self.hint:
            body.append(f'<p style="margin:.2em 0"><strong>Hint:</strong> {e(self.hint)}</p>')
        body += [f'<p style="margin:.2em 0;color:#495057">{e(n)}</p>' for n in self.notes]
        return (f'<div class="grader-check" data-question="{e(self.question)}" '
                f'data-status="{e(self.status)}" style="border-left:4px solid {colour};'
                f'padding:.3em .8em">'
                f'<strong>{e(self.title or self.question)}</strong>: '
                f'<span style="color:{colour};font-weight:600">'
                f'{e(WORD.get(self.status, self.status))}</span>{points}{"".join(body)}</div>')


def check(question: str, notebook: str | os.PathLike[str] | None = None, *,
          assignment: str | None = None, packs_dir: str | os.PathLike[str] | None = None,
          sandbox: str = "auto", full: bool = False,
          hf_cache: str | None = None) -> QuestionCheck:
    """Self-check ``question`` of the running notebook (or of ``notebook``); see the module."""
    if os.environ.get(IN_RUN_ENV) or _in_grader_kernel():
        return QuestionCheck(question, "not run", "grader.check does nothing inside the "
                             "grader's own run of the notebook.")
    path = _notebook_path(notebook)
    if path is None:
        return QuestionCheck(question, "not run", "Cannot tell which notebook this kernel "
                             "runs: pass its file, e.g. grader.check(\"q1c\", "
                             "\"Transformer_practice.ipynb\").")
    pack = _pack(assignment, packs_dir, path)
    qids = [q.id for q in pack.questions]
    if question not in qids:
        import difflib

        near = difflib.get_close_matches(question, qids, n=1)
        raise ValueError(f"{pack.id} has no question {question!r}"
                         + (f"; did you mean {near[0]!r}?" if near else
                            f"; its questions: {', '.join(qids)}"))
    record, notes = _record(pack, path, sandbox=sandbox, full=full, hf_cache=hf_cache)
    q = next(q for q in record.questions if q.id == question)
    saved = datetime.fromtimestamp(path.stat().st_mtime).strftime("%H:%M:%S")
    notes = [*notes, f"Checked {path.name} as saved at {saved}, on the public demo inputs: "
             "not your grade."]
    from grader.checks.registry import needs_models

    if q.status == "not_graded" and any(needs_models(c.kind) for c in q.checks):
        from grader.cli.check import tiny_models_note
        from grader.models.cache import cache_dir

        tiny = tiny_models_note(record, pack, cache_dir(hf_cache))
        if tiny:
            notes.insert(0, tiny)
    for hit in record.run.get("limits_hit", []):
        where = f" (cell {hit['cell'] + 1})" if isinstance(hit.get("cell"), int) else ""
        notes.insert(0, f"Limit reached: {hit['message']}{where}.")
    return QuestionCheck(question, q.status, q.message, title=q.title, score=q.score,
                         max=q.max, hint=q.hint, notes=notes, notebook=str(path))


def _in_grader_kernel() -> bool:
    from grader.run.sandbox import SCRATCH_MOUNT

    return os.environ.get("HOME") == SCRATCH_MOUNT  # the home of every sandboxed kernel


def _notebook_path(notebook: str | os.PathLike[str] | None) -> Path | None:
    if notebook is not None:
        path = Path(notebook).expanduser()
        if not path.is_file():
            raise FileNotFoundError(f"no notebook at {path}")
        return path.resolve()
    names = [os.environ.get("JPY_SESSION_NAME")]
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        shell = None
    if shell is not None:
        names += [shell.user_ns.get("__session__"), shell.user_ns.get("__vsc_ipynb_file__")]
    for name in names:
        if not name or not str(name).endswith(".ipynb"):
            continue
        path = Path(str(name)).expanduser()
        # Jupyter gives an absolute path, or one relative to its root: the kernel runs
        # in the notebook's folder, so the file name alone finds it there
        for candidate in (path, Path.cwd() / path.name):
            if candidate.is_file():
                return candidate.resolve()
    return None


def _pack(assignment: str | None, packs_dir: str | os.PathLike[str] | None, notebook: Path):
    from grader.pack import PACK_FILE, load_pack, resolve_pack

    assignment = assignment or os.environ.get(ASSIGNMENT_ENV)
    if assignment:
        return resolve_pack(assignment, Path(packs_dir) if packs_dir else None)
    beside = sorted(p for p in notebook.parent.iterdir() if (p / PACK_FILE).is_file())
    if len(beside) == 1:
        return load_pack(beside[0])
    raise ValueError("which assignment? pass assignment=\"stat8021-a3\" (a pack id or "
                     f"folder), set ${ASSIGNMENT_ENV}, or keep exactly one pack folder beside "
                     f"the notebook ({len(beside)} found there)")


def _record(pack: Any, path: Path, *, sandbox: str, full: bool,
            hf_cache: str | None) -> tuple[Any, list[str]]:
    from grader.grade import grade_notebook
    from grader.models.cache import cache_dir
    from grader.run.sandbox import Sandbox, bwrap_works

    key = (str(pack.root), hashlib.sha256(path.read_bytes()).hexdigest(), full)
    notes: list[str] = []
    if sandbox == "auto" and bwrap_works() is not None:
        sandbox = "none"
        notes.append("bubblewrap is not available: your notebook ran without isolation "
                     "(fine for your own code).")
    if key not in _runs:
        box = Sandbox.create(sandbox)
        box = replace(box, env={**box.env, IN_RUN_ENV: "1"})
        _runs.clear()  # one notebook state at a time is enough
        _runs[key] = grade_notebook(pack, path, mode="check", sandbox=box, quick=not full,
                                    hf_cache=cache_dir(hf_cache))
    return _runs[key], notes
