"""Rewriting files safely, shared by format, check --fix, shuffle and import.

A change is computed in memory first; then it is shown (--diff), listed (--check) or written
atomically, all or nothing. If a file is edited on disk while qlint writes (checked right at its
rename and again after the batch: files.Batch), it keeps the author's bytes, the others are put
back, each edited file is reported (A002), and the command exits 2. Problems are Diagnostics,
so every command prints them through the reporters.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from qlint.diagnostic import Diagnostic
from qlint.files import Batch, StaleFile, UnsafePathError, read_only
from qlint.paths import is_within
from qlint.printable import printable
from qlint.rules import reported


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


def target_of(change: Change, root: Path | None) -> Path:
    """The file a change is written to: through a symlink to the file it points at, but only when
    that file is inside the project (`root`); a link that leads out is refused, as the loader does."""
    if root is not None and os.path.islink(change.path) and not is_within(change.path, root.resolve()):
        raise UnsafePathError(f"{change.path}: symbolic link leads outside the project; not written")
    return Path(os.path.realpath(change.path))


def publish(changes: list[Change], mode: str, out: TextIO, verb: str = "reformatted",
            root: Path | None = None) -> tuple[int, list[Diagnostic]]:
    """Show, list or write the changed files. `mode` is 'diff', 'check' or 'write'.

    Writing is all or nothing (files.Batch): if any file cannot be written, none is.
    Returns (files changed or that would change, problems: A002/A003 when nothing was written)."""
    changed = [c for c in changes if c.changed]
    if mode == "diff":
        for c in changed:
            out.write(c.diff())
    elif mode == "check":
        for c in changed:
            out.write(f"would be {verb}: {printable(c.path)}\n")
    elif changed:
        shown: dict[Path, str] = {}  # target -> the path the user gave
        kept = f"nothing was written ({_files(len(changed))} left as they were)"
        locked = [(c.path, why) for c in changed if (why := read_only(c.path)) is not None]
        if locked:  # each file the user made read-only is named; the batch stays all or nothing
            return len(changed), [reported("A003", path, f"{why}; {kept}") for path, why in locked]
        try:
            with Batch() as batch:
                staged: dict[Path, str] = {}
                for c in changed:
                    target = target_of(c, root)
                    if staged.get(target, c.after) != c.after:
                        raise UnsafePathError(f"{c.path}: another path to the same file got a different result")
                    if target in staged:  # a symlink and its target both listed: write once
                        continue
                    staged[target] = c.after
                    shown[target] = c.path
                    try:
                        batch.replace(target, c.after.encode("utf-8"), before=c.before)
                    except OSError as exc:
                        raise OSError(exc.errno, exc.strerror, c.path) from None
                batch.commit()
        except StaleFile as exc:
            problems = [reported("A002", str(shown.get(p, p)), "changed on disk while qlint was writing it; "
                                 f"kept as you left it; {kept}") for p in exc.paths]
            problems += [reported("A002", str(shown.get(p, p)), "could not be put back; it holds qlint's new content")
                         for p in exc.lost]
            return len(changed), problems
        except (UnsafePathError, OSError) as exc:
            path, why = _describe(exc)
            return len(changed), [reported("A003", path, f"{why}; {kept}")]
    return len(changed), []


def _files(n: int) -> str:
    return f"{n} file{'s' if n != 1 else ''}"


def _describe(exc: Exception) -> tuple[str, str]:
    """(the file, why) of a failed write: an OSError names its file; an UnsafePathError says
    `path: why`."""
    if isinstance(exc, OSError) and exc.filename:
        return str(exc.filename), exc.strerror or str(exc)
    path, sep, why = str(exc).partition(": ")
    return (path, why) if sep else (".", str(exc))


def create(path: str, data: str, overwrite: bool = False) -> None:
    """Write a new file atomically; FileExistsError if it exists (unless `overwrite`): the target
    appears complete or not at all, and an existing file is never replaced by accident."""
    with Batch() as batch:
        if overwrite:
            batch.replace(os.path.realpath(path), data)
        else:
            batch.create(path, data)
        batch.commit()


def internal_error(path: str, doing: str, exc: Exception) -> str:
    return f"{path}:1:1: internal error while {doing}: {type(exc).__name__}: {exc}"
