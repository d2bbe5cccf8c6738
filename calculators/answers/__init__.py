"""Read, check and lint students' numeric answers about Transformers.

    parse_answer("≈ 25.77 GB")          -> ParsedAnswer (exact value, unit, precision written)
    check_answer("24 GB", memory)       -> Verdict (correct / close / convention / wrong / unreadable)
    extract_answers(report, questions)  -> the final answer of each question's section
    lint_arithmetic(report)             -> written equations whose arithmetic is wrong
    read_document(path)                 -> Document: a .pdf / .docx / .md / .txt report as text
                                           (# headings, **bold**, | table | rows |, reader, pages)

Student text is never evaluated: a small tokenizer and parser build sympy values
from an allow-list, under hard limits (see ``_limits``). No dependency on ``grader``.
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
from calculators.answers.reading import Document, read_document
from calculators.answers.report import (
    Candidate,
    Extracted,
    QuestionSpec,
    Report,
    ReportReadError,
    extract_answers,
    read_report,
)

__all__ = [
    "VERDICTS",
    "Alternative",
    "Candidate",
    "Document",
    "Extracted",
    "ParsedAnswer",
    "QuestionSpec",
    "Report",
    "ReportReadError",
    "Slip",
    "Tolerance",
    "Verdict",
    "check_answer",
    "equivalent",
    "extract_answers",
    "lint_arithmetic",
    "parse_answer",
    "read_document",
    "read_report",
]
