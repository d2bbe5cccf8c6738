"""Today's report reader, moved here unchanged from ``calculators.answers.report``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_REPORT_BYTES = 20 * 1024 * 1024


class ReportReadError(ValueError):
    """The report file cannot be read as text (missing, too large, or a PDF without pypdf)."""


@dataclass(frozen=True)
class Report:
    text: str
    path: str
    format: str  # "markdown", "text" or "pdf"
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "format": self.format,
            "notes": list(self.notes),
            "chars": len(self.text),
        }


_LOST_GLYPHS = re.compile("[\ufffd\ue000-\uf8ff]|\\(cid:\\d+\\)")


def read_report(path: str | Path) -> Report:
    """Text of a ``.md``/``.txt`` report, or of a ``.pdf`` through pypdf (an optional dependency).

    PDF text extraction flattens mathematics (fractions, superscripts, symbols drawn
    from private fonts); when glyphs were lost the result says so in ``notes``.
    """
    p = Path(path)
    if not p.is_file():
        raise ReportReadError(f"{p}: no such file")
    if p.stat().st_size > MAX_REPORT_BYTES:
        raise ReportReadError(f"{p}: larger than {MAX_REPORT_BYTES // (1024 * 1024)} MiB")
    suffix = p.suffix.lower()
    if suffix == ".pdf":
        return _read_pdf(p)
    text = p.read_bytes().decode("utf-8", errors="replace")
    notes = ("some characters are not valid UTF-8 and were replaced",) if "\ufffd" in text else ()
    return Report(text, str(p), "markdown" if suffix in (".md", ".markdown") else "text", notes)


def _read_pdf(p: Path) -> Report:
    try:
        import pypdf
    except ImportError as error:
        raise ReportReadError(
            f"{p}: reading PDF reports needs the optional package pypdf (pip install pypdf)"
        ) from error
    try:
        reader = pypdf.PdfReader(str(p))
        pages = [page.extract_text() or "" for page in reader.pages]
    except Exception as error:  # pypdf raises many types for damaged files
        raise ReportReadError(f"{p}: not a readable PDF ({error})") from error
    text = "\n".join(pages)
    notes: list[str] = []
    if not text.strip():
        notes.append("the PDF has no text layer (a scan?); nothing could be read")
    elif _LOST_GLYPHS.search(text):
        notes.append(
            "some symbols, probably mathematics, could not be recovered from the PDF; "
            "check equations by eye"
        )
    return Report(text, str(p), "pdf", tuple(notes))
