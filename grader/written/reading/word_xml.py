"""WordprocessingML's namespaces and the walk through its wrappers: content controls,
markup-compatibility choices (text boxes are stored twice), on/off properties."""

from __future__ import annotations

from typing import Any

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_SKIP = {f"{W}del", f"{W}moveFrom", f"{W}pPr", f"{W}rPr", f"{W}instrText", f"{W}delText"}


def _children(el: Any) -> Any:
    """Body-level children in order, looking through content controls (w:sdt: cover
    pages, templates) and markup-compatibility wrappers."""
    for child in el.iterchildren():
        if child.tag == f"{W}sdt":
            content = child.find(f"{W}sdtContent")
            if content is not None:
                yield from _children(content)
        elif child.tag == f"{MC}AlternateContent":
            yield from _children(_chosen(child))
        else:
            yield child


def _chosen(alternate: Any) -> Any:
    """The branch of mc:AlternateContent a reader shows: its first Choice (Word writes
    text boxes twice, as DrawingML in the Choice and as VML in the Fallback)."""
    for branch in (f"{MC}Choice", f"{MC}Fallback"):
        found = alternate.find(branch)
        if found is not None:
            return found
    return alternate


def _on(rpr: Any, tag: str) -> bool:
    el = rpr.find(f"{W}{tag}") if rpr is not None else None
    return el is not None and el.get(f"{W}val", "true") not in ("0", "false", "none")
