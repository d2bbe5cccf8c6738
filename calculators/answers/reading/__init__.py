"""Reading report files handed in beside notebooks: ``read_report(path) -> Report``.

The one place the grader turns a report file (Markdown, plain text, PDF) into text.
Finding sections and answers in that text lives in ``calculators.answers.report``.
"""

from calculators.answers.reading.legacy import (
    MAX_REPORT_BYTES,
    Report,
    ReportReadError,
    read_report,
)

__all__ = ["MAX_REPORT_BYTES", "Report", "ReportReadError", "read_report"]
