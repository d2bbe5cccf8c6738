"""The settings of an `answer` check as a pack writes them (`[[questions.checks]]` with
`kind = "answer"`): the key, where the answer is read, the tolerance, the conventions.

Why a module of its own: these are the pack's words, validated at the edge (a misspelled
key is an error, a key missing outside a public pack too); `answer` grades with them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, ValidationInfo, model_validator

from grader.checks.kind import Settings, Table
from grader.written import DEFAULT_LABEL

SOURCES = ("notebook", "printed", "report")
"""Where an answer may be read, in the default order of `prefer`."""

Fraction = Annotated[float, Field(ge=0, le=1)]


class Expected(Table):
    """An answer key computed at grade time: a calculators call or a reference function."""
    calc: str | None = None
    reference: str | None = None
    args: dict[str, Any] = {}
    field: str | None = None

    @model_validator(mode="after")
    def _one(self) -> Expected:
        if (self.calc is None) == (self.reference is None):
            raise ValueError("needs exactly one of calc or reference")
        return self


KeyValue = Expected | int | float | str


class ToleranceSettings(Table):
    exact: bool = False
    relative: float | None = None
    absolute: float | None = None
    sig_figs: int | None = None
    min_sig_figs: int | None = None
    significant: int | None = None
    close_relative: float | None = None
    close_credit: Fraction | None = None
    convention_credit: Fraction | None = None


class Convention(Table):
    """A recognised way of answering (no biases, per head, ...) and the credit it earns."""

    name: str
    credit: Fraction
    message: str = ""
    expected: KeyValue | None = None


def _require_key(value: Any, info: ValidationInfo) -> None:
    if value is None and not (info.context or {}).get("public"):
        raise ValueError("expected: missing: a {calc = ...} or {reference = ...} table "
                         "(the answer key, computed)")


class SelfCheckPolicy(Table):
    """How the course server (`grader serve`) answers students checking this question.

    `mode`: "verdict" tells right or not right only; "feedback" adds the credit, the
    convention recognised and a message naming only what the student wrote. Attempts
    are counted per client and question, per UTC day, readable answers only;
    `attempts_per_day` unset means the default (10 for a question that carries marks,
    no limit for one that does not), 0 means no limit.
    """

    mode: Literal["verdict", "feedback"] = "verdict"
    attempts_per_day: int | None = Field(None, ge=0, le=100_000)


class AnswerSettings(Settings):
    expected: KeyValue | None = None
    """The key; only a public pack (which never holds it) may leave it out."""
    label: str = DEFAULT_LABEL
    tag: str | None = None
    printed: str | None = None
    printed_tag: str | None = None
    report: list[Annotated[str, Field(min_length=1)]] = []
    report_part: str | None = None
    report_label: list[Annotated[str, Field(min_length=1)]] = []
    """Words that name this answer where one report part holds several (`p(mat)`, `loss`)."""
    prefer: list[Literal["notebook", "printed", "report"]] = Field(
        default_factory=lambda: list(SOURCES), min_length=1)
    unit: str | None = None
    symbols: dict[str, int | float] | None = None
    tolerance: ToleranceSettings | None = None
    rough: bool = False
    """The question asks for a rough figure ("a rough percentage is enough"): the precision
    the student writes is judged (`calculators.answers.Tolerance.rough`)."""
    slip_cost: Fraction = 0.0
    self_check: bool | Literal["off", "verdict", "feedback"] | SelfCheckPolicy = False
    """Whether students may check this question on the course server, and how:
    false/"off", true (the default policy: verdict only, 10 a day, for a question with
    marks), "verdict", "feedback", or {mode = ..., attempts_per_day = N}. A question's
    first answer check that sets it decides for all its answers (docs/answers.md)."""
    conventions: list[Convention] = []

    def key_spec(self, convention: int | None = None) -> Any:
        """`expected` (or that of convention number `convention`) as the rubric wrote it: a
        literal or a `{calc|reference, args, field}` table, the form `resolve` computes
        and the conventions' restating rewrites; None in a public pack."""
        written = self.written()
        if convention is None:
            return written.get("expected")
        return written.get("conventions", [])[convention].get("expected")

    def convention_tables(self) -> list[dict[str, Any]]:
        """The conventions as the rubric wrote them (what restating merges)."""
        return list(self.written().get("conventions", []))

    @model_validator(mode="after")
    def _sources(self, info: ValidationInfo) -> AnswerSettings:
        _require_key(self.expected, info)
        for conv in self.conventions:
            _require_key(conv.expected, info)
        for source in ("printed", "report"):
            if "prefer" in self.model_fields_set and source in self.prefer \
                    and not getattr(self, source):
                raise ValueError(f"{source}: missing: prefer lists {source}")
        return self
