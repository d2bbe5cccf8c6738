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


def noted_flags() -> tuple[str, ...]:
    """The flags a student's self-check prints as notes."""
    return tuple(dict.fromkeys(f for k in kinds().values() for f in k.noted))


def with_evidence(of: str) -> frozenset[str]:
    """Names of the kinds whose evidence holds `of` (`Kind.evidence_of`)."""
    return frozenset(n for n, k in kinds().items() if k.evidence_of == of)


def needs_models(name: str) -> bool:
    """Whether checks of kind `name` load the pack's models; an unknown kind does not."""
    known = kinds().get(name)
    return bool(known and known.needs_models)


def by_ta(name: str) -> bool:
    """Whether a TA grades checks of kind `name`."""
    known = kinds().get(name)
    return bool(known and known.by_ta)


def students_seed(name: str) -> bool:
    """Whether the `seed` in evidence of kind `name` is the student's own (a training seed
    read from their logs); an unknown kind's is machinery, scrubbed from a student's view."""
    known = kinds().get(name)
    return bool(known and known.students_seed)


def register(new: Kind) -> Kind:
    """Make `new` known (replacing a kind of the same name); returns it."""
    kinds()[new.name] = new
    return new


def unregister(name: str) -> None:
    kinds().pop(name, None)
