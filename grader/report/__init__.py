"""Reports from GradeRecords: per-student feedback, class summary, LMS intake and gradebooks.

`render_batch(results_dir, out_dir, pack=...)` is the one-call path; `intake` takes
an LMS download in; `render_student` renders one record. Guide: docs/reports.md.
"""

from grader.report.batch import BatchError, BatchResult, load_records, render_batch
from grader.report.intake import IntakeError, Submission, intake, load_roster
from grader.report.manual import SheetError, manual_sheet, merge_sheet
from grader.report.render import FORMATS, Student, render_student
from grader.report.safezip import UnsafeZip, ZipLimits, safe_extract
from grader.report.visibility import student_view

__all__ = [
    "FORMATS", "BatchError", "BatchResult", "IntakeError", "SheetError", "Student", "Submission",
    "UnsafeZip", "ZipLimits", "intake", "load_records", "load_roster", "manual_sheet",
    "merge_sheet", "render_batch", "render_student", "safe_extract", "student_view",
]
