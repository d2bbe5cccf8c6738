"""Word ``.docx`` reports through python-docx (an optional dependency).

python-docx opens the package and resolves styles; the body is then walked in document
order, because ``Paragraph.text`` alone loses what answer finding needs: Word equations
(``m:oMath``, where students write ``N = 12 × d^2``) are not runs, and tables interleave
with paragraphs. Output follows the PDF reader's contract: ``#`` headings from the
"Heading N"/"Title" styles (or a style's outline level), ``**bold**``/``*italic*`` runs
(direct formatting or a Strong/Emphasis character style), ``| a | b |`` table rows,
superscript runs as ``^2``; deleted tracked changes and hidden text are left out.

What Word keeps out of the runs is put back, because section finding needs it at a
line's start: automatic list numbers ("(a)", "II.", "Question 3", counted per list
definition as Word counts them, numbering set through styles included), a soft line
break before a part marker (a new line), headings set by size alone (as for PDF),
Office Math written linearly, Symbol-font characters; a text box is read once (Word
stores it twice, DrawingML and VML).

A .docx is a zip: each member is inflated in 64 KiB steps before python-docx sees the
file, counting the bytes it really produces (its headers may lie), so a zip bomb named
.docx is refused after at most ``MAX_BODY_XML_BYTES`` of output, in bounded memory.

Each concern is a module beside this one: ``word_zip`` (the zip checked first),
``word_xml`` (namespaces, wrappers), ``word_runs`` (runs and what they inherit),
``word_math`` (Office Math), ``word_numbering`` (list numbers), ``word_tables`` and
``word_body`` (the body in order as lines).
"""

from __future__ import annotations

from pathlib import Path

from grader.written.reading.document import (
    Document,
    ReportReadError,
    ReportTooComplex,
)
from grader.written.reading.normalise import normalise
from grader.written.reading.word_body import _body_lines, _heading_levels
from grader.written.reading.word_notes import _Notes
from grader.written.reading.word_numbering import _Numbering
from grader.written.reading.word_runs import _Styles
from grader.written.reading.word_zip import _check_zip


def read_docx(p: Path, named_pdf: bool = False) -> Document:
    _check_zip(p)
    try:
        import docx
    except ImportError as error:
        raise ReportReadError(
            f"{p.name}: reading Word reports needs the optional package python-docx "
            "(pip install 'transformer-grader[reports]')"
        ) from error
    try:
        document = docx.Document(str(p))
        levels = _heading_levels(document)
        styles = _Styles(document)
        lines = _body_lines(document.element.body, levels, _Numbering(document), styles,
                            _Notes(document, styles))
    except ReportTooComplex as error:
        raise ReportTooComplex(f"{p.name}: {error}") from None
    except ReportReadError:
        raise
    except Exception as error:  # python-docx/lxml raise KeyError, XMLSyntaxError, ValueError
        raise ReportReadError(f"{p.name}: not a readable Word document ({error})") from error
    text = normalise("\n".join(line for line in lines if line.strip()))
    notes = ("a Word document named .pdf; read as Word",) if named_pdf else ()
    needs_ta = None
    if not text.strip():
        needs_ta = "the Word document has no text (only images?); a TA must read it"
    version = getattr(docx, "__version__", "?")
    return Document(text, str(p), "docx", f"python-docx {version}", None, needs_ta, notes)
