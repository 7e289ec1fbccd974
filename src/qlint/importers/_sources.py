"""The files a SOURCE folder gives an importer, read without leaving that folder.

A received folder is as hostile as a received zip: `q.gift -> ~/.ssh/id_rsa` would put another
file's text into the bank and into the I001 messages that quote it, a FIFO named `q.gift` would
block the import forever. So, like the zip reader (`_package.py`) and `qlint check`
(`loading/reader.py`), a symlink is followed only while it stays inside the folder, and only
regular files are read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from qlint.importers import Importer, SourceError
from qlint.paths import display_path, is_within


def sources(source: Path, imp: Importer, problems: list[tuple[str, str]]) -> list[Path]:
    """The source files to read: `source`, or the files under it with the importer's suffixes.
    Folders that cannot be listed, and symlinked folders that lead out of `source`, go to
    `problems` as (path, message): rglob would skip them in silence."""
    if not (source.is_dir() and imp.reads != "package"):  # a package importer takes the folder as one package
        return [source]
    found = []
    root = source.resolve()

    def refused(exc: OSError) -> None:
        problems.append((str(exc.filename or source), f"cannot list this folder: {exc.strerror or exc}; its files were not imported"))

    for folder, dirs, names in os.walk(source, onerror=refused):  # symlinked folders are not entered
        for d in dirs:  # one that stays inside is walked as itself anyway
            if os.path.islink(Path(folder, d)) and not is_within(Path(folder, d), root):
                problems.append((str(Path(folder, d)), f"{OUTSIDE} to a folder outside {display_path(str(source))}; "
                                                       "qlint does not follow it, nothing under it was read"))
        found += [p for p in map(Path(folder).joinpath, names)
                  if p.suffix.lower() in imp.suffixes and not p.name.startswith(".")]
    return sorted(found)


OUTSIDE = "is a symbolic link"


def read_regular(src: Path, limit: int, within: Path | None, why: str = "") -> bytes:
    """At most `limit` bytes of a regular file; a symlink that leaves `within` (the SOURCE folder),
    a FIFO, a device or a folder is refused before a byte is read (a FIFO would block forever,
    a link out would put another file's text into the bank and into I001 messages)."""
    path = str(src)
    if within is not None:
        path = os.path.realpath(src)
        if not is_within(path, within):
            raise SourceError(f"{OUTSIDE} that leads outside {display_path(str(within))}; qlint does not follow it "
                              "(nothing was read)")
    # O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer; O_NOFOLLOW: the
    # path checked above cannot be swapped for a link between the check and the open.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (getattr(os, "O_NOFOLLOW", 0) if within is not None else 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SourceError("is not a regular file (a pipe, socket, device or folder); not read")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise SourceError(f"larger than {limit:,} bytes{why}; refusing to read it")
    return data
