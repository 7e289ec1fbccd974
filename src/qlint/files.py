"""Safe file writing: atomic replacement that keeps permissions, batches written all or nothing,
and paths that stay inside a folder.

Every new content goes to a temporary file beside its target, named `.<name>.<random>.qlint-tmp`
(hidden, and no `.yaml` suffix, so discovery never lints it), is fsynced, gets the target's
permission bits, and only then is renamed over the target. A process killed at any moment leaves
each target with its old bytes or its new bytes, never a mix; only a temporary file may be left.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

TEMP_SUFFIX = ".qlint-tmp"
_TEMP_NAME = re.compile(r"^\..+\.[A-Za-z0-9_]{8}" + re.escape(TEMP_SUFFIX) + r"\Z")  # \Z: not before a final newline


class UnsafePathError(ValueError):
    """A path that would leave the folder it must stay in."""


class StaleFile(Exception):
    """The file changed on disk after it was read."""


def is_temp_name(name: str) -> bool:
    """True for the temporary files qlint writes (a killed run may leave some behind)."""
    return bool(_TEMP_NAME.match(name))


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _stage(target: Path, payload: bytes) -> Path:
    """Write `payload` to a temporary file beside `target`, fsynced, with the target's mode (and,
    where allowed, owner); returns the temporary file. Nothing is left behind on failure."""
    try:
        old = os.stat(target)
        mode, owner = stat.S_IMODE(old.st_mode), (old.st_uid, old.st_gid)
    except FileNotFoundError:
        mode, owner = _new_file_mode(), None
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        if owner is not None and owner != (os.getuid(), os.getgid()):
            # keep the owner and group where allowed: both as root, else a group we belong to
            for uid, gid in (owner, (-1, owner[1])):
                try:
                    os.chown(tmp, uid, gid)
                    break
                except OSError:
                    continue
        os.chmod(tmp, mode)  # after chown, which clears set-id bits
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(path: Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _fsync_dir(folder: Path) -> None:
    """Make the renames in `folder` durable (a power cut after a rename keeps it); best effort."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _encode(data: bytes | str, encoding: str = "utf-8") -> bytes:
    return data.encode(encoding) if isinstance(data, str) else data


def atomic_write(path: str | os.PathLike[str], data: bytes | str, encoding: str = "utf-8") -> None:
    """Write to a temporary file in the same folder, fsync, then rename over `path`.

    Either the old bytes or the new bytes are on disk afterwards, never a mix; the file's
    permission bits are kept when it already exists.
    """
    target = Path(path)
    tmp = _stage(target, _encode(data, encoding))
    try:
        os.replace(tmp, target)
    except BaseException:
        _unlink(tmp)
        raise
    _fsync_dir(target.parent)


@dataclass
class _Pending:
    target: Path
    tmp: Path
    create: bool  # a new file: refused if the target exists by then
    before: bytes | None  # the bytes the target must still hold; also what a rollback restores


class Batch:
    """Several files written all or nothing, as far as a file system allows.

    Phase 1 stages every file (`replace`, `create`): the new bytes are written and fsynced to
    temporary files while no target has changed yet, so a full disk, a missing permission or an
    exception stops the batch with every target untouched (the temporaries and any folders the
    batch created are removed). Phase 2 (`commit`) checks that no target changed meanwhile, then
    renames the temporaries into place. If a rename fails, the files already replaced get their old
    bytes back (when known: `before`), new files are removed. Only a process killed during phase 2
    can leave some targets new and others old; each of them is still whole.

    Use it as a context manager: leaving the block without `commit` discards everything.
    """

    def __init__(self) -> None:
        self._pending: list[_Pending] = []
        self._made: list[Path] = []  # folders this batch created, removed again if it fails

    def __enter__(self) -> Batch:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self._pending or exc_type is not None:
            self.discard()

    def folder(self, path: Path) -> None:
        """Create `path` and its missing parents, remembering them so a failed batch removes them."""
        missing = []
        p = Path(path)
        while not p.exists() and p != p.parent:
            missing.append(p)
            p = p.parent
        for d in reversed(missing):
            try:
                d.mkdir()
            except FileExistsError:
                continue
            self._made.append(d)

    def _staged(self, target: Path) -> bool:
        return any(p.target == target for p in self._pending)

    def replace(self, target: str | os.PathLike[str], data: bytes | str, before: bytes | None = None) -> None:
        """Stage new bytes for `target` (created if missing). With `before`, commit refuses if the
        file no longer holds those bytes (StaleFile), and a failed commit can restore them."""
        path = Path(target)
        if self._staged(path):
            raise FileExistsError(errno.EEXIST, "written twice in one batch", str(path))
        self.folder(path.parent)
        self._pending.append(_Pending(path, _stage(path, _encode(data)), False, before))

    def create(self, target: str | os.PathLike[str], data: bytes | str) -> None:
        """Stage a new file; FileExistsError now or at commit if `target` exists."""
        path = Path(target)
        if os.path.lexists(path) or self._staged(path):
            raise FileExistsError(errno.EEXIST, "exists; not overwriting it", str(path))
        self.folder(path.parent)
        self._pending.append(_Pending(path, _stage(path, _encode(data)), True, None))

    def commit(self) -> list[Path]:
        """Rename every staged file into place; the targets, in staging order."""
        for p in self._pending:
            if p.before is not None and not p.create and _current(p.target) != p.before:
                raise StaleFile(f"{p.target}: changed on disk while qlint worked on it")
        done: list[_Pending] = []
        try:
            for p in self._pending:
                if p.create:
                    _link_new(p.tmp, p.target)
                else:
                    os.replace(p.tmp, p.target)
                done.append(p)
        except BaseException as exc:
            lost = self._rollback(done)
            if lost:  # say which files the failure left with their new content
                raise OSError(getattr(exc, "errno", None) or errno.EIO,
                              f"{exc}; these files keep the new content: {', '.join(map(str, lost))}") from exc
            raise
        for folder in sorted({p.target.parent for p in self._pending}):
            _fsync_dir(folder)
        targets = [p.target for p in self._pending]
        self._pending, self._made = [], []
        return targets

    def _rollback(self, done: list[_Pending]) -> list[Path]:
        """Undo the renames already made; the targets that could not be restored."""
        lost = []
        for p in reversed(done):
            try:
                if p.create:
                    os.unlink(p.target)
                elif p.before is not None:
                    atomic_write(p.target, p.before)
                else:
                    lost.append(p.target)
            except OSError:
                lost.append(p.target)
        self._pending = [p for p in self._pending if p not in done]
        return lost

    def discard(self) -> None:
        """Remove every staged temporary and the folders this batch created (when empty)."""
        for p in self._pending:
            _unlink(p.tmp)
        self._pending = []
        for d in reversed(self._made):
            try:
                d.rmdir()
            except OSError:
                pass
        self._made = []


def _current(path: Path) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return None


def _link_new(tmp: Path, target: Path) -> None:
    """Move `tmp` to `target` only if `target` does not exist (a hard link fails if it does)."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, "exists; not overwriting it", str(target)) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if os.path.lexists(target):  # a file system without hard links: check, then rename
            raise FileExistsError(errno.EEXIST, "exists; not overwriting it", str(target)) from None
        os.replace(tmp, target)
        return
    os.unlink(tmp)


def safe_join(base: str | os.PathLike[str], relative: str) -> Path:
    """`base / relative`, refusing absolute paths, `..` escapes and symlinks that lead outside `base`."""
    if not relative or os.path.isabs(relative) or relative.startswith(("/", "\\")) or ":" in Path(relative).parts[0]:
        raise UnsafePathError(f"{relative!r} is not a relative path inside {base}")
    root = Path(os.path.realpath(base))
    candidate = Path(os.path.realpath(root / relative))
    try:
        candidate.relative_to(root)
    except ValueError:
        raise UnsafePathError(f"{relative!r} leaves {base}") from None
    return candidate


def safe_output(path: str | os.PathLike[str]) -> Path:
    """Where to write the output file `path`: through a symlink only when it stays in the folder
    that holds `path` (a link planted to ~/.bashrc is refused, not followed or replaced)."""
    p = Path(path)
    try:
        return safe_join(p.parent, p.name)
    except UnsafePathError:
        if not os.path.islink(p):
            raise
        raise UnsafePathError(f"{path} is a symbolic link to {os.path.realpath(p)}, outside {p.parent}; "
                              "not writing through it (remove the link or choose another path)") from None


def write_output(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """Replace one output file (an export, a report) atomically, creating its folder; nothing is
    left behind if it fails, and a symlink is followed only within the folder (safe_output)."""
    with Batch() as batch:
        batch.replace(safe_output(path), data)
        return batch.commit()[0]
