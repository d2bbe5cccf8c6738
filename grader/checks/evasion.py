"""Primitives an honest notebook never needs, found anywhere in a submission (issue 25).

Why a list of primitives rather than more rules: every hole of the last rounds was a way
to make the student's process describe itself falsely (a function fetched by a string the
rule never reads as a name, torch's recording switched off for one call, a replaced
library function compiled under the library's file name). Chasing each one leaves the
next open. What they share is a handful of primitives that a course notebook has no use
for: looking a namespace up by string, switching off torch's function modes, raw aten
operators, code built at run time, ctypes, frame access, tracing and audit hooks, and
replacing a library's attribute. So any of them, anywhere in what the student hands in,
is made visible: each finding names the line, and every question judged from the
student's kernel is held for a TA (`hold`), never scored 0 in silence and never passed.

What is read is what the kernel runs: each cell after IPython's input transformers
(`%%time`'s body, which IPython hands to the magic as a string, is read as the code it
is, recursively, and so is a line magic's argument such as `%time exec(...)`), and the
student's own `.py` modules taken beside the notebook. A pack whose course teaches one of
these primitives allow-lists it (`allow` of a `static` check, `Primitive` names).
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any, Literal, get_args

from grader.checks import CheckResult
from grader.checks.pysource import Source, expand, notebook_sources

if TYPE_CHECKING:
    from nbformat import NotebookNode

    from grader.checks.kind import Context
    from grader.pack import Check

Primitive = Literal["namespace-lookup", "torch-modes-off", "raw-operator", "dynamic-code",
                    "ctypes", "frame-access", "tracing-hook", "library-patch"]
PRIMITIVES: dict[str, str] = {
    "namespace-lookup": "a namespace looked up by string (`user_ns[...]`, `globals()[...]`, "
                        "`vars(...)[...]`, `sys.modules[...]`)",
    "torch-modes-off": "torch's function or dispatch modes switched off or popped "
                       "(`torch._C.DisableTorchFunction`)",
    "raw-operator": "a raw torch operator (`torch.ops.aten`, `torch._C._nn`)",
    "dynamic-code": "code built at run time (`compile`, `exec`, `eval`, "
                    "`types.FunctionType`, `__code__`)",
    "ctypes": "`ctypes`",
    "frame-access": "access to the interpreter's frames or objects (`sys._getframe`, "
                    "`inspect.currentframe`, `gc.get_referrers`, `f_back`)",
    "tracing-hook": "a tracing or audit hook (`sys.settrace`, `sys.setprofile`, "
                    "`sys.addaudithook`)",
    "library-patch": "an attribute of a library replaced (`torch.allclose = ...`)",
}
assert set(PRIMITIVES) == set(get_args(Primitive))

MAX_FINDINGS = 40
"""Findings kept per submission: a TA needs the first few, not a thousand copies."""

# Dotted names (after import aliases are resolved) and what each is: the name itself or
# anything under it.
_NAMES: dict[str, Primitive] = {
    "sys.modules": "namespace-lookup", "__main__": "namespace-lookup",
    "importlib.import_module": "namespace-lookup", "builtins.__import__": "namespace-lookup",
    "builtins.globals": "namespace-lookup", "builtins.vars": "namespace-lookup",
    "torch.ops": "raw-operator", "torch._ops": "raw-operator", "torch._C._nn": "raw-operator",
    "torch._C._VariableFunctions": "raw-operator", "torch._VF": "raw-operator",
    "builtins.eval": "dynamic-code", "builtins.exec": "dynamic-code",
    "builtins.compile": "dynamic-code", "types.FunctionType": "dynamic-code",
    "types.CodeType": "dynamic-code", "types.LambdaType": "dynamic-code",
    "ctypes": "ctypes", "_ctypes": "ctypes",
    "sys._getframe": "frame-access", "sys._current_frames": "frame-access",
    "inspect.currentframe": "frame-access", "inspect.stack": "frame-access",
    "inspect.trace": "frame-access", "inspect.getouterframes": "frame-access",
    "inspect.getinnerframes": "frame-access", "gc.get_referrers": "frame-access",
    "gc.get_referents": "frame-access", "gc.get_objects": "frame-access",
    "traceback.walk_stack": "frame-access",
    "sys.settrace": "tracing-hook", "sys.setprofile": "tracing-hook",
    "sys.addaudithook": "tracing-hook", "sys.monitoring": "tracing-hook",
    "threading.settrace": "tracing-hook", "threading.setprofile": "tracing-hook",
    "threading.settrace_all_threads": "tracing-hook",
    "threading.setprofile_all_threads": "tracing-hook",
}
_BUILTIN_CALLS: dict[str, Primitive] = {
    "eval": "dynamic-code", "exec": "dynamic-code", "compile": "dynamic-code",
    "__import__": "namespace-lookup",
}
"""Builtins flagged when called by their bare name, unless the submission bound that name
itself before the call (`def eval(model): ...` is an honest evaluation loop)."""
_NAMESPACE_CALLS = frozenset({"globals", "locals", "vars"})
"""Builtins returning a namespace: flagged when indexed or asked for a key by string."""
_ATTRIBUTES: dict[str, Primitive] = {
    "user_ns": "namespace-lookup", "user_global_ns": "namespace-lookup",
    "user_ns_hidden": "namespace-lookup", "run_cell": "dynamic-code",
    "run_code": "dynamic-code", "runcode": "dynamic-code", "safe_execfile": "dynamic-code",
    "f_back": "frame-access", "f_locals": "frame-access", "f_globals": "frame-access",
    "f_builtins": "frame-access", "tb_frame": "frame-access", "gi_frame": "frame-access",
    "cr_frame": "frame-access", "ag_frame": "frame-access", "aten": "raw-operator",
    "_nn": "raw-operator",
}
"""Attribute names that are the primitive whatever object they are read from (an alias
`C = torch._C` does not hide `C.DisableTorchFunction`)."""
_MODES_OFF = re.compile(r"DisableTorch|torch_(function|dispatch)_(stack|mode)|"
                        r"Torch(Function|Dispatch)Mode|_python_dispatch|_disable_current_modes|"
                        r"_disabled_torch_function_impl|_ExcludeDispatchKeyGuard")
_KEY_METHODS = frozenset({"get", "pop", "setdefault", "update", "__getitem__", "__setitem__",
                          "__delitem__", "keys", "values", "items"})
_SETTINGS = frozenset({"options", "backends", "rcParams", "environ"})
"""Library attributes that are settings (`pd.options.display.max_rows = 20`,
`torch.backends.cudnn.benchmark = True`): assigning under them is configuration."""
def _dotted(node: ast.AST) -> list[str] | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


class _Unit:
    """The names one namespace binds: import aliases (`T` -> `torch`, `aten` ->
    `torch.ops.aten`) and where the submission itself binds a builtin's name."""

    def __init__(self, sources: list[Source], own: set[str]):
        self.aliases: dict[str, str] = {}
        self.bound: dict[str, tuple[int, int]] = {}
        self.shells: set[str] = set()
        self.own = own
        for order, source in enumerate(sources):
            for node in ast.walk(source.tree):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        if alias.asname:
                            self.aliases[alias.asname] = alias.name
                        else:
                            top = alias.name.split(".")[0]
                            self.aliases[top] = top
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    for alias in node.names:
                        self.aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                elif isinstance(node, ast.Assign) and _shell(node.value, self):
                    self.shells.update(t.id for t in node.targets if isinstance(t, ast.Name))
            for node in source.tree.body:
                names: list[str] = []
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names = [node.name]
                elif isinstance(node, ast.Assign):
                    names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                for name in names:
                    self.bound.setdefault(name, (order, node.lineno))

    def resolve(self, parts: list[str]) -> str:
        head = "builtins" if parts[0] == "__builtins__" else self.aliases.get(parts[0], parts[0])
        return ".".join([head, *parts[1:]])

    def builtin(self, name: str, order: int, line: int) -> bool:
        """Whether `name` used at (`order`, `line`) is still the builtin: neither imported
        nor bound by the submission before."""
        if name in self.aliases:
            return False
        where = self.bound.get(name)
        return where is None or where >= (order, line)

    def library(self, parts: list[str]) -> bool:
        """Whether a dotted name starts at an imported module or object that is not one
        of the student's own modules."""
        if parts[0] == "__builtins__":
            return True
        if parts[0] not in self.aliases:
            return False
        return self.aliases[parts[0]].split(".")[0] not in self.own


def _constant(node: ast.AST | None) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp):
        return _constant(node.operand)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(_constant(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(_constant(k) and _constant(v) for k, v in zip(node.keys, node.values,
                                                                  strict=True))
    return False


def _named(name: str) -> Primitive | None:
    for prefix, primitive in _NAMES.items():
        if name == prefix or name.startswith(prefix + "."):
            return primitive
    return None


def _shell(node: ast.AST, unit: _Unit) -> bool:
    """Whether `node` is IPython's shell: `get_ipython()`, or a name bound to it."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id == "get_ipython"
    return isinstance(node, ast.Name) and node.id in unit.shells


def _fetched(owner: ast.AST, name_node: ast.AST, unit: _Unit) -> Primitive | None:
    """What `getattr(owner, name)` fetches: a primitive's attribute spelled as a string
    (`getattr(get_ipython(), "user" + "_ns")`), or any attribute by a computed name of a
    library module or of the shell."""
    from grader.checks.static import _fold

    name = _fold(name_node)
    if name is not None and (name in _ATTRIBUTES or _MODES_OFF.search(name)):
        return _ATTRIBUTES.get(name, "torch-modes-off")
    parts = _dotted(owner)
    if parts is not None and unit.library(parts):
        return "namespace-lookup" if name is None else _named(f"{unit.resolve(parts)}.{name}")
    if name is None and _shell(owner, unit):
        return "namespace-lookup"
    return None


def _in_membership(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """`"google.colab" in sys.modules`: a yes or no, not an object fetched by string."""
    parent = parents.get(id(node))
    return isinstance(parent, ast.Compare) and node in parent.comparators and \
        all(isinstance(op, ast.In | ast.NotIn) for op in parent.ops)


def _scan(source: Source, order: int, unit: _Unit) -> list[tuple[Primitive, str, int]]:
    """(primitive, what is written, line in the source) of everything in one source."""
    found: list[tuple[Primitive, str, int]] = []
    tree = source.tree
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def add(primitive: Primitive, node: ast.AST) -> None:
        text = " ".join(ast.unparse(node).split())
        found.append((primitive, text[:120], getattr(node, "lineno", 0)))

    def namespace_call(node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in _NAMESPACE_CALLS and \
            unit.builtin(node.func.id, order, node.lineno)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [f"{node.module}.{a.name}" for a in node.names] if node.module and \
                not node.level else []
            for name in modules:
                primitive = _named(name) or (
                    "torch-modes-off" if _MODES_OFF.search(name) else None)
                if primitive:
                    add(primitive, node)
            continue
        if isinstance(node, ast.Subscript):
            value = node.value
            parts = _dotted(value)
            if namespace_call(value) or (
                    isinstance(value, ast.Attribute) and value.attr == "__dict__" and
                    not (isinstance(value.value, ast.Name) and value.value.id == "self")) or \
                    (parts is not None and parts[0] == "__builtins__"):
                add("namespace-lookup", node)
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _KEY_METHODS and \
                    namespace_call(func.value):
                add("namespace-lookup", node)
            elif isinstance(func, ast.Name) and func.id in ("getattr", "hasattr") and \
                    len(node.args) >= 2 and unit.builtin(func.id, order, node.lineno):
                primitive = _fetched(node.args[0], node.args[1], unit)
                if primitive:
                    add(primitive, node)  # an attribute fetched by string
            elif isinstance(func, ast.Name) and func.id in ("setattr", "delattr") and \
                    node.args and unit.builtin(func.id, order, node.lineno):
                owner = _dotted(node.args[0])
                if owner is not None and unit.library(owner):
                    add("library-patch", node)
            elif isinstance(func, ast.Attribute) and func.attr in ("ex", "ev") and \
                    isinstance(func.value, ast.Call) and \
                    isinstance(func.value.func, ast.Name) and func.value.func.id == "get_ipython":
                add("dynamic-code", node)  # get_ipython().ex("..."): a cell run from a string
        elif isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Store | ast.Del):
                parts = _dotted(node)
                if node.attr == "__code__":
                    add("dynamic-code", parents.get(id(node), node))
                elif parts is not None and unit.library(parts) and \
                        not _SETTINGS & set(parts[1:-1]) and \
                        not _constant(getattr(parents.get(id(node)), "value", None)):
                    add("library-patch", parents.get(id(node), node))
            if node.attr in _ATTRIBUTES:
                add(_ATTRIBUTES[node.attr], node)
            elif _MODES_OFF.search(node.attr):
                add("torch-modes-off", node)
            else:
                parts = _dotted(node)
                if parts is not None and not isinstance(parents.get(id(node)), ast.Attribute):
                    primitive = _named(unit.resolve(parts))
                    if primitive == "namespace-lookup" and _in_membership(node, parents):
                        primitive = None
                    if primitive:
                        add(primitive, node)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                node.id in _BUILTIN_CALLS and unit.builtin(node.id, order, node.lineno):
            parent = parents.get(id(node))
            called = isinstance(parent, ast.Call) and parent.func is node
            add(_BUILTIN_CALLS[node.id], parent if called else node)  # `run = exec` too
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and \
                node.id in unit.aliases and \
                not isinstance(parents.get(id(node)), ast.Attribute):
            primitive = _named(unit.aliases[node.id])
            if primitive == "namespace-lookup" and _in_membership(node, parents):
                primitive = None
            if primitive is None and _MODES_OFF.search(unit.aliases[node.id]):
                primitive = "torch-modes-off"
            if primitive:
                add(primitive, node)
    return found


def find(nb: NotebookNode | None, modules: dict[str, str] | None = None,
         allow: set[str] | frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """Every use of a primitive (`PRIMITIVES`) in the notebook's cells and the student's
    modules (path -> source), minus the `allow`ed ones: one dict each, with where it is
    (`cell` index and `line`, or `file` and `line`), what is written, and what it is."""
    modules = modules or {}
    own = {path.split("/")[0].removesuffix(".py") for path in modules}
    units: list[tuple[list[Source], _Unit]] = []
    if nb is not None:
        cells = notebook_sources(nb)
        units.append((cells, _Unit(cells, own)))
    for path, text in sorted(modules.items()):
        pieces = expand(text, None, path)
        units.append((pieces, _Unit(pieces, own)))
    findings: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for sources, unit in units:
        for order, source in enumerate(sources):
            for primitive, written, line in sorted(_scan(source, order, unit),
                                                   key=lambda hit: hit[2]):
                if primitive in allow:
                    continue
                entry: dict[str, Any] = {"primitive": primitive, "written": written,
                                         "line": source.offset + line}
                if source.file is not None:
                    entry["file"] = source.file
                else:
                    entry["cell"] = source.cell
                if source.magic:
                    entry["magic"] = source.magic
                key = (primitive, entry.get("file"), entry.get("cell"), entry["line"])
                if key not in seen:  # `torch.ops.aten.x` is one finding, not three
                    seen.add(key)
                    findings.append(entry)
                if len(findings) >= MAX_FINDINGS:
                    return findings
    return findings


def where(finding: dict[str, Any]) -> str:
    """"line 3 of cell 12 (in the body of %%time)" or "mycourse/layers.py:3"."""
    if "file" in finding:
        at = f"{finding['file']}:{finding['line']}"
    else:
        at = f"line {finding['line']} of cell {int(finding.get('cell') or 0) + 1}"
    magic = finding.get("magic")
    if magic:
        at += f" (in {'the body of ' if magic.startswith('%%') else ''}{magic})"
    return at


def describe(finding: dict[str, Any]) -> str:
    """One line for a TA: what, written how, where."""
    return (f"{PRIMITIVES[finding['primitive']]}: `{finding['written']}` at {where(finding)}")


def allowed(ctx: Context) -> frozenset[str]:
    """The primitives the pack allows (every check's `allow`, together: the static
    rules')."""
    return frozenset(str(name) for question in ctx.pack.questions for check in question.checks
                     for name in getattr(check.settings, "allow", None) or [])


def student_modules(ctx: Context) -> dict[str, str]:
    """The student's `.py` files taken beside the notebook (path -> source)."""
    out: dict[str, str] = {}
    for taken in getattr(ctx.cache.get("student-files"), "taken", None) or []:
        path = str(getattr(taken, "path", ""))
        if not path.endswith(".py"):
            continue
        try:
            out[path] = taken.source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    return out


def findings(ctx: Context) -> list[dict[str, Any]]:
    """The submission's findings, computed once per submission; each also goes to
    `ctx.flags["tamper"]` for the record's flags."""
    def scan() -> list[dict[str, Any]]:
        nb = ctx.run.executed if ctx.run is not None else ctx.notebook
        found = find(nb, student_modules(ctx), allowed(ctx))
        ctx.flags.setdefault("tamper", []).extend(f"evasion: {describe(f)}" for f in found)
        return found
    return ctx.once("evasion-findings", scan)


def hold(kind: str, check: Check, ctx: Context) -> CheckResult | None:
    """The result of a check whose points are held for a TA because the submission uses a
    primitive (`findings`), or None when it uses none."""
    found = findings(ctx)
    if not found:
        return None
    first = describe(found[0])
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return CheckResult(
        kind, 0.0, "manual",
        f"Held for a TA: the submission uses {first}{more}. An honest notebook never needs "
        "this, so what its kernel returned is not vouched for; a TA decides.",
        found, gate=check.gate)
