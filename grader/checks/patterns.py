"""Patterns the checks share when they read numbers from students' text and logs."""

from __future__ import annotations

import re

NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?|\.\d+)(\s*%)?")
"""A number as written ("87", "0.87", ".87"), optionally a percent ("87 %"): groups 1 and 2."""

MAX_LINE = 10_000
"""Characters of one line of student text that parsers read; the rest is cut first, so no
parser spends more than linear time on a line of 150,000 spaces."""


def lines(text: str) -> list[str]:
    """`text` split into lines, each cut to `MAX_LINE` characters."""
    return [line[:MAX_LINE] for line in text.splitlines()]


def labelled_values(text: str, label: str, prefix: str = r"[ \t>*_#-]*",
                    trim: str = " \t*_") -> list[str]:
    """The values of every `label: value` (or `label = value`) line of `text`, in order.

    Why not one multi-line regex with a lazy value and a trailing-space class: on a line
    of many spaces that backtracks quadratically (minutes for 150,000 spaces). Here the
    label is matched at the start of each (cut) line and the rest is stripped.
    """
    head = re.compile(rf"{prefix}{re.escape(label)}[ \t*_]*[:=]", re.IGNORECASE)
    found = []
    for line in lines(text):
        match = head.match(line)
        if match is not None:
            found.append(line[match.end():].strip(trim))
    return found
