"""The data a fine-tuned model is judged on, and what a notebook prints of it: the
JSON-lines splits, the labels a notebook prints for the external items, accuracies, and
the time the training cells took.

Why apart from the kind: planning the probes, the clean evaluator and every finetune
check read the same splits, and none of this depends on a check's settings.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from grader.run.result import RunResult


def read_split(path: Path) -> tuple[list[str], list[int | None]]:
    """Texts and labels of a JSON-lines split (`{"text", "label"}`; label may be absent).

    Planning the probes and every finetune check read the same splits; the file is
    parsed once per version of it (path, size and mtime), not once per check.
    """
    stat = path.stat()
    texts, labels = _read_split(str(path), stat.st_size, stat.st_mtime_ns)
    return list(texts), list(labels)


@lru_cache(maxsize=16)
def _read_split(path_text: str, _size: int, _mtime: int
                ) -> tuple[tuple[str, ...], tuple[int | None, ...]]:
    path = Path(path_text)
    texts: list[str] = []
    labels: list[int | None] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            texts.append(str(row["text"]))
        except (ValueError, KeyError, TypeError):
            raise ValueError(f"{path}:{number}: expected a JSON object with a \"text\"") from None
        label = row.get("label")
        labels.append(int(label) if label is not None else None)
    return tuple(texts), tuple(labels)


def accuracy(predicted: list[int], labels: list[int | None]) -> float | None:
    pairs = [(p, t) for p, t in zip(predicted, labels, strict=False) if t is not None]
    if not pairs or len(predicted) != len(labels):
        return None
    return sum(p == t for p, t in pairs) / len(pairs)


def training_seconds(run: RunResult, tag: str | None) -> float | None:
    """Wall time of the cells that carry the question's tag (where the training runs)."""
    if not tag:
        return None
    cells = [c for c in run.cells if tag in c.tags and c.status != "skipped"]
    return round(sum(c.seconds for c in cells), 3) if cells else None


LABEL_WORDS = re.compile(r"\b(World|Sports|Business|Sci/Tech|Sci-Tech|Science)\b")
LABEL_DIGIT = re.compile(r"(?<![\w.])([0-3])(?![\w.])")


def printed_labels(text: str, names: tuple[str, ...], items: list[str]) -> list[int]:
    """One label per printed line that names one, with the item's own text removed first
    (a news text about the world cup must not read as "World")."""
    found: list[int] = []
    lookup = {name.lower(): i for i, name in enumerate(names)}
    lookup.update({"sci-tech": lookup.get("sci/tech", 3), "science": lookup.get("sci/tech", 3)})
    for line in text.splitlines():
        rest = line
        for item in items:
            for piece in (item, item[:40]):
                if len(piece) >= 20 and piece in rest:
                    rest = rest.replace(piece, " ")
        word = LABEL_WORDS.search(rest)
        if word and word.group(1).lower() in lookup:
            found.append(lookup[word.group(1).lower()])
            continue
        digit = LABEL_DIGIT.search(rest)
        if digit:
            found.append(int(digit.group(1)))
    return found
