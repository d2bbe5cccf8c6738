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

Students write the claim in their report's language, so each of these word classes is a
vocabulary per language (``comparative_words.LANGUAGES``: Arabic, Chinese, Dutch, French, German, Hindi,
Indonesian, Italian, Japanese, Korean, Polish, Portuguese, Russian, Spanish, Turkish,
Vietnamese), joined into the same patterns as the
English words: "лучше"/"хуже", "أفضل"/"أسوأ", "besser als", "meilleur que", "更好"/"不如",
"より高い", "보다 더 좋다", "daha iyi". Where a language marks the model compared with
after its name (Japanese "より", Korean "보다", Turkish "-den daha"), that model is the
object as "than X" is. A sentence is folded first (NFKC, lower case, Arabic without its
short vowels and with one alef), so a PDF's presentation forms and a student's vowel
marks are the same word.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from grader.checks.comparative_words import LANGUAGES

Mentions = Callable[[str], list[tuple[int, str]]]
"""(offset, series) of each model named in a lower-cased text, in order."""


_SPACED = re.compile(r"[a-zà-ɏͰ-ӿḀ-ỿ]")
"""A letter of a script that spaces its words (Latin, Greek, Cyrillic): there a word of
the vocabulary must stand alone; Arabic takes its prefixes (و, ال) on the word, and
Chinese and Japanese put no space between words."""
_ARABIC_PREFIX = r"(?<![^\W\d_])(?:و|ف|ب|ك|ل|ال|وال|بال|لل)?"


def _bounded(word: str) -> str:
    if _SPACED.match(word):
        return rf"(?<![^\W\d_]){word}(?![^\W\d_])"
    if "\u0600" <= word[0] <= "\u06ff":
        return _ARABIC_PREFIX + word
    if "\u0900" <= word[0] <= "\u097f":  # Devanagari: its vowel signs are no \w
        return rf"(?<![\u0900-\u097f]){word}(?![\u0900-\u097f])"
    return word


def _alternatives(field: str, bounded: bool = True) -> str:
    words = [w for lang in LANGUAGES.values() for w in getattr(lang, field)]
    return "|".join(_bounded(w) if bounded else w for w in words)


def fold(text: str) -> str:
    """A sentence as the vocabulary is written: NFKC (a PDF's Arabic presentation forms,
    full-width punctuation), lower case, Arabic without its vowel marks and tatweel, and
    its alef with hamza or madda as a bare alef."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub("[\u0610-\u061a\u064b-\u065f\u0670\u0640]", "", text)
    return re.sub("[\u0622\u0623\u0625]", "\u0627", text)


_OTHER_BETTER = re.compile(_alternatives("better") + "|" + _alternatives("higher"))
_OTHER_WORSE = re.compile(_alternatives("worse") + "|" + _alternatives("lower"))
_OTHER_PASSIVE = re.compile(_alternatives("passive"))
_OTHER_QUANTITY = re.compile(_alternatives("higher") + "|" + _alternatives("lower"))
_OTHER_METRIC = "|".join(_bounded(w) for lang in LANGUAGES.values() for w in lang.metric)


def _just_before(field: str) -> re.Pattern[str]:
    """A word of ``field`` ending a text: a spaced or Arabic word with up to two words
    after it ("que le modèle", "чем модель"), a Chinese one right before ("比从头")."""
    words = [w for lang in LANGUAGES.values() for w in getattr(lang, field)]
    spaced = [_bounded(w) for w in words if _SPACED.match(w) or "\u0600" <= w[0] <= "\u06ff"]
    joined = [w for w in words if not (_SPACED.match(w) or "\u0600" <= w[0] <= "\u06ff")]
    parts = ([r"(?:" + "|".join(spaced) + r")\s+(?:[\w'’-]+\s+){0,2}$"] if spaced else []) + (
        [r"(?:" + "|".join(joined) + r")\s*$"] if joined else [])
    return re.compile("|".join(parts) or r"(?!)")


_OTHER_NEGATION = _just_before("negation")
_OTHER_NEGATION_AFTER = re.compile(r"^\s*(?:" + _alternatives("negation_after", False) + ")")
_OTHER_THAN = _just_before("than")
_OBJECT_AFTER = re.compile(_alternatives("than_after", False))
"""A postposition after the model compared with: "スクラッチモデルより", "모델보다",
"modelden daha" (Turkish: the ablative ending just before the comparison word)."""
_OTHER_EQUAL = re.compile(_alternatives("equal"))
_OTHER_SIMILAR = re.compile(_alternatives("similar"))
_OTHER_BOTH = re.compile(_alternatives("both"))
_OTHER_BUT = _alternatives("but")
_OTHER_SO = _alternatives("so")
_BUT_AFTER = re.compile(_alternatives("but_after", False) or r"(?!)")
_OTHER_ALTHOUGH = _alternatives("although")
_OTHER_MAIN = re.compile(rf"\W*(?:{_OTHER_BUT}|{_OTHER_SO})")
_OTHER_SUBORDINATE = re.compile(rf"\W*(?:{_OTHER_ALTHOUGH})")
_OTHER_METRIC_AFTER = re.compile(rf"^\W*(?:[\w'’-]+\W+){{0,3}}?(?:{_OTHER_METRIC})|^\W*(?:{_OTHER_METRIC})")
_OTHER_METRIC_BEFORE = re.compile(rf"(?:{_OTHER_METRIC})[^.;:!?。；：]{{0,30}}$")
_CONNECTIVE = re.compile(rf"[,，、]\s*(?=(?:{_OTHER_BUT}|{_OTHER_SO}|{_OTHER_ALTHOUGH}))"
                         rf"|\s(?=(?:{_OTHER_BUT})\s)|[；：]\s*")
"""Where a clause of another language starts: before its "but", "so" or "although" after
a comma, before "but" after a space, after a full-width semicolon or colon."""

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
    r"|become|becomes|became|reach|reaches|reached|get|gets|got|hit|hits|achieve|achieves"
    r"|achieved)\s+(?:up\s+)?(?:\w+\s+)?(?:comparable|similar|equal|level|even"
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
    for pattern, direction in ((_PASSIVE, -1), (_OTHER_PASSIVE, -1), (_BETTER, 1),
                               (_OTHER_BETTER, 1), (_WORSE, -1), (_OTHER_WORSE, -1)):
        m = pattern.search(clause)
        if m is not None:
            found.append((m.start(), m.end(), direction))
    if not found:
        return None
    start, end, direction = min(found, key=lambda f: (f[0], -f[1]))
    before = clause[max(0, start - 40):start]
    if (_NEGATION.search(before) or _OTHER_NEGATION.search(before)
            or _OTHER_NEGATION_AFTER.match(clause, end)):
        direction = -direction  # "does not beat", "is no better than", "良くない"
    word = clause[start:end]
    if _QUANTITY.search(word) or _OTHER_QUANTITY.fullmatch(word):
        after = clause[end:end + 60]
        if (_INVERTED_METRIC.match(after) or _METRIC_BEFORE.search(before)
                or _OTHER_METRIC_AFTER.match(after) or _OTHER_METRIC_BEFORE.search(before)):
            direction = -direction  # "a lower validation loss", "более низкие потери"
    return start, end, direction


def _passive(clause: str, start: int) -> bool:
    return bool(_PASSIVE.match(clause, start) or _OTHER_PASSIVE.match(clause, start))


def _object(clause: str, pos: int, until: int) -> bool:
    """Whether the model named at ``pos`` is the one compared with: after "than",
    "compared with", "чем", "比" (in the 40 characters before it), or before a
    postposition that says so ("より", "보다"), ahead of ``until`` (the next model named
    or the comparison word)."""
    before = clause[max(0, pos - 40):pos]
    return bool(_OBJECT_BEFORE.search(before) or _OTHER_THAN.search(before)
                or _OBJECT_AFTER.search(clause[pos:until]))


def _subject(clause: str, seen: list[tuple[int, str]], start: int, end: int,
             passive: bool) -> str | None:
    before = [(pos, name) for pos, name in seen if pos < start]
    for k in range(len(before) - 1, -1, -1):
        pos, name = before[k]
        until = before[k + 1][0] if k + 1 < len(before) else start
        if not _object(clause, pos, until):
            return name
    after = [(pos, name) for pos, name in seen if pos >= end]
    if passive and after:
        return None  # "is outperformed by X" with no subject before: X is the agent
    for pos, name in after:
        if not (_OBJECT_BEFORE.search(clause[max(end, pos - 40):pos])
                or _OTHER_THAN.search(clause[max(end, pos - 40):pos])):
            return name
    return before[-1][1] if before else (after[0][1] if after else None)


def _clauses(low: str) -> list[tuple[int, str, int]]:
    """(offset, clause, weight) of each clause: one after "but"/"yet"/"however" or a
    conclusion ("so ...", "therefore ...", "overall ...") weighs 2 (the point the sentence
    makes), a subordinate one ("although ...", "while ...") 0."""
    cuts = [0]
    opening = _SUBORDINATE_OPENING.match(low) or _OTHER_SUBORDINATE.match(low)
    if opening:
        comma = min((at for at in (low.find(", ", opening.end()), low.find("，", opening.end()))
                     if at > 0), default=-1)
        if comma > 0:
            cuts.append(comma + (1 if low[comma] == "，" else 2))
    cuts += [m.end() for m in _CLAUSE.finditer(low)]
    cuts += [m.end() for m in _CONNECTIVE.finditer(low)]
    main = {m.end() for m in _BUT_AFTER.finditer(low)}  # "…앞서지만 | 마지막에는 …"
    cuts = sorted(set(cuts) | main)
    out = []
    for k, at in enumerate(cuts):
        piece = low[at:cuts[k + 1] if k + 1 < len(cuts) else len(low)]
        weight = 2 if (at in main or _MAIN.match(piece) or _CONCLUSION.match(piece)
                       or _OTHER_MAIN.match(piece)) else 0 if (
            _SUBORDINATE.match(piece) or _OTHER_SUBORDINATE.match(piece)
            or (opening and k == 0 and len(cuts) > 1)) else 1
        out.append((at, piece, weight))
    return out


def turns(sentence: str) -> bool:
    """Whether a sentence opens on a turn or a conclusion ("But at the end both are
    almost the same", "Overall, …", "Однако …"): it outweighs the sentence before it, as
    such a clause outweighs the clause before it in one sentence."""
    low = fold(sentence)
    return bool(_MAIN.match(low) or _CONCLUSION.match(low) or _OTHER_MAIN.match(low))


def compare(sentence: str, names: list[str], mentions: Mentions) -> tuple[str, str] | None:
    """(better, worse) the sentence says, ("", "") for "no clear winner", else None. Where
    clauses disagree, the weightiest decides ("X improves faster, but Y stays ahead": Y)."""
    low = fold(sentence)
    seen_all = mentions(low)
    if not seen_all and not (_BOTH.search(low) or _OTHER_BOTH.search(low)):
        return None
    directional = False
    decided: list[tuple[int, tuple[str, str]]] = []
    for at, piece, weight in _clauses(low):
        cue = _cue(piece)
        strong = _EQUAL_STRONG.search(piece) or _OTHER_EQUAL.search(piece)
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
        passive = _passive(piece, start)
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
    if (not directional and (_EQUAL_WEAK.search(low) or _OTHER_SIMILAR.search(low))
            and (len(named) == 2 or _BOTH.search(low) or _OTHER_BOTH.search(low))):
        return "", ""
    return None
