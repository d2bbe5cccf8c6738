"""Unpack an LMS zip without trusting it: the zip is student-controlled data.

Refused, with a message naming the member: absolute names, `..` components, drive
letters and backslash tricks (path traversal); symlinks and other non-regular
entries; more than `max_files` members; more than `max_total_bytes` uncompressed;
a member whose compression ratio exceeds `max_ratio` (a zip bomb). Sizes are
checked while reading, not only from the header, since headers can lie.

A class download is many students' uploads in one zip: one student's bad member must
not stop the class. With `refused` (a list), a member refused for itself (its name, its
kind, its size or ratio) is skipped and listed there as (name, why), and the intake
makes it that student's problem; only what concerns the whole zip (not a zip, too many
members, too large in all) still raises. A colon inside a name (`notes: week 3.pdf`)
is no drive letter: only `C:` at the start of a name is.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import time
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

CHUNK = 1 << 16


class UnsafeZip(ValueError):
    """A zip the grader will not unpack; `member` names the entry at fault ('' for the whole)."""

    def __init__(self, member: str, message: str) -> None:
        super().__init__(f"{member}: {message}" if member else message)
        self.member = member


@dataclass(frozen=True)
class ZipLimits:
    max_files: int = 5000
    max_total_bytes: int = 2 << 30
    """2 GiB uncompressed in all."""
    max_member_bytes: int = 512 << 20
    max_ratio: float = 200.0
    """Uncompressed / compressed size above which a member (> 1 MiB) is called a bomb."""


UTF8_FLAG = 0x800
"""General purpose bit 11: the member's name is UTF-8 (APPNOTE 4.4.4)."""


def member_name(info: zipfile.ZipInfo) -> str:
    """The member's name as its author wrote it.

    Without the UTF-8 flag, zipfile decodes names as cp437 (the zip standard's default),
    but Moodle, Canvas and macOS write UTF-8 bytes without setting it, and Windows'
    built-in zipper writes the OEM code page (cp437 in English locales). So: the raw
    bytes are taken back from cp437 and read as UTF-8 when they are valid UTF-8, else
    kept as cp437 (`María`, not `Mar├¡a`). Names are NFC-normalised (macOS writes NFD).
    """
    name = info.filename
    if not info.flag_bits & UTF8_FLAG:
        with contextlib.suppress(UnicodeEncodeError, UnicodeDecodeError):
            name = name.encode("cp437").decode("utf-8")
    return unicodedata.normalize("NFC", name)


DRIVE = re.compile(r"^[A-Za-z]:")
"""A Windows drive letter at the start of a member name (`C:evil`, `C:/x`)."""


def _safe_name(name: str) -> PurePosixPath:
    if "\\" in name or "\x00" in name:
        raise UnsafeZip(name, "backslashes or NUL in a member name")
    path = PurePosixPath(name)
    if path.is_absolute() or DRIVE.match(name):
        raise UnsafeZip(name, "absolute member name")
    if any(part == ".." for part in path.parts):
        raise UnsafeZip(name, "member name leaves the folder (..)")
    return path


def _is_link_or_special(info: zipfile.ZipInfo) -> bool:
    kind = stat.S_IFMT(info.external_attr >> 16)  # 0 when the zip was written without one
    return bool(kind) and kind not in (stat.S_IFREG, stat.S_IFDIR)


def safe_extract(archive: Path, dest: Path, limits: ZipLimits | None = None,
                 refused: list[tuple[str, str]] | None = None) -> list[Path]:
    """Extract `archive` into `dest` (created); returns the files written. With `refused`,
    members refused for themselves are skipped and listed there (name, why)."""
    limits = limits or ZipLimits()
    skipped: set[str] = set()

    def refuse(exc: UnsafeZip, name: str) -> None:
        if refused is None or not exc.member:
            raise exc
        refused.append((name, str(exc).removeprefix(f"{exc.member}: ")))
        skipped.add(name)

    try:
        zf = zipfile.ZipFile(archive)
    except zipfile.BadZipFile as exc:
        raise UnsafeZip("", f"{archive.name} is not a zip file ({exc})") from None
    with zf:
        infos = zf.infolist()
        if len(infos) > limits.max_files:
            raise UnsafeZip("", f"{len(infos)} members, more than the limit of {limits.max_files}")
        declared = 0
        for info in infos:
            name = member_name(info)
            try:
                _safe_name(name)
                if _is_link_or_special(info):
                    raise UnsafeZip(name, "a symlink or special file")
                if info.file_size > (1 << 20) and info.file_size > limits.max_ratio * max(
                        info.compress_size, 1):
                    raise UnsafeZip(name, f"compression ratio above {limits.max_ratio:g}")
                if info.file_size > limits.max_member_bytes:
                    raise UnsafeZip(name, f"larger than the member limit of "
                                    f"{limits.max_member_bytes} bytes")
            except UnsafeZip as exc:
                refuse(exc, name)
                continue
            declared += info.file_size
        if declared > limits.max_total_bytes:
            raise UnsafeZip("", f"{declared} bytes uncompressed, more than the limit of "
                            f"{limits.max_total_bytes}")
        dest.mkdir(parents=True, exist_ok=True)
        root = dest.resolve()
        written, total = [], 0
        for info in infos:
            name = member_name(info)
            if name in skipped:
                continue
            target = (root / _safe_name(name)).resolve()
            if root not in target.parents:
                refuse(UnsafeZip(name, "member name leaves the folder"), name)
                continue
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            size = 0
            if target.exists():
                refuse(UnsafeZip(name, "appears twice in the zip"), name)
                continue
            with zf.open(info) as src, open(target, "xb") as out:
                while chunk := src.read(CHUNK):
                    size += len(chunk)
                    total += len(chunk)
                    if size > limits.max_member_bytes or size > info.file_size:
                        out.close()
                        target.unlink()
                        refuse(UnsafeZip(name, "larger than declared or than the "
                                         f"member limit of {limits.max_member_bytes} bytes"),
                               name)
                        break
                    if total > limits.max_total_bytes:
                        out.close()
                        target.unlink()
                        raise UnsafeZip("", "total uncompressed size over the limit")
                    out.write(chunk)
            if name in skipped:
                continue
            _keep_time(target, info)
            written.append(target)
        return written


def _keep_time(path: Path, info: zipfile.ZipInfo) -> None:
    """The member's time as the zip gives it (an LMS writes the upload time): which of a
    student's notebooks is the newest is read from it."""
    try:
        when = time.mktime((*info.date_time, 0, 0, -1))
        os.utime(path, (when, when))
    except (OverflowError, ValueError, OSError):
        pass
