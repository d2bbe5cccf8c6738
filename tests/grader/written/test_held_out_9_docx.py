"""Word files of the held-out-9 families, built here: results only in footnotes or
endnotes, labels only from Word's multilevel list numbering."""

from __future__ import annotations

import pytest

from grader.written import read_document
from tests.grader.written._word import word_file

docx = pytest.importorskip("docx", reason="the reports extra reads .docx with python-docx")

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NS = f'xmlns:w="{W}"'
NOTE_TYPES = {
    "footnotes": "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
    "endnotes": "application/vnd.openxmlformats-officedocument.wordprocessingml.endnotes+xml",
}


def _p(*runs: str, ppr: str = "") -> str:
    return f"<w:p>{f'<w:pPr>{ppr}</w:pPr>' if ppr else ''}{''.join(runs)}</w:p>"


def _r(text: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def _ref(n: int, kind: str = "footnote") -> str:
    return (f'<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
            f'<w:{kind}Reference w:id="{n}"/></w:r>')


def _notes(kind: str, texts: dict[int, str]) -> bytes:
    """A footnotes.xml / endnotes.xml as Word writes it: two separators, then each note
    starting with its own number mark."""
    tag = kind[:-1]
    sep = (f'<w:{tag} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:{tag}>'
           f'<w:{tag} w:type="continuationSeparator" w:id="0"><w:p><w:r>'
           f'<w:continuationSeparator/></w:r></w:p></w:{tag}>')
    body = "".join(
        f'<w:{tag} w:id="{n}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
        f'<w:{tag}Ref/></w:r><w:r><w:t xml:space="preserve"> {text}</w:t></w:r></w:p></w:{tag}>'
        for n, text in texts.items())
    return f'<?xml version="1.0" encoding="UTF-8"?><w:{kind} {NS}>{sep}{body}</w:{kind}>'.encode()


def _docx(tmp_path, body: list[str], numbering: str = "", styles: str = "",
          notes: dict[str, dict[int, str]] | None = None, name: str = "report.docx"):
    """A .docx as Word writes it (``_word.word_file``), with its footnotes and endnotes."""
    from docx.opc.constants import RELATIONSHIP_TYPE as RT

    parts = [(f"/word/{kind}.xml", NOTE_TYPES[kind], _notes(kind, texts), getattr(RT, kind.upper()))
             for kind, texts in (notes or {}).items()]
    return word_file(tmp_path, body, numbering, styles, name, parts)


# ---------------------------------------------------------------- footnotes and endnotes


def test_a_footnotes_text_is_read_after_the_paragraph_referring_to_it(tmp_path):
    """The working ends "Ergebnis siehe Fußnote¹", the result is in the note: a TA reads
    it there, so the note's text is the next line of the section, not lost."""
    body = [
        _p(_r("Frage 3 (c)"), ppr='<w:pStyle w:val="Heading1"/>'),
        _p(_r("48 · 16384² · 2 = 25.769.803.776 Byte, durch 1024³ geteilt. Ergebnis siehe "
              "Fußnote."), _ref(1)),
        _p(_r("Frage 3 (d)"), ppr='<w:pStyle w:val="Heading1"/>'),
        _p(_r("Pro Schicht 302.020.608 Parameter."), _ref(2)),
    ]
    path = _docx(tmp_path, body, notes={"footnotes": {1: "Speicherbedarf: 24,0 GB",
                                                      2: "FFN-Parameter: 14,50 Mrd."}})
    assert read_document(path).text.splitlines() == [
        "# Frage 3 (c)",
        "48 · 16384^2 · 2 = 25.769.803.776 Byte, durch 1024^3 geteilt. Ergebnis siehe Fußnote.",
        "Speicherbedarf: 24,0 GB",
        "# Frage 3 (d)",
        "Pro Schicht 302.020.608 Parameter.",
        "FFN-Parameter: 14,50 Mrd.",
    ]


def test_endnotes_are_read_where_referred_to_and_each_note_once(tmp_path):
    """Endnotes are printed at the document's end but belong where they are referred
    to; the separators Word keeps among the notes are no text."""
    body = [
        _p(_r("LoRA trainable parameters, see the note."), _ref(3, "endnote")),
        _p(_r("Adam memory, see the note."), _ref(4, "endnote")),
        _p(_r("Closing remark.")),
    ]
    path = _docx(tmp_path, body, notes={"endnotes": {3: "9,437,184", 4: "75.5 MB"}})
    assert read_document(path).text.splitlines() == [
        "LoRA trainable parameters, see the note.", "9,437,184",
        "Adam memory, see the note.", "75.5 MB",
        "Closing remark.",
    ]


def test_a_note_referred_to_in_a_table_cell_stays_in_its_cell(tmp_path):
    """A line of its own would break the row: the note is written at the cell's end."""
    table = ("<w:tbl><w:tr><w:tc>" + _p(_r("Q3 (c)")) + "</w:tc><w:tc>"
             + _p(_r("see note"), _ref(1)) + "</w:tc></w:tr></w:tbl>")
    path = _docx(tmp_path, [table], notes={"footnotes": {1: "25.77 GB"}})
    assert read_document(path).text.splitlines() == ["| Q3 (c) | see note 25.77 GB |"]


def test_a_note_referred_to_only_in_deleted_text_is_not_read(tmp_path):
    """A tracked deletion took the reference off the page, and its note with it."""
    deleted = ('<w:del w:id="9" w:author="s" w:date="2024-01-01T00:00:00Z">'
               '<w:r><w:footnoteReference w:id="1"/></w:r></w:del>')
    body = [_p(_r("p(mat) = 0.7500"), deleted, _ref(2))]
    path = _docx(tmp_path, body, notes={"footnotes": {1: "an old value 0.0616",
                                                      2: "checked twice"}})
    assert read_document(path).text.splitlines() == ["p(mat) = 0.7500", "checked twice"]


# ---------------------------------------------------------------- list numbering


def _numpr(num: int, level: int | None = 0) -> str:
    ilvl = f'<w:ilvl w:val="{level}"/>' if level is not None else ""
    return f'<w:numPr>{ilvl}<w:numId w:val="{num}"/></w:numPr>'


def _lvl(level: int, fmt: str, text: str, start: int = 1, extra: str = "") -> str:
    return (f'<w:lvl w:ilvl="{level}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{text}"/>{extra}</w:lvl>')


OUTLINE = (
    '<w:abstractNum w:abstractNumId="90">'
    + _lvl(0, "decimal", "%1.", 3) + _lvl(1, "lowerLetter", "%1.%2.")
    + _lvl(2, "lowerRoman", "%1.%2.%3.", extra='<w:lvlRestart w:val="1"/>')
    + '</w:abstractNum><w:num w:numId="90"><w:abstractNumId w:val="90"/></w:num>'
)


def test_a_multilevel_outline_draws_each_level_and_restarts_as_word_says(tmp_path):
    """Labels only from one multilevel list ('3.', '3.a.', '3.a.ii.'): each level in its
    own format inside the level text; a level told to restart only after the top level
    (lvlRestart 1) carries its numerals on under the next letter."""
    body = [
        _p(_r("Pre-training"), ppr=_numpr(90, 0)),
        _p(_r("Language model"), ppr=_numpr(90, 1)),
        _p(_r("Objective"), ppr=_numpr(90, 2)),
        _p(_r("Probability and loss"), ppr=_numpr(90, 2)),
        _p(_r("Memory"), ppr=_numpr(90, 1)),
        _p(_r("Per head"), ppr=_numpr(90, 2)),
    ]
    assert read_document(_docx(tmp_path, body, OUTLINE)).text.splitlines() == [
        "3. Pre-training", "3.a. Language model", "3.a.i. Objective",
        "3.a.ii. Probability and loss", "3.b. Memory", "3.b.iii. Per head",
    ]


def test_legal_numbering_draws_every_level_in_decimal(tmp_path):
    """'Legal' numbering (isLgl) under roman articles: Word draws '3.1', never 'III.1'."""
    numbering = (
        '<w:abstractNum w:abstractNumId="91">' + _lvl(0, "upperRoman", "Part %1", 3)
        + _lvl(1, "decimal", "%1.%2", extra="<w:isLgl/>")
        + '</w:abstractNum><w:num w:numId="91"><w:abstractNumId w:val="91"/></w:num>'
    )
    body = [_p(_r("Memory"), ppr=_numpr(91, 0)), _p(_r("25.77 GB"), ppr=_numpr(91, 1)),
            _p(_r("14.5 billion"), ppr=_numpr(91, 1))]
    assert read_document(_docx(tmp_path, body, numbering)).text.splitlines() == [
        "Part III Memory", "3.1 25.77 GB", "3.2 14.5 billion"]


def test_a_list_defined_through_a_list_style_takes_its_levels_from_it(tmp_path):
    """Word's "Define New List Style": the list the paragraphs name has no levels, only a
    numStyleLink to a numbering style whose own list (styleLink) holds them."""
    numbering = (
        '<w:abstractNum w:abstractNumId="92"><w:numStyleLink w:val="AnswerOutline"/>'
        '</w:abstractNum>'
        '<w:abstractNum w:abstractNumId="93"><w:styleLink w:val="AnswerOutline"/>'
        + _lvl(0, "decimal", "Q%1", 3) + _lvl(1, "lowerLetter", "(%2)")
        + '</w:abstractNum><w:num w:numId="92"><w:abstractNumId w:val="92"/></w:num>'
        '<w:num w:numId="93"><w:abstractNumId w:val="93"/></w:num>'
    )
    styles = ('<w:style w:type="numbering" w:styleId="AnswerOutline"><w:name w:val="Answer '
              'Outline"/><w:pPr><w:numPr><w:numId w:val="93"/></w:numPr></w:pPr></w:style>')
    body = [_p(_r("Transformers"), ppr=_numpr(92, 0)), _p(_r("p = 0.75"), ppr=_numpr(92, 1)),
            _p(_r("Decoder-only"), ppr=_numpr(92, 1))]
    assert read_document(_docx(tmp_path, body, numbering, styles)).text.splitlines() == [
        "Q3 Transformers", "(a) p = 0.75", "(b) Decoder-only"]


def test_a_style_tied_to_a_list_level_numbers_at_that_level(tmp_path):
    """A style whose numbering names only the list: the level is the one whose pStyle is
    that style (Word's heading numbering), not the first."""
    numbering = (
        '<w:abstractNum w:abstractNumId="94">'
        + _lvl(0, "decimal", "Question %1", 3, '<w:pStyle w:val="QHead"/>')
        + _lvl(1, "lowerLetter", "(%2)", extra='<w:pStyle w:val="QPart"/>')
        + '</w:abstractNum><w:num w:numId="94"><w:abstractNumId w:val="94"/></w:num>'
    )
    styles = "".join(
        f'<w:style w:type="paragraph" w:styleId="{sid}"><w:name w:val="{sid}"/><w:pPr>'
        f'{_numpr(94, None)}</w:pPr></w:style>' for sid in ("QHead", "QPart"))
    body = [_p(_r("Transformers"), ppr='<w:pStyle w:val="QHead"/>'),
            _p(_r("p = 0.75"), ppr='<w:pStyle w:val="QPart"/>'),
            _p(_r("Decoder-only"), ppr='<w:pStyle w:val="QPart"/>')]
    assert read_document(_docx(tmp_path, body, numbering, styles)).text.splitlines() == [
        "Question 3 Transformers", "(a) p = 0.75", "(b) Decoder-only"]


def test_list_numbers_in_table_cells_are_drawn_and_counted_with_the_body(tmp_path):
    """A part numbered by the list inside a table cell ('(a)' beside its answer), the
    list carrying on after the table ('(b)'); a bullet in a cell is no minus sign."""
    numbering = (
        '<w:abstractNum w:abstractNumId="95">' + _lvl(0, "lowerLetter", "(%1)")
        + '</w:abstractNum><w:abstractNum w:abstractNumId="96">' + _lvl(0, "bullet", "•")
        + '</w:abstractNum><w:num w:numId="95"><w:abstractNumId w:val="95"/></w:num>'
        '<w:num w:numId="96"><w:abstractNumId w:val="96"/></w:num>'
    )
    table = ("<w:tbl><w:tr><w:tc>" + _p(_r("probability"), ppr=_numpr(95)) + "</w:tc><w:tc>"
             + _p(_r("0.75"), ppr=_numpr(96)) + "</w:tc></w:tr></w:tbl>")
    body = [table, _p(_r("Decoder-only."), ppr=_numpr(95))]
    assert read_document(_docx(tmp_path, body, numbering)).text.splitlines() == [
        "| (a) probability | 0.75 |", "(b) Decoder-only."]


def test_word_number_formats_are_drawn_as_word_draws_them(tmp_path):
    """Ordinals, numbers in words and numbers in parentheses, as the page shows them."""
    numbering = "".join(
        f'<w:abstractNum w:abstractNumId="{97 + k}">' + _lvl(0, fmt, text, 3)
        + f'</w:abstractNum><w:num w:numId="{97 + k}"><w:abstractNumId w:val="{97 + k}"/>'
        "</w:num>"
        for k, (fmt, text) in enumerate([("ordinal", "%1 part"), ("cardinalText", "Question %1"),
                                         ("ordinalText", "%1 step"),
                                         ("decimalEnclosedParen", "%1")]))
    body = [_p(_r("x"), ppr=_numpr(97 + k)) for k in range(4)]
    assert read_document(_docx(tmp_path, body, numbering)).text.splitlines() == [
        "3rd part x", "Question Three x", "Third step x", "(3) x"]


# ---------------------------------------------------------------- pasted program output

PASTED = ('<w:style w:type="paragraph" w:styleId="PastedOutput"><w:name w:val="Pasted Output"/>'
          '<w:rPr><w:rFonts w:ascii="Consolas" w:hAnsi="Consolas"/><w:sz w:val="19"/></w:rPr>'
          '</w:style>'
          '<w:style w:type="paragraph" w:styleId="Sub"><w:name w:val="Sub"/>'
          '<w:basedOn w:val="PastedOutput"/></w:style>')
CONSOLAS = '<w:rFonts w:ascii="Consolas" w:hAnsi="Consolas"/>'


def test_a_notebooks_printed_lines_pasted_in_a_monospace_style_are_a_code_block(tmp_path):
    """The printed lines pasted in a monospace paragraph style (or a style based on one)
    are one fenced block, the same block a Markdown report's pasted output is: every stage
    reads them as the program's text, not as the student's prose; a line break inside
    (Shift+Enter) stays a line, bold stays plain."""
    body = [
        _p(_r("Question 3"), ppr='<w:pStyle w:val="Heading1"/>'),
        _p(_r("Output of the cell:")),
        _p(_r("LM model trainable parameters: 21018401"), ppr='<w:pStyle w:val="PastedOutput"/>'),
        _p(ppr='<w:pStyle w:val="PastedOutput"/>'),
        _p(_r("Classification model trainable parameters: "), _r("10968602", "<w:b/>"),
           "<w:r><w:br/></w:r>", _r("done in 2.1 s"), ppr='<w:pStyle w:val="Sub"/>'),
        _p(_r("By hand: each layer = 242,000.")),
    ]
    document = read_document(_docx(tmp_path, body, styles=PASTED))
    assert document.text.splitlines() == [
        "# Question 3",
        "Output of the cell:",
        "```",
        "LM model trainable parameters: 21018401",
        "Classification model trainable parameters: 10968602",
        "done in 2.1 s",
        "```",
        "By hand: each layer = 242,000.",
    ]
    assert [b.kind for b in document.blocks()] == ["heading", "paragraph", "code", "paragraph"]


def test_text_set_in_consolas_by_hand_is_pasted_output_but_inline_code_is_prose(tmp_path):
    """Consolas set on the runs themselves makes pasted output too; a sentence with one
    word in Consolas (``model.parameters()``) is the student's prose, and a heading set in
    a monospace font stays a heading."""
    body = [
        _p(_r("epoch 1 | val_acc 0.742", CONSOLAS), _r(" ", CONSOLAS)),
        _p(_r("I counted with "), _r("model.parameters()", CONSOLAS), _r(": 21,018,401.")),
        _p(_r("Question 4", CONSOLAS), ppr='<w:pStyle w:val="Heading1"/>'),
    ]
    assert read_document(_docx(tmp_path, body)).text.splitlines() == [
        "```", "epoch 1 | val_acc 0.742", "```",
        "I counted with model.parameters(): 21,018,401.",
        "# Question 4",
    ]


def test_a_report_typed_in_courier_throughout_has_no_pasted_output(tmp_path):
    """With the body text itself in a fixed-width font nothing stands out as pasted: the
    student's prose stays prose."""
    courier = ('<w:style w:type="paragraph" w:default="1" w:styleId="Typed"><w:name w:val="Typed"/>'
               '<w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/></w:rPr></w:style>')
    body = [_p(_r("p(mat) = 0.7500"), ppr='<w:pStyle w:val="Typed"/>'),
            _p(_r("loss = 0.2876", CONSOLAS))]
    assert read_document(_docx(tmp_path, body, styles=courier)).text.splitlines() == [
        "p(mat) = 0.7500", "loss = 0.2876"]
