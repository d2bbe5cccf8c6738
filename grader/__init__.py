"""The grading harness for Transformer course notebooks.

This package holds the CLI today; intake, packs, the sandboxed runner, checks,
records and reports arrive with their issues (see docs/architecture.md).
"""

__version__ = "0.1.0"
