"""A checklist exported as text (Google Keep's ``☑``/``☐`` items, a to-do app's ``[x]``)
handed in as the report: its items are a bulleted list, each named by its first word.

Why here: a student who keeps their answers in a notes app ticks an item per part
(``☑ 3c scores = h × S² … ×4 bytes each`` / ``    → 51.5 GB``) and exports the note. A
reader sees a list: the box says whether the item is done, no part of the answer, and
the item's first word ("3c", "3e (II)") says which part it answers, the way a heading
would. Written as Markdown, the box is a bullet (``- ``), and an item's name that is a
question's number glued to its part letter ("3c", "3a (I)", which in a sentence could be
anything: "3d printing", "2b parameters") is spelled as the label it is, its letter in
brackets (``- 3 (c) scores = …``, ``- 3 (a) (I) …``): the student named the item with it,
and the label grammar reads the bracketed spelling. The item's indented lines stay under
it; one such name alone ("☐ 7b parameters?") may be a size, two or more name parts. Only
a text with two boxed items or more is a checklist. The line count is kept.
String operations only.
"""

from __future__ import annotations

_BOXES = ("☐", "☑", "☒", "✅", "❎", "⬜", "▢", "□", "✓", "✔", "[ ]", "[x]", "[X]")
"""What opens a checklist's item in a notes or to-do app's text export."""


def _boxed(line: str) -> tuple[str, str] | None:
    """(indent, the item's text) of a line opening with a box (``☑ 3c scores …``), or None."""
    body = line.lstrip()
    for box in _BOXES:
        if body.startswith(box) and body[len(box):len(box) + 1].isspace():
            return line[:len(line) - len(body)], body[len(box):].strip()
    return None


def _glued_label(text: str) -> str | None:
    """An item's text with its name spelled as a label where the name is a question's
    number glued to its part letter (``3c scores`` -> "3 (c) scores", ``3a (I) …`` ->
    "3 (a) (I) …"), or None for an item opening with anything else (a word, a figure,
    "3 bytes", "3dB")."""
    digits = len(text) - len(text.lstrip("0123456789"))
    letter = text[digits:digits + 1]
    if not 1 <= digits <= 2 or not "a" <= letter.lower() <= "h" or (
            text[digits + 1:digits + 2].isalnum()):
        return None
    return f"{text[:digits]} ({letter}){text[digits + 1:]}"


def checklist(lines: list[str]) -> list[str]:
    """``lines`` with a checklist's items written as a bulleted list (see the module's
    docstring); a text with fewer than two boxed items is returned unchanged."""
    items = {i: item for i, line in enumerate(lines) if (item := _boxed(line)) is not None}
    if len(items) < 2:
        return lines
    labelled = {i: named for i, (_, text) in items.items()
                if (named := _glued_label(text)) is not None}
    if len(labelled) < 2:
        labelled = {}  # one "7b parameters" is a size; "3a", "3c", "3d" name parts
    out = list(lines)
    for i, (indent, text) in items.items():
        out[i] = f"{indent}- {labelled.get(i, text)}"
    return out
