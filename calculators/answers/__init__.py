"""Read, check and lint students' numeric answers about Transformers.

    parse_answer("≈ 25.77 GB")          -> ParsedAnswer (exact value, unit, precision written)
    check_answer("24 GB", memory)       -> Verdict (correct / close / convention / wrong / unreadable)
    lint_arithmetic(text)               -> written equations whose arithmetic is wrong

Student text is never evaluated: a small tokenizer and parser build sympy values
from an allow-list, under hard limits (see ``_limits``). No dependency on ``grader``.
Reading a student's report (PDF, Word, Markdown) and finding each question's answer in
it is grading, not Transformer arithmetic: it lives in ``grader.written``
(``read_document``, ``extract_answers``), which calls these functions.
"""

from calculators.answers.compare import (
    VERDICTS,
    Alternative,
    Tolerance,
    Verdict,
    check_answer,
    equivalent,
)
from calculators.answers.lint import Slip, lint_arithmetic
from calculators.answers.parse import ParsedAnswer, parse_answer

__all__ = [
    "VERDICTS",
    "Alternative",
    "ParsedAnswer",
    "Slip",
    "Tolerance",
    "Verdict",
    "check_answer",
    "equivalent",
    "lint_arithmetic",
    "parse_answer",
]
