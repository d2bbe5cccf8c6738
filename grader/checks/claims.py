"""The `series` check kind: curves a notebook printed, and what the student says of them.

Lab A's Q4 asks for the validation accuracy of a pre-trained and a from-scratch model
over epochs, and an interpretation. A grader that takes the interpretation on trust
passes "pre-training helps" under curves that show the opposite. So the curves are
read from the notebook's printed lines (one value per series per line, after the
series' name), plotted in the report, and the student's comparison (a sentence of the
report's section or of a tagged cell: "the pre-trained model reaches a higher
accuracy") is held against them.

Without a notebook there are no curves to hold the claim against: the question goes
to a TA (status `manual`) with the report's section quoted and the claim found in it.

Rubric keys: `cell_tag` (where the series are printed), `metric` (a word every line
with values contains, e.g. "val"), `series` (name -> the words that name it in prints
and prose), `fallback` (name -> words that name it unless in one phrase with another
series' word: "fine-tuned" is the pre-trained model in lab A, "fine-tuned from scratch"
is not),
`min_points` (epochs needed per series), `claim_from` (report headings), `margin` (a
mean difference below it is "no clear winner").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, cast

from pydantic import Field

from grader.checks import CheckResult
from grader.checks.comparatives import compare, turns
from grader.checks.kind import Context, Kind, Settings
from grader.checks.manual import QUOTE_CHARS, others_of, quote_section
from grader.checks.patterns import NUMBER
from grader.checks.seedclaims import Families
from grader.pack import Check, Question

SENTENCE = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][*_])|(?<=[.!?][*_]{2}))\s+|\n{2,}")
"""Where a sentence ends: after its stop, or after the emphasis closing on it ("**Which is
ahead?** The pre-trained model is better", a board's bold question over its answer)."""


def _aliases(raw: dict[str, list[str]]) -> dict[str, list[str]]:
    return {str(name): [str(w).lower() for w in (words or [name])] for name, words in raw.items()}


def parse_named_series(text: str, aliases: dict[str, list[str]], metric: str = ""
                       ) -> dict[str, list[float]]:
    """Per series, the number that follows its name on each printed line (as fractions)."""
    out: dict[str, list[float]] = {name: [] for name in aliases}
    for line in text.splitlines():
        low = line.lower()
        if metric and metric.lower() not in low:
            continue
        hits = sorted((low.find(w), name) for name, words in aliases.items() for w in words
                      if w in low)
        starts: dict[str, int] = {}
        for pos, name in hits:
            starts.setdefault(name, pos)  # the first mention of each series on the line
        order = sorted((pos, name) for name, pos in starts.items())
        for i, (pos, name) in enumerate(order):
            end = order[i + 1][0] if i + 1 < len(order) else len(line)
            match = NUMBER.search(line, pos, end)
            if match is None:
                continue
            value = float(match.group(1))
            if match.group(2) or value > 1:
                value /= 100
            if 0 <= value <= 1:
                out[name].append(round(value, 6))
    return out


COMMENT = re.compile(r"^[ \t]*(?:#+|//)(?:[ \t]|$)")


def uncomment(text: str) -> str:
    """A block of code comments read as the prose it is: the answer written in a script's
    comments ("# Interpretation: the pre-trained model starts ahead, but the model trained
    from scratch" / "# ends slightly higher …") wraps its sentences over lines, and a line
    break is a clause's end to ``compare``, so the "but" clause lost its model. Runs of
    two or more comment lines are joined into one paragraph, their markers dropped; a
    blank comment line ends a paragraph. A lone "# Heading" line is left as it is."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and COMMENT.match(lines[j]):
            j += 1
        if j - i < 2:
            out.append(lines[i])
            i += 1
            continue
        words = [COMMENT.sub("", line).strip() for line in lines[i:j]]
        out.append("\n\n".join(" ".join(p.split()) for p in "\n".join(words).split("\n\n")))
        i = j
    return "\n".join(out)


WRAPPED = re.compile(r"(?<=[^\W\d_,])[ \t]*\n[ \t]*(?=[^\W\d_A-Z])")


def unwrap(text: str) -> str:
    """Lines of a hard-wrapped paragraph (a plain-text report, a script's comments) joined
    where the next line goes on in lower case ("… but the model trained from scratch" /
    "ends slightly higher …"): a line break ends a clause for ``compare``, and a sentence
    cut there loses the model of its last clause. A line that opens with a capital, a
    digit or a list mark (a table's row, an item) still ends the one before."""
    return WRAPPED.sub(" ", text)


def _rows_apart(text: str) -> str:
    """A table's rows set apart from the prose, each a paragraph of its own: a PDF's text
    has no blank lines, and a section's intro ("…, same seed):"), its table ("|
    pre-trained | 0.781 | …", "| from scratch | …") and its caption read as one sentence
    that names both models and says "same", a tie nobody wrote."""
    out: list[str] = []
    for line in text.split("\n"):
        if line.lstrip().startswith("|"):
            out.extend(["", line, ""])
        else:
            out.append(line)
    return "\n".join(out)


def find_claim(text: str, aliases: dict[str, list[str]],
               fallback: dict[str, list[str]] | None = None) -> tuple[str, str, str] | None:
    """(better, worse, sentence) for the first sentence that ranks one series above the
    other, read by ``comparatives.compare`` from the direction of its comparison word
    ("A is better than B", "B lags behind A", "B is outperformed by A", "A has a lower
    loss"). A sentence that calls them the same ("both reach the same accuracy", "no
    clear winner") gives ("", "", sentence)."""
    names = list(aliases)
    if len(names) != 2:
        return None
    families = Families(aliases, fallback or {})
    sentences = SENTENCE.split(unwrap(_rows_apart(uncomment(text))))
    for k, sentence in enumerate(sentences):
        if sentence.rstrip(" *_\n").endswith(("?", "？")):
            continue  # "**Which is ahead?**": a question asks, the answer after it claims
        found = compare(sentence, names, families.mentions)
        if found is None:
            continue
        # "A is higher in the first epochs. But at the end both are almost the same.":
        # the next sentence, turning on the first, says how the student concludes
        for later in sentences[k + 1:k + 1 + TURN_SENTENCES]:
            turned = compare(later, names, families.mentions) if turns(later) else None
            if turned is not None:
                found, sentence = turned, later
                break
        return found[0], found[1], " ".join(sentence.split())[:300]
    return None


TURN_SENTENCES = 2
"""How many sentences after a claim may turn it ("But at the end …")."""


def check_series(check: Check, notebook: Any, claim_text: str, quote: str = "") -> CheckResult:
    """Score the printed curves and the claim about them; evidence plots the curves.
    Without a notebook a TA scores it: `quote` (the report's section) goes on the sheet."""
    s = cast(SeriesSettings, check.settings)
    aliases = _aliases(s.series)
    fallback = _aliases(s.fallback)
    if notebook is None:
        claim = find_claim(claim_text, aliases, fallback)
        found: dict[str, Any] = {"claim": {"better": claim[0] or None,
                                           "worse": claim[1] or None,
                                           "sentence": claim[2]}} if claim else {}
        if quote:
            found["answer_text"] = quote[:QUOTE_CHARS]
        return CheckResult("series", 0.0, "manual",
                           "The curves come from the notebook's printed lines and no notebook "
                           "was handed in: a TA reads the report's figure"
                           + (f" against the claim \"{claim[2]}\"." if claim else "."), found)
    tag = s.cell_tag
    text = "\n".join(
        "".join(o.get("text", "") for o in cell.get("outputs", [])
                if o.get("output_type") == "stream")
        for cell in notebook.cells
        if cell.cell_type == "code" and (tag is None or tag in cell.metadata.get("tags", [])))
    series = parse_named_series(text, aliases, s.metric)
    need = s.min_points
    found = [name for name, values in series.items() if len(values) >= need]
    evidence: dict[str, Any] = {"models": [{"name": s.title,
                                            "reported": series}]}
    fraction = 0.5 * len(found) / max(1, len(series))
    problems = [f"no {name} series of {need}+ values was printed" for name in series
                if name not in found]
    if len(found) < len(series) or len(series) != 2:
        return CheckResult("series", fraction, "partial" if fraction else "failed",
                           "; ".join(problems) + ".", evidence)
    means = {name: sum(v) / len(v) for name, v in series.items()}
    (a, b) = list(series)
    margin = s.margin
    data_better = None if abs(means[a] - means[b]) < margin else (a if means[a] > means[b] else b)
    claim = find_claim(claim_text, aliases, fallback)
    evidence["means"] = {k: round(v, 4) for k, v in means.items()}
    evidence["data_better"] = data_better
    if claim is None:
        message = ("Both curves were printed, but no sentence comparing them was found "
                   "in your interpretation.")
        return CheckResult("series", fraction + 0.25, "partial", message, evidence)
    better, worse, sentence = claim
    evidence["claim"] = {"better": better or None, "worse": worse or None, "sentence": sentence}
    if not better:  # "they do the same"
        if data_better is None:
            return CheckResult("series", 1.0, "passed",
                               "Both curves were printed, and your reading (no clear winner) "
                               "agrees with them.", evidence)
        return CheckResult("series", fraction + 0.25, "partial",
                           f"You read the curves as the same, but {data_better} is ahead by "
                           f"{abs(means[a] - means[b]):.1%} on average.", evidence)
    if data_better is None:
        return CheckResult("series", fraction + 0.25, "partial",
                           f"You say {better} does better than {worse}, but the printed "
                           f"curves are within {margin:.0%} of each other on average.", evidence)
    if better == data_better:
        return CheckResult("series", 1.0, "passed",
                           f"Both curves were printed, and your comparison ({better} above "
                           f"{worse}) agrees with them.", evidence)
    return CheckResult("series", fraction, "partial",
                       f"You say {better} does better than {worse}, but your printed curves "
                       f"show the opposite ({means[data_better]:.1%} against "
                       f"{means[better]:.1%} on average).", evidence)


@dataclass(frozen=True)
class Source:
    """Text a student interprets results in, and where it is: a report section (its
    first line in the report as handed in) or a tagged notebook cell."""

    text: str
    where: str  # "report.md" or "notebook cell 4"
    first_line: int = 1
    lines_mean_something: bool = True
    """False for text pulled from a PDF or DOCX: its line numbers are the reader's."""

    def at(self, line: int) -> str:
        """Where a line of this text is, for a message ("report.md line 42")."""
        if not self.lines_mean_something:
            return self.where
        return f"{self.where} line {self.first_line + line - 1}"


def claim_sources(check: Check, question: Question, ctx: Context) -> list[Source]:
    """Where a student interprets curves or figures: markdown cells tagged with the
    question (`claim_tag`), and the report's section under the `claim_from` headings,
    ended where another of the pack's sections opens."""
    tag = str(getattr(check.settings, "claim_tag", None) or question.id)
    out = [Source(c.source, f"notebook cell {i + 1}")
           for i, c in enumerate(ctx.notebook.cells if ctx.notebook is not None else [])
           if c.cell_type == "markdown" and tag in c.metadata.get("tags", [])]
    headings = getattr(check.settings, "claim_from", None) or []
    quoted = quote_section(ctx.reports, headings, others_of(ctx.pack, headings))
    if quoted is not None:
        out.append(Source(quoted.text, quoted.name, quoted.first_line,
                          quoted.format in ("markdown", "text")))
    return out


def claim_text(check: Check, question: Question, ctx: Context) -> str:
    """The tagged cells and the report section, one after the other."""
    return "\n\n".join(s.text for s in claim_sources(check, question, ctx))


def report_quote(sources: list[Source]) -> str:
    """The report's section (what a TA reads), else the tagged cells."""
    reports = [s.text for s in sources if not s.where.startswith("notebook cell")]
    return "\n\n".join(reports or [s.text for s in sources])


class SeriesSettings(Settings):
    series: dict[str, list[str]] = Field(min_length=1)
    """Series name -> the words that name it in printed lines and prose."""
    cell_tag: str | None = None
    metric: str = ""
    min_points: int = Field(2, ge=1)
    margin: float = Field(0.01, ge=0)
    title: str = "per epoch"
    claim_tag: str | None = None
    claim_from: list[str] = []
    fallback: dict[str, list[str]] = {}
    """Series name -> words naming it only where no `series` word is said."""


class Series(Kind):
    name = "series"
    evidence_doc = """the curves read from the report or the notebook's prints, and what they were
                    held against. When it cannot score the submission (no notebook) the check's status is
                    `manual`: `answer_text` quotes the section for the TA sheet; once merged, `comment` and
                    `grader` are added beside what was read."""
    label = "printed curves"
    Settings = SeriesSettings
    template = "finetune"  # printed curves are charted like fine-tuning's

    def score(self, check: Check, question: Question, ctx: Context) -> CheckResult:
        sources = claim_sources(check, question, ctx)
        return check_series(check, ctx.notebook, "\n\n".join(s.text for s in sources),
                            report_quote(sources))

    def explain(self, check: dict[str, Any]) -> dict[str, Any]:
        from grader.checks.registry import kind

        return kind("finetune").explain(check)


KIND = Series()
