"""Which of two models a sentence says does better, from the way comparisons are worded.

Why not "the first model named wins": students write the comparison from either side and
in either voice. "The model trained from scratch lags behind the pre-trained one", "X
trails Y", "X falls short of Y", "X is outperformed by Y", "X has a lower loss" all rank
the *second* model (or the one named first) differently from "X is better than Y". So each
comparison word carries a direction for the model it is said of:

- ``+1`` the subject does better: better, higher, outperforms, beats, exceeds, surpasses,
  is ahead of, leads, stays above;
- ``-1`` the subject does worse: worse, lower, underperforms, lags (behind), trails, falls
  short of, falls behind, loses to, stays below;
- a passive ("X is outperformed by Y", "beaten by", "surpassed by") turns the direction
  round; so does a negation just before the word ("X does not beat Y", "X is no better");
- "higher"/"lower" of a loss, error or perplexity turn round too ("a lower loss" is better);
- "no clear winner", "on par", "neck and neck", "neither is better", "indistinguishable"
  say neither does better; "the same", "similar", "comparable" do when both models (or
  "both", "the two") are named and no directional word is.

The subject is the model named nearest before the word in its clause, passing over one
named as the thing compared with ("unlike the scratch one", "compared with", "than");
with none before, the first one named after it that is not the object of "than",
"behind", "to", "by" ("better results come from the pre-trained model").

Where the clauses of a sentence disagree, the last one after "but"/"yet"/"however" or of a
conclusion ("so ...", "therefore ...") decides, and an "although"/"while"/"whereas" clause
gives way: "the scratch model improves faster, but the pre-trained one stays ahead" says the
pre-trained model does better. In such a clause "the gap closes", "comparable", "about the
same" alone say neither does ("A starts higher but the gap closes, so they end up
comparable").
"""

from __future__ import annotations

import re
from collections.abc import Callable

Mentions = Callable[[str], list[tuple[int, str]]]
"""(offset, series) of each model named in a lower-cased text, in order."""

_PASSIVE = re.compile(
    r"\b(?:is|are|was|were|be|being|been|gets?|got)\s+(?:\w+ly\s+)?"
    r"(?:outperformed|beaten|surpassed|exceeded|bettered|dominated|topped|overtaken|outpaced"
    r"|outclassed)\s+by\b", re.I)
_BETTER = re.compile(
    r"\b(?:better|higher|outperform(?:s|ed|ing)?|superior|more\s+accurate|beats?|beating"
    r"|exceeds?|exceeding|greater|faster|improves?\s+(?:on|over|upon)|surpass(?:es|ed|ing)?"
    r"|(?:is|are|stays?|remains?|keeps?)\s+ahead|ahead\s+of|leads?|leading|wins?|dominates?"
    r"|stronger|outpaces?|(?:stays?|remains?|lies|sits|is|are)\s+above"
    r"|catch(?:es)?\s+up|keeps?\s+up|(?:a|an|the|clear|big|large|small|slight|consistent)\s+"
    r"(?:advantage|edge|lead)\b|advantage)\b|(?<=\s)>(?=\s)", re.I)
_WORSE = re.compile(
    r"\b(?:worse|lower|underperform(?:s|ed|ing)?|inferior|less\s+accurate|slower|weaker"
    r"|lag(?:s|ged|ging)?(?:\s+behind)?|trail(?:s|ed|ing)?|falls?\s+(?:short|behind)"
    r"|fell\s+(?:short|behind)|loses?\s+(?:out\s+)?to|lost\s+(?:out\s+)?to"
    r"|(?:stays?|remains?|lies|sits|is|are)\s+(?:below|behind)|disadvantage)\b|(?<=\s)<(?=\s)",
    re.I)
_NEGATION = re.compile(r"\b(?:not|never|no|hardly|barely|n't)\s+(?:\w+\s+){0,2}$|n't\s+(?:\w+\s+){0,2}$",
                       re.I)
_INVERTED_METRIC = re.compile(r"^\W*(?:\w+\W+){0,3}?(?:loss|error|perplexity|cross[- ]entropy)",
                              re.I)
_METRIC_BEFORE = re.compile(r"(?:loss|error|perplexity|cross[- ]entropy)\w*\W+(?:\w+\W+){0,3}$",
                            re.I)
_QUANTITY = re.compile(r"higher|lower|greater", re.I)
_EQUAL_STRONG = re.compile(
    r"\b(?:no\s+(?:clear|real|significant|noticeable|meaningful|obvious)?\s*(?:winner|difference)"
    r"|neither\s+(?:\w+\s+){0,3}(?:better|worse|outperforms?|wins)|on\s+par|neck\s+and\s+neck"
    r"|indistinguishable|(?:perform|do|does|did)\s+(?:about\s+|roughly\s+)?(?:equally|the\s+same)"
    r"|a\s+tie|tied|(?:negligible|marginal|insignificant|minimal)\s+(?:difference|gap)"
    r"|(?:gap|difference)\s+(?:\w+\s+)?(?:closes|closed|disappears|disappeared|vanishes|vanished)"
    r"|clos(?:es|ed|ing)\s+the\s+gap"
    r"|(?:difference|gap)\s+(?:[\w'’-]+\s+){0,6}?(?:is|was|are|were|stays?|remains?)\s+(?:\w+\s+)?"
    r"(?:negligible|marginal|insignificant|minimal|tiny|within\s+noise))\b", re.I)
_EQUAL_WEAK = re.compile(r"\b(?:same|similar|equal(?:ly)?|comparable|identical|as\s+well\s+as)\b",
                         re.I)
_BOTH = re.compile(r"\b(?:both|the\s+two|either|neither)\b", re.I)
_OBJECT_BEFORE = re.compile(
    r"(?:\bunlike|\bcompared\s+(?:with|to)|\bversus|\bvs\.?|\bthan|\bbehind|\bby|\bover|\bto"
    r"|\bagainst|\band|&)\s+(?:the\s+|a\s+|an\s+|one\s+)?(?:\w+\s+){0,2}$", re.I)
_CLAUSE = re.compile(r"[;:]\s|,\s+(?=(?:but|while|whereas|although|though|yet|however|so|therefore"
                     r"|thus|hence|overall)\b)"
                     r"|\s(?=but\b)|\n"
                     r"|,?\s(?=(?:and\s+)?(?:at|in|by)\s+the\s+end\b(?!\s+of\s+(?:epoch|step)\s*\d))",
                     re.I)
_MAIN = re.compile(r"\W*(?:but|yet|however)\b")
_CONCLUSION = re.compile(r"\W*(?:and\s+)?(?:at\s+the\s+end|by\s+the\s+end)\b|\W*(?:so|therefore|thus|hence|overall|in\s+the\s+end|in\s+conclusion"
                         r"|all\s+in\s+all|in\s+short)\b")
_EQUAL_CONCLUDED = re.compile(
    r"\b(?:(?:about|roughly|basically|essentially|pretty\s+much|more\s+or\s+less|much)\s+the\s+same"
    r"|(?:end|ends|ended|finish|finishes|finished|are|were|look|looks|seem|seems|is|was"
    r"|become|becomes|became)\s+(?:up\s+)?(?:\w+\s+)?(?:comparable|similar|equal|level|even"
    r"|the\s+same)|comparable|equally\s+good)\b", re.I)
_EQUAL_END = re.compile(
    r"\b(?:both|the\s+two|they)\s+(?:models?\s+)?(?:\w+\s+)?(?:converge[sd]?\b|(?:are|were|end|ends|ended"
    r"|finish|finishes|finished|reach|reaches|reached|land|lands|landed|settle|settles|settled"
    r"|sit|sits|plateau|plateaus|plateaued)\s+(?:up\s+)?(?:(?:at|on|to|with|near|around|about"
    r"|roughly|approximately|approx\.?|close\s+to)\s+)*[~≈]?\s*\d(?!.*\brespectively\b))",
    re.I)
"""The end state named for both at once: "at the end both are around 0,77", "they both finish
near 0.77", "both converge". In a concluding clause it says neither wins, and as the later
main clause it outweighs a rate ("the scratch model improves faster and at the end both are
around 0,77": equal), since the question is where the models end, not how fast they move."""
_SUBORDINATE = re.compile(r"\W*(?:while|whereas|although|though|even\s+though)\b")
_SUBORDINATE_OPENING = re.compile(r"\W*(?:while|whereas|although|though|even\s+though)\b")


def _cue(clause: str) -> tuple[int, int, int] | None:
    """(start, end, direction) of the first comparison word of ``clause``."""
    found: list[tuple[int, int, int]] = []
    for pattern, direction in ((_PASSIVE, -1), (_BETTER, 1), (_WORSE, -1)):
        m = pattern.search(clause)
        if m is not None:
            found.append((m.start(), m.end(), direction))
    if not found:
        return None
    start, end, direction = min(found, key=lambda f: (f[0], -f[1]))
    if _NEGATION.search(clause[max(0, start - 40):start]):
        direction = -direction  # "does not beat", "is no better than"
    word = clause[start:end]
    if _QUANTITY.search(word) and (_INVERTED_METRIC.match(clause[end:end + 60])
                                   or _METRIC_BEFORE.search(clause[max(0, start - 40):start])):
        direction = -direction  # "a lower validation loss"
    return start, end, direction


def _subject(clause: str, seen: list[tuple[int, str]], start: int, end: int,
             passive: bool) -> str | None:
    before = [(pos, name) for pos, name in seen if pos < start]
    for pos, name in reversed(before):
        if not _OBJECT_BEFORE.search(clause[max(0, pos - 40):pos]):
            return name
    after = [(pos, name) for pos, name in seen if pos >= end]
    if passive and after:
        return None  # "is outperformed by X" with no subject before: X is the agent
    for pos, name in after:
        if not _OBJECT_BEFORE.search(clause[max(end, pos - 40):pos]):
            return name
    return before[-1][1] if before else (after[0][1] if after else None)


def _clauses(low: str) -> list[tuple[int, str, int]]:
    """(offset, clause, weight) of each clause: one after "but"/"yet"/"however" or a
    conclusion ("so ...", "therefore ...", "overall ...") weighs 2 (the point the sentence
    makes), a subordinate one ("although ...", "while ...") 0."""
    cuts = [0]
    opening = _SUBORDINATE_OPENING.match(low)
    if opening:
        comma = low.find(", ", opening.end())
        if comma > 0:
            cuts.append(comma + 2)
    cuts += [m.end() for m in _CLAUSE.finditer(low)]
    cuts = sorted(set(cuts))
    out = []
    for k, at in enumerate(cuts):
        piece = low[at:cuts[k + 1] if k + 1 < len(cuts) else len(low)]
        weight = 2 if _MAIN.match(piece) or _CONCLUSION.match(piece) else 0 if (
            _SUBORDINATE.match(piece) or (opening and k == 0 and len(cuts) > 1)) else 1
        out.append((at, piece, weight))
    return out


def compare(sentence: str, names: list[str], mentions: Mentions) -> tuple[str, str] | None:
    """(better, worse) the sentence says, ("", "") for "no clear winner", else None. Where
    clauses disagree, the weightiest decides ("X improves faster, but Y stays ahead": Y)."""
    low = sentence.lower()
    seen_all = mentions(low)
    if not seen_all and not _BOTH.search(low):
        return None
    directional = False
    decided: list[tuple[int, tuple[str, str]]] = []
    for at, piece, weight in _clauses(low):
        cue = _cue(piece)
        strong = _EQUAL_STRONG.search(piece)
        if strong is None and weight >= 2 and cue is None:
            strong = _EQUAL_CONCLUDED.search(piece) or _EQUAL_END.search(piece)
        if strong and (cue is None or strong.start() <= cue[0]):
            decided.append((weight, ("", "")))
            continue
        if cue is None:
            continue
        directional = True
        start, end, direction = cue
        seen = [(pos - at, name) for pos, name in seen_all if at <= pos < at + len(piece)]
        passive = bool(_PASSIVE.match(piece, start))
        subject = _subject(piece, seen, start, end, passive)
        if subject is None and passive:
            agent = [name for pos, name in seen if pos >= end]
            if agent:
                subject, direction = agent[0], -direction  # "is outperformed by X": X better
        if subject is None:
            # "The pre-trained model starts at 0.78: it stays higher": named in a clause before
            subject = _subject(low, [m for m in seen_all if m[0] < at], at + start, at + end,
                               False)
        if subject is None:
            continue
        other = names[1] if subject == names[0] else names[0]
        decided.append((weight, (subject, other) if direction > 0 else (other, subject)))
    if decided:
        best = max(weight for weight, _ in decided)
        top = [found for weight, found in decided if weight == best]
        # of several main clauses, the last: "..., but the gap closes, so they are the same";
        # of plain ones, the first (a later one often names its model loosely)
        return top[-1] if best == 2 else top[0]
    named = {name for _pos, name in seen_all}
    if not directional and _EQUAL_WEAK.search(low) and (len(named) == 2 or _BOTH.search(low)):
        return "", ""
    return None
