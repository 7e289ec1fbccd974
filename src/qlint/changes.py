"""Rewriting files safely, shared by format, check --fix, shuffle and import.

A change is computed in memory first; then it is shown (--diff), listed (--check) or written
atomically. A file that changed on disk since it was read is left alone.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass
from typing import TextIO

from qlint.files import atomic_write


@dataclass(frozen=True)
class Change:
    path: str  # as shown to the user
    before: bytes
    after: str

    @property
    def changed(self) -> bool:
        return self.after.encode("utf-8") != self.before

    def diff(self) -> str:
        old = self.before.decode("utf-8", errors="replace").splitlines(keepends=True)
        new = self.after.splitlines(keepends=True)
        a, b = (self.path, self.path) if os.path.isabs(self.path) else (f"a/{self.path}", f"b/{self.path}")
        lines = list(difflib.unified_diff(old, new, a, b))
        return "".join(ln if ln.endswith("\n") else ln + "\n\\ No newline at end of file\n" for ln in lines)


class StaleFile(Exception):
    """The file changed on disk after it was read."""


def write(change: Change) -> None:
    """Replace the file's bytes atomically (through a symlink, to the file it points at)."""
    target = os.path.realpath(change.path)
    with open(target, "rb") as fh:
        if fh.read() != change.before:
            raise StaleFile(f"{change.path}: changed on disk while qlint worked on it; not written")
    atomic_write(target, change.after.encode("utf-8"))


def publish(changes: list[Change], mode: str, out: TextIO, err: TextIO, verb: str = "reformatted") -> tuple[int, int]:
    """Show, list or write the changed files. `mode` is 'diff', 'check' or 'write'.
    Returns (files changed or that would change, files that could not be written)."""
    changed = [c for c in changes if c.changed]
    failed = 0
    for c in changed:
        if mode == "diff":
            out.write(c.diff())
        elif mode == "check":
            out.write(f"would be {verb}: {c.path}\n")
        else:
            try:
                write(c)
            except (StaleFile, OSError) as exc:
                failed += 1
                err.write(f"{c.path}: error: {exc}\n" if not isinstance(exc, StaleFile) else f"{exc}\n")
    return len(changed), failed


def create(path: str, data: str, overwrite: bool = False) -> None:
    """Write a new file atomically; FileExistsError if it exists (unless `overwrite`).

    The text goes to a temporary file first and is hard-linked into place, so the target
    appears complete or not at all, and an existing file is never replaced by accident."""
    target = os.path.realpath(path)
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    if overwrite:
        atomic_write(target, data.encode("utf-8"))
        return
    if os.path.lexists(path):
        raise FileExistsError(f"{path} exists; not overwriting it")
    folder = os.path.dirname(target) or "."
    fd, tmp = tempfile.mkstemp(prefix=".qlint-new.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.link(tmp, target)  # fails if the target appeared meanwhile
    except FileExistsError:
        raise FileExistsError(f"{path} exists; not overwriting it") from None
    finally:
        os.unlink(tmp)
