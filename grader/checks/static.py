"""The `static` check: rules about how code is written, read from its AST in the grader.

Why AST and not text search: a comment or a string that mentions a forbidden name is
not a call, and an alias (`from torch.nn.functional import scaled_dot_product_attention
as sdpa`, or `attend = calculate_multihead_attention`) still is. The notebook's cells
are parsed here, never executed; IPython magics are turned into plain Python first.

Where the code is: `scope = "class:MultiHeadAttention"` names the definition, and
`module = "mycourse/transformer_layers.py"` (a file the pack's `[assignment] files`
takes, relative to the notebook's folder) says the rule reads that module of the
student's instead of the notebook's cells. Two keys rather than one packed string
(`module:...:class:...`): each is checked on its own, and a finding names
`mycourse/transformer_layers.py:LINE` as a cell finding names its cell and line.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, cast

from pydantic import Field, field_validator

from grader.checks import CheckResult
from grader.checks.evasion import Primitive, hold

if TYPE_CHECKING:  # a notebook comes with a run; reading a pack does not import nbformat
    from nbformat import NotebookNode
from grader.checks.kind import Context, Kind, Settings, generic_rows
from grader.checks.pysource import notebook_source, parse_python
from grader.pack import Check, Question


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return None


def _last(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _aliases(modules: list[tuple[int, ast.Module]], forbidden: set[str]) -> dict[str, str]:
    """Names bound at top level to a forbidden thing: alias -> the forbidden name."""
    found: dict[str, str] = {}
    for _index, module in modules:
        for node in module.body:
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name in forbidden and alias.asname:
                        found[alias.asname] = alias.name
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                value = _dotted(node.value)
                for target in targets:
                    if isinstance(target, ast.Name) and value and \
                            _last(value) in forbidden | set(found):
                        found[target.id] = found.get(_last(value), _last(value))
    return found


Node = tuple[int, ast.AST]
DEFINITIONS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
RECORDING = "grader::recording-"
"""How the harness marks a case whose operator recording it cannot vouch for: its modes
were popped ("-stopped") or switched off or gone around during the call ("-bypassed")."""
DYNAMIC_CALLS = frozenset({"eval", "exec", "compile", "__import__", "vars", "globals", "locals",
                           "import_module"})
"""Calls that hide what is called from a reader: a rule cannot vouch for code using them."""


def _bindings(modules: list[tuple[int, ast.Module]]) -> tuple[dict[str, Node], dict[int, list[Node]]]:
    """What each top-level name is bound to when the last cell has run, in execution order
    (`X = Y` rebinds X to Y's definition), and the functions attached to a class after it
    (`X.forward = f`, `setattr(X, "forward", f)`), by the class node's id."""
    bound: dict[str, Node] = {}
    attached: dict[int, list[Node]] = {}
    for index, module in modules:
        for node in module.body:
            if isinstance(node, DEFINITIONS):
                bound[node.name] = (index, node)
                continue
            value, targets = None, []
            if isinstance(node, ast.Assign):
                value, targets = node.value, node.targets
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                value, targets = node.value, [node.target]
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
                    _dotted(node.value.func) == "setattr" and len(node.value.args) == 3:
                owner, _name, value = node.value.args
                targets = [ast.Attribute(value=owner, attr="?", ctx=ast.Store())]
            for target in targets:
                if isinstance(target, ast.Name) and isinstance(value, ast.Name) and \
                        value.id in bound:
                    bound[target.id] = bound[value.id]
                elif isinstance(target, ast.Name) and isinstance(value, ast.Lambda):
                    bound[target.id] = (index, value)
                elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id in bound:
                    owner_node = bound[target.value.id][1]
                    piece = (bound.get(value.id) if isinstance(value, ast.Name)
                             else (index, value) if value is not None else None)
                    if piece is not None:
                        attached.setdefault(id(owner_node), []).append(piece)
    return bound, attached


def _reached(modules: list[tuple[int, ast.Module]], scope: str) -> list[Node] | None:
    """The definitions the probe's object runs: the scope's final binding, its bases, the
    functions attached to it later, and every notebook function or class their code names,
    transitively. None when the scope is not defined."""
    kind, _, name = scope.partition(":")
    bound, attached = _bindings(modules)
    start = bound.get(name)
    wanted = ast.ClassDef if kind == "class" else (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda)
    if start is None or not isinstance(start[1], wanted):
        return None
    reached: list[Node] = []
    todo = [start]
    while todo:
        item = todo.pop()
        if any(item[1] is seen for _, seen in reached):
            continue
        reached.append(item)
        todo.extend(attached.get(id(item[1]), []))
        for sub in ast.walk(item[1]):
            if isinstance(sub, ast.Name) and sub.id in bound and sub.id != name:
                todo.append(bound[sub.id])
    return reached


def _dynamic(sub: ast.AST) -> tuple[str, bool] | None:
    """(what is called, whether that alone breaks the rule) of a call that hides what it
    calls: `eval`, `vars`, ... (always), or a `getattr` whose name is computed (always,
    unless on `self`) or folds from string constants (judged by the name it spells)."""
    if not isinstance(sub, ast.Call):
        return None
    called = _dotted(sub.func) or ""
    if _last(called) in DYNAMIC_CALLS:
        return _last(called), True
    if called == "getattr" and len(sub.args) >= 2:
        owner = _dotted(sub.args[0]) or ""
        folded = _fold(sub.args[1])
        if folded is not None:
            return (f"{owner}.{folded}" if owner else folded), False
        if owner != "self":
            return "getattr", True
    return None


def _fold(node: ast.AST) -> str | None:
    """A string expression made of constants (`"scaled_dot_" + "product"`), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _fold(node.left), _fold(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = [_fold(v) for v in node.values]
        return "".join(parts) if all(p is not None for p in parts) else None  # type: ignore[arg-type]
    return None


def _hits(reached: list[Node], forbidden: set[str], aliases: dict[str, str]) -> list[dict[str, Any]]:
    hits: list[dict[str, Any]] = []

    def add(real: str, written: str, cell: int, line: int) -> None:
        entry = {"name": real, "written": written, "cell": cell, "line": line}
        if entry not in hits:
            hits.append(entry)

    for cell, node in reached:
        for sub in ast.walk(node):
            dynamic = _dynamic(sub)
            if dynamic is not None:
                spelled, always = dynamic
                last = _last(spelled)
                if last in forbidden or always:
                    add(last if last in forbidden else f"{spelled}(...)", spelled, cell,
                        getattr(sub, "lineno", 0))
                continue
            name = _dotted(sub) if isinstance(sub, ast.Name | ast.Attribute) else None
            if name is None or name.startswith("self."):
                continue  # the class's own methods are logic in the class
            last = _last(name)
            if last in forbidden or (isinstance(sub, ast.Name) and sub.id in aliases):
                add(aliases.get(last, last), name, cell, sub.lineno)
            elif name.startswith("torch.ops.") and name.count(".") >= 3:
                add(name, name, cell, sub.lineno)  # a raw operator: what the rule forbids, unnamed
    return hits


def module_source(check: Check, files: Any) -> tuple[str | None, str]:
    """(the source of the check's `module` among the student's files taken, or None; why
    not). `files` is the submission's `StudentFiles` (None when no folder was taken)."""
    module = cast(StaticSettings, check.settings).module or ""
    taken = {f.path: f for f in getattr(files, "taken", [])}
    if module not in taken:
        return None, f"{module} was not handed in beside the notebook"
    try:
        return taken[module].source.read_text(encoding="utf-8"), ""
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"{module} could not be read ({type(exc).__name__})"


def check_static(check: Check, nb: NotebookNode | None, ops: dict[str, list[str]] | None = None,
                 module: str | None = None) -> CheckResult:
    """Judge the object the probe calls (its class, bases, attached and reached functions),
    and, with `forbid_ops`, the torch operators that ran while the probe called it.
    `module`: the source of the student's module the rule reads (its `module` key)
    instead of the notebook's cells."""
    s = cast(StaticSettings, check.settings)
    scope, forbidden_full = s.scope, s.forbid
    forbidden = {_last(f) for f in forbidden_full}
    module_name = s.module or ""
    if module_name:
        try:
            modules = [(-1, parse_python(module or ""))]
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            line = getattr(exc, "lineno", None)
            return CheckResult("static", 0.0, "error", f"{module_name} does not parse"
                               + (f" (line {line})" if line else "") + ".", gate=check.gate)
    else:
        modules = notebook_source(nb) if nb is not None else []
    reached = _reached(modules, scope)
    if reached is None:
        where = module_name or "The notebook"
        return CheckResult("static", 0.0, "error", f"{where} does not define {scope}.",
                           gate=check.gate)
    hits = _hits(reached, forbidden, _aliases(modules, forbidden))
    patterns = s.forbid_ops
    ran = sorted({op for case_ops in (ops or {}).values() for op in case_ops})
    op_hits = [op for op in ran if any(fnmatch.fnmatchcase(op, p) for p in patterns)
               and not op.startswith(RECORDING)]
    unvouched = sorted(case for case, case_ops in (ops or {}).items()
                       if any(op.startswith(RECORDING) for op in case_ops))
    template = s.message
    if module_name:  # a module's findings name the file, not a cell
        hits = [{**{k: v for k, v in h.items() if k != "cell"}, "file": module_name}
                for h in hits]
    if hits:
        first = hits[0]
        message = template.format(scope=scope, name=first["name"])
        written = f" (written `{first['written']}`)" if first["written"] != first["name"] else ""
        at = (f"{module_name}:{first['line']}" if module_name
              else f"line {first['line']} of cell {first['cell'] + 1}")
        return CheckResult("static", 0.0, "failed", f"{message}; found at {at}{written}.",
                           hits + [{"operator": op} for op in op_hits], gate=check.gate)
    if op_hits:
        message = template.format(scope=scope, name=op_hits[0])
        return CheckResult("static", 0.0, "failed",
                           f"{message}: the operator ran while the grader called it.",
                           [{"operator": op} for op in op_hits], gate=check.gate)
    if patterns and unvouched:
        # fail closed: a recording the call switched off or went around vouches for nothing
        markers = sorted({op for case in unvouched for op in (ops or {})[case]
                          if op.startswith(RECORDING)})
        return CheckResult(
            "static", 0.0, "manual",
            f"Held for a TA: the grader's record of the torch operators {scope} ran was "
            f"switched off or bypassed during the call ({', '.join(markers)}, on "
            f"{len(unvouched)} case(s)), so the rule cannot be vouched for.",
            [{"unvouched_cases": unvouched, "markers": markers}], gate=check.gate)
    return CheckResult("static", 1.0, "passed",
                       f"{scope} uses none of: {', '.join(forbidden_full)}.",
                       [{"operators_seen": len(ran)}] if patterns else [], gate=check.gate)


SCOPE = re.compile(r"(class|function):[A-Za-z_]\w*")


class StaticSettings(Settings):
    scope: str
    """`class:Name` or `function:name`: the definition the rule reads."""
    module: str | None = None
    """A student's module the rule reads instead of the notebook (`mycourse/layers.py`,
    relative to the notebook's folder; the pack's `[assignment] files` must take it)."""

    @field_validator("scope")
    @classmethod
    def _scope_form(cls, value: str) -> str:
        if not SCOPE.fullmatch(value):
            raise ValueError(f"{value!r}: write `class:Name` or `function:name` (and "
                             "`module = \"path/to/file.py\"` for a student's module)")
        return value

    @field_validator("module")
    @classmethod
    def _module_path(cls, value: str | None) -> str | None:
        if value is None:
            return value
        path = PurePosixPath(value)
        if path.is_absolute() or ".." in path.parts or path.suffix != ".py" or "\\" in value:
            raise ValueError(f"{value!r}: a .py file relative to the notebook's folder")
        return path.as_posix()
    forbid: list[str] = Field(min_length=1)
    forbid_ops: list[str] = []
    """Torch operators (fnmatch patterns, e.g. "aten::_scaled_dot_product_*") that must
    not run while the probe calls the scope's object: the runtime half of the rule."""
    message: str = "{scope} must not use `{name}`"
    allow: list[Primitive] = []
    """Primitives of `grader.checks.evasion` this course teaches (e.g. "dynamic-code" for a
    course on metaprogramming): not held for a TA. Every static check's list counts for
    the whole submission; a name not in `evasion.PRIMITIVES` stops the pack's load."""


class Static(Kind):
    name = "static"
    evidence_doc = """a list of hits: `name`, `written`, `cell`, `line`."""
    label = "a rule about your code"
    flags = ("tamper",)
    Settings = StaticSettings

    def score(self, check: Check, question: Question, ctx: Context) -> CheckResult:
        assert ctx.run is not None
        held = hold("static", check, ctx)
        if held is not None:
            return held
        ops: dict[str, list[str]] = {}
        for probe_id, payload in ctx.run.probes.items():
            if probe_id.startswith(f"{question.id}-"):  # the question's tensor probes
                ops.update(getattr(payload, "ops", None) or {})
        if cast(StaticSettings, check.settings).module:
            source, why = module_source(check, ctx.cache.get("student-files"))
            if source is None:
                return CheckResult("static", 0.0, "error", why + ".", gate=check.gate)
            return check_static(check, None, ops, module=source)
        return check_static(check, ctx.run.executed, ops)

    def student_modules(self, check: Check) -> list[str]:
        module = cast(StaticSettings, check.settings).module
        return [module] if module else []

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        ev = check.get("evidence")
        findings = ev if isinstance(ev, list) else [ev] if ev else []
        return {"rows": [row for f in findings for row in generic_rows(f)]}


KIND = Static()
