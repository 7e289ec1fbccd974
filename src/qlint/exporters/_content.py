"""Question text for exports: Markdown -> (X)HTML with raw HTML escaped, XML-forbidden characters
found, images resolved inside the bank, and deterministic zip writing."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from qlint.exporters._output import check_entry, write_tree
from qlint.files import UnsafePathError, is_temp_name, write_output
from qlint.loading.document import document_for
from qlint.loading.errors import LoadError
from qlint.loading.positions import join_pointer
from qlint.markup import _SCHEME, forbidden_char
from qlint.media_safety import UnsafeImageError, resolve_media
from qlint.model import iter_strings

FIXED_DATE = (1980, 1, 1, 0, 0, 0)


class ExportError(ValueError):
    """Input the target cannot carry; the message starts with `path:line:col:`."""


def where(question_path: str, pointer: str, within: str = "") -> str:
    """`path:line:col` of the value at `pointer` in a question file, or of `within` inside it (an
    image path); line 1 if the file cannot be read."""
    try:
        span = document_for(question_path).span(pointer, within=within)  # the text the lint read
    except LoadError:
        return f"{question_path}:1:1"
    return f"{question_path}:{span.line}:{span.col}"


def require_xml_text(question_path: str, data: dict[str, Any]) -> None:
    """Refuse a question holding a character XML 1.0 forbids (lint rule S004), naming file and line.

    XML exporters call this before building anything: with `--force` the lint gate is open, but
    silently dropping characters would change the text, and writing them makes every platform
    reject the whole package.
    """
    for path, text in iter_strings(data):
        offset = forbidden_char(text)
        if offset is not None:
            pointer = join_pointer(path)
            raise ExportError(
                f"{where(question_path, pointer)}: {pointer} holds U+{ord(text[offset]):04X}, a character XML "
                "forbids; remove it (qlint check reports it as S004)"
            )


class MediaSet:
    """The bank's image files one export packages, named `<prefix><path inside the bank>`.

    Names keep the bank's folders, so two questions' `figure.png` never collide, and equal
    input gives equal names (deterministic output).
    """

    def __init__(self, bank_root: Path | None, prefix: str = "images/") -> None:
        self.bank_root = bank_root
        self.prefix = prefix
        self.files: dict[str, Path] = {}

    def add(self, question_path: str, pointer: str, src: str) -> str | None:
        """The package path (URL-quoted) for an image `src` in a question; None for a URL."""
        if _SCHEME.match(src):
            return None
        root = self.bank_root or Path(question_path).parent
        ref = unquote(src)
        try:
            media = resolve_media(question_path, ref, root)
        except (UnsafePathError, FileNotFoundError, UnsafeImageError) as exc:
            raise ExportError(f"{where(question_path, pointer, ref)}: {exc}") from None
        name = self.prefix + media.source.relative_to(os.path.realpath(root)).as_posix()
        self.files[name] = media.source
        return quote(name)

    def read(self) -> dict[str, bytes]:
        return {name: self.files[name].read_bytes() for name in sorted(self.files)}


def write_zip(path: Path, files: dict[str, bytes]) -> None:
    """A zip with entries in sorted order and a fixed timestamp, so equal input gives equal bytes.

    Every entry name is checked first (no `..`, absolute path, backslash or drive: zip slip), the
    zip is built in memory and written atomically: a failed export never leaves half a zip behind.
    """
    for name in files:
        check_entry(name)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            if name.endswith("/"):  # an (empty) folder entry, e.g. Canvas's non_cc_assessments/
                info.compress_type = zipfile.ZIP_STORED
                info.external_attr = (0o40755 << 16) | 0x10
            zf.writestr(info, files[name])
    write_output(path, buffer.getvalue())


def write_package(output: Path, files: dict[str, bytes], as_zip: bool, warnings: list[str] | None = None) -> list[Path]:
    """A package target's files as one deterministic zip, or as a folder (--no-zip).

    A folder is never emptied first (that could delete the user's files); files it already holds
    that this export did not write are reported in `warnings`, since the manifest ignores them.
    """
    if as_zip:
        write_zip(output, files)
        return [output]
    if warnings is not None and output.is_dir():
        stale = sorted(p.relative_to(output).as_posix() for p in output.rglob("*")
                       if p.is_file() and not is_temp_name(p.name) and p.relative_to(output).as_posix() not in files)
        if stale:
            warnings.append(f"{output}: {len(stale)} file{'s' if len(stale) != 1 else ''} this export did not write "
                            f"(e.g. {stale[0]}); the package does not list them: remove them or export to an empty folder")
    return write_tree(output, files)
