"""Accuracy per epoch, read from what a notebook printed, however the student wrote it.

Why tolerant: students print `Epoch 1: train accuracy 0.9312, test accuracy 0.9050`,
`Train Acc: 85.2% | Test Acc: 83.1%`, `epoch 1/3 loss 0.41 train_acc=0.85 val_acc=0.83`
or `Accuracy on test set: 0.86`. A number counts as an accuracy when the words just
before it (since the previous number) name accuracy, or the line does and those words
name the split; epoch counters and losses are skipped because nothing before them says
"acc". Percentages and numbers above 1 are read as percent.
"""

from __future__ import annotations

import re

from grader.checks.patterns import NUMBER, lines

TRAIN = re.compile(r"train", re.IGNORECASE)
TEST = re.compile(r"test|val|eval|dev\b", re.IGNORECASE)
ACCURACY = re.compile(r"acc", re.IGNORECASE)
NOT_ACCURACY = re.compile(r"loss|time|second|\bs\b|lr|rate|step|batch|f1|precision|recall",
                          re.IGNORECASE)


def _split(context: str) -> str | None:
    """Which split the words before a number name; the last one named wins."""
    found = [(m.start(), "train") for m in TRAIN.finditer(context)]
    found += [(m.start(), "test") for m in TEST.finditer(context)]
    return max(found)[1] if found else None


def parse_accuracy_series(text: str) -> dict[str, list[float]]:
    """{"train_accuracy": [...], "test_accuracy": [...]} in the order printed, as fractions."""
    series: dict[str, list[float]] = {"train_accuracy": [], "test_accuracy": []}
    for line in lines(text):
        first_acc = ACCURACY.search(line)
        if first_acc is None:
            continue
        previous_end = 0
        for match in NUMBER.finditer(line):
            context = line[previous_end:match.start()]
            previous_end = match.end()
            split = _split(context)
            if split is None:
                continue
            if not ACCURACY.search(context) and (
                    NOT_ACCURACY.search(context) or first_acc.end() > match.start()):
                continue  # "train loss 0.3", or no "acc" before it on the line
            value = float(match.group(1))
            if match.group(2) or value > 1:
                value /= 100
            if 0 <= value <= 1:
                series[f"{split}_accuracy"].append(round(value, 6))
    return series
