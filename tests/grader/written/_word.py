"""A Word file as Word writes it, for the readers' tests: python-docx's own template, with
body paragraphs given as WordprocessingML, list definitions added to its numbering part,
styles to its styles part, and any further parts (footnotes, endnotes) related to it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest

NS = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:v="urn:schemas-microsoft-com:vml"'
)
"""The namespaces a fragment of body, numbering or styles XML may use."""


def word_file(tmp_path: Path, body: list[str], numbering: str = "", styles: str = "",
              name: str = "r.docx",
              parts: Sequence[tuple[str, str, bytes, str]] = ()) -> Path:
    """The .docx saved under ``tmp_path``; ``parts``: (part name, content type, bytes,
    relationship type) of each further part the document refers to."""
    docx = pytest.importorskip("docx", reason="the reports extra reads .docx with python-docx")
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part
    from docx.oxml import parse_xml

    document = docx.Document()
    root = document.part.numbering_part.element
    for xml in re.findall(r"<w:(?:abstractNum|num) .*?</w:(?:abstractNum|num)>", numbering, re.S):
        element = parse_xml(xml.replace(" ", f" {NS} ", 1))  # namespaces on the root
        if element.tag.endswith("abstractNum"):
            first_num = root.find(element.tag.replace("abstractNum", "num"))
            if first_num is not None:
                first_num.addprevious(element)
                continue
        root.append(element)
    for xml in re.findall(r"<w:style .*?</w:style>", styles, re.S):
        document.styles.element.append(parse_xml(xml.replace(" ", f" {NS} ", 1)))
    sect = document.element.body[-1]
    for xml in body:
        sect.addprevious(parse_xml(xml.replace("<w:p>", f"<w:p {NS}>", 1).replace(
            "<w:tbl>", f"<w:tbl {NS}>", 1)))
    for partname, content_type, blob, reltype in parts:
        part = Part(PackURI(partname), content_type, blob, document.part.package)
        document.part.relate_to(part, reltype)
    path = tmp_path / name
    document.save(str(path))
    return path
