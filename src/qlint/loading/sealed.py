"""What qlint keeps for this user outside every repository, and the key that seals it.

The per-user key (`$XDG_CACHE_HOME/qlint/key`, else `~/.cache/qlint/key`, 32 random bytes, mode
0600, made on first use) proves that qlint wrote a thing for this user on this machine: the
results cache folder's marker is an HMAC under it (lint/cache_folder.py), and so is every sealed
file here. A sealed file is read only from a folder of this user's that nobody else may write
to, only if it is a regular file of this user's, never through a link, and only if its HMAC
(over its name and bytes) is right: a copied, planted, swapped or torn file reads as missing.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import tempfile
from pathlib import Path

KEY_BYTES = 32
MAC_BYTES = 32  # HMAC-SHA256


class Unavailable(Exception):
    """Why the key cannot be used (one line)."""


def key_path() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "qlint" / "key"


def _read_private(path: Path) -> bytes:
    """A small file of ours that only we can read or write, never through a symlink."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
            raise Unavailable(f"{path} must be a file of yours that only you can read (chmod 600)")
        return os.read(fd, 4096)
    finally:
        os.close(fd)


def user_key() -> bytes:
    """The per-user key, made on first use (O_EXCL: two first runs agree on one)."""
    path = key_path()
    try:
        data = _read_private(path)
    except FileNotFoundError:
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
            try:
                os.write(fd, os.urandom(KEY_BYTES))
            finally:
                os.close(fd)
        except FileExistsError:
            pass
        except OSError as exc:
            raise Unavailable(f"cannot keep the cache key in {path}: {exc.strerror or exc}") from None
        data = _read_private(path)
    except OSError as exc:
        raise Unavailable(f"cannot read the cache key {path}: {exc.strerror or exc}") from None
    if len(data) != KEY_BYTES:
        raise Unavailable(f"{path} is not a qlint cache key; delete it")
    return data


def folder(name: str) -> Path:
    """A folder for sealed files beside the key (not made here)."""
    return key_path().parent / name


def _mac(key: bytes, name: str, data: bytes) -> bytes:
    return hmac.new(key, name.encode("utf-8") + b"\x00" + data, hashlib.sha256).digest()


def _private_folder(path: Path) -> bool:
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & 0o022


def read(where: Path, name: str) -> bytes | None:
    """The bytes `write(where, name, ...)` sealed, or None (missing, not ours, or not sealed by
    this user's key)."""
    if not _private_folder(where):
        return None
    try:
        key = user_key()
        fd = os.open(where / name, os.O_RDONLY | os.O_NOFOLLOW)
    except (OSError, Unavailable):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            blob = fh.read()
    except OSError:
        return None
    finally:
        os.close(fd)
    mac, data = blob[:MAC_BYTES], blob[MAC_BYTES:]
    return data if len(mac) == MAC_BYTES and hmac.compare_digest(mac, _mac(key, name, data)) else None


def write(where: Path, name: str, data: bytes) -> bool:
    """Seal `data` as `where/name` (a private temporary renamed over the name: no link is
    followed); False when it cannot be kept, which only costs the next run the work again."""
    try:
        key = user_key()
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _private_folder(where):
            return False
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", dir=where)  # 0600, O_EXCL
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(_mac(key, name, data) + data)
            os.replace(tmp, where / name)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except (OSError, Unavailable):
        return False
    return True
