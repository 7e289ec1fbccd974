"""Safe file writing: atomic replacement that keeps permissions, and paths that stay inside a folder."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


class UnsafePathError(ValueError):
    """A path that would leave the folder it must stay in."""


def atomic_write(path: str | os.PathLike[str], data: bytes | str, encoding: str = "utf-8") -> None:
    """Write to a temporary file in the same folder, fsync, then rename over `path`.

    Either the old bytes or the new bytes are on disk afterwards, never a mix; the file's
    permission bits are kept when it already exists.
    """
    target = Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".qlint-tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


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
