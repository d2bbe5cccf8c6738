"""A .docx is a zip: refused before python-docx opens it when it is no Word file or
unpacks to more than a report may (a zip bomb), counted in bounded memory."""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

from grader.written.reading.document import (
    MAX_UNPACKED_BYTES,
    ReportReadError,
    ReportTooComplex,
)

MAX_BODY_XML_BYTES = 25 * 1024 * 1024
"""word/document.xml is parsed whole (lxml, ~10x its size in memory); 25 MiB of XML is
thousands of pages of text, while images and fonts live in other parts."""


MAX_PARTS = 10_000
"""Members of a .docx (a long report with figures has a few dozen)."""
_CHUNK = 1 << 16


def _inflated_size(archive: zipfile.ZipFile, member: zipfile.ZipInfo, limit: int) -> int:
    """The bytes ``member`` really inflates to, counted while inflating in 64 KiB steps
    and given up past ``limit`` (the count is then ``limit + 1``): memory stays bounded
    whatever the stream holds.

    The member's own headers are not trusted: zipfile stops at the declared size, but
    only after inflating the whole member in one call (a 2 MB stream declared as 2 KiB
    made 2 GiB in memory), so the compressed bytes are read from the file and inflated
    here, with the limit on what comes out."""
    if member.flag_bits & 0x1:
        raise ValueError("an encrypted zip member")
    if member.compress_type == zipfile.ZIP_STORED:
        return member.compress_size
    if member.compress_type != zipfile.ZIP_DEFLATED:
        raise ValueError(f"a zip member compressed with method {member.compress_type}")
    handle = archive.fp
    assert handle is not None
    handle.seek(member.header_offset)
    local = handle.read(30)
    if len(local) < 30 or local[:4] != b"PK\x03\x04":
        raise ValueError("a zip member's local header is missing")
    name_len, extra_len = int.from_bytes(local[26:28], "little"), int.from_bytes(local[28:30], "little")
    handle.seek(member.header_offset + 30 + name_len + extra_len)
    inflater = zlib.decompressobj(-15)
    left = member.compress_size
    produced = 0
    while not inflater.eof:
        data = inflater.unconsumed_tail
        if not data:
            if left <= 0:
                break
            data = handle.read(min(_CHUNK, left))
            if not data:
                break
            left -= len(data)
        try:
            produced += len(inflater.decompress(data, _CHUNK))
        except zlib.error as error:
            raise ValueError(f"a damaged zip member ({error})") from error
        if produced > limit:
            return limit + 1
    return produced


def _check_zip(p: Path) -> None:
    """Refuse a .docx that is not Word, or that unpacks to more than a report may: first
    by what its headers declare (microseconds), then by the bytes its members really
    inflate to (counted while inflating, with bounded memory), which must be what the
    headers declare."""
    too = ReportTooComplex.prefix
    try:
        with zipfile.ZipFile(p) as archive:
            members = archive.infolist()
            names = {m.filename for m in members}
            if "word/document.xml" not in names:
                what = "an OpenDocument file (.odt)" if "content.xml" in names else "a ZIP archive"
                raise ReportReadError(
                    f"{p.name}: {what}, not a Word document or a PDF; ask for the report "
                    "itself as PDF or .docx"
                )
            declared = sum(m.file_size for m in members)
            body = max(m.file_size for m in members if m.filename == "word/document.xml")
            if body > MAX_BODY_XML_BYTES:
                raise ReportTooComplex(
                    f"{p.name}: {too} (its text part unpacks to {body / 2**20:.0f} MiB, more "
                    f"than the {MAX_BODY_XML_BYTES // 2**20} MiB a report's text may; it was "
                    "not read)")
            if declared > MAX_UNPACKED_BYTES or len(members) > MAX_PARTS:
                raise ReportTooComplex(
                    f"{p.name}: {too} (unpacks to {declared / 2**20:.0f} MiB in {len(members)} "
                    f"parts, more than the {MAX_UNPACKED_BYTES // 2**20} MiB a report may; it "
                    "was not read)")
            unpacked = 0
            for member in members:
                cap = (MAX_BODY_XML_BYTES if member.filename == "word/document.xml"
                       else MAX_UNPACKED_BYTES - unpacked)
                size = _inflated_size(archive, member, cap)
                if size != member.file_size:
                    really = (f"more than {cap:,}" if size > cap else f"{size:,}")
                    raise ReportTooComplex(
                        f"{p.name}: {too} ({member.filename} unpacks to {really} bytes, but "
                        f"its zip headers declare {member.file_size:,}: a damaged or crafted "
                        "file; it was not read)")
                unpacked += size
    except ReportReadError:
        raise
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
        raise ReportReadError(f"{p.name}: a damaged zip/Word file ({error})") from error
