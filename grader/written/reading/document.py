"""The reader's contract (``Document``), its limits, and the dispatch on what a file *is*.

A student names files as they like: a Word file saved as ``report.pdf``, a PDF called
``answers`` with no suffix. What decides the reader is the file's first bytes; the suffix
only breaks ties (Markdown or plain text). Limits are checked before any parser sees the
file (bytes here, pages and unpacked bytes in each reader), so a hostile or huge upload
costs a bounded amount of time and memory and ends in a ``ReportReadError`` that says
what is wrong, never a crash.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_REPORT_BYTES = 20 * 1024 * 1024
"""Larger files are refused before parsing (a 30-page report with figures is ~5 MiB)."""
MAX_PAGES = 200
"""PDFs with more pages are refused before any page is read (a notebook printed to PDF
runs to 50-80 pages; 500 pages is not a report)."""
MAX_TEXT_CHARS = 2_000_000
"""Reading stops with an error past this much text (200 dense pages are ~1 M characters)."""
MAX_UNPACKED_BYTES = 100 * 1024 * 1024
"""A .docx is a zip: the sum of its members' unpacked sizes is checked before unpacking."""

NO_TEXT_LAYER = "the PDF has no text layer (a scan?); nothing could be read"


class ReportReadError(ValueError):
    """The report file cannot be read: missing, too large, encrypted, damaged or of a kind
    no reader takes. The message names the file and says what a person can do about it."""


class ReportTooComplex(ReportReadError):
    """The report is too complex to read within the reader's bounds: a limit of the
    bounded reader tripped (CPU time, memory, wall clock), or the file holds more than a
    report does (thousands of text blocks on a page, a zip member that inflates past its
    limit or past what its header declares). It is no fault a student can be told to fix
    by themselves, and it may be an attack: the file goes to a TA (``grader/written.py``
    routes it as it routes a scan), never to a score of 0."""

    prefix = "too complex to read: sent to a TA"


@dataclass(frozen=True)
class Document:
    """A report as text, whatever it was handed in as.

    ``text``: Markdown-flavoured, one paragraph per line: ``# Heading`` (``#`` to
    ``######`` by size or Word heading level), ``**bold**`` and ``*italic*`` emphasis,
    table rows as ``| a | b |``, superscripts as ``^2`` / ``^(-3)``, subscripts as
    ``_k``; NFKC-normalised (``𝟏𝟎,𝟎𝟓𝟎`` -> ``10,050``). Markdown and plain text keep
    their lines (so line numbers are the file's), normalised the same way.
    ``reader``: what read it, with its version ("pymupdf 1.28.2", "python-docx 1.2.0",
    "pypdf 7.1.0", "text"). ``pages``: page count for a PDF, else None.
    ``needs_ta``: why a person must read the file (no text layer, pages that are only
    images), or None. ``notes``: other things a TA should know (glyphs lost, a Word file
    named .pdf). ``line_pages``: the page of each line of ``text`` (PDF only).
    """

    text: str
    path: str
    format: str  # "markdown", "text", "pdf" or "docx"
    reader: str
    pages: int | None = None
    needs_ta: str | None = None
    notes: tuple[str, ...] = ()
    line_pages: tuple[int, ...] | None = None

    def blocks(self) -> list[Any]:
        """The report as blocks (``grader.written.blocks.Block``: headings with their level,
        paragraphs, list items with their marker, tables with their cells and headers,
        mathematics, code), each with its line and page: the same structure whatever
        format was handed in."""
        from grader.written.blocks import blocks

        return blocks(self.text, self.line_pages)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "format": self.format,
            "reader": self.reader,
            "pages": self.pages,
            "needs_ta": self.needs_ta,
            "notes": list(self.notes),
            "chars": len(self.text),
        }


def sniff(head: bytes) -> str:
    """What the first bytes say the file is: pdf, zip, ole (old .doc, encrypted Office),
    an image kind, or "text"."""
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "zip"
    if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "ole"
    for magic, kind in (
        (b"\x89PNG", "PNG image"),
        (b"\xff\xd8\xff", "JPEG image"),
        (b"GIF8", "GIF image"),
        (b"II*\x00", "TIFF image"),
        (b"MM\x00*", "TIFF image"),
    ):
        if head.startswith(magic):
            return kind
    if head[8:12] in (b"heic", b"heix", b"mif1") or head[4:12] == b"ftypheic":
        return "HEIC image"
    return "text"


def read_document(path: str | Path, limits: Any = None) -> Document:
    """Read a report: PDF (layout through PyMuPDF), Word .docx, Markdown or plain text.

    Raises ``ReportReadError`` with a message for a person for every file that cannot
    be read; a file that can be opened but holds no text (a scan) is *returned*, with
    ``needs_ta`` saying so, so that the record keeps its reader and page count.

    The file is read in a bounded worker process (``bounded.py``: CPU time, address
    space and wall clock limited; ``limits`` is a ``ReadLimits``, the defaults when
    None): a student's file is hostile input to C parsers (MuPDF, lxml), and this is the
    one function every reader of reports goes through. A file that trips a limit raises
    ``ReportTooComplex``. ``read_here`` reads in this process, unbounded.
    """
    from grader.written.reading.bounded import read_bounded

    return read_bounded(path, limits)


def read_here(path: str | Path) -> Document:
    """``read_document`` in this process, without the worker's limits: what the bounded
    worker runs, and for callers that hold their own bounds."""
    p = Path(path)
    if not p.is_file():
        raise ReportReadError(f"{p}: no such file")
    size = p.stat().st_size
    if size > MAX_REPORT_BYTES:
        raise ReportReadError(
            f"{p.name}: {size / 2**20:.0f} MiB is larger than the {MAX_REPORT_BYTES // 2**20} "
            "MiB a report may be; ask for a smaller export (images compressed) or a TA reads it"
        )
    with p.open("rb") as handle:
        head = handle.read(1024)
    kind = sniff(head)
    suffix = p.suffix.lower()
    if kind == "pdf":
        from grader.written.reading.pdf import read_pdf

        return read_pdf(p)
    if kind == "zip":
        from grader.written.reading.word import read_docx

        return read_docx(p, named_pdf=suffix == ".pdf")
    if kind == "ole":
        raise ReportReadError(
            f"{p.name}: an old Word .doc file or a password-protected Office file; only "
            ".docx and PDF are read: ask for an unprotected .docx or a PDF export"
        )
    if kind.endswith("image"):
        raise ReportReadError(
            f"{p.name}: a {kind} (a photo or scan?), not a text document; a TA must read it"
        )
    if suffix == ".pdf":
        raise ReportReadError(f"{p.name}: named .pdf but is not a PDF (no %PDF- header)")
    if suffix in (".docx", ".doc", ".odt", ".rtf", ".pages"):
        raise ReportReadError(f"{p.name}: named {suffix} but is not a Word/Office file")
    from grader.written.reading.plain import read_plain

    return read_plain(p)
