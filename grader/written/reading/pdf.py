"""PDF reports with their layout, through PyMuPDF (``pymupdf``, an optional dependency).

Why PyMuPDF: it gives each span's font, size, flags (bold, italic, superscript) and
baseline, and groups lines into blocks in the content stream's order, which is the
reading order of LaTeX two-column pages and of browser/Word exports. On this project's
fixtures it reads a page in ~5-15 ms; pdfplumber (pdfminer) exposes the same fonts and
positions per character but took 14-30x longer, has no block grouping and no superscript
flag (see docs/reading-reports.md for the figures). Without pymupdf the reader falls back
to pypdf's plain text (no emphasis, headings or tables) and says so in ``reader``.

What the layout pass does, page by page:

- drops running headers and footers: lines in the top or bottom tenth of a page whose
  text (digits ignored) recurs on another page, and page numbers, URLs and print dates
  there (Chromium prints "11/24/26, 2:30 PM", the title, the file URL and "1/2");
- joins the lines of a block into one paragraph (a number and its unit broken across
  lines meet again; "para-" + "meters" is de-hyphenated), splitting at first-line
  indents;
- writes a block whose lines share baselines in separate columns as table rows
  ``| a | b |`` (LaTeX ``tabular``, Word and HTML tables), and ``I. text`` list items
  as one line;
- marks headings by size (``#`` for the largest heading size, ``##`` for the next...),
  bold and italic runs as ``**..**`` / ``*..*``, raised or flagged superscripts as ``^2``
  and lowered smaller runs as ``_k`` (a smaller span hangs on the glyph it touches);
- writes stacked fractions linearly, ``e^3/(e^0.5 + e^0.1 + ...)``: raised and lowered
  text over one another (TeX or MathML printed by Chromium), a line beside a row joining
  it only over a drawn fraction bar, since a two-line table cell centred on its row looks
  the same without one; cells in blocks of their own between the same borders are one
  table row;
- flags pages that are only images (a scan or photo) for a TA.

The passes live beside this module, one concern each: ``pdf_page`` (spans, lines,
blocks, reading order, drawn rules), ``pdf_annotations`` (FreeText boxes read beside
the text they stand by), ``pdf_margins`` (running headers and footers, point tallies),
``pdf_math`` (scripts and stacked fractions), ``pdf_rows`` (a block's lines as visual
rows of cells), ``pdf_tables`` (table rows and their columns, empty cells kept) and
``pdf_paragraphs`` (paragraphs, headings and the text's lines).
"""

from __future__ import annotations

from pathlib import Path

from grader.written.reading.document import (
    MAX_PAGES,
    MAX_TEXT_CHARS,
    NO_TEXT_LAYER,
    Document,
    ReportReadError,
    ReportTooComplex,
)
from grader.written.reading.normalise import LOST_GLYPHS, LOST_NOTE, normalise
from grader.written.reading.pdf_annotations import annotations_in_place, page_annotations
from grader.written.reading.pdf_page import (  # noqa: F401  (tests read the page's records)
    MAX_BLOCKS,
    MAX_ORDER_STEPS,
    MAX_PAGE_BLOCKS,
    MAX_SPANS,
    _Block,
    _Line,
    _page_blocks,
    _Para,
    _reading_order,
    _Span,
)
from grader.written.reading.pdf_paragraphs import (  # noqa: F401
    _join_wrapped_headings,
    _layout,
)


def read_pdf(p: Path) -> Document:
    try:
        import pymupdf
    except ImportError:
        return _read_pypdf(p)
    pymupdf.TOOLS.mupdf_display_errors(False)  # damaged files are reported by our message
    try:
        doc = pymupdf.open(p, filetype="pdf")
    except Exception as error:  # MuPDF raises FileDataError, RuntimeError, ValueError
        raise ReportReadError(f"{p.name}: not a readable PDF ({error})") from error
    with doc:
        if doc.needs_pass:
            raise ReportReadError(
                f"{p.name}: the PDF is protected by a password; ask the student for an "
                "unprotected copy, or a TA reads it"
            )
        if doc.page_count == 0:
            raise ReportReadError(f"{p.name}: not a readable PDF (no pages)")
        if doc.page_count > MAX_PAGES:
            raise ReportReadError(
                f"{p.name}: {doc.page_count} pages, more than the {MAX_PAGES} a report may "
                "have; it was not read (a TA reads it, or the student hands in the report alone)"
            )
        blocks: list[_Block] = []
        image_pages: list[int] = []
        sideways_pages: list[int] = []
        heights: dict[int, float] = {}
        chars = 0
        spans = 0
        try:
            for number, page in enumerate(doc, start=1):
                heights[number] = page.rect.height
                page_blocks, sideways = _page_blocks(page, number)
                page_blocks = annotations_in_place(page_blocks, page_annotations(page), number)
                spans += sum(len(ln.spans) for b in page_blocks for ln in b.lines)
                if spans > MAX_SPANS or len(blocks) + len(page_blocks) > MAX_BLOCKS:
                    raise ReportTooComplex(
                        f"{ReportTooComplex.prefix} (more than {MAX_BLOCKS:,} text blocks or "
                        f"{MAX_SPANS:,} pieces of text by page {number}; a report of 200 dense "
                        "pages has about a fifth of the blocks and half the pieces)")
                page_chars = sum(len(ln.text.strip()) for b in page_blocks for ln in b.lines)
                if sideways > 40 and sideways > page_chars / 2:
                    sideways_pages.append(number)
                if page_chars == 0 and page.get_images(full=False):
                    image_pages.append(number)
                chars += page_chars
                if chars > MAX_TEXT_CHARS:
                    raise ReportTooComplex(
                        f"{ReportTooComplex.prefix} (more than {MAX_TEXT_CHARS:,} characters "
                        f"of text by page {number}; it was not read)"
                    )
                blocks.extend(page_blocks)
        except ReportTooComplex as error:
            raise ReportTooComplex(f"{p.name}: {error}") from None
        except ReportReadError:
            raise
        except Exception as error:
            raise ReportReadError(f"{p.name}: not a readable PDF ({error})") from error
        pages = doc.page_count
    version = getattr(pymupdf, "VersionBind", getattr(pymupdf, "__version__", "?"))
    lines, line_pages = _layout(blocks, heights)
    # a soft hyphen a PDF still holds after lines are joined was drawn as a hyphen (LaTeX
    # T1 fonts map their hyphen glyph to U+00AD: "cross\xadentropy" is "cross-entropy")
    text = normalise("\n".join(lines).replace("\xad", "-"))
    notes: list[str] = []
    needs_ta = None
    if not text.strip():
        notes.append(NO_TEXT_LAYER)
        if image_pages:
            kind = "images" if pages > 1 else "an image"
            kind += " (a scan or photo)"
        elif sideways_pages:
            kind = "only text set sideways, which is not read"
        else:
            kind = "empty"
        plural = pages > 1
        needs_ta = (
            f"the PDF has no text layer: its {pages} page{'s' if plural else ''} "
            f"{'are' if plural else 'is'} {kind}; a TA must read it"
        )
    elif image_pages:
        listed = ", ".join(map(str, image_pages))
        needs_ta = (
            f"page{'s' if len(image_pages) > 1 else ''} {listed} of the PDF "
            f"{'are' if len(image_pages) > 1 else 'is'} only an image (a scan or photo?) "
            "with no text; a TA must read what is written there"
        )
    if LOST_GLYPHS.search(text):
        notes.append(LOST_NOTE)
    if sideways_pages:
        listed = ", ".join(map(str, sideways_pages))
        notes.append(
            f"page{'s' if len(sideways_pages) > 1 else ''} {listed} set{'' if len(sideways_pages) > 1 else 's'} "
            "text sideways (a rotated table?), which was not read; check it by eye"
        )
    return Document(
        text,
        str(p),
        "pdf",
        f"pymupdf {version}",
        pages,
        needs_ta,
        tuple(notes),
        tuple(line_pages),
    )



# -- without pymupdf --------------------------------------------------------------------


def _read_pypdf(p: Path) -> Document:
    """Plain text through pypdf: no emphasis, headings or tables (pymupdf not installed)."""
    try:
        import pypdf
    except ImportError as error:
        raise ReportReadError(
            f"{p.name}: reading PDF reports needs the optional package pymupdf "
            "(pip install 'transformer-grader[reports]')"
        ) from error
    try:
        reader = pypdf.PdfReader(str(p))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ReportReadError(f"{p.name}: the PDF is protected by a password")
        if len(reader.pages) > MAX_PAGES:
            raise ReportReadError(
                f"{p.name}: {len(reader.pages)} pages, more than the {MAX_PAGES} a report may have"
            )
        pages = [page.extract_text() or "" for page in reader.pages]
    except ReportReadError:
        raise
    except Exception as error:  # pypdf raises many types for damaged files
        raise ReportReadError(f"{p.name}: not a readable PDF ({error})") from error
    text = normalise("\n".join(pages))
    notes: list[str] = []
    needs_ta = None
    if not text.strip():
        notes.append(NO_TEXT_LAYER)
        needs_ta = "the PDF has no text layer (a scan or photo?); a TA must read it"
    elif LOST_GLYPHS.search(text):
        notes.append(LOST_NOTE)
    return Document(
        text, str(p), "pdf", f"pypdf {pypdf.__version__}", len(pages), needs_ta, tuple(notes)
    )
