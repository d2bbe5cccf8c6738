"""The error of an intake: submissions that cannot be taken in as given.

Its own module because every part of the intake raises it (the layout, the roster
files) and `grader.intake` re-exports it for the CLI.
"""

from __future__ import annotations


class IntakeError(ValueError):
    """Submissions that cannot be taken in as given; `field` names what is at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
