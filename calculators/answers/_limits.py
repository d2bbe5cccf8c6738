"""Hard limits on what the answer reader will look at.

Student text is untrusted. Every limit below turns an input that could cost
unbounded time or memory (a megabyte of text, ``9^9^9^9``, ten thousand nested
parentheses) into an ``unreadable`` answer with a reason, before any work that
grows with it is done. They are module constants so that a course can read
them in one place; the docs (docs/answers.md) list the same numbers.
"""

from __future__ import annotations

#: Longest answer text read by ``parse_answer`` (characters).
MAX_ANSWER_CHARS = 2_000
#: Longest line (or joined equation) that ``lint_arithmetic`` looks at.
MAX_LINT_CHARS = 4_000
#: Most digits in one written number (separators not counted).
MAX_DIGITS = 100
#: Largest |exponent| in ``1.2e300`` or in a power ``a^b``.
MAX_EXPONENT = 400
#: Largest result of a power or product, in decimal digits of numerator or denominator.
MAX_RESULT_DIGITS = 1_200
#: Deepest nesting of parentheses, brackets, braces and function arguments.
MAX_DEPTH = 50
#: Most tokens in one answer.
MAX_TOKENS = 600
#: Most nodes in one parsed formula.
MAX_NODES = 400
#: Most equation links (``a = b``) one ``lint_arithmetic`` call checks; the rest are skipped.
MAX_LINT_LINKS = 2_000
