"""A lab journal handed in as the report: each dated entry's line is its heading.

Why here: a student who keeps a journal (``2026-11-18 Tue 21:40 — Question 3, language
modeling task``) answers the questions across entries in the order they worked on them,
a correction entry between two answers. The entry line is what a heading is in a report:
it names what follows, and the next entry ends it. Written as a Markdown heading (``##
Question 3, language modeling task``, an untitled entry ``## 2026-11-16 Sun 15:10``), the
question it names opens its section there and the next entry closes it, so a correction's
other numbers stay out of the answer's section. The line count is kept. String
operations only.
"""

from __future__ import annotations

from grader.written.vocabulary import QUESTION_LABEL, has_digit

_DASHES = ("—", "–", "-", "|")
"""What separates an entry's date (and time) from its title: ``2026-11-18 Tue 21:40 — …``."""


def _is_date(word: str) -> bool:
    """``2026-11-18``, ``2026/11/18``: a year, a month and a day, at the line's start."""
    return (len(word) == 10 and word[4] == word[7] and word[4] in "-/."
            and (word[:4] + word[5:7] + word[8:]).isdecimal())


def _stamp_word(word: str) -> bool:
    """A weekday ("Tue", "Tuesday,") or a time ("21:40", "9.15am") after an entry's date."""
    w = word.rstrip(",").lower().removesuffix("am").removesuffix("pm")
    return (w.isalpha() and len(w) <= 9 and w[:3] in _WEEKDAYS) or (
        bool(w) and w[0].isdigit() and all(c.isdigit() or c in ":." for c in w))


_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _entry_title(line: str) -> str | None:
    """The heading a journal entry's line stands for: its title after the date, time and a
    dash, or the stamp itself for an untitled entry (``2026-11-16 Sun 15:10 —``); None for
    a line that is no entry's (no date first, or prose after the date with no dash)."""
    words = line.split()
    if not words or not _is_date(words[0]):
        return None
    n = 1
    while n < len(words) and _stamp_word(words[n]):
        n += 1
    stamp, rest = " ".join(words[:n]), words[n:]
    if not rest:
        return stamp
    if rest[0] not in _DASHES:
        return None
    return " ".join(rest[1:]) or stamp


def journal_headings(lines: list[str]) -> list[str]:
    """``lines`` with each dated entry's line written as a heading, where two entries or
    more open their lines with a date, each over a body of its own (consecutive dated
    lines are a pasted log's); else unchanged. In an entry titled by a question,
    a line that says the title again with a value (``Question 3, language modeling task:
    20,968,400 trainable parameters.``) is the entry's result, as an INI file's key line
    is: it is written as an answer line (``Answer: **Question 3, …**: 20,968,400 …``), so a
    later entry's working ("… = 242,000, fine.") does not outrank it."""
    dated = {i: t for i, line in enumerate(lines) if (t := _entry_title(line)) is not None}
    # an entry has a body; dated lines in a run are a log's ("2026-11-16 12:00:01 - INFO")
    titles = {i: t for i, t in dated.items() if i - 1 not in dated and i + 1 not in dated}
    if len(titles) < 2:
        return lines
    out = list(lines)
    title = None
    for i, line in enumerate(lines):
        if i in titles:
            title = titles[i]
            out[i] = "## " + title
            continue
        body = line.strip()
        rest = body[len(title):].lstrip() if title is not None else ""
        if (title is not None and QUESTION_LABEL.search(title) and rest[:1] in (":", "=")
                and body.lower().startswith(title.lower()) and has_digit(rest)):
            out[i] = f"Answer: **{body[:len(title)]}**{rest}"
    return out
