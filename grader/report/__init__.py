"""Reports from GradeRecords: per-student feedback, class summary, LMS intake and gradebooks.

`render_batch(results_dir, out_dir, pack=...)` is the one-call path; `render_student`
renders one record. LMS downloads come in through `grader.intake`. Guide: docs/reports.md.
"""

from grader.report.batch import BatchError, BatchResult, load_records, render_batch
from grader.report.manual import SheetError, manual_sheet, merge_sheet
from grader.report.render import FORMATS, render_student
from grader.report.visibility import student_view

__all__ = [
    "FORMATS", "BatchError", "BatchResult", "SheetError", "load_records", "manual_sheet",
    "merge_sheet", "render_batch", "render_student", "student_view",
]
