"""Writing export output without losing anyone's files.

A single-file target replaces its file atomically. A folder target (Markdown pages, the HTML site)
writes only into a new or empty folder, or one that an earlier `qlint export` wrote: a marker file
lists what it wrote, so a re-export removes pages of questions that are gone and never deletes
anything else.
"""

from __future__ import annotations

import os
from pathlib import Path

from qlint.files import Batch, UnsafePathError, atomic_write, is_temp_name, safe_join, special_kind, write_output

MARKER = ".qlint-export"


def check_entry(name: str) -> str:
    """A package path as zips and folders hold it: relative, '/'-separated, no '.' or '..' segment,
    no backslash or drive letter (a Windows unzip would follow those out of its folder)."""
    parts = name[:-1].split("/") if name.endswith("/") else name.split("/")
    if not name or name.startswith("/") or "\\" in name or ":" in parts[0] or any(p in ("", ".", "..") for p in parts):
        raise UnsafePathError(f"refusing package path {name!r}: it could leave the package's folder")
    return name


def write_file(path: Path, data: bytes) -> list[Path]:
    if path.is_dir():
        raise ValueError(f"{path} is a folder; give a file name for this format")
    write_output(path, data)
    return [path]


def drop_leftovers(root: Path) -> None:
    """Remove temporary files an interrupted export left in `root` (only qlint's own names)."""
    for folder, dirs, names in os.walk(root):
        for n in names:
            if is_temp_name(n) and not os.path.islink(os.path.join(folder, n)):
                os.unlink(os.path.join(folder, n))


def stage_tree(batch: Batch, root: Path, files: dict[str, bytes]) -> list[Path]:
    """Stage `files` (package path -> bytes) under `root`; every path is checked before anything
    is written, and each must stay inside `root` even through symlinks already there."""
    for name in files:
        check_entry(name)
    batch.folder(root)
    out = []
    for name in sorted(files):
        target = safe_join(root, name.rstrip("/"))
        if name.endswith("/"):  # an (empty) folder entry
            batch.folder(target)
            continue
        if not _holds(target, files[name]):  # an unchanged file keeps its date (rsync, make)
            batch.replace(target, files[name])
        out.append(root / name)
    return out


def _holds(path: Path, data: bytes) -> bool:
    try:
        return path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def write_tree(root: Path, files: dict[str, bytes]) -> list[Path]:
    """The files as a folder (--no-zip): staged first, so a failure leaves the folder as it was."""
    drop_leftovers(root)
    with Batch() as batch:
        written = stage_tree(batch, root, files)
        batch.commit()
    return written


def _previous(root: Path, fmt: str) -> list[str]:
    marker = root / MARKER
    if root.exists() and not root.is_dir():  # a FIFO or a device too: a site cannot be streamed
        raise ValueError(f"{root} is {special_kind(root) or 'a file'}; give a folder for this format")
    if not root.exists() or _only_leftovers(root):
        return []
    if not marker.is_file():
        raise ValueError(f"{root} is not empty and was not written by qlint export; choose a new or empty folder")
    lines = marker.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != f"format: {fmt}":
        raise ValueError(f"{root} holds a different export ({lines[0] if lines else 'unknown'}); choose another folder")
    return lines[1:]


def _only_leftovers(root: Path) -> bool:
    """`root` holds nothing but qlint temporaries and empty folders: what an export interrupted
    while staging into a new folder (or killed) leaves; the next export takes it as new."""
    for folder, dirs, names in os.walk(root):
        if any(os.path.islink(os.path.join(folder, d)) for d in dirs):
            return False
        paths = [os.path.join(folder, n) for n in names]
        if any(not is_temp_name(os.path.basename(p)) or os.path.islink(p) or not os.path.isfile(p) for p in paths):
            return False
    return True


def _marker(fmt: str, names) -> str:
    return "".join(f"{line}\n" for line in [f"format: {fmt}", *sorted(names)])


def write_folder(root: Path, files: dict[str, bytes], fmt: str) -> list[Path]:
    """Write `files` (POSIX relative path -> bytes) under `root`; drop files of the previous export
    that are no longer produced; record the list in the marker.

    Every file is staged before any changes, so a failure (a full disk) leaves the folder as it
    was. The marker lists the old and the new files while they are renamed into place, so even a
    run killed midway leaves no file the next export would not know about."""
    if MARKER in files:
        raise UnsafePathError(f"refusing output path {MARKER!r}")
    previous = _previous(root, fmt)
    stale = set(previous) - set(files)
    drop_leftovers(root)
    with Batch() as batch:
        written = stage_tree(batch, root, files)
        atomic_write(root / MARKER, _marker(fmt, set(previous) | set(files)))
        batch.commit()
    for name in sorted(stale):
        try:
            gone = safe_join(root, name)
            gone.unlink()
        except (FileNotFoundError, UnsafePathError):
            continue
        for folder in gone.parents:  # drop folders the removal emptied, never root itself
            if folder == root.resolve() or any(folder.iterdir()):
                break
            folder.rmdir()
    atomic_write(root / MARKER, _marker(fmt, files))
    return written
