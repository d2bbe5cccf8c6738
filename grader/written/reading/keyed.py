"""Answers files of keys: a key naming a question (``q3a2.p``, ``q3_e_ii``) and the
nested ``key: value`` files (YAML) students keep their answers in.

Why here: an INI file (``lightweight._key_values``) and a YAML file say the same thing
(this key is that question's answer) in two layouts: flat keys with the whole label in
each, or nested keys whose path is the label (``q3:`` / ``a:`` / ``II:`` / ``p_mat:
0.75``). Both are written as the report's own text: a key path naming a question is a
heading, a leaf under it an answer line ``Answer: **Q3 (a) (ii) p_mat** = 0.75``, a
comment or a working key plain text. Every rewrite keeps the line count, so the line
numbers the grader quotes are the file's own. String operations only.
"""

from __future__ import annotations

from grader.written.vocabulary import KINDS, ROMAN_VALUES

_NUMERAL_OF = {str(v): k for k, v in ROMAN_VALUES.items()}

_WORKING_KEYS = ("working", "workings", "work", "steps", "calculation", "calc",
                 "derivation", "note", "notes", "comment", "comments", "explanation")
"""Keys whose value is the working beside an answer, not the answer."""
_ANSWER_KEYS = ("answer", "final", "final_answer", "result", "value", "ans")
"""Keys whose value is the answer of the question their path names."""


def _key_pieces(key: str) -> list[str]:
    """A key's pieces, runs of letters and of digits: ``q3a2.p`` -> q, 3, a, 2, p;
    ``Q3(e)(II)`` -> q, 3, e, ii; ``q3_e_ii`` -> q, 3, e, ii."""
    pieces: list[str] = []
    for ch in key.lower():
        if not ch.isalnum():
            pieces.append("")
        elif pieces and pieces[-1] and pieces[-1][-1].isdigit() == ch.isdigit():
            pieces[-1] += ch
        else:
            pieces.append(ch)
    return [p for p in pieces if p]


def key_label(key: str) -> str | None:
    """A key naming a question's label written as the label grammar reads it, what else
    the key says after it kept: ``q3a2.p`` -> "Q3 (a) (ii) p", ``q3_e_ii`` -> "Q3 (e)
    (ii)", ``q3c`` -> "Q3 (c)"; None for a key naming no question (``student``)."""
    pieces = _key_pieces(key)
    if len(pieces) < 2 or KINDS.get(pieces[0]) is None or not pieces[1].isdecimal():
        return None
    label, rest = [f"Q{pieces[1]}" if KINDS[pieces[0]] == "q" else f"Task {pieces[1]}"], pieces[2:]
    if rest and len(rest[0]) == 1 and "a" <= rest[0] <= "h":
        label.append(f"({rest.pop(0)})")
        if rest and (rest[0] in ROMAN_VALUES or rest[0] in _NUMERAL_OF):
            numeral = rest.pop(0)
            label.append(f"({_NUMERAL_OF.get(numeral, numeral)})")
    return " ".join(label + rest)


def _nested_key(line: str) -> tuple[int, str, str] | None:
    """(indent, key, value) of a YAML mapping line ``  p_mat: 0.7500`` (value "" for a
    key opening a mapping or a block), the key one word; None for any other line."""
    body = line.lstrip(" ")
    colon = body.find(":")
    if colon <= 0 or body[colon + 1:colon + 2] not in ("", " "):
        return None
    key = body[:colon].strip("\"'")
    if not key or any(c.isspace() for c in key) or body[0] in "#-":
        return None
    return len(line) - len(body), key, body[colon + 1:].strip()


def _scalar(value: str) -> tuple[str, str]:
    """A YAML scalar's text and its trailing comment: ``"1536x less"   # a factor`` ->
    ("1536x less", "a factor")."""
    comment = ""
    if value[:1] in ('"', "'") and value.find(value[0], 1) > 0:
        close = value.find(value[0], 1)
        text, rest = value[1:close], value[close + 1:]
        comment = rest.strip().lstrip("#").strip() if rest.strip().startswith("#") else ""
        return text, comment
    at = value.find(" #")
    if at >= 0:
        return value[:at].strip(), value[at + 2:].strip()
    return value, comment


def _path_label(path: list[str]) -> str | None:
    """The label a path of keys names (``q3``, ``a``, ``II`` -> "Q3 (a) (ii)"), or None."""
    return key_label("_".join(path)) if path else None


def is_nested_file(lines: list[str]) -> bool:
    """Whether a text is a nested ``key: value`` file (YAML): a top-level key opening a
    mapping whose path names a question, and three leaves or more under such paths."""
    stack: list[tuple[int, str]] = []
    opened = leaves = 0
    for raw in lines:
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        kv = _nested_key(raw)
        if kv is None:
            continue
        indent, key, value = kv
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = [k for _, k in stack] + [key]
        if not value and indent == 0 and _path_label(path) is not None:
            opened += 1
        elif value and stack and _path_label(path[:-1]) is not None:
            leaves += 1
        if not value:
            stack.append((indent, key))
    return opened >= 1 and leaves >= 3


def nested_answers(lines: list[str]) -> list[str]:
    """A YAML answers file as a report: a key whose path names a question a heading (its
    depth the level: ``q3:`` "## Q3", ``a:`` "### Q3 (a)"), a leaf under it an answer
    line (``answer: "0.537 GB"`` -> ``Answer: **Q3 (c)** = 0.537 GB``; ``p_mat: 0.75``
    under (a) (II) -> ``Answer: **Q3 (a) (ii) p_mat** = 0.75``), its comment kept in
    parentheses as an aside; a working key, a block's lines and a comment plain text. A
    folded block (``>``) is one paragraph, so it is joined onto its key's line."""
    out = list(lines)
    stack: list[tuple[int, str]] = []
    block: tuple[int, int, bool] | None = None  # (key's indent, key's line, folded)
    for i, raw in enumerate(lines):
        body = raw.strip()
        indent = len(raw) - len(raw.lstrip(" "))
        if block is not None and (not body or indent > block[0]):
            if block[2] and body:  # a folded block: one paragraph on its key's line
                out[block[1]] = f"{out[block[1]]} {body}".rstrip()
                out[i] = ""
            else:
                out[i] = body
            continue
        block = None
        if body.startswith("#"):
            out[i] = body.lstrip("# ")
            continue
        kv = _nested_key(raw)
        if kv is None:
            continue
        indent, key, value = kv
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parents = [k for _, k in stack]
        label = _path_label(parents + [key])
        if not value:
            stack.append((indent, key))
            if label is not None:
                out[i] = "#" * min(len(stack) + 1, 6) + " " + label
            continue
        where = _path_label(parents)
        if where is None:
            continue
        if value[:1] in ("|", ">"):
            block = (indent, i, value[0] == ">")
            value = ""
        text, comment = _scalar(value)
        aside = f" ({comment})" if comment else ""
        if key.lower() in _WORKING_KEYS:
            out[i] = f"{key}: {text}{aside}".rstrip()
        elif key.lower() in _ANSWER_KEYS:
            out[i] = f"Answer: **{where}** = {text}{aside}".rstrip()
        else:
            out[i] = f"Answer: **{where} {key}** = {text}{aside}".rstrip()
    return out
