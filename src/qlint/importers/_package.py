"""A content package (a zip or a folder) read without trusting its paths or sizes.

Nothing is ever extracted: files are read into memory by their names inside the package.
Still, a zip that holds an entry with an absolute path or `..` (a "zip slip" archive) is refused
whole before anything is read, a zip whose entries would unpack beyond the size limits (a "zip
bomb") is refused from its directory before anything is decompressed, and every `href` is
resolved inside the package: one that leaves it is refused.
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from qlint.files import UnsafePathError, safe_join
from qlint.importers import SourceError

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)
MiB = 1 << 20


@dataclass(frozen=True)
class PackageLimits:
    max_entry_bytes: int = 64 * MiB  # one file unpacked (a Moodle XML file carries its images in base64)
    max_total_bytes: int = 256 * MiB  # the whole package unpacked
    max_entries: int = 50_000


def unsafe_name(name: str) -> bool:
    """An archive member name that would land outside the folder it is unpacked into."""
    parts = re.split(r"[/\\]", name)
    return name.startswith(("/", "\\")) or bool(re.match(r"^[A-Za-z]:", name)) or ".." in parts


def same_file_key(name: str) -> str:
    """What an unpacker makes of an entry name, case folded: `./a//B.xml`, `a\\b.xml` and `A/b.xml`
    give one key (names with `..` are refused before this)."""
    return posixpath.normpath(name.replace("\\", "/")).lstrip("/").casefold()


class Package:
    def __init__(self, path: Path, limits: PackageLimits = PackageLimits()) -> None:
        self.path, self.limits = path, limits
        self._zip: zipfile.ZipFile | None = None
        self._sizes: dict[str, int] = {}  # a folder's files read so far, by name
        if path.is_dir():
            return
        try:
            self._zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise SourceError(f"not a zip file or a package folder: {exc}") from None
        self._check_zip()

    def _check_zip(self) -> None:
        assert self._zip is not None
        infos = self._zip.infolist()
        if len(infos) > self.limits.max_entries:
            raise SourceError(f"the zip holds {len(infos):,} entries; the limit is {self.limits.max_entries:,}")
        for info in infos:
            if unsafe_name(info.filename):
                raise SourceError(f"zip entry {info.filename!r} points outside the package (an absolute path or '..'); "
                                  "refusing the whole zip, nothing was read")
            if info.flag_bits & 0x1:
                raise SourceError(f"zip entry {info.filename!r} is encrypted")
            if info.file_size > self.limits.max_entry_bytes:
                raise SourceError(f"zip entry {info.filename!r} unpacks to {info.file_size:,} bytes; the limit is "
                                  f"{self.limits.max_entry_bytes:,} per file (a zip bomb?); nothing was read")
        self._check_names(infos)
        total = sum(i.file_size for i in infos)
        if total > self.limits.max_total_bytes:
            raise SourceError(f"the zip unpacks to {total:,} bytes; the limit is {self.limits.max_total_bytes:,} "
                              "(a zip bomb?); nothing was read")

    def _check_names(self, infos: list[zipfile.ZipInfo]) -> None:
        """Two entries for one file: Python's zipfile (and so qlint) reads the last one, other
        readers and unzip tools the first, or ask; a reviewer who lists the zip sees the first. So
        a zip with two entries whose names are the same once `./`, `//` and `\\` are read as an
        unpacker reads them, or the same but for letter case (one file on Windows and macOS), is
        refused whole."""
        seen: dict[str, str] = {}
        for info in infos:
            if info.is_dir():
                continue
            key = same_file_key(info.filename)
            if key in seen:
                first = seen[key]
                what = (f"zip entry {first!r} is in the zip twice" if first == info.filename else
                        f"zip entries {first!r} and {info.filename!r} name the same file (read as an unpacker reads "
                        "'./', '//' and '\\', and with letter case ignored, as on Windows and macOS)")
                raise SourceError(f"{what}; qlint would read one copy and another tool the other, so the whole zip "
                                  "is refused, nothing was read")
            seen[key] = info.filename

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()

    def read(self, name: str) -> bytes:
        """The file's bytes; KeyError if the package has no such file."""
        limit = self.limits.max_entry_bytes
        if self._zip is not None:
            try:
                info = self._zip.getinfo(name)
            except KeyError:
                raise KeyError(name) from None
            try:
                with self._zip.open(info) as fh:
                    data = fh.read(limit + 1)  # the zip module also stops at the declared size and checks the CRC
            except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
                raise SourceError(f"zip entry {name!r} cannot be read ({exc}): the zip is damaged or lies about its sizes") from None
        else:
            try:
                path = safe_join(self.path, name)
            except UnsafePathError as exc:
                raise SourceError(str(exc)) from None
            try:
                info = os.stat(path)
            except FileNotFoundError:
                raise KeyError(name) from None
            if not stat.S_ISREG(info.st_mode):
                raise KeyError(name)
            with open(path, "rb") as fh:
                data = fh.read(limit + 1)
        if len(data) > limit:
            raise SourceError(f"{name} is larger than {limit:,} bytes")
        if self._zip is None:  # a zip's total is checked from its directory; a folder's as it is read
            self._sizes[name] = len(data)
            if sum(self._sizes.values()) > self.limits.max_total_bytes:
                raise SourceError(f"{name}: the package's files come to more than {self.limits.max_total_bytes:,} bytes; "
                                  "refusing to read on")
        return data

    def resolve(self, base: str, href: str, what: str = "href") -> str:
        """The package path `href` names, relative to the package file `base`; SourceError if it leaves the package."""
        target = unquote(href.split("#")[0].split("?")[0])
        if not target or _SCHEME.match(target) or target.startswith(("/", "\\")) or "\\" in target:
            raise SourceError(f"{base}: {what} {href!r} points outside the package; refused")
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(base), target))
        if joined == ".." or joined.startswith("../") or PurePosixPath(joined).is_absolute():
            raise SourceError(f"{base}: {what} {href!r} points outside the package; refused")
        return joined
