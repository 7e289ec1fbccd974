"""Bytes to text: size limit, encodings, byte order marks, NUL bytes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from qlint.loading.errors import LoadError
from qlint.loading.limits import Limits
from qlint.paths import is_within


def read_bytes(path: str, limits: Limits) -> bytes:
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise LoadError("Y010", "is a directory, not a question file")
        if not stat.S_ISREG(info.st_mode):  # a FIFO or device would block or never end
            raise LoadError("Y010", "is not a regular file (a pipe, socket or device)")
        size = info.st_size
        if size > limits.max_file_bytes:
            raise LoadError("Y009", f"file is {size:,} bytes; the limit is {limits.max_file_bytes:,} (max-file-bytes)")
        with open(path, "rb") as fh:
            # Read what stat promised plus a little (a file may grow meanwhile); asking for the
            # whole limit allocated a 1 MB buffer per file, ~0.7 ms each.
            data = fh.read(min(size + 65536, limits.max_file_bytes + 1))
            if len(data) == size + 65536:  # still growing: read on, up to the limit
                data += fh.read(limits.max_file_bytes + 1 - len(data))
    except LoadError:
        raise
    except OSError as exc:
        raise LoadError("Y010", f"cannot read file: {exc.strerror or exc}") from None
    if len(data) > limits.max_file_bytes:
        raise LoadError("Y009", f"file is larger than the limit of {limits.max_file_bytes:,} bytes (max-file-bytes)")
    return data


def read_source(path: str, root: Path, limits: Limits) -> bytes:
    """A bank file's bytes. A symbolic link that leads outside the project (`root`) is refused:
    linting it would echo another file's content, rewriting it would change a file elsewhere."""
    if os.path.islink(path) and not is_within(path, root.resolve()):
        raise LoadError("Y010", "symbolic link leads outside the project; qlint does not follow it")
    return read_bytes(path, limits)


def _position(data: bytes, offset: int) -> tuple[int, int]:
    line = data.count(b"\n", 0, offset) + 1
    col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return line, col


def decode(data: bytes) -> str:
    """UTF-8 text (a UTF-8 BOM is accepted and dropped); anything else is a Y003 diagnostic."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise LoadError("Y003", "file is UTF-16 encoded; save it as UTF-8")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _position(data, exc.start)
        raise LoadError("Y003", f"invalid UTF-8 byte 0x{data[exc.start]:02x}; save the file as UTF-8", line, col) from None
    nul = text.find("\0")
    if nul >= 0:
        line, col = _position(data, len(text[:nul].encode("utf-8")))
        raise LoadError("Y003", "NUL byte in file: this is not a text file", line, col)
    return text
