"""Reading report files handed in beside notebooks: ``read_document(path) -> Document``.

The contract (other modules and the report corpus build on it; keep it stable):

- ``read_document(path)`` reads ``.pdf`` (PyMuPDF with layout; pypdf plain text when
  pymupdf is not installed), ``.docx`` (python-docx), Markdown and plain text. What a
  file *is* is decided by its first bytes, not its name (a Word file named ``.pdf`` is
  read as Word, with a note).
- ``Document.text``: Markdown-flavoured, one paragraph per line: ``#`` headings,
  ``**bold**`` / ``*italic*``, table rows ``| a | b |``, superscripts ``16,384^2``,
  subscripts ``d_k``, NFKC-normalised (``𝟏𝟎,𝟎𝟓𝟎`` -> ``10,050``); running headers,
  footers and page numbers of a PDF dropped; lines of a PDF paragraph joined.
  Markdown and text files keep their own lines.
- ``Document.reader`` ("pymupdf 1.28.2", "python-docx 1.2.0", "pypdf 7.1.0", "text"),
  ``Document.format`` ("pdf", "docx", "markdown", "text"), ``Document.pages`` (PDF page
  count, else None), ``Document.line_pages`` (page of each text line, PDF only).
- ``Document.needs_ta``: why a person must read the file (a scan or photo: no text
  layer, or some pages that are only images), else None. Such a file is returned, not
  raised, so the record still says which reader read it and how many pages it has.
- ``ReportReadError``: every file that cannot be read (missing, over ``MAX_REPORT_BYTES``
  or ``MAX_PAGES``, password-protected, a zip or an image named .pdf, damaged, a
  zip bomb) raises it, bounded in time and memory, with a message for a person.
- ``ReportTooComplex`` (a ``ReportReadError``): the file is too complex to read within
  the bounds ("too complex to read: sent to a TA"): the bounded worker's CPU-time,
  address-space or wall-clock limit tripped, or the file holds more than a report does
  (``pdf.MAX_PAGE_BLOCKS`` text blocks on a page, a zip member inflating past its limit
  or past what its header declares). A TA reads it.
- Every read runs in a bounded worker process (``bounded.py``; ``ReadLimits``), reused
  between files; ``read_here`` reads in the calling process, unbounded.

``read_report`` and ``Report`` are the older names of the same function and class.
Heavy libraries (pymupdf, python-docx, pypdf) are imported only when a file needs them,
so ``calculators`` imports with sympy alone.
"""

from grader.written.reading.bounded import ReadLimits, close_workers
from grader.written.reading.document import (
    MAX_PAGES,
    MAX_REPORT_BYTES,
    MAX_TEXT_CHARS,
    MAX_UNPACKED_BYTES,
    Document,
    ReportReadError,
    ReportTooComplex,
    read_document,
    read_here,
)

Report = Document
read_report = read_document

__all__ = [
    "MAX_PAGES",
    "MAX_REPORT_BYTES",
    "MAX_TEXT_CHARS",
    "MAX_UNPACKED_BYTES",
    "Document",
    "Report",
    "ReportReadError",
    "ReportTooComplex",
    "ReadLimits",
    "close_workers",
    "read_document",
    "read_here",
    "read_report",
]
