"""Per-seed figures as students write them: (model, seed, best validation, step, test).

Why a reader of its own: lab B's T3/T4 ask, per seed and per model, for the best
validation accuracy, the step it was reached at and the test accuracy at that step.
Students write them as tables (one row per run, or one column per seed), as lists
("- seed 1: val 0.853 @ step 1,200, test 0.841") and as sentences ("for seed 2 the best
validation accuracy is 85.3% at step 1200, which gives 84.1% on the test set"). A reader
that takes the first number after "validation" takes the seed index for the accuracy,
and one that looks for a number after "test" misses a figure written before it. So each
number of a sentence gets a role first (`seedwords`), the figures of a sentence get their
field and are cut into runs (`seedsentences`), and the runs are paired with seeds, saying
when that is not certain (`seedpairing`); tables are read by their headers (`seedtables`),
a dict printed by Python by its keys (`seedprints`), and a run kept as a record of its
own (a JSON object naming its model and seed) by the record's keys (`seedobjects`).
A number with no role is not read: a wrong reading would tell an honest student that
their figures disagree with their logs.

This module walks a text: it cuts it into tables, labels ("Seed 1", "**Pre-trained
model**:") and paragraphs or list items, and carries what a label or heading names (the
model, the seed) to the figures below it. The model is the family the sentence names
first (a pack's `families` words; its `fallback` words, e.g. "fine-tuned", unless in one
phrase with another family's word: "fine-tuned from scratch"), else the one named by the
heading or label line above. Sentences about averages are not per-seed claims. Every
claim keeps the line its first figure is on (1-based, counted from `first_line`).

What names the run of the figures may stand before them in three more ways: a parent
list item ("- pre-trained RoBERTa" over "  - seed 1: best val 0.853 …", `_Parents`), a
lead-in paragraph or list item without figures ("I start with the pre-trained model and
seed 1.", `_lead_in`), the name holding until the next one; and a seed in words ("the
second seed"). Sentences about seeds together ("for one seed", "on every seed") take no
seed from before, and a chart's tick labels (lines of numbers only) are no figures.
`parse_claims` and `Families` are what the check kinds import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from calculators.answers._vocabulary import is_approx
from grader.checks.patterns import MAX_LINE
from grader.checks.seedobjects import read_records
from grader.checks.seedpairing import pair
from grader.checks.seedprints import legend, printed_lines, read_printed
from grader.checks.seedrecords import Claim, Claims
from grader.checks.seedsentences import (
    Figure,
    counts_only,
    name_runs,
    read_sentence,
    records,
    respectively,
)
from grader.checks.seedtables import (
    DASHES,
    caption,
    is_rule,
    is_table_line,
    plain_header,
    read_plain_row,
    read_plain_rows,
    read_table,
    row_cells,
    table_end,
)
from grader.checks.seedwords import AVERAGE, GENERIC_SEED, SEED, Families, read_numbers

__all__ = ["Claim", "Families", "parse_claims"]

SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z(*_])")
HEADING = re.compile(r"^\s*(?:#{1,6}\s+|\*\*[^*]+\*\*\s*:?\s*$|__[^_]+__\s*:?\s*$)")
LIST_ITEM = re.compile(r"^\s*(?:(?:[-*+•]|\d+[.)]|\([a-z0-9]+\))\s+|\d+[)）](?=[^\W\d_]))")
"""A list item's mark: a bullet, "1.", "1)" or "(a)" and a space; or a number and a
bracket glued to the item's first word, as a list numbered by hand with a Chinese IME's
full-width bracket is written ("1）Pre-trained, seed 1: …", read as "1)Pre-trained"):
else the number is read as a figure of the line above ("… at that step:" / "1)…" is
step 1)."""
LABEL_CHARS = 60


@dataclass
class _Unit:
    """A paragraph or list item joined into one string, with the line of each offset."""

    text: str
    starts: list[tuple[int, int]]  # (offset, line number)

    def line_at(self, offset: int) -> int:
        line = self.starts[0][1]
        for start, number in self.starts:
            if start > offset:
                break
            line = number
        return line


class _Reader(Claims):
    """The claims of one text, and what the label line above the current paragraph
    names: its seed, and whether its body is a list or prose."""

    def __init__(self, families: Families) -> None:
        super().__init__(families)
        self.label_seed: int | None = None
        self.label_body: str | None = None  # "list" or "prose": what follows the label

    def unit(self, unit: _Unit, open_claims: dict[Any, Claim]) -> bool:
        """Read one paragraph; True when it held a figure."""
        seed: int | None = self.label_seed
        family_here: str | None = None
        found = False
        sentences = _sentences(unit.text)
        for j, (sentence, offset) in enumerate(sentences):
            then = _seeds_alone(sentences[j + 1][0]) if j + 1 < len(sentences) else []
            if AVERAGE.search(sentence) or _rounded_summary(sentence):
                continue
            for segment, seg_offset, family in self._segments(sentence):
                family_here = family or family_here
                fam = family_here or self.family
                listed = respectively(segment)
                if listed:  # "0.853, 0.851 and 0.861 for seeds 1, 2 and 3"
                    for o, key, run_seed, value in listed:
                        found = True
                        self.add(run_seed, fam, unit.line_at(offset + seg_offset + o),
                                 sentence, key, value, open_claims)
                    continue
                accs, steps, seeds = read_sentence(segment)
                if counts_only(segment):
                    continue  # "… in 2000 steps": how long training ran, no run's step
                figures: list[Figure] = sorted(
                    [(o, {"val": "best_validation", "test": "test"}.get(str(r)), v)
                     for o, r, v in accs] + [(o, "step", st) for o, st in steps],
                    key=lambda f: f[0])
                runs = records(figures)
                # "after 2,000 steps for one seed", "better on every seed": not the seed
                # named before
                generic = not seeds and GENERIC_SEED.search(segment) is not None
                carried, after = (None, []) if generic else (seed, then)
                pairing = pair(runs, seeds, carried, after)
                candidates = tuple(dict.fromkeys(
                    [n for _, n in seeds] + ([carried] if carried is not None else []) + after))
                for run_seed, named in zip(pairing.seeds, name_runs(runs), strict=True):
                    # an uncertain run is a claim of its own, never merged with another
                    target = open_claims if pairing.certain else {}
                    for o, key, value in named:
                        found = True
                        here = offset + seg_offset + o
                        claim = self.add(run_seed, fam, unit.line_at(here), sentence, key,
                                         value, target)
                        if claim is not None and not pairing.certain:
                            claim.candidates, claim.why = candidates, pairing.why
                if seeds:
                    seed = seeds[-1][1]
                elif generic:
                    # "… better on all seeds …; scratch still rising at step 2000": the
                    # sentence has left the seed named before, for its later pieces too
                    seed = None
        return found

    def _segments(self, sentence: str) -> list[tuple[str, int, str | None]]:
        """The sentence cut where it turns to another model ("…, while the model trained
        from scratch peaks at 0.64…"), each piece with the family it names."""
        mentions = self.families.mentions(sentence)
        cuts: list[tuple[int, str]] = []
        for pos, name in mentions:
            if not cuts or cuts[-1][1] != name:
                cuts.append((pos, name))
        if len(cuts) < 2:
            return [(sentence, 0, cuts[0][1] if cuts else None)]
        pieces = [(sentence[:cuts[1][0]], 0, cuts[0][1])]
        for i in range(1, len(cuts)):
            end = cuts[i + 1][0] if i + 1 < len(cuts) else len(sentence)
            pieces.append((sentence[cuts[i][0]:end], cuts[i][0], cuts[i][1]))
        return pieces


FIGURE_ENDS = (*"0123456789", ")", "%")
"""The last characters of a line that ends on a figure ("test 0,707", "(step 1600)")."""
ROUNDING_SIGNS = ("±", "≈", "~")
"""The signs a student writes before a figure rounded for a summary ("test ±0,84 vs
±0,70"); the words ("about", "etwa", "sekitar", "около") are the answer parser's
(``calculators.answers._vocabulary.is_approx``). A run's figure is copied from its log,
not rounded."""


def _rounded(before: str) -> bool:
    """Whether the text before a figure ends with a sign or word that rounds it."""
    before = before.rstrip()
    if before.endswith(ROUNDING_SIGNS):
        return True
    words = before.split()
    return bool(words) and is_approx(words[-1].rstrip("."))


def _rounded_summary(sentence: str) -> bool:
    """Whether a sentence's accuracies are all written as rounded and it names no seed:
    a comparison of the models' typical figures, no run's claim to check."""
    numbers = read_numbers(sentence)
    accs = [n for n in numbers if n.role == "acc"]
    if not accs or any(n.role in ("seed", "seeds", "step") for n in numbers):
        return False
    return all(_rounded(sentence[:n.start]) for n in accs)


def _sentences(text: str) -> list[tuple[str, int]]:
    out, start = [], 0
    for m in SENTENCE.finditer(text):
        out.append((text[start:m.start()], start))
        start = m.end()
    out.append((text[start:], start))
    return out


def _seeds_alone(sentence: str) -> list[int]:
    """The seeds a sentence names when it gives no figure ("That was seed 2."), else []."""
    accs, steps, seeds = read_sentence(sentence)
    return [] if accs or steps else [n for _, n in seeds]


def _lead_in(text: str, families: Families) -> tuple[str | None, int | None] | None:
    """(model, seed) a paragraph without figures names, one of each at most, for the
    figures of the paragraphs after it ("I start with the pre-trained model and seed 1.",
    "Seed 2 was the slowest of all the runs.", "The randomly initialised model is much
    weaker."); None when it names neither, or names two models or two seeds."""
    accs, steps, seeds = read_sentence(text)
    if accs or steps:
        return None
    named = {n for _, n in seeds}
    models = {name for _, name in families.mentions(text)}
    if len(named) > 1 or len(models) > 1 or not (named or models):
        return None
    return (next(iter(models), None), next(iter(named), None))


def _caption_family(title: str, families: Families) -> str | None:
    """The model a table's caption names, or None where it names two: a PDF may join the
    caption to the paragraph after it ("Table 1: Best validation accuracy per seed. The
    pre-trained encoder reaches 0.851–0.861 … from scratch"), and the first model of that
    prose is no model of the table's rows."""
    named = {name for _, name in families.mentions(title)}
    return named.pop() if len(named) == 1 else None


def _bare(line: str) -> bool:
    """A line of numbers only (a chart's axis or data labels), no word and no list item."""
    text = line.strip()
    return (bool(text) and not LIST_ITEM.match(line) and any(c.isdigit() for c in text)
            and all(c.isdigit() or c in " .,%|-" for c in text))


def _is_label(line: str) -> bool:
    """A heading, or a short line naming what follows ("Pre-trained model:", "Seed 1")."""
    if HEADING.match(line):
        return True
    stripped = LIST_ITEM.sub("", line).strip()
    return (len(stripped) <= LABEL_CHARS and not any(
        n.role in ("acc", "step") for n in read_numbers(stripped))
        and (stripped.endswith(":") or bool(re.fullmatch(r"[*_]*seed\s*\d+[*_:.]*", stripped,
                                                          re.IGNORECASE))))


class _Parents:
    """The list items open above the current line, each with its indent and the model and
    seed it names: a nested item's figures are of the model and seed its parents name
    ("- pre-trained RoBERTa" over "  - seed 1: best val 0.853 at step 1200, test 0.841"),
    unless it names its own. A line out of the list (no deeper than its first item, not
    an item) closes them all."""

    def __init__(self, families: Families) -> None:
        self.families = families
        self.open: list[tuple[int, str | None, int | None]] = []

    def enter(self, line: str) -> tuple[str | None, int | None]:
        """Open the item of ``line``; the (model, seed) its parents name."""
        indent = _indent(line)
        while self.open and self.open[-1][0] >= indent:
            self.open.pop()
        family = next((f for _, f, _ in reversed(self.open) if f), None)
        seed = next((n for _, _, n in reversed(self.open) if n is not None), None)
        text = LIST_ITEM.sub("", line)
        named = SEED.search(text)
        self.open.append((indent, self.families.first(text),
                          int(named.group("n")) if named else None))
        return family, seed

    def end_at(self, line: str) -> bool:
        """Close the items when ``line`` (not an item) is out of the list: no deeper than
        its first item and not carrying on its sentence (a lower-case word or a number
        goes on a wrapped item: "- seed 1: best val 0.853 at step" / "1200, test 0.841").
        True when it closed them (the last item's paragraph ends there)."""
        text = line.strip()
        if not (self.open and text and _indent(line) <= self.open[0][0]):
            return False
        if text[0].islower() or text[0].isdigit():
            return False
        self.open.clear()
        return True

    def clear(self) -> None:
        self.open.clear()


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def _wrapped_first_cells(raw: list[str]) -> list[str]:
    """The lines with a table's first cell that wrapped put back in its row: a PDF row
    whose model cell wraps ("Fra bunnen" / "av", its figures set between the two lines)
    is read as a line of words between the table's rows, then the row with the cell's
    last word. The words go into that row's first cell and their line becomes an empty
    rule row, so the table stays one and every line keeps its number."""
    out = list(raw)
    for i in range(1, len(raw) - 1):
        line = raw[i].strip()
        if (not line or is_table_line(raw[i]) or any(ch.isdigit() for ch in line)
                or len(line) > 40 or not is_table_line(raw[i - 1])
                or not is_table_line(raw[i + 1])):
            continue
        cells, after = row_cells(out[i - 1]), row_cells(raw[i + 1])
        if len(cells) != len(after) or not after[0] or not after[0][:1].islower():
            continue
        after[0] = f"{line} {after[0]}"
        out[i], out[i + 1] = "| --- |", "| " + " | ".join(after) + " |"
    return out


def _prose_cells(reader: _Reader, block: list[tuple[int, list[str]]]) -> None:
    """The runs of a table read as no table of figures, where a cell says them as prose:
    a report laid out as one "| Question | Answer |" table (a Word answer sheet) puts all
    of T3 in one cell, its runs one after another ("pre-trained, seed 1: best val 0.853
    at step 1200, test 0.841 pre-trained, seed 2: …"). Such a cell is a paragraph of its
    own, on its row's line. Only a cell that names a seed itself is read: a figure of a
    cell without one would take the seed of whatever was read last."""
    for number, cells in block:
        for cell in cells:
            if SEED.search(cell) and len(cell) > LABEL_CHARS:
                reader.unit(_Unit(cell, [(0, number)]), {})


def parse_claims(text: str, families: Families | dict[str, list[str]],
                 first_line: int = 1) -> list[dict[str, Any]]:
    """Every per-seed claim of `text` (tables, lists, sentences), as dicts with `line`
    counted from `first_line` (the text's first line in the report as handed in)."""
    fams = families if isinstance(families, Families) else Families(families)
    fams = fams.with_abbreviations(text)
    reader = _Reader(fams)
    raw = _wrapped_first_cells([line[:MAX_LINE] for line in text.splitlines()])
    i = 0
    open_claims: dict[Any, Claim] = {}
    unit_lines: list[tuple[int, str]] = []
    parents = _Parents(fams)
    unit_context: tuple[str | None, int | None] = (None, None)
    printed = printed_lines(raw)  # a pasted dict's entries: read apart, by their keys
    if printed:
        read_printed(reader, raw, first_line, legend(text))
    # a run's record ({"model": …, "seed": 1, "best_val_acc": …}): read apart, by its keys
    printed |= read_records(reader, "\n".join(raw), first_line, printed)

    def flush() -> None:
        nonlocal unit_lines, unit_context
        if not unit_lines:
            return
        starts, parts, at = [], [], 0
        for number, part in unit_lines:
            text = part.strip()
            if parts and parts[-1].endswith(FIGURE_ENDS) and text[:1].isupper():
                # "… test 0,707" | "The pre-trained model is much better …": a line that
                # ends on a figure and one that opens a sentence are two sentences
                parts[-1] += "."
                at += 1
            starts.append((at, number))
            parts.append(text)
            at += len(text) + 1
        # a label's body is a list or a paragraph: prose after its list, or a paragraph
        # without figures, is no longer about the label's seed
        body = "list" if LIST_ITEM.match(unit_lines[0][1]) else "prose"
        if reader.label_body not in (None, body):
            reader.label_seed = None
        reader.label_body = reader.label_body or body
        kept = reader.family, reader.label_seed
        family, seed = unit_context
        reader.family = family or reader.family  # a nested item's model and seed: its parents'
        reader.label_seed = seed if seed is not None else reader.label_seed
        held = reader.unit(_Unit(" ".join(parts), starts), open_claims)
        reader.family, reader.label_seed = kept
        if not held and body == "prose":
            reader.label_seed = None
        if not held:
            # "I start with the pre-trained model and seed 1.", a list item "- pre-trained
            # RoBERTa" over its seeds' items (nested, or flat as a DOCX list is read)
            lead = _lead_in(" ".join(parts), fams)
            if lead is not None:
                family, seed = lead
                reader.family = family or reader.family
                reader.label_seed, reader.label_body = seed, None
                open_claims.clear()
        unit_lines, unit_context = [], (None, None)

    while i < len(raw):
        line, number = raw[i], first_line + i
        end = table_end(raw, i)
        if end > i:
            flush()
            parents.clear()
            block = [(first_line + k, row_cells(raw[k])) for k in range(i, end)
                     if not is_rule(raw[k])]
            start, i = i, end
            above = reader.family
            title = caption(raw, start, -1) or caption(raw, i - 1, 1)
            reader.family = (_caption_family(title, fams) if title else None) or above
            before = len(reader.claims)
            read_table(reader, block, reader.label_seed)
            if not any(c.has() for c in reader.claims[before:]):
                _prose_cells(reader, block)
            reader.family = above
            # a label's body is the table: prose after it is no longer about its seed
            reader.label_body = reader.label_body or "table"
            continue
        fields = plain_header(line)
        row = i + 1  # the first row, under the header or under its rule of dashes
        if row < len(raw) and DASHES.match(raw[row]):
            row += 1
        if fields and row < len(raw) and read_plain_row(reader, first_line + row, raw[row],
                                                        fields):
            flush()
            parents.clear()
            rest = ((first_line + k, raw[k]) for k in range(row + 1, len(raw)))
            i = row + 1 + read_plain_rows(reader, rest, fields, fams.first(raw[row]))
            continue
        i += 1
        if not line.strip() or i - 1 in printed:
            flush()
            continue
        if _bare(line) and ((i < len(raw) and _bare(raw[i])) or (i >= 2 and _bare(raw[i - 2]))):
            flush()  # a chart's tick labels ("0.86" / "0.84" / "0.82"): no sentence's figures
            continue
        item = LIST_ITEM.match(line) is not None
        if not item and parents.end_at(line):
            flush()  # "[14:18] TA: And the comparison?" after the list is no part of its item
        if _is_label(line):
            flush()
            if item:
                parents.enter(line)
            else:
                parents.clear()
            open_claims = {}
            label = LIST_ITEM.sub("", re.sub(r"^\s*#+\s*", "", line))
            heading = re.match(r"\s*#", line) is not None
            reader.family = fams.first(label) or (None if heading else reader.family)
            reader.label_body = None
            seed = SEED.search(label)
            reader.label_seed = int(seed.group("n")) if seed else None
            continue
        if item:
            flush()
            unit_context = parents.enter(line)
        unit_lines.append((number, line))
    flush()
    return _without_restatements([c.to_dict() for c in reader.claims if c.has()])


FIGURES = ("best_validation", "step", "test")


def _without_restatements(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The claims less those that say again what an earlier claim of the same model and
    seed said, figure for figure (the table's row, then "(seed 2 peaks at the very last
    step 2000)" in the prose under it): a restatement is no second run."""
    out: list[dict[str, Any]] = []
    for claim in claims:
        said = {k: claim[k] for k in FIGURES if k in claim}
        if said and any(c["family"] == claim["family"] and c["seed"] == claim["seed"]
                        and all(c.get(k) == v for k, v in said.items()) for c in out):
            continue
        out.append(claim)
    return out
