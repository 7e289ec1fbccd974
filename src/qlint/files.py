"""Safe file writing: atomic replacement that keeps permissions, batches written all or nothing,
and paths that stay inside a folder.

Every new content goes to a temporary file beside its target, named `.<name>.<random>.qlint-tmp`
(hidden, and no `.yaml` suffix, so discovery never lints it), is fsynced, gets the target's
permission bits, and only then is renamed over the target. A process killed at any moment leaves
each target with its old bytes or its new bytes, never a mix; only a temporary file may be left.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import signal
import stat
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

TEMP_SUFFIX = ".qlint-tmp"
_TEMP_NAME = re.compile(r"^\..+\.[A-Za-z0-9_]{8}" + re.escape(TEMP_SUFFIX) + r"\Z")  # \Z: not before a final newline


class UnsafePathError(ValueError):
    """A path that would leave the folder it must stay in."""


class StaleFile(Exception):
    """Files edited by someone else while qlint wrote them: they keep the author's bytes and
    every other file of the batch was put back. `lost`: files that could not be put back."""

    def __init__(self, paths: list[Path], lost: list[Path] | None = None) -> None:
        self.paths, self.lost = list(paths), list(lost or [])
        super().__init__("; ".join(f"{p}: changed on disk while qlint was writing it" for p in self.paths))


class NotRegularFile(OSError):
    """A target that is a FIFO, a device, a socket or a folder: never renamed over."""


_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


def special_kind(path: str | os.PathLike[str]) -> str | None:
    """What `path` is (links followed) when it exists and is not a regular file, else None."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    return next((name for test, name in _KINDS if test(mode)), None if stat.S_ISREG(mode) else "not a regular file")


def _refuse_special(target: Path) -> None:
    """Replacing by rename would swap a device or FIFO (as root: /dev/null) for a regular file."""
    kind = special_kind(target)
    if kind is not None:
        raise NotRegularFile(errno.EINVAL, f"{kind}, not a regular file; not replacing it", str(target))


def read_only(path: str | os.PathLike[str]) -> str | None:
    """Why the user's file `path` must not be rewritten: its mode has no write bit (a file made
    read-only with chmod 444: checked on the bits, since root may write anything and a rename
    never asks the file), or this user may not write it; None when it may be rewritten."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None
    if not mode & 0o222:
        return f"read-only (mode {mode:04o}); not rewriting it (make it writable, chmod u+w, to let qlint change it)"
    if not os.access(path, os.W_OK):
        return f"not writable by you (mode {mode:04o}); not rewriting it"
    return None


def read_regular(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the regular file `path` (links followed); NotRegularFile for a FIFO or a
    device, which is never opened in a way that could wait for a writer."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as fh:
        kind = next((name for test, name in _KINDS if test(os.fstat(fd).st_mode)), None)
        if kind is not None:
            raise NotRegularFile(errno.EINVAL, f"{kind}, not a regular file; not replacing it", str(path))
        return fh.read()


def is_temp_name(name: str) -> bool:
    """True for the temporary files qlint writes (a killed run may leave some behind)."""
    return bool(_TEMP_NAME.match(name))


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _stage(target: Path, payload: bytes, sync: bool = True) -> Path:
    """Write `payload` to a temporary file beside `target`, fsynced (unless the caller syncs all
    its files at once), with the target's mode (and, where allowed, owner); returns the temporary
    file. Nothing is left behind on failure."""
    _refuse_special(target)
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
            if sync:
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


@dataclass(eq=False)
class _Pending:
    target: Path
    tmp: Path
    create: bool  # a new file: refused if the target exists by then
    before: bytes | None  # the bytes the target must still hold; also what a rollback restores
    payload: bytes  # what qlint writes: the target must still hold it after the batch
    ino: tuple[int, int]  # (device, inode) of the staged file, to know whether a target is still ours
    old: Path | None = None  # the target's previous file, kept under a hidden name until the batch is verified


# Above this many files a batch flushes the file system once before its renames instead of one
# fsync per file: the same guarantee (every new byte is on disk before any target changes), and
# 100,000 files no longer wait on 100,000 flushes (about 3-10 ms each here).
SYNC_ONCE_FROM = 64


class Batch:
    """Several files written all or nothing, as far as a file system allows.

    Phase 1 stages every file (`replace`, `create`): the new bytes are written and fsynced to
    temporary files while no target has changed yet, so a full disk, a missing permission or an
    exception stops the batch with every target untouched (the temporaries and any folders the
    batch created are removed).

    Phase 2 (`commit`) puts the files in place one by one. A file staged with `before` (the bytes
    qlint read) is first hard-linked to a hidden name beside it (its old inode), then the new file
    is renamed over it, then the old inode is compared with `before`: an edit saved before the
    link, or written into the file before the rename, shows there. After the last rename every
    target is read again (it must hold what qlint wrote) and every old inode too (it must still
    hold `before`). Any difference is an edit by someone else: every file is then put back (the
    old inode renamed over qlint's file, only where the target still holds qlint's bytes), so the
    author's bytes stay, and StaleFile names the edited files. A failed rename or an interrupt
    (SIGINT, SIGTERM: deferred while renaming, so no rename is half-recorded) puts everything back
    the same way. The one edit this cannot see is a save that replaces the file (write a new
    file, rename it over) landing between qlint's link and its rename, two consecutive system
    calls. Only a process killed during phase 2 can leave some targets new and others old; each
    of them is still whole, and its old bytes are in a hidden `.qlint-tmp` file beside it.

    Use it as a context manager: leaving the block without `commit` discards everything.
    """

    def __init__(self) -> None:
        self._pending: list[_Pending] = []
        self._targets: set[Path] = set()
        self._made: list[Path] = []  # folders this batch created, removed again if it fails
        self._known: set[Path] = set()  # folders known to exist: one stat each, not one per file
        self._sigterm = None

    def __enter__(self) -> Batch:
        # SIGTERM while staging ends like Ctrl-C (exit 130, temporaries removed), not a silent kill
        if _main_thread() and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            self._sigterm = signal.signal(signal.SIGTERM, _interrupt)
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            if self._pending or exc_type is not None:
                with _deferred_signals() as caught:  # a second Ctrl-C must not cut the cleanup short
                    self.discard()
                if caught and exc_type is None:
                    raise KeyboardInterrupt
        finally:
            if self._sigterm is not None:
                signal.signal(signal.SIGTERM, self._sigterm)
                self._sigterm = None

    def folder(self, path: Path) -> None:
        """Create `path` and its missing parents, remembering them so a failed batch removes them."""
        missing = []
        p = Path(path)
        while p not in self._known and not p.exists() and p != p.parent:
            missing.append(p)
            p = p.parent
        for d in reversed(missing):
            # recorded before it exists: an interrupt between the two must not leave a folder
            # the batch made but does not know of (discard's rmdir skips one never made)
            self._made.append(d)
            try:
                d.mkdir()
            except FileExistsError:
                self._made.remove(d)
        self._known.update(missing)
        self._known.add(Path(path))

    def _add(self, path: Path, payload: bytes, create: bool, before: bytes | None) -> None:
        self.folder(path.parent)
        tmp = _stage(path, payload, sync=len(self._pending) < SYNC_ONCE_FROM)
        st = os.stat(tmp)
        self._pending.append(_Pending(path, tmp, create, before, payload, (st.st_dev, st.st_ino)))
        self._targets.add(path)

    def replace(self, target: str | os.PathLike[str], data: bytes | str, before: bytes | None = None) -> None:
        """Stage new bytes for `target` (created if missing). With `before`, the commit keeps any
        file that no longer holds those bytes (StaleFile) and puts every other file back."""
        path = Path(target)
        if path in self._targets:
            raise FileExistsError(errno.EEXIST, "written twice in one batch", str(path))
        if before is not None and (why := read_only(path)) is not None:  # the user's own file, locked
            raise PermissionError(errno.EACCES, why, str(path))
        self._add(path, _encode(data), False, before)

    def create(self, target: str | os.PathLike[str], data: bytes | str) -> None:
        """Stage a new file; FileExistsError now or at commit if `target` exists."""
        path = Path(target)
        if path in self._targets or os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, "exists; not overwriting it", str(path))
        self._add(path, _encode(data), True, None)

    def commit(self) -> list[Path]:
        """Put every staged file in place; the targets, in staging order. StaleFile (nothing
        written) if a file was edited meanwhile; KeyboardInterrupt (nothing written) on SIGINT or
        SIGTERM; OSError if a rename fails."""
        done: list[_Pending] = []
        if len(self._pending) > SYNC_ONCE_FROM:
            os.sync()  # the files staged without their own fsync
        with _deferred_signals() as caught:
            try:
                edited = self._place(done, caught)
                if not edited and not caught:  # once more, after the last rename
                    edited = [p for p in done if not _verified(p)]
            except BaseException as exc:
                lost = self._rollback(done)
                if lost and not isinstance(exc, KeyboardInterrupt):  # name the files left new
                    raise OSError(getattr(exc, "errno", None) or errno.EIO,
                                  f"{exc}; these files keep the new content: {', '.join(map(str, lost))}") from exc
                raise
            if caught or edited:
                lost = self._rollback(done)
                if caught:
                    raise KeyboardInterrupt
                raise StaleFile([p.target for p in edited], lost)
            # past this point the batch is complete: a signal now is too late to undo anything
            for p in done:
                if p.old is not None:
                    _unlink(p.old)
        for folder in sorted({p.target.parent for p in self._pending}):
            _fsync_dir(folder)
        targets = [p.target for p in self._pending]
        self._pending, self._targets, self._made = [], set(), []
        return targets

    def _place(self, done: list[_Pending], caught: list[int]) -> list[_Pending]:
        """Rename the staged files in, in order; stops at the first edited file (returned)."""
        for p in self._pending:
            if caught:
                return []
            done.append(p)  # before the rename: a rollback checks the inode, so in-flight is fine
            if p.create:
                _link_new(p.tmp, p.target)
            elif p.before is None:
                os.replace(p.tmp, p.target)
            else:
                p.old = _aside(p.target)
                if p.old is None:  # deleted meanwhile: the author's choice, kept
                    return [p]
                os.replace(p.tmp, p.target)
                if _current(p.old) != p.before:
                    return [p]
        return []

    def _rollback(self, done: list[_Pending]) -> list[Path]:
        """Undo the renames already made, keeping any file someone else wrote since; the targets
        that could not be restored."""
        lost = []
        for p in reversed(done):
            try:
                if not _ours(p):  # never renamed, or replaced by someone else since: keep it
                    if p.old is not None:
                        _unlink(p.old)
                elif p.create:
                    os.unlink(p.target)
                elif p.old is not None:
                    os.replace(p.old, p.target)
                elif p.before is not None:
                    atomic_write(p.target, p.before)
                else:
                    lost.append(p.target)
            except OSError:
                lost.append(p.target)
            _unlink(p.tmp)
        placed = {id(p) for p in done}
        self._pending = [p for p in self._pending if id(p) not in placed]
        return lost

    def discard(self) -> None:
        """Remove every staged temporary and the folders this batch created (when empty)."""
        for p in self._pending:
            _unlink(p.tmp)
        self._pending, self._targets = [], set()
        for d in reversed(self._made):
            try:
                # a temporary staged just as an interrupt came (before the batch recorded it)
                # can only be ours in a folder this batch made
                for entry in os.scandir(d):
                    if is_temp_name(entry.name) and entry.is_file(follow_symlinks=False):
                        _unlink(Path(entry.path))
                d.rmdir()
            except OSError:
                pass
        self._made = []


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _interrupt(_signum, _frame) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def _deferred_signals() -> Iterator[list[int]]:
    """While files are being renamed, SIGINT and SIGTERM are only noted (the list fills): the
    commit checks between files and puts everything back, so no rename goes unrecorded."""
    caught: list[int] = []
    if not _main_thread():
        yield caught
        return
    kept = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            kept[sig] = signal.signal(sig, lambda signum, _frame: caught.append(signum))
        yield caught
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)


def _aside(target: Path) -> Path | None:
    """Hard-link `target` to a fresh hidden name beside it (same inode, so an edit written into
    the file later still shows); None if `target` is gone."""
    for _ in range(100):
        name = target.parent / f".{target.name}.{secrets.token_hex(4)[:8]}{TEMP_SUFFIX}"
        try:
            os.link(target, name)
            return name
        except FileExistsError:
            continue
        except FileNotFoundError:
            return None
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target))


def _ours(p: _Pending) -> bool:
    """True if `p.target` is the file qlint staged (its inode) and still holds qlint's bytes."""
    try:
        st = os.stat(p.target)
    except FileNotFoundError:
        return False
    return (st.st_dev, st.st_ino) == p.ino and _current(p.target) == p.payload


def _verified(p: _Pending) -> bool:
    """After the batch: the target still holds what qlint wrote and its old inode what qlint read."""
    if p.before is None:  # exports: qlint's own output, no author to protect
        return True
    return _ours(p) and (p.old is None or _current(p.old) == p.before)


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


def write_output(path: str | os.PathLike[str], data: bytes | str, *, stream: bool = True) -> Path:
    """Replace one output file (an export, a report) atomically, creating its folder; nothing is
    left behind if it fails, and a symlink is followed only within the folder (safe_output).
    A FIFO or a character device (`-o /dev/null`, a pipe) is opened and written, as a shell
    redirection would (with `stream`; else refused, as for a file inside an output folder); any
    other file that is not a regular file is refused. Nothing is ever renamed over either."""
    target = safe_output(path)
    if stream and special_kind(target) in ("a FIFO (named pipe)", "a character device"):
        if write_stream(target, _encode(data)):
            return target
    with Batch() as batch:
        batch.replace(target, data)
        return batch.commit()[0]


def write_stream(target: Path, data: bytes) -> bool:
    """Write `data` into the FIFO or character device `target`; False if it is no longer one. A
    FIFO nobody reads is refused rather than waited on (a shell would hang there)."""
    flags = os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(target, flags)  # no O_CREAT, no O_TRUNC: nothing is made or cut
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise NotRegularFile(errno.ENXIO, "a FIFO (named pipe) that no process is reading; nothing written",
                                 str(target)) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):  # replaced since it was looked at
            return False
        os.set_blocking(fd, True)  # the reader sets the pace from here
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except BrokenPipeError:
        raise NotRegularFile(errno.EPIPE, "the process reading this FIFO stopped before the end", str(target)) from None
    finally:
        os.close(fd)
    return True
