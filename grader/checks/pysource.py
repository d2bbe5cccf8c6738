"""The student's Python as the kernel runs it, parsed: each code cell after IPython's
input transformers, the body of every cell magic and the Python argument of a line
magic read as code of its own, and a student's module as it is.

Why one module: the static rules (`static`) and the primitives a notebook never needs
(`evasion`) must read the same code, the code the kernel really runs, or a rule reads one
thing while the kernel runs another (a class defined under `%%time` is bound like any
other). Nothing here executes a line; a source too long-lined to tokenize or too deep to
parse is left out, as one that does not parse is.
"""

from __future__ import annotations

import ast
import functools
import gc
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nbformat import NotebookNode


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


MAX_LINE_CHARS = 10_000
"""Longest line of a student's cell that is tokenized. Python 3.12's `tokenize` copies a
token's whole line into each token it makes, so a line of n characters costs about n²/4
bytes: one cell holding a sum of 200,000 terms on one line took 23 GB in the grader
process (and the OOM killer took the grader). A longer line is no code a rule needs to
read: the cell is left out, as a cell that does not parse is."""


def readable(source: str) -> bool:
    """Whether a student's source is short-lined enough to tokenize (`MAX_LINE_CHARS`)."""
    return all(len(line) <= MAX_LINE_CHARS for line in source.splitlines())


def notebook_source(nb: NotebookNode) -> list[tuple[int, ast.Module]]:
    """(cell index, parsed module) of the code the kernel runs, in order: each code cell
    after IPython's input transformers, then the body of each of its cell magics (and the
    Python argument of a line magic), which IPython hands to the magic as a string: a
    class defined under `%%time` is bound as any other. Line numbers are the cell's.
    A cell that cannot be read (a million-term sum nests too deep) is left out."""
    parsed = []
    for source in notebook_sources(nb):
        if source.offset:
            ast.increment_lineno(source.tree, source.offset)
        parsed.append((source.cell if source.cell is not None else -1, source.tree))
    return parsed


MAX_DEPTH = 4
"""Cell magics nested in cell magics' bodies read this deep (no honest cell nests two)."""
_MAGIC_ARGS = re.compile(r"^(?:\s*-{1,2}\w+(?:[= ](?!-)\S+)?)+\s")
"""Leading options of a line magic (`%timeit -n 1 -r 1 f(x)`) before its Python."""


@dataclass(frozen=True)
class Source:
    """One piece of code the kernel runs: a cell (`cell` its index) or a module (`file`)."""

    tree: ast.Module
    cell: int | None
    file: str | None
    offset: int = 0
    """Lines before this piece's line 1 in its cell (a cell magic's body starts on line 2)."""
    magic: str | None = None


def parse(source: str) -> ast.Module | None:
    """The AST of `source`, or None when it is not Python a reader can take."""
    if not readable(source):
        return None
    try:
        return parse_python(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _string(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _magic_python(arg: str) -> ast.Module | None:
    """A line magic's argument as Python: whole, or without its leading options."""
    tree = parse(arg)
    if tree is None:
        options = _MAGIC_ARGS.match(arg)
        tree = parse(arg[options.end():]) if options else None
    return tree


@functools.cache
def _transformer() -> Any:
    """IPython's input transformers (one is enough: it keeps no state between cells)."""
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager()


def expand(source: str, cell: int | None, file: str | None, offset: int = 0,
           magic: str | None = None, depth: int = 0) -> list[Source]:
    """`source` as the kernel runs it: after IPython's input transformers, with every cell
    magic's body and line magic's argument that is Python read as code of its own."""
    if not readable(source):  # never tokenized: see MAX_LINE_CHARS
        return []
    text = source
    if file is None:
        try:
            text = _transformer().transform_cell(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return []
    tree = parse(text)
    if tree is None:
        return []
    found = [Source(tree, cell, file, offset, magic)]
    if depth >= MAX_DEPTH:
        return found
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        args = [_string(a) for a in node.args]
        if node.func.attr == "run_cell_magic" and len(args) == 3 and None not in args:
            name, _line, body = args
            found += expand(body or "", cell, file, offset + node.lineno, f"%%{name}",
                            depth + 1)
        elif node.func.attr == "run_line_magic" and len(args) == 2 and None not in args:
            name, arg = args
            tree_arg = _magic_python(arg or "")
            if tree_arg is not None and arg and arg.strip():
                found.append(Source(tree_arg, cell, file, offset + node.lineno - 1,
                                    f"%{name}"))
    return found


def notebook_sources(nb: NotebookNode) -> list[Source]:
    """Every code cell of `nb` as the kernel runs it (`expand`), in order."""
    out: list[Source] = []
    for index, cell in enumerate(nb.cells):
        if cell.get("cell_type") == "code":
            out += expand(str(cell.get("source", "")), index, None)
    return out
