"""Whether a cache folder is one qlint made for this user here, and making one safely.

Anything in a checkout can come from a pull request, and a CI cache step restores whatever an
earlier (perhaps hostile) run saved. Data-only rows still let a planted cache say "no findings"
for bytes it knows, so qlint only uses a folder it made itself:

- the folder is not a symlink, is a directory owned by this user, and nobody else may write to it;
- it holds `.qlint-owner`, an HMAC of the folder's inode under a random per-user key kept outside
  any repository (loading/sealed.py: `$XDG_CACHE_HOME/qlint/key`, else `~/.cache/qlint/key`, mode 0600). A committed,
  copied or restored folder has another inode and its author has no key, so it cannot match;
  ownership and permission checks alone cannot tell it apart (git checks it out as ours, 0755);
- the entries qlint opens (the database and its journals, `.gitignore`) are regular files of ours,
  never symlinks.

A folder that fails is left untouched (it may be the user's) and the run goes on without a cache,
after one line saying why. An empty folder of ours is adopted (nothing can be planted in it).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from pathlib import Path

from qlint.files import atomic_write
from qlint.loading import sealed

MARKER = ".qlint-owner"
MARKER_HEAD = "qlint results cache, made for one user on this machine; do not commit or copy it\n"
DB = "cache.sqlite3"
ENTRIES = (DB, f"{DB}-journal", f"{DB}-wal", f"{DB}-shm", ".gitignore", MARKER)


class Refused(Exception):
    """Why a cache folder is not used (one line)."""


def user_key() -> bytes:
    """The per-user key (loading/sealed.py), or `Refused` saying why there is none."""
    try:
        return sealed.user_key()
    except sealed.Unavailable as exc:
        raise Refused(str(exc)) from None


def _seal(info: os.stat_result) -> str:
    return hmac.new(user_key(), f"qlint-cache:{info.st_ino}".encode(), hashlib.sha256).hexdigest()


def _check_folder(folder: Path) -> os.stat_result:
    info = os.lstat(folder)
    if stat.S_ISLNK(info.st_mode):
        raise Refused("it is a symbolic link")
    if not stat.S_ISDIR(info.st_mode):
        raise Refused("it is not a folder")
    if info.st_uid != os.geteuid():
        raise Refused(f"it belongs to another user (uid {info.st_uid})")
    if info.st_mode & 0o022:
        raise Refused("other users may write to it")
    return info


def _check_entries(folder: Path) -> None:
    for name in ENTRIES:
        try:
            info = os.lstat(folder / name)
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"{name} in it is {'a symbolic link' if stat.S_ISLNK(info.st_mode) else 'not a regular file'}")
        if info.st_uid != os.geteuid():
            raise Refused(f"{name} in it belongs to another user (uid {info.st_uid})")


def _claim(folder: Path, info: os.stat_result) -> None:
    """Mark a folder as ours (it is new or empty): the marker and a `.gitignore` of `*`,
    through the atomic write path (a random O_EXCL temporary, renamed: no link is followed)."""
    atomic_write(folder / ".gitignore", "*\n")
    atomic_write(folder / MARKER, f"{MARKER_HEAD}{_seal(info)}\n")


def prepare(folder: Path) -> Path:
    """The verified cache folder, made if missing; `Refused` (one line) if it must not be used."""
    try:
        info = _check_folder(folder)
    except FileNotFoundError:
        try:
            folder.parent.mkdir(parents=True, exist_ok=True)
            os.mkdir(folder, 0o700)  # fails, never follows, if a link appeared meanwhile
            info = _check_folder(folder)
            _claim(folder, info)
        except OSError as exc:
            raise Refused(f"cannot create it: {exc.strerror or exc}") from None
        return folder
    except OSError as exc:
        raise Refused(f"cannot read it: {exc.strerror or exc}") from None
    _check_entries(folder)
    try:
        marker = _read_private_marker(folder / MARKER)
    except FileNotFoundError:
        try:
            empty = not os.listdir(folder)
        except OSError as exc:
            raise Refused(f"cannot read it: {exc.strerror or exc}") from None
        if not empty:
            raise Refused("qlint did not make it for you here (committed to the repository, copied or "
                          "restored from elsewhere?)") from None
        try:
            _claim(folder, info)
        except OSError as exc:
            raise Refused(f"cannot write in it: {exc.strerror or exc}") from None
        return folder
    except OSError as exc:
        raise Refused(f"cannot read its {MARKER}: {exc.strerror or exc}") from None
    if not hmac.compare_digest(marker, f"{MARKER_HEAD}{_seal(info)}\n"):
        raise Refused("qlint did not make it for you here (committed to the repository, copied or "
                      "restored from elsewhere?)")
    return folder


def _read_private_marker(path: Path) -> str:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        return os.read(fd, 4096).decode("utf-8", "replace")
    finally:
        os.close(fd)


def create_db(folder: Path) -> Path:
    """The database path, created empty (0600, O_EXCL, no link followed) if missing."""
    path = folder / DB
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))
    except FileExistsError:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            raise Refused(f"{DB} in it is not a regular file of yours") from None
    return path
