"""Names as people read them, whatever bytes they arrived as.

Why: a notebook renamed on an old Windows machine, or a zip whose members were named in
a legacy code page, reaches Python as a str holding lone surrogates (the
`surrogateescape` of the file system encoding). Such a str opens the file fine, but no
HTML, Markdown, CSV or UTF-8 JSON can hold it, so one student's file name stopped every
report of the class (issue 17, item 8). Records keep the exact name (their JSON escapes
the surrogates, `json_text`); everything shown to people goes through `displayable`.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


def displayable(text: str) -> str:
    """`text` with undecodable bytes read as UTF-8 where they are, else as Windows-1252
    (the usual source: `caf\\udce9` shows as `café`); any other lone surrogate becomes
    U+FFFD. Text without surrogates is returned as it is."""
    if not _SURROGATE.search(text):
        return text
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that is not an escaped byte
        return _SURROGATE.sub("\ufffd", text)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def displayable_data(value: Any) -> Any:
    """`displayable` over every string of nested dicts and lists (keys too)."""
    if isinstance(value, str):
        return displayable(value)
    if isinstance(value, dict):
        return {displayable_data(k): displayable_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [displayable_data(v) for v in value]
    return value


def displayable_student(student: Any) -> Any:
    """A `Student` with displayable text fields."""
    changes = {f.name: displayable(getattr(student, f.name))
               for f in dataclasses.fields(student) if isinstance(getattr(student, f.name), str)}
    return dataclasses.replace(student, **changes)


def json_text(data: Any) -> str:
    """Indented JSON keeping non-ASCII text readable, with lone surrogates written as
    `\\udcXX` escapes: valid UTF-8 on disk, and `json.loads` gives back the exact name."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
