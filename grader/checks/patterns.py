"""Patterns the checks share when they read numbers from students' text and logs."""

from __future__ import annotations

import re

NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?|\.\d+)(\s*%)?")
"""A number as written ("87", "0.87", ".87"), optionally a percent ("87 %"): groups 1 and 2."""
