"""Answers files of keys: a key naming a question (``q3a2.p``, ``q3_e_ii``) and the
nested data files students keep their answers in: YAML, TOML and JSON.

Why here: an INI file (``lightweight._key_values``) and a YAML, TOML or JSON file say the
same thing (this key is that question's answer) in two layouts: flat keys with the whole
label in each, or nested keys whose path is the label (``q3:`` / ``a:`` / ``II:`` /
``p_mat: 0.75``; ``[question3.language_modeling_task]`` / ``trainable_parameters =
21_018_401``; ``"q3": {`` / ``"lm": 21018401``). Each format has its own walk over its
lines (indentation, table headers, braces), which says for every key its line, the keys
above it and its value; one rewrite writes every format as the report's own text: a key
path naming a question is a heading, a leaf under it an answer line ``Answer: **Q3 (a)
(ii) p_mat** = 0.75``, a comment or a working key plain text, a list or table of figures
kept as written. A list of records (``[[answers]]`` tables, JSON objects) each naming
its question by a key (``question = "3c"``) is read as those questions' answers. Every
rewrite keeps the line count, so the line numbers the grader quotes are the file's own.
String operations only; ``tomllib`` and ``json`` only say whether a text is a TOML or
JSON file at all and decode JSON's strings and one-line objects.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, replace

from grader.written.vocabulary import KINDS, ROMAN_VALUES

_NUMERAL_OF = {str(v): k for k, v in ROMAN_VALUES.items()}

_WORKING_KEYS = ("working", "workings", "work", "steps", "calculation", "calc",
                 "derivation", "note", "notes", "comment", "comments", "explanation")
"""Keys whose value is the working beside an answer, not the answer."""
_ANSWER_KEYS = ("answer", "final", "final_answer", "result", "value", "ans")
"""Keys whose value is the answer of the question their path names."""
_NAMING_KEYS = ("question", "q", "qid", "id", "label", "task")
"""Keys of a record (a TOML ``[[answers]]`` table, a JSON object in a list) whose value
names the question the record answers: ``question = "3c"``, ``{"id": "Q3 (c)", ...}``."""


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


@dataclass(frozen=True)
class _Key:
    """One key of an answers file where it stands: its line, the keys above it (a YAML
    mapping's, a TOML table's, a JSON object's), and its value's text (None for a key
    opening a mapping or table), its trailing comment, whether the value is data (a
    list or table of figures, ``[0.71, 0.75]``, ``{ in_proj = 120_600, ... }``), the
    record it is in (a TOML ``[[answers]]`` table's, a JSON object's in a list; 0 for
    none) and the question its record names (``_named_records``)."""

    line: int
    path: tuple[str, ...]
    key: str
    value: str | None
    comment: str = ""
    data: bool = False
    record: int = 0
    label: str | None = None


@dataclass
class _Walk:
    """What a format's walk read: its keys, and the lines written as plain text whatever
    key they belong to (a comment's words, a multi-line value's lines, "" for a brace)."""

    keys: list[_Key]
    text: dict[int, str]


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
    """A scalar's text and its trailing comment: ``"1536x less"   # a factor`` ->
    ("1536x less", "a factor"); a double-quoted string's escaped quotes are its own."""
    comment = ""
    quote = value[:1]
    close = value.find(quote, 1) if quote in ('"', "'") else -1
    while quote == '"' and close > 0 and value[close - 1] == "\\":
        close = value.find(quote, close + 1)
    if close > 0:
        text, rest = value[1:close], value[close + 1:]
        comment = rest.strip().lstrip("#").strip() if rest.strip().startswith("#") else ""
        if quote == '"':
            text = text.replace('\\"', '"').replace("\\n", " ").replace("\\\\", "\\")
        return text, comment
    at = value.find(" #")
    if at >= 0:
        return value[:at].strip(), value[at + 2:].strip()
    return value, comment


def _path_label(path: tuple[str, ...] | list[str]) -> str | None:
    """The label a path of keys names from its first key naming a question (``q3``,
    ``a``, ``II`` -> "Q3 (a) (ii)"; ``answers``, ``q3``, ``c`` -> "Q3 (c)"), or None."""
    for at, key in enumerate(path):
        if key_label(key) is not None:
            return key_label("_".join(path[at:]))
    return None


def _depth(text: str) -> int:
    """How many brackets and braces a line leaves open (negative: closes), those inside
    a quoted string or after a comment not counted: ``vals = [`` 1, ``]`` -1."""
    depth, quote = 0, ""
    for at, ch in enumerate(text):
        if quote:
            if ch == quote and text[at - 1] != "\\":
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            break
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth


def _yaml_walk(lines: list[str]) -> _Walk:
    """A YAML file's keys, their path the keys of the mappings they are indented under; a
    block's lines (``|``) text, a folded block (``>``) one paragraph, so its value; a
    list's item of keys (``- question: 3c`` / ``answer: 0.537 GB``) a record."""
    walk = _Walk([], {})
    stack: list[tuple[int, str]] = []
    block: tuple[int, int, bool] | None = None  # (key's indent, its index in keys, folded)
    item: tuple[int, int] | None = None  # (the indent of a list item's keys, its record)
    for i, raw in enumerate(lines):
        body = raw.strip()
        indent = len(raw) - len(raw.lstrip(" "))
        if block is not None and (not body or indent > block[0]):
            if block[2] and body:  # a folded block: one paragraph, the key's value
                key = walk.keys[block[1]]
                walk.keys[block[1]] = replace(key, value=f"{key.value} {body}".strip())
                walk.text[i] = ""
            else:
                walk.text[i] = body
            continue
        block = None
        if body.startswith("#"):
            walk.text[i] = body.lstrip("# ")
            continue
        dash = body.startswith("- ")
        kv = _nested_key(" " * (indent + 2) + body[2:] if dash else raw)
        if kv is None:
            continue
        indent, name, value = kv
        if dash:
            item = (indent, len(walk.keys) + 1)  # a record's number: unique and not 0
        elif item is not None and indent < item[0]:
            item = None
        record = item[1] if item is not None and indent == item[0] else 0
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = tuple(k for _, k in stack)
        if not value:
            stack.append((indent, name))
            walk.keys.append(_Key(i, path, name, None, record=record))
            continue
        if value[:1] in ("|", ">"):
            block = (indent, len(walk.keys), value[0] == ">")
            value = ""
        text, comment = _scalar(value)
        walk.keys.append(_Key(i, path, name, text, comment, value[:1] in ("[", "{"), record))
    return _named_records(walk)


def _dotted(text: str) -> list[str]:
    """A TOML dotted key's keys, quotes taken off: ``question3.language_modeling_task``,
    ``"q3" . 'a'`` -> q3, a."""
    keys, quote, current = [], "", ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
            current += ch if quote else ""
        elif ch in "\"'":
            quote = ch
        elif ch == ".":
            keys.append(current.strip())
            current = ""
        else:
            current += ch
    return [*keys, current.strip()]


def _toml_pair(body: str) -> tuple[list[str], str] | None:
    """(keys, value) of a TOML ``key = value`` line (``lm.trainable = 21_018_401``), the
    sign found outside a quoted key; None for any other line."""
    quote = ""
    for at, ch in enumerate(body):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "=":
            keys, value = _dotted(body[:at]), body[at + 1:].strip()
            if all(keys) and value and all(
                    " " not in k or body[:1] in "\"'" for k in keys):
                return keys, value
            return None
    return None


def _toml_walk(lines: list[str]) -> _Walk:
    """A TOML file's keys: a table header (``[question3.language_modeling_task]``, an
    array of tables ``[[runs]]``) a key opening a table, its path the keys before it;
    ``key = value`` a leaf under the last header (a dotted key's first keys added). A
    multi-line string's lines are text (its first line the value); a multi-line list's
    lines stay as written."""
    walk = _Walk([], {})
    table: list[str] = []
    record = records = 0  # the array of tables' table keys are in, and how many so far
    closing = ""  # the quotes ending the multi-line string being read
    depth = 0  # brackets a multi-line list leaves open
    for i, raw in enumerate(lines):
        body = raw.strip()
        if closing:
            end = body.find(closing)
            walk.text[i] = (body[:end] if end >= 0 else body).removesuffix("\\").rstrip()
            closing = "" if end >= 0 else closing
            continue
        if depth > 0:
            depth += _depth(body)
            continue
        if body.startswith("#"):
            walk.text[i] = body.lstrip("# ")
            continue
        if body.startswith("[") and body.find("]") > 0:
            inner = body.lstrip("[")
            table = _dotted(inner[:inner.find("]")])
            records += body.startswith("[[")
            record = records if body.startswith("[[") else 0
            walk.keys.append(_Key(i, tuple(table[:-1]), table[-1], None))
            continue
        pair = _toml_pair(body)
        if pair is None:
            continue
        keys, value = pair
        path, name = tuple(table + keys[:-1]), keys[-1]
        quotes = value[:3]
        if quotes in ('"""', "\'\'\'"):
            rest = value[3:]
            end = rest.find(quotes)
            if end < 0:
                closing = quotes
            walk.keys.append(_Key(i, path, name, (rest if end < 0 else rest[:end]).strip(),
                                  record=record))
            continue
        if value[:1] in ("[", "{"):
            depth = _depth(value)
            walk.keys.append(_Key(i, path, name, value, data=True, record=record))
            continue
        text, comment = _scalar(value)
        walk.keys.append(_Key(i, path, name, text, comment, record=record))
    return _named_records(walk)


def _json_walk(lines: list[str]) -> _Walk:
    """A JSON file written one key a line (``json.dump(..., indent=2)``): ``"q3": {``
    opens an object, its path the keys of the objects it is in; ``"lm": 21018401,`` a
    leaf, a string's escapes decoded; a bracket alone on its line blank. An object in a
    list is a record: over several lines its keys are walked, on one line it is one
    answer line if one of its keys names its question. A list of figures, and an object
    on one line elsewhere, stay as written."""
    walk = _Walk([], {})
    stack: list[tuple[str, str | None, int]] = []  # (bracket, its key, its record)
    records = 0
    depth = 0  # brackets a list of figures, or an object on it, leaves open
    for i, raw in enumerate(lines):
        body = raw.strip()
        if depth > 0:
            depth += _depth(body)
            continue
        in_list = bool(stack) and stack[-1][0] == "["
        path = tuple(k for _, k, _ in stack if k is not None)
        if body in ("{", "[", "}", "},", "]", "],"):
            walk.text[i] = ""
            if body in ("{", "["):
                records += in_list and body == "{"
                stack.append((body, None, records if in_list and body == "{" else 0))
            elif stack:
                stack.pop()
            continue
        if in_list and body.startswith("{"):
            walk.keys.extend(_json_record(i, path, body.removesuffix(",")))
            continue
        if not body.startswith('"') or in_list:
            continue
        try:
            name, end = json.JSONDecoder().raw_decode(body)
        except json.JSONDecodeError:
            continue
        value = body[end:].lstrip().removeprefix(":").strip().removesuffix(",").strip()
        if not isinstance(name, str) or not value:
            continue
        record = stack[-1][2] if stack else 0
        if value in ("{", "["):  # a list's key opens no section: it holds data or records
            opens = None if value == "{" else value
            walk.keys.append(_Key(i, path, name, opens, data=opens is not None, record=record))
            stack.append((value, name, 0))
            continue
        here = _path_label((*path, name))
        if value[:1] == "{" and here is not None and (keys := _json_record(
                i, (*path, name), value, here)):
            walk.keys.extend(keys)  # "q3c": {"answer": "0.537 GB", "working": "..."}
            continue
        if value[:1] in ("[", "{"):
            depth = _depth(value)
            walk.keys.append(_Key(i, path, name, value, data=True, record=record))
            continue
        try:
            decoded = json.loads(value)
        except json.JSONDecodeError:
            decoded = value
        text = " ".join(decoded.split()) if isinstance(decoded, str) else value
        walk.keys.append(_Key(i, path, name, text, record=record))
    return _named_records(walk)


def _json_record(line: int, path: tuple[str, ...], body: str,
                 label: str | None = None) -> list[_Key]:
    """An object on one line (``{"question": "3c", "answer": "0.537 GB"}`` in a list,
    ``{"answer": "0.537 GB", "working": "..."}`` under ``"q3c"``) as its answer's key,
    the question its naming key names (else ``label``, its key's) its label; none for
    an object naming no question or giving no answer."""
    try:
        record = json.loads(body)
    except json.JSONDecodeError:
        return []
    if not isinstance(record, dict):
        return []
    label = next((named for k, v in record.items()
                  if (named := _named(str(k), v)) is not None), label)
    answer = next((k for k in record if str(k).lower() in _ANSWER_KEYS), None)
    if label is None or answer is None or isinstance(record[answer], (dict, list)):
        return []
    value = record[answer]
    text = " ".join(value.split()) if isinstance(value, str) else json.dumps(value)
    return [_Key(line, path, str(answer), text, label=label)]


def _named(key: str, value: object) -> str | None:
    """The question a record's naming key names: ``question = "3c"`` -> "Q3 (c)",
    ``id = "Q3 (e) (II)"`` -> "Q3 (e) (ii)", ``task = 3`` -> "Task 3"; None for any
    other key or value (a student's id of ten digits is no question)."""
    text = str(value).strip()
    if key.lower() not in _NAMING_KEYS or isinstance(value, (dict, list, bool)) or not text:
        return None
    if text[:1].isdigit():
        number = text.split(".")[0].split("(")[0].rstrip("abcdefghABCDEFGH_ -")
        if not number.isdecimal() or len(number) > 2:
            return None
        text = ("task " if key.lower() == "task" else "q") + text
    return key_label(text)


def _named_records(walk: _Walk) -> _Walk:
    """A walk whose records naming their question (a key of ``_NAMING_KEYS``) are read
    as that question's: the naming key opens its section, the record's other leaves
    are its answers (``question = "3c"`` / ``answer = "0.537 GB"``)."""
    labels: dict[int, str] = {}
    for at, k in enumerate(walk.keys):
        if k.record and k.value is not None and k.record not in labels:
            named = _named(k.key, k.value)
            if named is not None:
                labels[k.record] = named
                walk.keys[at] = replace(k, value=None, label=named)
    walk.keys = [replace(k, label=labels[k.record])
                 if k.record in labels and k.label is None else k for k in walk.keys]
    return walk


def _answers(walk: _Walk) -> int:
    """How many of a walk's leaves answer a question: under a path naming one, or named
    as one themselves (``q3c = "24.0 GB"``)."""
    return sum(k.value is not None and not k.data and (
        k.label or _path_label(k.path) or key_label(k.key)) is not None for k in walk.keys)


def _as_report(lines: list[str], walk: _Walk) -> list[str]:
    """An answers file as a report: a key whose path names a question a heading (its
    depth the level: ``q3:`` "## Q3", ``a:`` "### Q3 (a)"), a leaf under it an answer
    line (``answer: "0.537 GB"`` -> ``Answer: **Q3 (c)** = 0.537 GB``; ``p_mat: 0.75``
    under (a) (II) -> ``Answer: **Q3 (a) (ii) p_mat** = 0.75``; a key naming a question
    itself, ``q3c = "24.0 GB"``, or a part of the path's, ``d`` under ``q3``, -> ``Answer:
    **Q3 (c)** = 24.0 GB``; a leaf of a record the question its record names), its
    comment kept in parentheses as an aside; a working key plain text; a leaf under no
    question, and data (a list, a table of figures), kept as written."""
    out = list(lines)
    for i, text in walk.text.items():
        out[i] = text
    for k in walk.keys:
        if k.value is None:
            label = k.label or _path_label((*k.path, k.key))
            if label is not None:
                out[k.line] = "#" * min(len(k.path) + 2, 6) + " " + label
            continue
        where, own = k.label or _path_label(k.path), key_label(k.key)
        if k.data or (where is None and own is None):
            continue
        full = k.label or _path_label((*k.path, k.key))
        if own is None and full != where and full is not None and full.endswith(")"):
            own = full  # the key a part's letter or numeral: ``d`` under ``q3`` is Q3 (d)
        aside = f" ({k.comment})" if k.comment else ""
        if k.key.lower() in _WORKING_KEYS:
            out[k.line] = f"{k.key}: {k.value}{aside}".rstrip()
        elif own is not None or k.key.lower() in _ANSWER_KEYS:
            out[k.line] = f"Answer: **{own or where}** = {k.value}{aside}".rstrip()
        else:
            out[k.line] = f"Answer: **{where} {_spoken(k.key)}** = {k.value}{aside}".rstrip()
    return out


def _spoken(key: str) -> str:
    """A key spelled as a phrase, its words (three letters or more) joined by ``_`` or
    ``-``, as that phrase, as its heading would be (``language_modeling_task`` ->
    "language modeling task"), so the phrase naming a part is found in it; a symbol's
    name (``p_mat``, ``d_model``) is kept as written."""
    words = key.replace("-", "_").split("_")
    if len(words) >= 2 and all(len(w) >= 3 and w.isalpha() for w in words):
        return " ".join(words)
    return key


def _is_toml(lines: list[str]) -> bool:
    """Whether a text is a TOML file: its parser's word, so prose with an equals sign is
    none (a TOML file's values are quoted, a sentence's are not)."""
    text = "\n".join(lines)
    if "=" not in text:
        return False
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return True


def _is_json(lines: list[str]) -> bool:
    """Whether a text is a JSON file of one object: its parser's word."""
    text = "\n".join(lines).strip()
    if not text.startswith("{"):
        return False
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    return True


def answers_file(lines: list[str]) -> list[str] | None:
    """A TOML, JSON or YAML answers file written as a report (``_as_report``), or None
    for a text that is none of them. A TOML or JSON file is known by its parser, and two
    leaves answering a question; a YAML file, which prose with colons can look like, by
    a top-level key opening a question's mapping and three leaves answering one, or two
    list items naming their questions (``- question: 3c``)."""
    for known, walker in ((_is_toml, _toml_walk), (_is_json, _json_walk)):
        if known(lines):
            walk = walker(lines)
            if _answers(walk) >= 2:
                return _as_report(lines, walk)
    walk = _yaml_walk(lines)
    opened = any(k.value is None and not k.path and key_label(k.key) is not None
                 for k in walk.keys)
    named = sum(k.value is None and k.label is not None for k in walk.keys)
    return _as_report(lines, walk) if (opened and _answers(walk) >= 3) or named >= 2 else None
