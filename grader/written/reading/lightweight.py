"""Lightweight markup other than Markdown, handed in as text: AsciiDoc, reStructuredText,
org-mode, BBCode (``bbcode``) and Confluence (``confluence``) headings, tables and bold, written as the Markdown every later stage reads.

Why here: the document model's headings are Markdown's ``#`` lines, its tables ``|``
rows with a ``|---|`` line under the header, its bold ``**…**``. A student who writes
AsciiDoc (``== Question 1``, ``|===`` tables, ``*bold*``), reStructuredText (a title
underlined with ``===``) or org-mode (``* Question 3   :tag:``, ``|---+---|``, ``*bold*``)
means the same things; reading them in the reader keeps one vocabulary for the stages
after it. Every rewrite keeps the line count, so the line numbers the grader quotes are
still the file's own. String operations only (no pattern per dialect).
"""

from __future__ import annotations

import csv
from collections.abc import Callable

from calculators.answers.units import memory_unit, scale_word
from grader.written.reading.bbcode import bbcode, is_bbcode
from grader.written.reading.checklist import checklist
from grader.written.reading.confluence import confluence, is_confluence
from grader.written.reading.journal import journal_headings
from grader.written.reading.keyed import answers_file, key_label
from grader.written.reading.pysource import script_report
from grader.written.reading.repl import fenced_sessions
from grader.written.reading.threads import chat_stamp, student_thread, without_task_boxes
from grader.written.vocabulary import (
    QUESTION_LABEL,
    ROMAN_VALUES,
    has_digit,
    is_answer_heading,
)

_UNDERLINES = "=-~^\"'`#*+"
"""The characters reStructuredText (and Markdown's setext) underline a title with."""
_ORG_KEYWORDS = ("TODO ", "DONE ", "NEXT ", "WAIT ", "CANCELLED ")


def as_markdown(text: str) -> str:
    """``text`` with AsciiDoc, reStructuredText and org-mode structure written as Markdown,
    and the kinds of text file students hand in read as what they are: a chat transcript,
    an issue thread (``threads``), a notes app's checklist (``checklist``), a lab journal
    (``journal``), a console session of Python or R (``repl``), a tab- or comma-separated
    table, an INI file, a TOML, JSON or YAML answers file (``keyed``), a Python script
    (``pysource``); a text with none of them is returned unchanged."""
    lines = script_report(_without_line_numbers(text.split("\n")))
    asciidoc = any(ln.rstrip() == "|===" for ln in lines) or (
        any(ln.startswith("== ") for ln in lines)
        and next((ln for ln in lines if ln.strip()), "").startswith("= "))
    org = any(ln[:2] == "#+" and ln[2:3].isalpha() for ln in lines)
    if is_bbcode(lines):
        lines = bbcode(lines)
    elif is_confluence(lines):
        lines = confluence(lines, _bold)
    lines = journal_headings(fenced_sessions(lines))
    lines = _transcript(lines)
    lines = checklist(without_task_boxes(student_thread(lines)))
    lines = _tab_tables(lines)
    keyed = answers_file(lines)  # TOML, JSON, YAML; an INI file parses as none of them
    if keyed is not None:
        lines = keyed
    elif _is_key_value_file(lines):
        lines = _key_values(lines)
    if asciidoc:
        lines = _asciidoc(lines)
    if org:
        lines = _org(lines)
    lines = _underlined_titles(lines)
    return "\n".join(lines)


def _outline_heading(line: str) -> str | None:
    """The heading an outliner's block holds ("- ## Question 3", "\t- ### Language
    modeling task": Logseq and Roam write every block as a bullet, a heading too), else
    None."""
    body = line.lstrip(" \t")
    if body[:2] not in ("- ", "* "):
        return None
    head = body[2:]
    level = len(head) - len(head.lstrip("#"))
    return head if 1 <= level <= 6 and head[level:level + 1] == " " and head[level:].strip() \
        else None


def announced_headings(lines: list[str]) -> list[str]:
    """Headings a screen-reader user announces in words ("Heading level 2: Question 3 part
    c.", "Heading 3: …", as NVDA and JAWS read them out) written as Markdown headings of
    that level; the rest of the line is the heading's text."""
    out = []
    for raw in lines:
        head, colon, rest = raw.partition(":")
        words = head.lower().split()
        if colon and 2 <= len(words) <= 3 and words[0] == "heading" and words[-1].isdigit() \
                and words[1:-1] in ([], ["level"]) and 1 <= int(words[-1]) <= 6:
            out.append("#" * int(words[-1]) + " " + rest.strip().rstrip("."))
        else:
            out.append(raw)
    return out


TITLE_FIELDS = ("title", "slide title", "section title", "heading")
"""The field names an export writes a slide's or a section's title under ("Title: Q3 (c) -
memory for the attention scores", Google Slides speaker notes exported as text)."""


def title_fields(lines: list[str]) -> list[str]:
    """Title fields as headings, where two lines or more are such fields (one "Title:" line
    alone is a document's title, and stays as it is)."""
    found = {}
    for i, raw in enumerate(lines):
        head, colon, rest = raw.partition(":")
        if colon and rest.strip() and " ".join(head.lower().split()) in TITLE_FIELDS:
            found[i] = "## " + rest.strip()
    return _if_repeated(lines, found)


def _if_repeated(lines: list[str], found: dict[int, str]) -> list[str]:
    """``lines`` with the lines ``found`` rewritten, where they are two or more: one such
    line alone is the document's own, not its structure."""
    if len(found) < 2:
        return lines
    return [found.get(i, raw) for i, raw in enumerate(lines)]


def outline_headings(lines: list[str]) -> list[str]:
    """An outline's headings as headings: where two blocks or more are headings in bullets,
    each is written as the heading alone (a Markdown heading in a list item is none, and an
    indented one is code). One such line alone ("- # of layers: 4") stays as it is."""
    return _if_repeated(lines, {i: h for i, raw in enumerate(lines)
                                if (h := _outline_heading(raw)) is not None})


_LIST_TABLE_OPENERS = ("```{list-table}", ":::{list-table}", "~~~{list-table}", ".. list-table::")


def list_tables(lines: list[str]) -> list[str]:
    """MyST's and reStructuredText's list tables written as pipe tables: a row per "* -"
    item, a cell per "-" under it, the header rows (":header-rows: 1") over a rule. The
    table's lines are written from its opening line on and the block keeps its length, so
    the lines after it keep their numbers."""
    out = list(lines)
    i = 0
    while i < len(lines):
        opener = lines[i].strip()
        if not opener.startswith(_LIST_TABLE_OPENERS):
            i += 1
            continue
        fence = opener[:3] if opener[:3] in ("```", ":::", "~~~") else None
        caption = opener.split("}", 1)[1] if fence else opener.split("::", 1)[1]
        rows: list[list[str]] = []
        header = 0
        j = i + 1
        while j < len(lines):
            raw = lines[j]
            text = raw.strip()
            if fence and text.startswith(fence) and not text.strip(fence[0]):
                break
            if not fence and text and not raw[:1].isspace():
                j -= 1  # an rST directive ends where its indented body does
                break
            if text.startswith(":header-rows:"):
                value = text.split(":", 2)[2].strip()
                header = int(value) if value.isdigit() else 0
            elif text.startswith("* -") or text == "*":
                rows.append([text[3:].strip()] if text.startswith("* -") else [])
            elif text.startswith("- ") or text == "-":
                if rows:
                    rows[-1].append(text[2:].strip())
            elif text and rows and rows[-1] and not text.startswith(":"):
                rows[-1][-1] = f"{rows[-1][-1]} {text}".strip()
            j += 1
        end = min(j, len(lines) - 1)
        if not rows:
            i = end + 1
            continue
        write_in_place(out, i, end, pipe_table(rows, header, caption))
        i = end + 1
    return out


def pipe_table(rows: list[list[str]], header: int, caption: str = "") -> list[str]:
    """Rows of cells as a Markdown pipe table, each row as wide as the widest, its first
    ``header`` rows over a rule, its caption (if any) on the line above."""
    width = max(len(r) for r in rows)
    table = [caption.strip()] if caption.strip() else []
    for k, row in enumerate(rows):
        table.append("| " + " | ".join(row + [""] * (width - len(row))) + " |")
        if k + 1 == header:
            table.append("|" + "---|" * width)
    return table


def write_in_place(out: list[str], first: int, last: int, table: list[str]) -> None:
    """``table`` written over lines ``first`` to ``last`` of ``out``, blank lines after
    it, so the lines after the block keep their numbers (left as they are when the table
    needs more lines than the block took)."""
    span = last - first + 1
    if len(table) <= span:
        out[first:last + 1] = table + [""] * (span - len(table))


def roam_highlights(line: str) -> str:
    """A Roam or Logseq highlight (``^^9,437,184^^``) written as the bold it stands for: the
    student marks the answer so, and "^" before a figure would read it as an exponent.
    So is a Reddit spoiler (``>!0.75!<``): the final number hidden for classmates to try
    first, which ">" and "!" around it would hide from the reader too."""
    line = _spoilers(line)
    parts = line.split("^^")
    if len(parts) < 3 or len(parts) % 2 == 0:
        return line
    for k in range(1, len(parts), 2):
        inner = parts[k]
        if not inner.strip() or inner != inner.strip() or "^" in inner:
            return line
    return "".join(p if k % 2 == 0 else f"**{p}**" for k, p in enumerate(parts))


def _spoilers(line: str) -> str:
    """``>!x!<`` spoilers of a line as ``**x**`` (none opened and not closed is changed)."""
    out, at = [], 0
    while (start := line.find(">!", at)) >= 0 and (end := line.find("!<", start + 2)) >= 0:
        inner = line[start + 2:end]
        if not inner.strip():
            break
        out.append(line[at:start] + "**" + inner.strip() + "**")
        at = end + 2
    return "".join(out) + line[at:]


def _without_line_numbers(lines: list[str]) -> list[str]:
    """Lines without a review copy's line numbers ("12  Q3 (c) ..."): where at least five
    lines and nine in ten of the non-blank ones start with a bare integer and a gap, the
    integers rising through the file, they are the margin's, not the student's. A
    numbered list ("1. ...", "3) ...") has its stops; hand-numbered headings are few."""
    numbered: list[tuple[int, int]] = []  # (line index, its number)
    filled = 0
    for i, raw in enumerate(lines):
        if not raw.strip():
            continue
        filled += 1
        head = raw.split(None, 1)
        body = raw.lstrip()
        gap = body[len(head[0]):len(head[0]) + 1] if head else "x"
        if head and head[0].isdecimal() and gap in (" ", "\t", ""):  # "" a blank line's
            numbered.append((i, int(head[0])))
    values = [n for _, n in numbered]
    if (len(numbered) < 5 or len(numbered) * 10 < filled * 9
            or any(a >= b for a, b in zip(values, values[1:], strict=False))):
        return lines
    out = list(lines)
    for i, n in numbered:
        rest = out[i].lstrip()[len(str(n)):]
        out[i] = rest[1:] if rest.startswith("\t") else rest.lstrip(" ")
    return out


def _ini_section(line: str) -> bool:
    """``[q3.a]``, ``[question 3]``: an INI file's section header on a line of its own."""
    text = line.strip()
    return len(text) > 2 and text[0] == "[" and text[-1] == "]" and "[" not in text[1:]


def _key_and_value(line: str) -> tuple[str, str, str] | None:
    """(key, sign, value) of a ``key = value`` or ``key: value`` line whose key is one
    word (``q3c = 24.0 GB``, ``q3a2.p: 0.750``), else None."""
    cuts = [i for i in (line.find("="), line.find(":")) if i > 0]
    if not cuts or line[:1].isspace():
        return None
    cut = min(cuts)
    key, value = line[:cut].strip(), line[cut + 1:].strip()
    if not key or not value or any(c.isspace() for c in key):
        return None
    return key, line[cut], value


def _is_key_value_file(lines: list[str]) -> bool:
    """Whether a text is kept as an INI or config file: three ``key = value`` (or ``key:
    value``) lines or more whose key names a question (``keyed.key_label``), and either
    two section headers or more, or no line but those, other keys' and comments (a flat
    answers file, ``question_3.language_modeling_task: 21018401``). A report's lines
    ("Q3: trainable parameters" over its prose) are not all keys."""
    sections = sum(_ini_section(ln) for ln in lines)
    keyed = sum((kv := _key_and_value(ln)) is not None and key_label(kv[0]) is not None
                for ln in lines)
    flat = all(not ln.strip() or ln.strip()[:1] in ("#", ";")
               or _key_and_value(ln) is not None for ln in lines)
    return keyed >= 3 and (sections >= 2 or (flat and not sections))


def _key_values(lines: list[str]) -> list[str]:
    """An INI or config file's answers written as a report's: a section header
    ``[q3.a]`` a heading, a comment (``#``, ``;``) plain text (its working), and a line
    ``q3a2.p = 0.750`` (or ``q3_e_ii: 72.0 MB``) whose key names a question that
    question's answer line ``Answer: **Q3 (a) (ii) p** = 0.750``: a line starting with a
    label opens its section, and an answer line beats the working in the comments."""
    out: list[str] = []
    for raw in lines:
        text = raw.strip()
        if _ini_section(raw):
            out.append("## " + text[1:-1].strip())
            continue
        if text[:1] in ("#", ";"):
            out.append(text.lstrip("#; "))
            continue
        kv = _key_and_value(raw)
        label = key_label(kv[0]) if kv is not None else None
        if kv is None or label is None:
            out.append(raw)
            continue
        out.append(f"Answer: **{label}** = {kv[2].strip(chr(34))}")
    return out


STAMPED_NAME_WORDS = 4
"""The most words a time-stamped chat turn's speaker has ("TA Samuel Ofori")."""
_STUDENT_SPEAKERS = ("me", "i", "student", "myself")
"""The speaker a student's own turns go by in a transcript they hand in."""


def _turn(line: str) -> tuple[str, str, int, bool] | None:
    """(speaker, said, where the said text starts, whether time-stamped) of a chat turn:
    ``[14:02] TA: Let's start with Question 1.``, ``Me: …``, WhatsApp's ``[27/11/26,
    23:38] Kevin Okafor: …`` and ``27/11/2026, 23:38 - Kevin Okafor: …``; the time stamp optional, the
    speaker one or two words before a colon, never an answer word ("Answer: …")."""
    rest = line.lstrip()
    if (kakao := _named_turn(rest)) is not None:
        speaker, said = kakao
        return speaker.lower(), said.strip(), len(line) - len(said), True
    stamped = rest.startswith("[")
    dash = rest.find(" - ") if rest[:1].isdigit() else -1
    if stamped or dash > 0:
        close = rest.find("]") if stamped else dash
        stamp = rest[1:close] if stamped else rest[:dash]
        if close < 0 or not chat_stamp(stamp):
            return None
        rest = rest[close + (1 if stamped else 3):].lstrip()
        stamped = True
    colon = rest.find(":")
    speaker = rest[:colon].strip()
    # a time-stamped turn's name may have a title ("TA Samuel Ofori"); an unstamped one is
    # a word or two ("Me:", "TA:"), as a report's "Working:" or "Total memory:" is not
    if (colon <= 0 or len(speaker.split()) > (STAMPED_NAME_WORDS if stamped else 2)
            or not speaker[:1].isalpha()
            or not rest[colon + 1:colon + 2].isspace() or is_answer_heading(speaker)):
        return None
    return speaker.lower(), rest[colon + 1:].strip(), len(line) - len(rest) + colon + 1, stamped


def _named_turn(rest: str) -> tuple[str, str] | None:
    """(speaker, said) of a KakaoTalk turn, its name bracketed before its time:
    ``[박서연] [오후 11:12] Question 3``."""
    if not rest.startswith("["):
        return None
    close = rest.find("]")
    name = rest[1:close]
    after = rest[close + 1:].lstrip() if close > 0 else ""
    shut = after.find("]")
    if not name.strip() or chat_stamp(name) or not after.startswith("[") or shut < 0 \
            or not chat_stamp(after[1:shut]) or len(name.split()) > 3:
        return None
    return name.strip(), after[shut + 1:]


def _transcript(lines: list[str]) -> list[str]:
    """A chat transcript handed in as the report (``[14:02] TA: Let's start with Question
    1.`` / ``[14:03] Me: …``): a turn of someone other than the student that names a
    question opens that question's section, written as its heading (the last question it
    names: "Fine. Now Task 3: …" opens Task 3); the student's turns lose their time stamp
    and name. A transcript has two speakers with two turns each or more, and either most
    turns time-stamped or the student speaking as "Me" (``_STUDENT_SPEAKERS``), so a
    report's "Working: …" / "Result: …" lines are none. The student is "Me", else the
    speaker with most turns."""
    turns = {i: t for i, raw in enumerate(lines) if (t := _turn(raw)) is not None}
    numerals = {t[0] for t in turns.values() if t[0] in ROMAN_VALUES}
    if len(numerals) >= 2:  # "I: …", "II: …", "III: …" are a question's parts, not who speaks
        turns = {i: t for i, t in turns.items() if t[0] not in ROMAN_VALUES}
    speakers = [t[0] for t in turns.values()]
    if sum(speakers.count(s) >= 2 for s in set(speakers)) < 2:
        return lines
    named = [s for s in _STUDENT_SPEAKERS if speakers.count(s) >= 2]
    if not named and sum(t[3] for t in turns.values()) * 2 < len(turns):
        return lines
    student = named[0] if named else max(set(speakers), key=speakers.count)
    if not named:  # a time-stamped chat: a line without a stamp ("Classification task:
        # 10,968,600", "epoch 1: …") is its turn's text wrapped, no speaker's
        turns = {i: t for i, t in turns.items() if t[3]}
    out = list(lines)
    speaker = None  # whose turn a line without a stamp of its own goes on
    for i in range(len(lines)):
        if i not in turns:
            if speaker is not None and speaker != student:
                out[i] = ""  # another speaker's turn, wrapped over lines
            continue
        speaker, said, start, _ = turns[i]
        if speaker == student:
            out[i] = " " * start + said
            continue
        labels = [m.group(0) for m in QUESTION_LABEL.finditer(said)]
        # a classmate's "I got 21,018,401" is not the student's answer
        out[i] = "## " + labels[-1] if labels else ""
    return out


def _tab_cells(line: str) -> list[str] | None:
    """The cells of a tab-separated row (``Q3 (c)<TAB>0.54<TAB>GB<TAB>one head``), empty
    ones kept; None for a line with no tab after its words (a tab that indents code).
    Excel's "Text (Tab delimited)" ends a row's empty cells with tabs ("Title<TAB><TAB>"),
    and writes an empty row as tabs alone: both are rows."""
    body = line.strip(" \r")
    if body.startswith("|") or "\t" not in body.lstrip("\t") and body.strip("\t"):
        return None
    if not body:
        return None
    return [c.strip() for c in body.split("\t")]


def _aligned_cells(line: str) -> list[str] | None:
    """The cells of a row whose columns are lined up by as many tabs as each needs (Notepad:
    "<TAB>memory<TAB><TAB><TAB>24.0 GB"): a run of tabs is one gap, the indent none."""
    cells = _tab_cells(line)
    return None if cells is None else [c for c in cells if c]


def _run(lines: list[str], i: int,
         split: Callable[[str], list[str] | None]) -> tuple[list[str] | None, int]:
    """The first row's cells and the end of the run of rows below it with as many cells."""
    first = split(lines[i])
    if split is _csv_cells and not _csv_header(lines[i]):
        first = None  # a CSV table is known by its header, prose has commas too
    j = i + 1
    while first is not None and j < len(lines) and (
            (row := split(lines[j])) is not None and len(row) == len(first)):
        j += 1
    return first, j


def _csv_cells(line: str) -> list[str] | None:
    """The cells of a comma-separated row as a ``.csv`` file writes it (``"Q3 (e) (I)",
    "9,437,184",parameters``: a cell holding a comma quoted), or None for a line with no
    comma or one a CSV reader cannot split."""
    if "," not in line or line.lstrip().startswith("|"):
        return None
    try:
        rows = list(csv.reader([line.strip()], strict=True))
    except csv.Error:
        return None
    return [c.strip() for c in rows[0]] if len(rows) == 1 else None


def _csv_header(line: str) -> bool:
    """A CSV header: short names (three words at most each), no figure among them, and
    no space after its commas, as a program writes ``question,answer,unit,note``; a
    sentence's commas ("First, the mask, then") have their space."""
    cells = _csv_cells(line)
    return cells is not None and len(cells) >= 2 and ", " not in line and all(
        c and len(c.split()) <= 3 and not has_digit(c) for c in cells)


def _tab_tables(lines: list[str]) -> list[str]:
    """A table pasted from a spreadsheet or a ``.tsv`` file (its cells split by tabs), or
    from a ``.csv`` file under a header of names, as the Markdown pipe table it is: two
    rows or more in a run, each with as many cells as the first (two or more). No ``|---|`` line is added, so the line count is kept: a
    first row of names over rows of figures is a header as Word's tables' is, and its
    "answer" column is then the answer, not the working beside it ("softmax, index 2").
    A "unit" column is joined to the figure before it ("0.54", "GB" -> "0.54 GB")."""
    out = list(lines)
    i = 0
    while i < len(lines):
        split = _tab_cells if _tab_cells(lines[i]) is not None else _csv_cells
        first, j = _run(lines, i, split)
        if split is _tab_cells:  # tabs typed to line columns up, not to part cells
            aligned, k = _run(lines, i, _aligned_cells)
            if k > j:
                split, first, j = _aligned_cells, aligned, k
        if first is not None and len(first) >= 2 and j - i >= 2:
            unit = next((k for k, name in enumerate(first)
                         if k > 0 and name.lower().rstrip("s") in _UNIT_COLUMNS), None)
            for k in range(i, j):
                row = split(lines[k]) or []
                if unit is not None:  # "0.54", "GB" -> "0.54 GB", as the student means it
                    value = f"{row[unit - 1]} {row[unit]}".strip() if k > i else row[unit - 1]
                    row = row[:unit - 1] + [value] + row[unit + 1:]
                out[k] = "| " + " | ".join(row) + " |"
        i = max(j, i + 1)
    return out


_UNIT_COLUMNS = ("unit", "einheit", "unité", "unidad", "unidade", "unità")
"""A column header naming the units of the column before it (singular, lower case)."""


def _bold(line: str) -> str:
    """AsciiDoc's and org's ``*bold*`` as ``**bold**``: a star opening at a word's start
    and one closing at a word's end; ``2 * 3``, ``2*nhid*nhid`` and ``**x**`` are kept."""
    if "**" in line or line.count("*") < 2:
        return line
    out: list[str] = []
    i = 0
    while i < len(line):
        j = line.find("*", i)
        if j < 0:
            break
        k = line.find("*", j + 1)
        opens = (j == 0 or not line[j - 1].isalnum()) and line[j + 1:j + 2].strip() != ""
        closes = k > j + 1 and line[k - 1] != " " and not line[k + 1:k + 2].isalnum()
        if not (opens and closes):
            out.append(line[i:j + 1])
            i = j + 1
            continue
        out.append(line[i:j] + "**" + line[j + 1:k] + "**")
        i = k + 1
    out.append(line[i:])
    return "".join(out)


def _asciidoc(lines: list[str]) -> list[str]:
    out: list[str] = []
    in_table = False
    header_next = False
    for raw in lines:
        line = raw.rstrip()
        if line == "|===":
            if not in_table:
                in_table = True
                header_next = True
                out.append("")
            else:
                in_table = False
                out.append("")
            continue
        if in_table:
            if header_next and line.startswith("|"):
                # the header row moves up onto the opening "|===" line, its own line
                # becomes the Markdown separator under it
                out[-1] = line + " |"
                out.append("|" + "---|" * (line.count("|")))
                header_next = False
                continue
            out.append(line + " |" if line.startswith("|") else line)
            continue
        level = len(line) - len(line.lstrip("="))
        if 1 <= level <= 6 and line[level:level + 1] == " " and line[level:].strip():
            out.append("#" * level + line[level:])
            continue
        if line.startswith(":") or (line.startswith("[") and line.endswith("]")):
            out.append(raw)  # attributes and block options: no emphasis to mend
            continue
        out.append(_bold(raw))
    return out


def _org(lines: list[str]) -> list[str]:
    out: list[str] = []
    source = False
    for raw in lines:
        keyword = raw.strip().lower()
        if keyword.startswith(("#+begin_", "#+end_")):
            source = keyword.startswith("#+begin_")
        if source or keyword.startswith("#+end_"):
            out.append(raw)  # code, its stars are multiplications
            continue
        stars = len(raw) - len(raw.lstrip("*"))
        if 1 <= stars <= 6 and raw[stars:stars + 1] == " ":
            title = raw[stars:].strip()
            for keyword in _ORG_KEYWORDS:
                if title.startswith(keyword):
                    title = title[len(keyword):].strip()
            words = title.split()
            if words and len(words[-1]) > 2 and words[-1][0] == words[-1][-1] == ":":
                title = " ".join(words[:-1])  # its tags, ":counting:"
            out.append("#" * stars + " " + title)
            continue
        body = raw.strip()
        if body.startswith("|-") and set(body) <= set("|-+:"):
            out.append(raw.replace("+", "|"))  # "|----+----|" under the header row
            continue
        out.append(_bold(raw) if not body.startswith(("#+", ":")) else raw)
    return out


def _underlined_titles(lines: list[str]) -> list[str]:
    """A title underlined (and perhaps overlined) with one repeated character, as
    reStructuredText and Markdown's setext write it, as a ``#`` heading; its level is
    the order in which each underline style first appears."""
    out = list(lines)
    levels: list[tuple[str, bool]] = []
    for i in range(1, len(lines)):
        rule = lines[i].strip()
        title = lines[i - 1].strip()
        if (len(rule) < 3 or rule[0] not in _UNDERLINES or rule != rule[0] * len(rule)
                or not title or len(rule) < len(title) or title.startswith(("|", "+", "#"))
                or not any(c.isalpha() for c in title) or title[0] == rule[0]
                or out[i - 1] != lines[i - 1]):
            continue
        over = i >= 2 and lines[i - 2].strip() == rule
        if not over and i >= 2 and lines[i - 2].strip():
            continue  # a rule under a paragraph's last line: no title (one stands alone)
        style = (rule[0], over)
        if style not in levels:
            levels.append(style)
        out[i - 1] = "#" * min(len(levels[: levels.index(style) + 1]), 6) + " " + title
        out[i] = ""
        if over:
            out[i - 2] = ""
    return out


_UNIT_LEADS = ("in", "en", "im", "em", "unit:", "unité :", "unité:", "einheit:")
"""Words before the unit a footnote names: "In GB", French "En Go (gigaoctets)"."""


def footnote_units(text: str) -> str:
    """A number's unit given only in its footnote ("**0,537**[^go]" with "[^go]: En Go
    (gigaoctets, 1 Go = 10⁹ octets)." below) written after the number where the reference
    stands ("**0,537** Go"): the student wrote the unit, one click away. A footnote whose
    first word (after "In", "En") is no unit or scale leaves its references alone."""
    if "[^" not in text:
        return text
    lines = text.split("\n")
    units: dict[str, str] = {}
    for line in lines:
        body = line.strip()
        close = body.find("]:")
        if not body.startswith("[^") or close < 0:
            continue
        words = body[close + 2:].replace("(", " ").replace(",", " ").split()
        if words and words[0].lower() in _UNIT_LEADS:
            words = words[1:]
        word = words[0].rstrip(".:;") if words else ""
        if word and (memory_unit(word) or scale_word(word)):
            units[body[:close + 1]] = word
    if not units:
        return text
    out = []
    for line in lines:
        if not line.strip().startswith("[^"):
            for ref, unit in units.items():
                at = line.find(ref)
                while at > 0:
                    before = line[:at].rstrip("*_")
                    if before[-1:].isdigit():
                        line = f"{line[:at]} {unit}{line[at + len(ref):]}"
                    at = line.find(ref, at + 1)
        out.append(line)
    return "\n".join(out)
