"""The `static` check: rules about how code is written, read from its AST in the grader.

Why AST and not text search: a comment or a string that mentions a forbidden name is
not a call, and an alias (`from torch.nn.functional import scaled_dot_product_attention
as sdpa`, or `attend = calculate_multihead_attention`) still is. The notebook's cells
are parsed here, never executed; IPython magics are turned into plain Python first.
"""

from __future__ import annotations

import ast
import gc
from typing import Any

from nbformat import NotebookNode
from pydantic import Field

from grader.checks import CheckResult
from grader.checks.kind import Context, Kind, Settings, generic_rows
from grader.pack import Check, Question


def parse_python(source: str) -> ast.Module:
    """`ast.parse` with the garbage collector paused.

    Why: on CPython 3.11 (before 3.11.8) building the AST objects is not reentrant
    (gh-106905). A collection in the middle can run a finalizer that formats a
    traceback, e.g. asyncio logging "Task exception was never retrieved" for a kernel
    client's task, and 3.11's traceback module calls `ast.parse` to place its carets;
    the outer parse then fails with "SystemError: AST constructor recursion depth
    mismatch". With no collection during the parse, nothing can re-enter it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(source)
    finally:
        if enabled:
            gc.enable()


def notebook_source(nb: NotebookNode) -> list[tuple[int, ast.Module]]:
    """(cell index, parsed module) of each code cell that parses; magics become Python."""
    from IPython.core.inputtransformer2 import TransformerManager

    manager = TransformerManager()
    parsed = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        try:
            parsed.append((index, parse_python(manager.transform_cell(cell.source))))
        except (SyntaxError, ValueError):
            continue
    return parsed


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
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], _dotted(node.value)
                if isinstance(target, ast.Name) and value and _last(value) in forbidden | set(found):
                    found[target.id] = found.get(_last(value), _last(value))
    return found


def _scope(modules: list[tuple[int, ast.Module]], scope: str) -> tuple[int, ast.AST] | None:
    """The last definition of `class:Name` or `function:name` (the one the kernel kept)."""
    kind, _, name = scope.partition(":")
    wanted = ast.ClassDef if kind == "class" else (ast.FunctionDef, ast.AsyncFunctionDef)
    last = None
    for index, module in modules:
        for node in module.body:
            if isinstance(node, wanted) and node.name == name:
                last = (index, node)
    return last


def check_static(check: Check, nb: NotebookNode) -> CheckResult:
    scope = str(check.settings["scope"])
    forbidden_full = [str(f) for f in check.settings["forbid"]]
    forbidden = {_last(f) for f in forbidden_full}
    modules = notebook_source(nb)
    found = _scope(modules, scope)
    if found is None:
        return CheckResult("static", 0.0, "error", f"The notebook does not define {scope}.",
                           gate=check.gate)
    cell, node = found
    aliases = _aliases(modules, forbidden)
    hits: list[dict[str, Any]] = []
    for sub in ast.walk(node):
        name = _dotted(sub) if isinstance(sub, ast.Name | ast.Attribute) else None
        if name is None or name.startswith("self."):
            continue  # the class's own methods are logic in the class
        last = _last(name)
        if last in forbidden or (isinstance(sub, ast.Name) and sub.id in aliases):
            real = aliases.get(last, last)
            entry = {"name": real, "written": name, "cell": cell, "line": sub.lineno}
            if entry not in hits:
                hits.append(entry)
    if not hits:
        return CheckResult("static", 1.0, "passed",
                           f"{scope} uses none of: {', '.join(forbidden_full)}.", gate=check.gate)
    first = hits[0]
    template = check.settings.get("message", "{scope} must not use `{name}`")
    message = template.format(scope=scope, name=first["name"])
    written = f" (written `{first['written']}`)" if first["written"] != first["name"] else ""
    return CheckResult("static", 0.0, "failed",
                       f"{message}; found at line {first['line']} of cell {first['cell'] + 1}{written}.",
                       hits, gate=check.gate)


class StaticSettings(Settings):
    scope: str
    """`class:Name` or `function:name`: the definition the rule reads."""
    forbid: list[str] = Field(min_length=1)
    message: str = "{scope} must not use `{name}`"


class Static(Kind):
    name = "static"
    Settings = StaticSettings

    def score(self, check: Check, question: Question, ctx: Context) -> CheckResult:
        assert ctx.run is not None
        return check_static(check, ctx.run.executed)

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        ev = check.get("evidence")
        findings = ev if isinstance(ev, list) else [ev] if ev else []
        return {"rows": [row for f in findings for row in generic_rows(f)]}


KIND = Static()
