"""Package content: the images one export packages, resolved inside the bank, and deterministic
zip writing."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path
from urllib.parse import quote, unquote

from qlint.exporters.kit.output import check_entry, write_tree
from qlint.exporters.kit.problems import ExportError, Problem, about_output
from qlint.files import UnsafePathError, is_temp_name, write_output
from qlint.markup import _SCHEME
from qlint.media_safety import UnsafeImageError, resolve_media

FIXED_DATE = (1980, 1, 1, 0, 0, 0)


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
            raise ExportError(Problem(question_path, pointer, str(exc), within=ref)) from None
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


def write_package(output: Path, files: dict[str, bytes], as_zip: bool, warnings: list[Problem] | None = None) -> list[Path]:
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
            warnings.append(about_output(output, f"{len(stale)} file{'s' if len(stale) != 1 else ''} this export did not write "
                            f"(e.g. {stale[0]}); the package does not list them: remove them or export to an empty folder"))
    return write_tree(output, files)
