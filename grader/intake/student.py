"""Who a submission belongs to: the one type intake hands to records, reports and gradebooks."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Student:
    """Who a record belongs to: `key` names the files (`<key>.json` is the record)."""

    key: str
    name: str
    id: str = ""
    email: str = ""
    lms: str = ""
    """"moodle", "canvas" or "" (a plain folder)."""
    lms_id: str = ""
    """Moodle's participant id, Canvas's user id."""
    late: bool = False
    """The LMS marked the submission late (Canvas's `_late_` in the file name)."""

    def to_dict(self) -> dict[str, str | bool]:
        return dict(self.__dict__)
