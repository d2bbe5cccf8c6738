"""The check kinds this grader knows: every module of `grader.checks` that defines `KIND`.

Adding a kind is adding such a module; `register` adds one from elsewhere (a course's
own kind, or a test's example).
"""

from __future__ import annotations

import importlib
import pkgutil

import grader.checks
from grader.checks.kind import Kind

_KINDS: dict[str, Kind] = {}


def _discover() -> None:
    for info in pkgutil.iter_modules(grader.checks.__path__):
        module = importlib.import_module(f"grader.checks.{info.name}")
        kind = getattr(module, "KIND", None)
        if isinstance(kind, Kind):
            _KINDS.setdefault(kind.name, kind)


def kinds() -> dict[str, Kind]:
    """Every known kind by name (discovered on first use)."""
    if not _KINDS:
        _discover()
    return _KINDS


def kind(name: str) -> Kind:
    return kinds()[name]


def label(name: str) -> str:
    """A kind as a student reads it in a report; an unknown kind (a record written by a
    grader that had one more) reads as its name."""
    known = kinds().get(name)
    return (known.label or name) if known else name


def register(new: Kind) -> Kind:
    """Make `new` known (replacing a kind of the same name); returns it."""
    kinds()[new.name] = new
    return new


def unregister(name: str) -> None:
    kinds().pop(name, None)
