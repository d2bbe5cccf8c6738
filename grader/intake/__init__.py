"""Intake: submissions in, whatever their shape.

A notebook, a folder of notebooks, student folders, report-only submissions, or the
zip an LMS (Moodle, Canvas) gives for "download all submissions". Zips are student
data and are unpacked with `safezip`; `lms` turns a download into one notebook (and
files) per student plus a roster of `Student`s; `sources` expands a batch's command
line into items; `runlogs` reads training logs handed in beside a report.
"""

from grader.intake.lms import IntakeError, Submission, intake, load_roster
from grader.intake.safezip import UnsafeZip, ZipLimits, safe_extract
from grader.intake.student import Student

__all__ = ["IntakeError", "Student", "Submission", "UnsafeZip", "ZipLimits", "intake",
           "load_roster", "safe_extract"]
