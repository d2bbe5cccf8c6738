"""An issue or pull-request thread handed in as the report: the student's comments are
the report, a teammate's are not, and the student's latest word on a question stands.

Why here: a thread copied from GitHub (``kwongly opened this issue …``, ``chanhm
commented on Nov 20``, replies quoting earlier lines as ``> …``) holds three voices in one
text. A quoted line is the earlier message again, not the reply; a teammate's comment is
advice the student may or may not take; and the student's later comment ("Final Q3 (c):
… = 51.5 GB") replaces what their first one said about that question. The stages after
the reader take a question's first section as its answer, so the reader hands them the
student's standing text only: quotes, other people's comments and the student's lines a
later comment restates are blanked (the line count kept, so the grader's line numbers
are the file's). String operations only.
"""

from __future__ import annotations

from grader.written.vocabulary import QUESTION_LABEL, RELATIONS

_COMMENT_VERBS = ("commented", "replied", "reviewed", "wrote:")
"""The word after an author's name that opens a comment in a copied thread."""
_OPENED = ("opened this issue", "opened this pull request", "opened this merge request")
_EVENTS = ("opened", "closed", "reopened", "merged", "added", "removed", "assigned",
           "unassigned", "self-assigned", "mentioned", "linked", "referenced", "requested",
           "approved", "pushed", "changed", "marked", "converted", "locked", "pinned")
"""The verb after a name in a thread's timeline line ("kwongly closed this as completed
on Nov 21"): no one's words, and its date is no answer."""
_CHECKBOXES = ("- [x]", "- [ ]", "- [X]", "* [x]", "* [ ]", "* [X]")


def _author(line: str) -> str | None:
    """The author a comment's header line names (``kwongly commented on Nov 19``,
    ``@chanhm replied 2 days ago``), else None: one name, then a comment verb; or a chat
    message's header (see ``_chat_author``)."""
    words = line.split()
    if len(words) < 2 or words[1].lower() not in _COMMENT_VERBS:
        return _chat_author(line)
    name = words[0].lstrip("@")
    return name.lower() if name[:1].isalnum() else None


CHAT_HEADER_CHARS = 60
"""The longest a chat message's header line is (a name, a role, a time)."""


HALF_DAY = ("오전", "오후", "午前", "午後", "上午", "下午")
"""AM and PM as a Korean, Japanese or Chinese chat app stamps them ("[오후 11:12]")."""


def chat_stamp(text: str) -> bool:
    """Whether ``text`` is a chat's time stamp: "14:02", or with the date as WhatsApp
    exports it ("27/11/26, 23:38", "11/27/26, 11:38:05 PM", Android's "27/11/2026, 23:38"
    before " - "), or with a half day's word ("오후 11:12")."""
    for word in HALF_DAY:
        text = text.replace(word, "")
    return ":" in text and any(c.isdigit() for c in text) and all(
        c.isdigit() or c in ":./,- " or c in "APMapm" for c in text)


def _chat_author(line: str) -> str | None:
    """The author a chat message's header names: the name, then the time the chat
    stamped (Slack's and Teams' "Samuel Adeyemi  11:02 PM", "Marcus Hale (TA)  10:43
    PM"); the name has no digits and no sentence's end."""
    text = line.strip()
    words = text.split()
    if not 2 <= len(words) <= 8 or len(text) > CHAT_HEADER_CHARS:
        return None
    if words[-1].upper() in ("AM", "PM"):
        words = words[:-1]
    if len(words) < 2 or not chat_stamp(words[-1].strip("[]()")):
        return None
    name = [w for w in words[:-1] if not (w.startswith("(") and w.endswith(")"))]
    if not name or len(name) > 4 or any(not w.replace("-", "").replace("'", "").replace(
            ".", "").isalpha() for w in name):
        return None
    return " ".join(name).lower()


def _labelled(line: str) -> bool:
    """Whether a line opens with a question's label ("*Question 1*", "Final Q3 (c): …")."""
    return _label_key(line.strip(" *_#>•-")) is not None


def _event(line: str, names: set[str]) -> bool:
    """A timeline line: one of the thread's ``names`` and an event verb (``kwongly closed
    this as completed``, ``Open kwongly opened this issue on Nov 19``); "I added the
    biases" is the student's sentence."""
    words = line.split()
    if words[:1] in (["Open"], ["Closed"], ["Merged"]):
        words = words[1:]
    return (len(words) >= 3 and words[1].lower() in _EVENTS
            and words[0].lstrip("@").lower() in names)


def _opener(lines: list[str]) -> str | None:
    """The thread's author (``Open kwongly opened this issue on Nov 19``): the student."""
    for line in lines:
        low = line.lower()
        for phrase in _OPENED:
            at = low.find(phrase)
            if at > 0:
                return low[:at].split()[-1].lstrip("@")
    return None


def _label_key(line: str) -> tuple[str, bool] | None:
    """The question a line opens with, to its first part, after a checkbox and "Final"
    (``- [ ] Q3 (c) 48 heads …`` -> "q3 (c)", ``Q3 (a) (II) loss = …`` -> "q3 (a)"), and
    whether it states its answer there (a colon or a relation sign right after the whole
    label, "Final Q3 (c): … = 51.5 GB"); else None. A part's restatement stands for its
    whole question part: the stages read a part ("(II)") inside the first section of its
    question ("Q3 (a)"), so an earlier "Q3 (a) (I)" left standing would hide it."""
    text = line.strip()
    for box in _CHECKBOXES:
        if text.startswith(box):
            text = text[len(box):].lstrip()
    if text.lower().startswith("final "):
        text = text[6:].lstrip()
    match = QUESTION_LABEL.match(text)
    if match is None:
        return None
    end = first_part = match.end()
    while True:  # its parts, "(a) (II)"
        rest = text[end:]
        gap = len(rest) - len(rest.lstrip())
        close = rest.find(")")
        inner = rest[gap + 1:close] if rest[gap:gap + 1] == "(" and close > 0 else ""
        if not inner or len(inner) > 4 or not inner.isalnum():
            break
        end += close + 1
        first_part = end if first_part == match.end() else first_part
    key = " ".join(text[:first_part].lower().split())
    return key, text[end:].lstrip()[:1] in (":",) + tuple(RELATIONS)


def _label_first(line: str) -> str:
    """``Final Q3 (c): … = 51.5 GB`` as ``Q3 (c): Final: … = 51.5 GB``: a label opens its
    section at the line's start, and "Final" still says which value the student stands by."""
    body = line.lstrip()
    colon = body.find(":")
    if not body.lower().startswith("final ") or colon < 0:
        return line
    return line[:len(line) - len(body)] + body[6:colon + 1] + " " + body[:5] + body[colon:]


def without_task_boxes(lines: list[str]) -> list[str]:
    """A task list's items without their boxes (``- [x] Q3 (d) 14.50 billion`` as ``- Q3
    (d) 14.50 billion``): a GitHub checklist pasted as text is a bulleted list, and whether
    a teammate ticked an item is no part of the answer; the label after the box then opens
    its section as a bullet's does."""
    out = []
    for line in lines:
        body = line.lstrip()
        if body[:5] in _CHECKBOXES and body[5:6].isspace():
            line = line[:len(line) - len(body)] + body[:2] + body[5:].lstrip()
        out.append(line)
    return out


def _replies(lines: list[str], authors: list[tuple[int, str]], student: str) -> set[int]:
    """The student's comments that answer a teammate's: right after one, with no question
    label of their own ("RoBERTa uses learned positions, that's the 132,096" under "I got
    22,696,960, did you count them?"). They are talk about a part of the answer; the
    answer is the one posted under its label, or restated under it."""
    out = set()
    for n in range(1, len(authors)):
        start, author = authors[n]
        end = authors[n + 1][0] if n + 1 < len(authors) else len(lines)
        if author == student and authors[n - 1][1] != student \
                and not any(_labelled(line) for line in lines[start + 1:end]):
            out.add(n)
    return out


def is_thread(lines: list[str]) -> bool:
    """Two comment headers or more from two authors or more."""
    authors = [a for line in lines if (a := _author(line)) is not None]
    return len(authors) >= 2 and len(set(authors)) >= 2


def student_thread(lines: list[str]) -> list[str]:
    """``lines`` of a thread with only the student's standing text kept (see the module's
    docstring); a text that is no thread is returned unchanged. The student is the
    thread's opener, else the author of its first comment."""
    if not is_thread(lines):
        return lines
    authors = [(i, a) for i, line in enumerate(lines) if (a := _author(line)) is not None]
    student = _opener(lines) or authors[0][1]
    names = {a for _, a in authors} | {student}
    out = list(lines)
    owner: list[str | None] = [None] * len(lines)  # whose comment each line is in
    comment: list[int] = [-1] * len(lines)  # the index of the comment each line is in
    for n, (start, author) in enumerate(authors):
        end = authors[n + 1][0] if n + 1 < len(authors) else len(lines)
        for i in range(start + 1, end):
            owner[i], comment[i] = author, n
    talk = _replies(lines, authors, student)
    for i, line in enumerate(lines):
        if owner[i] is not None and (owner[i] != student or line.lstrip().startswith(">")
                                     or comment[i] in talk):
            out[i] = ""  # a teammate's words, a quote of earlier ones, a reply to them
        if _author(line) is not None or _event(line, names):
            out[i] = ""  # "chanhm commented on Nov 20": whose comment, and when
    # the student's lines a later comment of theirs restates with its answer
    keys = {i: k for i, line in enumerate(out) if owner[i] == student
            and (k := _label_key(line)) is not None}
    for i in keys:
        out[i] = _label_first(out[i])
    restated = {(k, comment[i]) for i, (k, stated) in keys.items() if stated}
    for i, (key, _) in keys.items():
        if not any(k == key and c > comment[i] for k, c in restated):
            continue
        out[i] = ""
        depth = len(lines[i]) - len(lines[i].lstrip())
        j = i + 1  # the item's wrapped lines, indented under it
        while j < len(lines) and lines[j].strip() and (
                len(lines[j]) - len(lines[j].lstrip()) > depth):
            out[j] = ""
            j += 1
    return out
